/**
 * @file test_mc_gpu_host.c
 * @brief Host side of test_mc_gpu.cu, compiled by the C compiler: Random123's
 *        philox4x32 as the CPU path uses it (mc_k.h outside nvcc).
 */
#include <stdint.h>

#include "rt/mc/mc_k.h"

void mc_test_host_philox(const uint32_t *counter, const uint32_t *key, uint32_t *out) {
  mc_philox4x32_10(counter, key, out);
}
