/**
 * @file asora_tracer.c
 * @brief ASORA behind the tracer interface on the CPU: each pass runs
 *        asora_cpu_trace over this rank's sources on host fields, with its
 *        column buffers kept from pass to pass.
 */
#include <omp.h>
#include <string.h>

#include "rt/asora/asora.h"

struct asora_cpu_tracer {
  struct asora_tracer_setup s;
  struct asora_cpu_workspace workspace;
};

static struct asora_cpu_tracer *cpu_of(struct tracer *t) { return t->impl; }

static ionf_err cpu_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                          struct trace_stats *stats) {
  struct asora_cpu_tracer *at = cpu_of(t);
  double *heat = at->s.tables.heating || at->s.bands.heating ? r->heating_erg_per_s : NULL;
  tracer_clear_host(f, r, heat != NULL);
  struct trace_input in;
  memset(&in, 0, sizeof in);
  in.grid = at->s.grid;
  in.grid.cell_cm = f->cell_cm;
  in.n_h_cm3 = f->n_h_cm3;
  in.x_ion_av = f->x_ion_av;
  in.n_species = f->n_species;
  in.abundance_he = f->abundance_he;
  in.sources = t->sources.list;
  in.first_source = t->sources.first;
  in.source_count = t->sources.count;
  IONF_CHECK(tracer_radius_fits(f->r_max_cells, at->s.r_max_cells), IONF_ERR_INTERNAL,
             "ASORA: a pass's photon radius %g cells exceeds the %g it was made with",
             f->r_max_cells, at->s.r_max_cells);
  in.r_max_cells = f->r_max_cells;
  in.tables = at->s.tables;
  in.bands = at->s.bands;
  in.order = at->s.order;
  in.heating_out = heat;
  struct trace_stats mine = {0, 0, 0};
  IONF_CALL(asora_cpu_trace(&in, r->gamma_per_s, &mine, &at->workspace));
  if (stats) stats->cells_traced += mine.cells_traced;
  return IONF_OK;
}

static void cpu_destroy(struct tracer *t) { asora_cpu_workspace_free(&cpu_of(t)->workspace); }

ionf_err asora_tracer_create_cpu(const struct asora_tracer_setup *s, struct tracer **out) {
  static const struct tracer_ops ops = {NULL, cpu_trace, NULL, cpu_destroy};
  IONF_CALL(tracer_alloc("asora", TRACER_HOST, &ops, sizeof(struct asora_cpu_tracer), out));
  cpu_of(*out)->s = *s;
  (*out)->inflight_sources = omp_get_max_threads();
  return IONF_OK;
}
