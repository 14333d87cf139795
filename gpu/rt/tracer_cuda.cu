/**
 * @file tracer_cuda.cu
 * @brief This rank's grid sources on the GPU, for the CUDA point-source tracers.
 */
#include <cuda_runtime.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/rt/tracer_cuda.h"
#include "grid/sources.h"
}

extern "C" void tracer_cuda_sources_free(struct tracer_cuda_sources *d) {
  cudaFree(d->ijk);
  cudaFree(d->ndot_per_s);
  d->ijk = NULL;
  d->ndot_per_s = NULL;
  d->count = d->capacity = 0;
}

extern "C" ionf_err tracer_cuda_sources_take(struct tracer_cuda_sources *d,
                                             const struct tracer_sources *s) {
  d->count = s->count;
  if (d->count > d->capacity || !d->ijk) {
    tracer_cuda_sources_free(d);
    d->count = s->count;
    IONF_CALL(cuda_util_alloc((void **)&d->ijk, 3 * sizeof(int) * (size_t)d->count,
                              "source positions"));
    IONF_CALL(cuda_util_alloc((void **)&d->ndot_per_s, sizeof(double) * (size_t)d->count,
                              "source rates"));
    d->capacity = d->count;
  }
  if (d->count > 0) {
    CUDA_CHECK(cudaMemcpy(d->ijk, s->list->ijk + 3 * s->first, 3 * sizeof(int) * (size_t)d->count,
                          cudaMemcpyHostToDevice),
               "copy of source positions");
    CUDA_CHECK(cudaMemcpy(d->ndot_per_s, s->list->ndot_per_s + s->first,
                          sizeof(double) * (size_t)d->count, cudaMemcpyHostToDevice),
               "copy of source rates");
  }
  return IONF_OK;
}
