/**
 * @file bvh_build.h
 * @brief The particle BVH built on the GPU (gpu/bvh_build.cu): the same tree
 *        as bvh_build_cpu (src/bvh.h), bit for bit, from the shared rules of
 *        src/bvh_k.h.
 *
 * Stages (one CUDA stream): Morton keys; CUB radix sort of (key, index) pairs
 * over the 63 key bits; gather of the particles into sorted order and the
 * merge distances; the particle-level climb (one thread per particle,
 * atomicExch hand-offs, the second to arrive carries on) marking leaf starts;
 * a CUB scan listing the leaves; the leaf-level climb fitting boxes into the
 * two-box nodes.
 *
 * Two ways to call it: bvh_build_cuda (src/particles/bvh.h: host arrays in, host tree
 * out), or a bvh_cuda context that keeps device buffers between builds (upload, build,
 * download), which the benchmark times stage by stage.
 */
#ifndef IONF_BVH_BUILD_H
#define IONF_BVH_BUILD_H

#include <stdint.h>

#include "particles/bvh.h"
#include "core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Milliseconds of each stage of the last build (CUDA events). */
struct bvh_cuda_times {
  float keys_ms, sort_ms, gather_ms, leaves_ms, nodes_ms;
  float build_ms; /*!< all stages, device-resident input and output */
};

struct bvh_cuda;

/** Device buffers for up to `capacity` particles. */
IONF_NODISCARD ionf_err bvh_cuda_create(int64_t capacity, struct bvh_cuda **out);
/** Host particles -> device (n <= capacity). */
IONF_NODISCARD ionf_err bvh_cuda_upload(struct bvh_cuda *b, const double *pos, const double *h,
                                        int64_t n);
/** Build the tree of the uploaded particles in the scene box (required). */
IONF_NODISCARD ionf_err bvh_cuda_build(struct bvh_cuda *b, const struct bvh_scene *scene,
                                       int max_leaf, struct bvh_cuda_times *times);
/** The last built tree -> host (`out` is overwritten; free with bvh_free). */
IONF_NODISCARD ionf_err bvh_cuda_download(struct bvh_cuda *b, struct bvh *out);
void bvh_cuda_destroy(struct bvh_cuda *b);

#ifdef __cplusplus
}
#endif

#endif /* IONF_BVH_BUILD_H */
