/**
 * @file sph_trace.cu
 * @brief The particle tracer on the GPU (placeholder until the CUDA path
 *        lands: reports IONF_ERR_UNSUPPORTED, so callers fall back to the CPU).
 */
extern "C" {
#include "error.h"
#include "sph_trace.h"
}

extern "C" ionf_err sph_trace_cuda(const struct sph_trace_input *in, struct sph_trace_output *out,
                                   struct sph_trace_stats *stats) {
  (void)in;
  (void)out;
  (void)stats;
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "sph_trace_cuda: the CUDA tracer is not built yet");
}

extern "C" void sph_trace_cuda_release(void) {}
