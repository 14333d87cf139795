/**
 * @file test_gpu_probe_none.c
 * @brief The one GPU detection of the tests in a CPU-only build: no GPU, and why.
 */
#include <stdio.h>

#include "test_util.h"

int test_gpu_probe(char *why, size_t size) {
  snprintf(why, size, "a CPU-only build (IONFRONT_CUDA=OFF)");
  return 0;
}
