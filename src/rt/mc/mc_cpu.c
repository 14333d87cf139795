/**
 * @file mc_cpu.c
 * @brief One Monte Carlo pass on the CPU: OpenMP over all packets of this rank's
 *        sources (atomic adds into the tallies; mc_k.h walks each packet).
 */
#include <stdint.h>

#include "core/constants.h"
#include "rt/mc/mc.h"
#include "rt/mc/mc_k.h"

ionf_err mc_cpu_trace(const struct mc_pass *p, int64_t *cells_crossed) {
  const struct mc_state *st = p->st;
  struct mc_medium m =
      mc_medium_make(st, p->grid.n, p->grid.periodic, p->grid.cell_cm, p->r_max_cells,
                     p->n_h_cm3, p->x_hii_av, p->gamma, p->gamma_sq, p->heat);
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
  if (st->recombination_emission && st->recombination_packets > 0) {
    /* the diffuse field: this rank's cells' ground-state recombination photons */
    double r_total = mc_recombination_total(st, &p->grid, p->n_h_cm3, p->x_hii_av, p->temperature_k);
    if (r_total > 0.0) {
      const double per_packet = r_total / (double)st->recombination_packets;
      const double vol = p->grid.cell_cm * p->grid.cell_cm * p->grid.cell_cm;
      const int64_t cells = grid_cells(p->grid.n);
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : crossed)
      for (int64_t c = st->rank; c < cells; c += st->ranks) {
        double t = p->temperature_k[c];
        double r = mc_recombination_photons(p->n_h_cm3[c], p->x_hii_av[c], st->abu_c,
                                            mc_alpha(st->alpha_a_1e4_cm3_s, st->alpha_power, t),
                                            mc_alpha(st->alpha_b_1e4_cm3_s, st->alpha_power, t),
                                            vol);
        uint32_t k = mc_recombination_count(r / per_packet, st->seed, (uint64_t)c,
                                            (uint64_t)st->step);
        for (uint32_t q = 0; q < k; ++q) {
          struct mc_packet pk;
          mc_recombination_packet(st->seed, p->grid.n, c, (uint64_t)st->step, q, per_packet, &pk);
          crossed += mc_trace_packet(&m, &pk, e0_erg);
        }
      }
    }
  }
  if (cells_crossed) *cells_crossed = crossed;
  return IONF_OK;
}
