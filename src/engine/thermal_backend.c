/**
 * @file thermal_backend.c
 * @brief The thermal solve on the CPU or the GPU (thermal_backend.h).
 */
#include "engine/thermal_backend.h"

#include <stdio.h>

#include "core/ionf_config.h"
#include "gpu/core/cuda_util.h"
#include "mpi/comm.h"
#if defined(IONF_HAVE_THERMAL_CUDA)
#include "gpu/thermal/thermal_cuda.h"
#endif

int thermal_backend_cuda_built(void) {
#if defined(IONF_HAVE_THERMAL_CUDA)
  return 1;
#else
  return 0;
#endif
}

ionf_err thermal_backend_choose(enum backend_kind asked, enum backend_kind *used, char *why,
                                size_t why_size) {
  int gpus = cuda_util_device_count();
  if (asked == BACKEND_CPU) {
    *used = BACKEND_CPU;
    snprintf(why, why_size, "cpu (OpenMP; raytracing.backend = cpu)");
    return IONF_OK;
  }
  if (asked == BACKEND_AUTO && !(thermal_backend_cuda_built() && gpus > 0)) {
    *used = BACKEND_CPU;
    snprintf(why, why_size, "cpu (OpenMP; auto: %s)",
             !IONF_HAVE_CUDA              ? "this ionfront was built without CUDA"
             : !thermal_backend_cuda_built() ? "this build has no thermal CUDA solver"
                                             : "no GPU visible");
    return IONF_OK;
  }
  IONF_CHECK(IONF_HAVE_CUDA, IONF_ERR_UNSUPPORTED,
             "raytracing.backend = cuda, but this ionfront was built without CUDA (configure "
             "with -DIONFRONT_CUDA=ON, or use raytracing.backend: cpu)");
  IONF_CHECK(thermal_backend_cuda_built(), IONF_ERR_UNSUPPORTED,
             "raytracing.backend = cuda, but this build has no thermal CUDA solver "
             "(gpu/thermal/thermal_cuda.cu); use raytracing.backend: cpu");
  IONF_CHECK(gpus > 0, IONF_ERR_GPU,
             "raytracing.backend = cuda, but no GPU is visible on rank %d (%s)", comm_rank(),
             comm_host_name());
  int device = cuda_util_select_device(comm_local_rank());
  IONF_CHECK(device >= 0, IONF_ERR_GPU, "rank %d: cannot make a GPU current", comm_rank());
  *used = BACKEND_CUDA;
  snprintf(why, why_size, "cuda (GPU %d of %d%s)", device, gpus,
           asked == BACKEND_AUTO ? "; auto" : "");
  return IONF_OK;
}

ionf_err thermal_backend_solve(enum backend_kind used, const struct thermal_setup *s,
                               const struct thermal_fields *f, const struct thermal_range *r,
                               struct thermal_result *out, int device_pointers) {
  if (used == BACKEND_CUDA) {
#if defined(IONF_HAVE_THERMAL_CUDA)
    return thermal_solve_cuda(s, f, r, out, device_pointers);
#else
    return ionf_error_set(IONF_ERR_UNSUPPORTED,
                          "the thermal CUDA solver is not in this build (use the cpu backend)");
#endif
  }
  IONF_CHECK(used == BACKEND_CPU, IONF_ERR_INTERNAL, "thermal backend %d not chosen", (int)used);
  IONF_CHECK(!device_pointers, IONF_ERR_USAGE,
             "GPU (device) arrays given to a thermal solver on the cpu backend: device memory "
             "needs raytracing.backend: cuda (or auto with a GPU), else pass host arrays");
  return thermal_solve_cpu(s, f, r, out);
}
