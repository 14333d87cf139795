/**
 * @file mc_tracer.c
 * @brief Monte Carlo packets behind the tracer interface on the CPU: each pass
 *        clears the sum of w^2 and runs mc_cpu_trace on host fields.
 */
#include "chem/species_k.h"
#include "rt/mc/mc.h"

struct mc_cpu_tracer {
  struct mc_tracer_setup s;
  struct tracer_sources sources;
};

static struct mc_cpu_tracer *cpu_of(struct tracer *t) { return t->impl; }

static ionf_err cpu_set_sources(struct tracer *t, const struct tracer_sources *s) {
  cpu_of(t)->sources = *s;
  return IONF_OK;
}

static void zero(double *a, int64_t count) {
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < count; ++c) a[c] = 0.0;
}

static ionf_err cpu_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                          struct trace_stats *stats) {
  struct mc_cpu_tracer *mt = cpu_of(t);
  if (!r->accumulate) {
    zero(r->gamma_per_s, f->cells * IONF_N_SPECIES);
    if (r->heating_erg_per_s) zero(r->heating_erg_per_s, f->cells * IONF_N_SPECIES);
  }
  zero(mt->s.state->gamma_sq, f->cells);
  /* packets are absorbed by HI alone (rt/mc/mc_k.h) */
  struct mc_pass p;
  p.grid = mt->s.grid;
  p.grid.cell_cm = f->cell_cm;
  p.n_h_cm3 = f->n_h_cm3;
  p.x_hii_av = f->x_ion_av + (int64_t)SPECIES_HI * f->cells;
  p.temperature_k = f->temperature_k;
  p.sources = mt->sources.list;
  p.first_source = mt->sources.first;
  p.source_count = mt->sources.count;
  p.r_max_cells = mt->s.r_max_cells;
  p.st = mt->s.state;
  p.gamma = r->gamma_per_s + (int64_t)SPECIES_HI * f->cells;
  p.gamma_sq = mt->s.state->gamma_sq;
  p.heat = r->heating_erg_per_s;
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
  static const struct tracer_ops ops = {cpu_set_sources, cpu_trace, NULL, NULL};
  *out = NULL;
  IONF_CALL(mc_tracer_check(s));
  IONF_CALL(tracer_alloc("montecarlo", TRACER_HOST, &ops, sizeof(struct mc_cpu_tracer), out));
  cpu_of(*out)->s = *s;
  return IONF_OK;
}
