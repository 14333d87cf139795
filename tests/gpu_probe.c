/**
 * @file gpu_probe.c
 * @brief The GPU detection of the shell and Python tests (tests/test_util.h's
 *        test_gpu_probe): exit 0 when a CUDA device is usable (prints how many), 77
 *        when not, 1 when not and IONFRONT_REQUIRE_GPU=1.  The reason (the CUDA error
 *        string) is printed either way.
 */
#include "test_util.h"

int main(void) {
  char why[256];
  int n = test_gpu_probe(why, sizeof why);
  if (n > 0) {
    printf("%d\n", n);
    return 0;
  }
  return test_gpu_skip(why);
}
