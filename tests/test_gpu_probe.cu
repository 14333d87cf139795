/**
 * @file test_gpu_probe.cu
 * @brief The one GPU detection of the tests (CUDA build): cudaGetDeviceCount, with
 *        the CUDA error string when it fails (a broken driver is not "no GPU").
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "test_util.h"

extern "C" int test_gpu_probe(char *why, size_t size) {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    snprintf(why, size, "cudaGetDeviceCount: %s (%s)", cudaGetErrorString(err),
             cudaGetErrorName(err));
    cudaGetLastError(); /* clear the sticky error */
    return 0;
  }
  if (n == 0) snprintf(why, size, "cudaGetDeviceCount found 0 devices");
  else snprintf(why, size, "%d CUDA device(s)", n);
  return n;
}
