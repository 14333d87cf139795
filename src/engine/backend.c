/**
 * @file backend.c
 * @brief Choosing a backend (the implementations: backend_cpu.c, gpu/backend_cuda.cu).
 */
#include "engine/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ionf_config.h"

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
