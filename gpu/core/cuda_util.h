/**
 * @file cuda_util.h
 * @brief What every CUDA file of ionfront shares: one error check, one device
 *        allocation, one way of finding and choosing a GPU (gpu/core/cuda_util.cu).
 *
 * C-callable (the host code asks for the device count through it); the CUDA_CHECK
 * macro is for .cu files.  A CPU-only build has none of this: callers there use
 * their own `#if IONF_HAVE_CUDA` stand-ins (0 devices).
 */
#ifndef IONF_CUDA_UTIL_H
#define IONF_CUDA_UTIL_H

#include <stddef.h>

#include "core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Record a failed CUDA call: IONF_ERR_GPU_MEM for an allocation failure, else
 * IONF_ERR_GPU, with the rank, `what` was being done, and CUDA's name and text of
 * `cuda_error` (a cudaError_t).  Clears a non-sticky error.  Returns the code.
 */
ionf_err cuda_util_fail(int cuda_error, const char *what);

/**
 * cudaMalloc of `bytes` (at least 1) into *ptr; on failure *ptr = NULL and
 * IONF_ERR_GPU_MEM naming the size, `what` it was for and the memory free.
 */
IONF_NODISCARD ionf_err cuda_util_alloc(void **ptr, size_t bytes, const char *what);

/** Usable CUDA devices (0 without a driver or device; the error is cleared). */
int cuda_util_device_count(void);

/**
 * Make device (local_rank mod the device count) current for this process and return
 * it; -1 when there is no device or it cannot be made current (error cleared).
 */
int cuda_util_select_device(int local_rank);

/**
 * The free and total memory of device (local_rank mod the device count), in bytes
 * (cudaMemGetInfo; the current device is left as found -- with CUDA 12 making a device
 * current creates its context, so a caller on another device than its GPU gets a context
 * there: the command line makes the rank's GPU current first).  IONF_ERR_UNSUPPORTED
 * without a device or CUDA.
 */
IONF_NODISCARD ionf_err cuda_util_memory_info(int local_rank, size_t *free_bytes,
                                              size_t *total_bytes);

/**
 * Bind this process to the cores nearest `device` (hwloc), within whatever binding the
 * launcher already gave it; says what it did in `note`.  A process-wide change: the
 * library never calls it, the command line does (a program's choice).
 */
void cuda_util_bind_near_device(int device, char *note, size_t size);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/** In a function returning ionf_err: on a failed CUDA call, record it and return. */
#define CUDA_CHECK(expr, what)                           \
  do {                                                   \
    cudaError_t cuda_check_err_ = (expr);                \
    if (cuda_check_err_ != cudaSuccess) {                \
      ionf_error_trace(__func__, __FILE__, __LINE__);    \
      return cuda_util_fail((int)cuda_check_err_, (what)); \
    }                                                    \
  } while (0)
#endif

#endif /* IONF_CUDA_UTIL_H */
