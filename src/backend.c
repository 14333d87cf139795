/**
 * @file backend.c
 * @brief Choosing a backend, and the CPU implementation of the ops table.
 */
#include "backend.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ionf_config.h"

static ionf_err cpu_trace(struct rt_backend *be, const struct trace_input *in, double *gamma_out,
                          struct trace_stats *stats) {
  int64_t cells = grid_cells(in->grid.n);
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) gamma_out[c] = 0.0;
  return asora_cpu_trace(in, gamma_out, stats, (struct asora_cpu_workspace *)be->impl);
}

static ionf_err cpu_chemistry(struct rt_backend *be, const struct chem_input *in,
                              struct chem_state *state, struct chem_pass_result *result) {
  return chem_cpu_pass(in, state, result);
}

static void cpu_destroy(struct rt_backend *be) {
  if (be->impl) asora_cpu_workspace_free(be->impl);
  free(be->impl);
  free(be);
}

ionf_err rt_backend_create_cpu(struct rt_backend **out) {
  struct rt_backend *be = ionf_calloc(1, sizeof *be, "the CPU backend");
  if (!be) return IONF_ERR_MEM;
  be->impl = ionf_calloc(1, sizeof(struct asora_cpu_workspace), "the CPU workspace");
  if (!be->impl) {
    free(be);
    return IONF_ERR_MEM;
  }
  be->type_name = "cpu";
  be->ops.trace = cpu_trace;
  be->ops.chemistry = cpu_chemistry;
  be->ops.destroy = cpu_destroy;
  snprintf(be->description, sizeof be->description, "CPU, %d OpenMP thread(s)",
           omp_get_max_threads());
  *out = be;
  return IONF_OK;
}

#if !IONF_HAVE_CUDA
int rt_backend_cuda_device_count(void) { return 0; }
ionf_err rt_backend_create_cuda(struct rt_backend **out) {
  *out = NULL;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "backend 'cuda' asked for, but this ionfront was built without CUDA "
                        "(rebuild with nvcc on the PATH, or use backend: cpu)");
}
#endif

ionf_err rt_backend_create(enum backend_kind kind, struct rt_backend **out) {
  *out = NULL;
  switch (kind) {
    case BACKEND_CPU:
      return rt_backend_create_cpu(out);
    case BACKEND_CUDA:
      return rt_backend_create_cuda(out);
    case BACKEND_AUTO:
      if (rt_backend_cuda_device_count() > 0) {
        ionf_err rc = rt_backend_create_cuda(out);
        /* A CUDA backend that cannot start yet (GPU path not built) falls back to CPU. */
        if (rc == IONF_OK) return rc;
        if (rc != IONF_ERR_UNSUPPORTED) return rc;
        /* Say why the GPU that is present is not used. */
        char why[200];
        snprintf(why, sizeof why, "%s", ionf_error_message());
        ionf_error_clear();
        IONF_CALL(rt_backend_create_cpu(out));
        size_t used = strlen((*out)->description);
        snprintf((*out)->description + used, sizeof (*out)->description - used,
                 " (auto: a GPU is present but not used: %s)", why);
        return IONF_OK;
      }
      return rt_backend_create_cpu(out);
  }
  return ionf_error_set(IONF_ERR_INTERNAL, "unknown backend kind %d", (int)kind);
}

void rt_backend_destroy(struct rt_backend *be) {
  if (be && be->ops.destroy) be->ops.destroy(be);
}
