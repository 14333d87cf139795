/**
 * @file sph_chem.h
 * @brief The particle engine's chemistry pass on the GPU: every particle's
 *        C2-Ray update (chem_k.h, the same functions as chem_cpu_pass) in a
 *        CUDA kernel, host arrays in and out (gpu/sph_chem.cu).
 *
 * Why on the GPU: a thermal pass (the temperature's sub-steps) costs ~20 us per
 * particle on two CPU threads (measured, Test 2 on particles): 1e6 particles would
 * spend seconds per iteration on the host next to a GPU trace.  The
 * rates come back to the host for the MPI sum anyway, so the pass takes host
 * arrays; the convergence sums are formed on the host from the results.
 */
#ifndef IONF_SPH_CHEM_H
#define IONF_SPH_CHEM_H

#include "chem/chem.h"
#include "core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** As chem_cpu_pass, on the GPU.  IONF_ERR_UNSUPPORTED in a CPU-only build. */
IONF_NODISCARD ionf_err sph_chem_cuda_pass(const struct chem_input *in, struct chem_state *state,
                                           struct chem_pass_result *result);
/** Free the device buffers the pass keeps between calls. */
void sph_chem_cuda_release(void);

/**
 * Make GPU (local_rank mod the device count) current for this rank, as the grid
 * backend does, before the particle tree, tracer and chemistry touch a device.
 * Returns the device, or -1 (no device, or a CPU-only build).
 */
int sph_cuda_select_device(int local_rank);

#ifdef __cplusplus
}
#endif

#endif /* IONF_SPH_CHEM_H */
