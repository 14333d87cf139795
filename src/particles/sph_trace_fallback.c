/**
 * @file sph_trace_fallback.c
 * @brief Stand-ins for the particle tracer's functions (src/sph_trace.h) in a
 *        tree that does not have them yet (CMake defines
 *        IONF_HAVE_SPH_TRACE_CPU / _CUDA from the presence of
 *        src/sph_trace_cpu.c and gpu/sph_trace.cu): each says so and fails.
 *        Once both files are in, this file compiles to nothing.
 */
#include "particles/sph_trace.h"

#if !IONF_HAVE_SPH_TRACE_CPU
ionf_err sph_trace_cpu(const struct sph_trace_input *in, struct sph_trace_output *out,
                       struct sph_trace_stats *stats) {
  (void)in, (void)out, (void)stats;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "the particle ray tracer (src/sph_trace_cpu.c) is not in this build");
}
#endif

#if !IONF_HAVE_SPH_TRACE_CUDA
ionf_err sph_trace_cuda(const struct sph_trace_input *in, struct sph_trace_output *out,
                        struct sph_trace_stats *stats) {
  (void)in, (void)out, (void)stats;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "the CUDA particle ray tracer (gpu/sph_trace.cu) is not in this build");
}

void sph_trace_cuda_release(void) {}

void sph_trace_cuda_pin_host(void *p, size_t bytes) {
  (void)p;
  (void)bytes;
}
#endif

/* ISO C: a translation unit is not empty */
typedef int sph_trace_fallback_unused;
