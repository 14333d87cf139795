/**
 * @file planar_tracer.c
 * @brief Plane-parallel sources behind the tracer interface on the CPU: each pass
 *        runs planar_cpu_trace on host fields.
 */
#include <string.h>

#include "rt/planar/planar.h"

struct planar_cpu_tracer {
  struct planar_tracer_setup s;
};

ionf_err planar_tracer_check(const struct planar_tracer_setup *s) {
  IONF_CHECK(!s->grid.periodic, IONF_ERR_INTERNAL, "plane-parallel sources in a periodic box");
  IONF_CHECK(grid_box_is_whole(&s->grid.box, s->grid.n), IONF_ERR_UNSUPPORTED,
             "plane-parallel sources need the whole grid on every rank (a column crosses it)");
  return IONF_OK;
}

static ionf_err cpu_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                          struct trace_stats *stats) {
  struct planar_cpu_tracer *pt = t->impl;
  double *heat = pt->s.tables.heating ? r->heating_erg_per_s : NULL;
  tracer_clear_host(f, r, heat != NULL);
  struct planar_input in;
  in.grid = pt->s.grid;
  in.grid.cell_cm = f->cell_cm;
  in.n_h_cm3 = f->n_h_cm3;
  in.x_ion_av = f->x_ion_av;
  in.n_species = f->n_species;
  in.abundance_he = f->abundance_he;
  in.planes = pt->s.planes;
  in.n_planes = pt->s.n_planes;
  in.tables = pt->s.tables;
  in.heating_out = heat;
  int64_t cells = 0;
  IONF_CALL(planar_cpu_trace(&in, r->gamma_per_s, &cells));
  if (stats) stats->cells_traced += cells;
  return IONF_OK;
}

ionf_err planar_tracer_create_cpu(const struct planar_tracer_setup *s, struct tracer **out) {
  static const struct tracer_ops ops = {NULL, cpu_trace, NULL, NULL};
  *out = NULL;
  IONF_CALL(planar_tracer_check(s));
  IONF_CALL(tracer_alloc("planar", TRACER_HOST, &ops, sizeof(struct planar_cpu_tracer), out));
  ((struct planar_cpu_tracer *)(*out)->impl)->s = *s;
  return IONF_OK;
}
