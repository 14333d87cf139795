/**
 * @file mc_cuda.h
 * @brief Monte Carlo photon packets on the GPU (gpu/mc_trace.cu): one thread per
 *        packet, the walk of mc_k.h, fp64 atomicAdd into Gamma, sum w^2 and heating.
 *        The CUDA backend calls it from its trace op when raytracing.method is
 *        montecarlo; the CPU path is src/mc_cpu.c.
 */
#ifndef IONF_MC_CUDA_H
#define IONF_MC_CUDA_H

#include <stdint.h>

#include "core/error.h"
#include "rt/mc/mc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mc_cuda; /* device buffers: sum of w^2 per cell, the spectrum table */

/** Device buffers for an n^3 grid and the state's spectrum table. */
IONF_NODISCARD ionf_err mc_cuda_create(const struct mc_state *st, int64_t n, struct mc_cuda **out);
void mc_cuda_destroy(struct mc_cuda *m);

/** One pass's device inputs (this rank's sources, as the backend holds them). */
struct mc_cuda_pass {
  int64_t n;
  int periodic;
  double cell_cm, r_max_cells;
  const double *n_h_cm3, *x_hii_av;  /*!< device n^3 */
  const double *temperature_k;       /*!< device n^3: alpha(T) of the diffuse field */
  const int *src_ijk;                /*!< device 3 x source_count */
  const double *src_ndot;            /*!< device source_count */
  int64_t source_count;
  double *gamma, *heat;              /*!< device n^3 tallies (cleared by the caller; heat may be NULL) */
  int sm_count;
  void *stream;                      /*!< cudaStream_t */
};

/** Clear sum w^2 and trace every packet of the pass; cells crossed out (synchronises). */
IONF_NODISCARD ionf_err mc_cuda_trace(struct mc_cuda *m, const struct mc_state *st,
                                      const struct mc_cuda_pass *p, int64_t *cells_crossed);
/** Device sum w^2 -> host (st->gamma_sq), cells [first, first + count). */
IONF_NODISCARD ionf_err mc_cuda_download_sq(struct mc_cuda *m, double *host, int64_t first,
                                            int64_t count, void *stream);

#ifdef __cplusplus
}
#endif

#endif
