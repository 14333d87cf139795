/**
 * @file thermal_cuda_kernel.cuh
 * @brief The ERMC kernel (thermal_cuda.h), included by thermal_cuda.cu (table reads
 *        through the read-only cache) and thermal_cuda_plain.cu (plain loads), each
 *        naming it THERMAL_CUDA_KERNEL: one thread per element, all its rays.  The maths
 *        is thermal_k.h's.
 */
#include "thermal/thermal_k.h"

/* element i of the range: a cell, then the wall patches */
__global__ void THERMAL_CUDA_KERNEL(struct thermal_view v, int64_t cell_first, int64_t cell_count,
                                    int64_t wall_first, int64_t wall_count, double *q,
                                    double *q_sigma, double *wall_q, double *wall_sigma,
                                    unsigned long long *steps) {
  const int64_t cells = v.n[0] * v.n[1] * v.n[2];
  const int64_t total = cell_count + wall_count;
  unsigned long long mine = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total;
       i += (int64_t)gridDim.x * blockDim.x) {
    struct thermal_estimate e;
    if (i < cell_count) {
      thermal_element_estimate(&v, cell_first + i, &e);
      q[i] = e.value;
      q_sigma[i] = e.sigma;
    } else {
      int64_t w = i - cell_count;
      thermal_element_estimate(&v, cells + wall_first + w, &e);
      wall_q[w] = e.value;
      wall_sigma[w] = e.sigma;
    }
    mine += (unsigned long long)e.steps;
  }
  if (mine) atomicAdd(steps, mine);
}
