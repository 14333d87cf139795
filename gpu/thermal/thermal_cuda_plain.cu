/**
 * @file thermal_cuda_plain.cu
 * @brief The ERMC kernel with plain loads of the tables (no read-only data cache), for
 *        the measurement of the seed's texture-memory acceleration (thermal_cuda.h).
 */
#include <cuda_runtime.h>

#define THERMAL_LOAD(p) (*(p))
#define THERMAL_CUDA_KERNEL thermal_cuda_kernel_plain
extern "C" {
#include "thermal/thermal.h"
}
#include "gpu/thermal/thermal_cuda_kernel.cuh"
