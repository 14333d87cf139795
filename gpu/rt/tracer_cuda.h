/**
 * @file tracer_cuda.h
 * @brief What the CUDA point-source tracers (gpu/rt/asora, gpu/rt/mc) share: this
 *        rank's sources copied to the GPU (gpu/rt/tracer_cuda.cu).
 */
#ifndef IONF_TRACER_CUDA_H
#define IONF_TRACER_CUDA_H

#include "core/error.h"
#include "rt/tracer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A rank's grid sources in GPU memory: cells (3 ints each) and photon rates. */
struct tracer_cuda_sources {
  int *ijk;                /*!< device 3 x count */
  double *ndot_per_s;      /*!< device count */
  long long count;         /*!< sources held */
  long long capacity;      /*!< sources the arrays have room for */
};

/** Copy the share `s` to the device (the arrays grow when needed; waits for the copy). */
IONF_NODISCARD ionf_err tracer_cuda_sources_take(struct tracer_cuda_sources *d,
                                                 const struct tracer_sources *s);
void tracer_cuda_sources_free(struct tracer_cuda_sources *d);

#ifdef __cplusplus
}
#endif

#endif
