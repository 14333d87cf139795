/**
 * @file backend_cuda.cu
 * @brief CUDA backend (placeholder until the GPU issue): device discovery, and
 *        a check that the shared *_k.h maths compiles and runs on the device.
 *        Ray tracing and chemistry kernels arrive with the GPU backend; until
 *        then asking for 'cuda' explains that and 'auto' uses the CPU.
 */
#include <cuda_runtime.h>

extern "C" {
#include "backend.h"
#include "asora_k.h"
#include "chem_k.h"
#include "photo_k.h"
}

extern "C" int rt_backend_cuda_device_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
}

extern "C" ionf_err rt_backend_create_cuda(struct rt_backend **out) {
  *out = NULL;
  if (rt_backend_cuda_device_count() == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED,
                          "backend 'cuda' asked for, but no CUDA device is visible "
                          "(check CUDA_VISIBLE_DEVICES and nvidia-smi, or use backend: cpu)");
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "backend 'cuda': the GPU ray tracer and chemistry are not in this "
                        "version yet; use backend: cpu or auto");
}
