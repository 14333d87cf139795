/**
 * @file mc_tracer.c
 * @brief Monte Carlo packets behind the tracer interface on the CPU: each pass
 *        clears the sum of w^2 and runs mc_cpu_trace on host fields.
 */
#include "chem/species_k.h"
#include "rt/mc/mc.h"

struct mc_cpu_tracer {
  struct mc_tracer_setup s;
};

static struct mc_cpu_tracer *cpu_of(struct tracer *t) { return t->impl; }

static ionf_err cpu_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                          struct trace_stats *stats) {
  struct mc_cpu_tracer *mt = cpu_of(t);
  tracer_clear_host(f, r, 1);
  double *sq = mt->s.state->gamma_sq;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < f->cells; ++c) sq[c] = 0.0;
  /* packets are absorbed by HI alone (rt/mc/mc_k.h) */
  const int64_t hi = (int64_t)SPECIES_HI * f->cells;
  IONF_CHECK(tracer_radius_fits(f->r_max_cells, mt->s.r_max_cells), IONF_ERR_INTERNAL,
             "Monte Carlo: a pass's photon radius %g cells exceeds the %g it was made with",
             f->r_max_cells, mt->s.r_max_cells);
  struct mc_pass p = {mt->s.grid,        f->n_h_cm3,         f->x_ion_av + hi,
                      f->temperature_k,  t->sources.list,    t->sources.first,
                      t->sources.count,  f->r_max_cells,     mt->s.state,
                      r->gamma_per_s + hi, sq,               r->heating_erg_per_s};
  p.grid.cell_cm = f->cell_cm;
  int64_t crossed = 0;
  IONF_CALL(mc_cpu_trace(&p, &crossed));
  if (stats) stats->cells_traced += crossed;
  return IONF_OK;
}

ionf_err mc_tracer_check(const struct mc_tracer_setup *s) {
  IONF_CHECK(grid_box_is_whole(&s->grid.box, s->grid.n), IONF_ERR_UNSUPPORTED,
             "Monte Carlo packets need the whole grid on every rank (a packet crosses it)");
  return IONF_OK;
}

ionf_err mc_tracer_create_cpu(const struct mc_tracer_setup *s, struct tracer **out) {
  static const struct tracer_ops ops = {NULL, cpu_trace, NULL, NULL};
  *out = NULL;
  IONF_CALL(mc_tracer_check(s));
  IONF_CALL(tracer_alloc("montecarlo", TRACER_HOST, &ops, sizeof(struct mc_cpu_tracer), out));
  cpu_of(*out)->s = *s;
  return IONF_OK;
}
