/**
 * @file cuda_util.cu
 * @brief The CUDA error record, device allocation and device choice of every GPU file.
 */
#include <cuda_runtime.h>
#include <hwloc.h>
#include <hwloc/cudart.h>

#include <stdio.h>
#include <stdlib.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "mpi/comm.h"
}

extern "C" ionf_err cuda_util_fail(int cuda_error, const char *what) {
  cudaError_t err = (cudaError_t)cuda_error;
  cudaGetLastError(); /* clear a non-sticky error */
  ionf_err code = err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU;
  return ionf_error_set(code, "rank %d: CUDA %s failed: %s (%s)", comm_rank(), what,
                        cudaGetErrorName(err), cudaGetErrorString(err));
}

extern "C" ionf_err cuda_util_alloc(void **ptr, size_t bytes, const char *what) {
  *ptr = NULL;
  cudaError_t err = cudaMalloc(ptr, bytes ? bytes : 1);
  if (err == cudaSuccess) return IONF_OK;
  cudaGetLastError();
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  *ptr = NULL;
  return ionf_error_set(IONF_ERR_GPU_MEM,
                        "rank %d: GPU out of memory allocating %.3f GB for %s "
                        "(%.3f GB free of %.3f GB); use a smaller grid or raytracing.R_max, "
                        "or more GPUs",
                        comm_rank(), (double)bytes / 1e9, what, (double)free_b / 1e9,
                        (double)total_b / 1e9);
}

extern "C" int cuda_util_device_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
}

extern "C" int cuda_util_select_device(int local_rank) {
  int count = cuda_util_device_count();
  if (count <= 0) return -1;
  int device = local_rank % count;
  if (cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return device;
}

extern "C" ionf_err cuda_util_memory_info(int local_rank, size_t *free_bytes,
                                          size_t *total_bytes) {
  *free_bytes = *total_bytes = 0;
  int count = cuda_util_device_count(), previous = 0;
  if (count <= 0) return ionf_error_set(IONF_ERR_UNSUPPORTED, "GPU memory: no CUDA device");
  if (cudaGetDevice(&previous) != cudaSuccess) previous = 0;
  cudaError_t err = cudaSetDevice(local_rank % count);
  if (err == cudaSuccess) err = cudaMemGetInfo(free_bytes, total_bytes);
  cudaSetDevice(previous);
  if (err != cudaSuccess) return cuda_util_fail((int)err, "the GPU's free memory (cudaMemGetInfo)");
  return IONF_OK;
}

extern "C" void cuda_util_bind_near_device(int device, char *note, size_t size) {
  snprintf(note, size, "cores unchanged");
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return;
  }
  hwloc_cpuset_t near = hwloc_bitmap_alloc(), mine = hwloc_bitmap_alloc();
  if (near && mine && hwloc_cudart_get_device_cpuset(topo, device, near) == 0 &&
      hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) == 0) {
    hwloc_bitmap_and(near, near, mine);
    if (!hwloc_bitmap_iszero(near) && !hwloc_bitmap_isequal(near, mine) &&
        hwloc_set_cpubind(topo, near, HWLOC_CPUBIND_PROCESS) == 0) {
      char *list = NULL;
      hwloc_bitmap_list_asprintf(&list, near);
      snprintf(note, size, "bound to the GPU's cores %s", list ? list : "?");
      free(list);
    } else if (!hwloc_bitmap_iszero(near)) {
      snprintf(note, size, "already on the GPU's cores");
    }
  }
  hwloc_bitmap_free(near);
  hwloc_bitmap_free(mine);
  hwloc_topology_destroy(topo);
}
