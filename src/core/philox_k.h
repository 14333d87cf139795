/**
 * @file philox_k.h
 * @brief Counter-based random numbers shared by host and device: Philox4x32-10
 *        (Salmon et al. 2011), a pure function of (key, counter), and the map of its
 *        32-bit words to uniforms in (0, 1).
 *
 * On the device it is cuRAND's curand_Philox4x32_10, on the host Random123's philox4x32:
 * the same bits (tests/test_mc_gpu.cu).  Every Monte Carlo concept (rt/mc's packets,
 * thermal's rays) builds its own counter and key and calls philox_4x32_10.
 */
#ifndef IONF_PHILOX_K_H
#define IONF_PHILOX_K_H

#include <stdint.h>

#include "core/ionf_hd.h"

/* cuRAND's Philox in device code, Random123's in host code (also in the host pass of
   .cu files, where nvcc would otherwise make it device-only; the two headers cannot
   share a pass: both define mulhilo32).  C++ headers: kept out of the extern "C"
   blocks that .cu files put around this header. */
#ifdef __cplusplus
extern "C++" {
#endif
#ifdef __CUDA_ARCH__
#include <curand_philox4x32_x.h>
#else
#if defined(__CUDACC__) && !defined(R123_CUDA_DEVICE)
#define R123_CUDA_DEVICE
#endif
#include <Random123/philox.h>
#endif
#ifdef __cplusplus
}
#endif

/** One Philox4x32-10 block: out = philox(counter, key). */
IONF_HD IONF_INLINE void philox_4x32_10(const uint32_t counter[4], const uint32_t key[2],
                                        uint32_t out[4]) {
#ifdef __CUDA_ARCH__
  uint4 c;
  uint2 k;
  c.x = counter[0];
  c.y = counter[1];
  c.z = counter[2];
  c.w = counter[3];
  k.x = key[0];
  k.y = key[1];
  uint4 r = curand_Philox4x32_10(c, k);
  out[0] = r.x;
  out[1] = r.y;
  out[2] = r.z;
  out[3] = r.w;
#else
  philox4x32_ctr_t c;
  philox4x32_key_t k;
  for (int i = 0; i < 4; ++i) c.v[i] = counter[i];
  k.v[0] = key[0];
  k.v[1] = key[1];
  philox4x32_ctr_t r = philox4x32(c, k);
  for (int i = 0; i < 4; ++i) out[i] = r.v[i];
#endif
}

/** 32 random bits -> a uniform number in (0, 1) (never 0 or 1: safe for logs). */
IONF_HD IONF_INLINE double philox_uniform(uint32_t bits) {
  return ((double)bits + 0.5) * (1.0 / 4294967296.0);
}

#endif /* IONF_PHILOX_K_H */
