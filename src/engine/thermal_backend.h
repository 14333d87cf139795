/**
 * @file thermal_backend.h
 * @brief Where a thermal solve runs (raytracing.backend of a `problem: thermal` run): the
 *        CPU (thermal_solve_cpu, OpenMP) or one GPU (thermal_solve_cuda,
 *        gpu/thermal/thermal_cuda.h), behind one call.
 *
 * The CUDA solver is compiled in when the CUDA build finds gpu/thermal/thermal_cuda.cu
 * (CMakeLists.txt defines IONF_HAVE_THERMAL_CUDA); without it `cuda` is refused with a
 * message and `auto` means the CPU.
 */
#ifndef IONF_THERMAL_BACKEND_H
#define IONF_THERMAL_BACKEND_H

#include <stddef.h>

#include "config/config.h"
#include "core/error.h"
#include "thermal/thermal.h"

/** 1 when this build has the thermal CUDA solver. */
int thermal_backend_cuda_built(void);

/**
 * The backend a run asking for `asked` uses: BACKEND_CPU or BACKEND_CUDA (auto: CUDA when
 * built and a GPU is visible, else the CPU; `why` says which and why, for the log).  With
 * CUDA, this rank's GPU (its rank within the node, modulo the GPUs) is made current.
 * `cuda` without a CUDA solver or a GPU: IONF_ERR_UNSUPPORTED / IONF_ERR_GPU saying so.
 */
IONF_NODISCARD ionf_err thermal_backend_choose(enum backend_kind asked, enum backend_kind *used,
                                               char *why, size_t why_size);

/**
 * Solve the range `r` on `used` (thermal_backend_choose's).  device_pointers (CUDA only):
 * f's arrays and out->q_w_per_m3, out->q_sigma_w_per_m3 are GPU memory of this rank's
 * device; out's wall arrays are always host memory (small, gathered over the ranks on the
 * host).  With device_pointers on the CPU backend: IONF_ERR_USAGE.
 */
IONF_NODISCARD ionf_err thermal_backend_solve(enum backend_kind used,
                                              const struct thermal_setup *s,
                                              const struct thermal_fields *f,
                                              const struct thermal_range *r,
                                              struct thermal_result *out, int device_pointers);

#endif /* IONF_THERMAL_BACKEND_H */
