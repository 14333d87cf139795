/**
 * @file mc_cpu.c
 * @brief One Monte Carlo pass on the CPU: OpenMP over all packets of this rank's
 *        sources (atomic adds into the tallies; mc_k.h walks each packet).
 */
#include <stdint.h>

#include "constants.h"
#include "mc.h"
#include "mc_k.h"

ionf_err mc_cpu_trace(const struct mc_pass *p, int64_t *cells_crossed) {
  const struct mc_state *st = p->st;
  struct mc_medium m;
  m.n = p->grid.n;
  m.periodic = p->grid.periodic;
  m.cell_cm = p->grid.cell_cm;
  m.r_max_cells = mc_walk_limit_cells(p->r_max_cells, p->grid.n, p->grid.periodic);
  m.n_h_cm3 = p->n_h_cm3;
  m.x_hii_av = p->x_hii_av;
  m.sigma0_cm2 = st->sigma0_cm2;
  m.sigma_index = st->sigma_index;
  m.gamma = p->gamma;
  m.gamma_sq = p->gamma_sq;
  m.heat = st->heating ? p->heat : NULL;
  const int64_t packets = st->packets_per_source;
  const int64_t total = p->source_count * packets;
  const double e0_erg = IONF_E_HI_EV * IONF_EV_ERG;
  int64_t crossed = 0;
  /* packets of one source are consecutive: threads share a source's cells early on,
     but dynamic chunks keep the load even when walks differ in length */
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : crossed)
  for (int64_t q = 0; q < total; ++q) {
    int64_t s = p->first_source + q / packets;
    struct mc_packet pk;
    mc_source_packet(st->seed, p->grid.n, p->sources->ijk + 3 * s, p->sources->ndot_per_s[s],
                     (uint64_t)st->step, (uint32_t)(q % packets), (uint32_t)packets,
                     st->spectrum, st->spectrum_points, &pk);
    crossed += mc_trace_packet(&m, &pk, e0_erg);
  }
  if (cells_crossed) *cells_crossed = crossed;
  return IONF_OK;
}
