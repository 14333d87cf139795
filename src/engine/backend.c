/**
 * @file backend.c
 * @brief Choosing a backend (the implementations: backend_cpu.c,
 *        gpu/engine/backend_cuda.cu) and what both share.
 */
#include "engine/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ionf_config.h"
#include "gpu/core/cuda_util.h"

#if !IONF_HAVE_CUDA
ionf_err backend_create_cuda(int local_rank, struct backend **out) {
  *out = NULL;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "backend 'cuda' asked for, but this ionfront was built without CUDA "
                        "(rebuild with nvcc on the PATH, or use backend: cpu)");
}
#endif

double *backend_field_array(const struct fields *f, unsigned bit) {
  switch (bit) {
    case FIELD_N_H: return f->n_h_cm3;
    case FIELD_X: return f->x_ion;
    case FIELD_X_AV: return f->x_ion_av;
    case FIELD_X_END: return f->x_ion_end;
    case FIELD_T: return f->temperature_k;
    case FIELD_GAMMA: return f->gamma_per_s;
    case FIELD_T_AV: return f->temperature_av_k;
    case FIELD_T_END: return f->temperature_end_k;
    case FIELD_HEAT: return f->heating_erg_per_s;
    default: return NULL;
  }
}

int backend_step_copies(const struct fields *f, int at_end, double **dst, const double **src,
                        int64_t *count) {
  int n = 0, thermal = f->temperature_av_k != NULL;
  if (at_end) {
    dst[n] = f->x_ion, src[n] = f->x_ion_end, count[n++] = f->cells * f->n_species;
    if (thermal) dst[n] = f->temperature_k, src[n] = f->temperature_end_k, count[n++] = f->cells;
    return n;
  }
  dst[n] = f->x_ion_av, src[n] = f->x_ion, count[n++] = f->cells * f->n_species;
  dst[n] = f->x_ion_end, src[n] = f->x_ion, count[n++] = f->cells * f->n_species;
  if (thermal) {
    dst[n] = f->temperature_av_k, src[n] = f->temperature_k, count[n++] = f->cells;
    dst[n] = f->temperature_end_k, src[n] = f->temperature_k, count[n++] = f->cells;
  }
  return n;
}

ionf_err backend_create(enum backend_kind kind, int local_rank, struct backend **out) {
  *out = NULL;
  switch (kind) {
    case BACKEND_CPU:
      return backend_create_cpu(out);
    case BACKEND_CUDA:
      return backend_create_cuda(local_rank, out);
    case BACKEND_AUTO:
      if (cuda_util_device_count() > 0) {
        ionf_err rc = backend_create_cuda(local_rank, out);
        /* A CUDA backend that cannot start yet (GPU path not built) falls back to CPU. */
        if (rc == IONF_OK) return rc;
        if (rc != IONF_ERR_UNSUPPORTED) return rc;
        /* Say why the GPU that is present is not used. */
        char why[200];
        snprintf(why, sizeof why, "%s", ionf_error_message());
        ionf_error_clear();
        IONF_CALL(backend_create_cpu(out));
        size_t used = strlen((*out)->description);
        snprintf((*out)->description + used, sizeof (*out)->description - used,
                 " (auto: a GPU is present but not used: %s)", why);
        return IONF_OK;
      }
      return backend_create_cpu(out);
  }
  return ionf_error_set(IONF_ERR_INTERNAL, "unknown backend kind %d", (int)kind);
}

void backend_destroy(struct backend *be) {
  if (be && be->ops.destroy) be->ops.destroy(be);
}
