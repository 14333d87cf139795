/**
 * @file cuda_none.c
 * @brief gpu/core/cuda_util.h in a build without CUDA (-DIONFRONT_CUDA=OFF): no device
 *        is ever visible, so host code asks the same functions in every build.
 */
#include <stdio.h>

#include "gpu/core/cuda_util.h"

ionf_err cuda_util_fail(int cuda_error, const char *what) {
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "%s: this ionfront was built without CUDA", what);
}

ionf_err cuda_util_alloc(void **ptr, size_t bytes, const char *what) {
  *ptr = NULL;
  return cuda_util_fail(0, what);
}

int cuda_util_device_count(void) { return 0; }

int cuda_util_select_device(int local_rank) { return -1; }

ionf_err cuda_util_memory_info(int local_rank, size_t *free_bytes, size_t *total_bytes) {
  (void)local_rank;
  *free_bytes = *total_bytes = 0;
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "GPU memory: this ionfront was built without CUDA");
}

void cuda_util_bind_near_device(int device, char *note, size_t size) {
  snprintf(note, size, "cores unchanged (no CUDA)");
}
