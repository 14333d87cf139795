/**
 * @file thermal_cuda.h
 * @brief Thermal radiation's ERMC solve on the GPU (thermal.h): one thread per element
 *        (a cell or a wall patch) tracing all its rays with thermal_k.h's
 *        thermal_element_estimate, the per-ray maths the CPU solver runs, so that both give
 *        the same estimates (the seed's "domain parallelisation": no atomics).
 *
 * Each call builds the levels on the host (thermal_levels.c), copies them and the medium
 * to the current device, runs the kernel on its own stream and copies the results back
 * (or leaves the cells' results in device arrays).  The table reads of the walk go
 * through the read-only data cache (thermal_k.h's THERMAL_LOAD; the kernel with plain
 * loads is kept for the measurement, thermal_cuda_plain.cu).
 */
#ifndef IONF_THERMAL_CUDA_H
#define IONF_THERMAL_CUDA_H

#include "core/error.h"
#include "thermal/thermal.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The solve of range r on the current GPU.  device_pointers: f's arrays and
 * out->q_w_per_m3, out->q_sigma_w_per_m3 are device memory (out's wall arrays are host
 * memory either way); else all are host memory.  Synchronises before returning.
 */
IONF_NODISCARD ionf_err thermal_solve_cuda(const struct thermal_setup *s,
                                           const struct thermal_fields *f,
                                           const struct thermal_range *r,
                                           struct thermal_result *out, int device_pointers);

/** Launch options of the measurements (benchmarks/bench_thermal.c): 0 in runs. */
struct thermal_cuda_options {
  int plain_loads;        /*!< 1: the kernel without the read-only data cache */
  int threads_per_block;  /*!< 0: 128 */
};

/** thermal_solve_cuda with launch options (NULL: the defaults). */
IONF_NODISCARD ionf_err thermal_solve_cuda_opt(const struct thermal_setup *s,
                                               const struct thermal_fields *f,
                                               const struct thermal_range *r,
                                               struct thermal_result *out, int device_pointers,
                                               const struct thermal_cuda_options *opt);

#ifdef __cplusplus
}
#endif

#endif /* IONF_THERMAL_CUDA_H */
