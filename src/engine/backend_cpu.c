/**
 * @file backend_cpu.c
 * @brief The CPU backend: the working fields are the engine's host arrays;
 *        ray tracing and chemistry are the OpenMP loops of asora_cpu.c (point
 *        sources), planar_cpu.c (plane-parallel sources) and chem_cpu.c.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "rt/planar/planar.h"

struct cpu_backend {
  struct backend_setup s;
  struct asora_cpu_workspace workspace;
};

static struct cpu_backend *cpu_of(struct rt_backend *be) { return be->impl; }

static ionf_err cpu_setup(struct rt_backend *be, const struct backend_setup *s) {
  cpu_of(be)->s = *s;
  return IONF_OK;
}

/* The tracer reads the list each pass: nothing to copy. */
static ionf_err cpu_set_sources(struct rt_backend *be, const struct source_list *sources,
                                int64_t first_source, int64_t source_count) {
  struct cpu_backend *cb = cpu_of(be);
  cb->s.sources = sources;
  cb->s.first_source = first_source;
  cb->s.source_count = source_count;
  return IONF_OK;
}

static ionf_err cpu_set_step(struct rt_backend *be, const struct backend_step_params *p) {
  struct cpu_backend *cb = cpu_of(be);
  cb->s.grid.cell_cm = p->cell_cm;
  cb->s.chem = p->chem;
  if (p->density_factor != 1.0) {
    double *n_h = cb->s.host->n_h_cm3, factor = p->density_factor;
    int64_t cells = grid_cells(cb->s.grid.n);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < cells; ++c) n_h[c] *= factor;
  }
  return IONF_OK;
}

/* The working fields are the host fields: nothing to move. */
static ionf_err cpu_move(struct rt_backend *be, unsigned mask, int64_t first, int64_t count) {
  return IONF_OK;
}

static void copy_field(double *dst, const double *src, int64_t cells) {
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) dst[c] = src[c];
}

static ionf_err cpu_step_begin(struct rt_backend *be) {
  struct grid_fields *f = cpu_of(be)->s.host;
  int64_t cells = grid_cells(cpu_of(be)->s.grid.n);
  copy_field(f->x_ion_av, f->x_ion, cells * IONF_N_SPECIES);
  copy_field(f->x_ion_end, f->x_ion, cells * IONF_N_SPECIES);
  if (f->temperature_av_k) {
    copy_field(f->temperature_av_k, f->temperature_k, cells);
    copy_field(f->temperature_end_k, f->temperature_k, cells);
  }
  return IONF_OK;
}

static ionf_err cpu_step_end(struct rt_backend *be) {
  struct grid_fields *f = cpu_of(be)->s.host;
  int64_t cells = grid_cells(cpu_of(be)->s.grid.n);
  copy_field(f->x_ion, f->x_ion_end, cells * IONF_N_SPECIES);
  if (f->temperature_end_k) copy_field(f->temperature_k, f->temperature_end_k, cells);
  return IONF_OK;
}

/* raytracing.method montecarlo: photon packets (mc_cpu.c) instead of ASORA */
static ionf_err cpu_trace_montecarlo(struct cpu_backend *cb, double *heat,
                                     struct trace_stats *stats) {
  struct grid_fields *f = cb->s.host;
  double *sq = cb->s.mc->gamma_sq;
  int64_t cells = grid_cells(cb->s.grid.n), crossed = 0;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) sq[c] = 0.0;
  /* packets are absorbed by HI alone (src/mc_k.h) */
  const double *x_hi_av = grid_species(f->x_ion_av, cb->s.grid.n, SPECIES_HI);
  double *gamma_hi = grid_species(f->gamma_per_s, cb->s.grid.n, SPECIES_HI);
  struct mc_pass p = {cb->s.grid,         f->n_h_cm3,         x_hi_av,
                      f->temperature_k,    cb->s.sources,      cb->s.first_source,
                      cb->s.source_count,  cb->s.r_max_cells,  cb->s.mc,
                      gamma_hi,            sq,                 heat};
  IONF_CALL(mc_cpu_trace(&p, &crossed));
  if (stats) stats->cells_traced += crossed;
  return IONF_OK;
}

static ionf_err cpu_trace(struct rt_backend *be, struct trace_stats *stats) {
  struct cpu_backend *cb = cpu_of(be);
  struct grid_fields *f = cb->s.host;
  int64_t cells = grid_cells(cb->s.grid.n);
  double *heat = cb->s.tables->heating ? f->heating_erg_per_s : NULL;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells * IONF_N_SPECIES; ++c) { /* every species */
    f->gamma_per_s[c] = 0.0;
    if (heat) heat[c] = 0.0;
  }
  if (cb->s.mc) return cpu_trace_montecarlo(cb, heat, stats);
  struct trace_input in;
  memset(&in, 0, sizeof in);
  in.grid = cb->s.grid;
  in.n_h_cm3 = f->n_h_cm3;
  in.x_ion_av = f->x_ion_av;
  in.sources = cb->s.sources;
  in.first_source = cb->s.first_source;
  in.source_count = cb->s.source_count;
  in.r_max_cells = cb->s.r_max_cells;
  in.tables = photo_tables_view(cb->s.tables);
  in.order = ASORA_ORDER_LINES;
  in.heating_out = heat;
  IONF_CALL(asora_cpu_trace(&in, f->gamma_per_s, stats, &cb->workspace));
  if (cb->s.n_planes == 0) return IONF_OK;
  /* plane-parallel sources on top of the point sources' rates */
  struct planar_input pin;
  pin.grid = cb->s.grid;
  pin.n_h_cm3 = f->n_h_cm3;
  pin.x_ion_av = f->x_ion_av;
  pin.planes = cb->s.planes;
  pin.n_planes = cb->s.n_planes;
  pin.tables = in.tables;
  pin.heating_out = heat;
  int64_t plane_cells = 0;
  IONF_CALL(planar_cpu_trace(&pin, f->gamma_per_s, &plane_cells));
  if (stats) stats->cells_traced += plane_cells;
  return IONF_OK;
}

static ionf_err cpu_chemistry(struct rt_backend *be, double dt_s, int64_t first, int64_t count,
                              struct chem_pass_result *result) {
  struct cpu_backend *cb = cpu_of(be);
  struct grid_fields *f = cb->s.host;
  int thermal = f->temperature_av_k != NULL;
  struct chem_input in = {count, dt_s, cb->s.chem, f->n_h_cm3 + first,
                          f->temperature_k + first, f->gamma_per_s + first, f->x_ion + first,
                          thermal ? f->heating_erg_per_s + first : NULL,
                          grid_cells(cb->s.grid.n)};
  struct chem_state state = {f->x_ion_av + first, f->x_ion_end + first,
                             thermal ? f->temperature_av_k + first : NULL,
                             thermal ? f->temperature_end_k + first : NULL};
  return chem_cpu_pass(&in, &state, result);
}

static ionf_err cpu_read_x_line(struct rt_backend *be, int64_t j, int64_t k, double *out) {
  struct cpu_backend *cb = cpu_of(be);
  int64_t n = cb->s.grid.n;
  const double *x_hii = grid_species(cb->s.host->x_ion, n, SPECIES_HI);
  for (int64_t i = 0; i < n; ++i) out[i] = x_hii[grid_index(n, i, j, k)];
  return IONF_OK;
}

static void cpu_destroy(struct rt_backend *be) {
  if (be->impl) asora_cpu_workspace_free(&cpu_of(be)->workspace);
  free(be->impl);
  free(be);
}

ionf_err rt_backend_create_cpu(struct rt_backend **out) {
  struct rt_backend *be = ionf_calloc(1, sizeof *be, "the CPU backend");
  if (!be) return IONF_ERR_MEM;
  be->impl = ionf_calloc(1, sizeof(struct cpu_backend), "the CPU backend state");
  if (!be->impl) {
    free(be);
    return IONF_ERR_MEM;
  }
  be->type_name = "cpu";
  be->ops.setup = cpu_setup;
  be->ops.set_step = cpu_set_step;
  be->ops.set_sources = cpu_set_sources;
  be->ops.upload = cpu_move;
  be->ops.download = cpu_move;
  be->ops.step_begin = cpu_step_begin;
  be->ops.trace = cpu_trace;
  be->ops.chemistry = cpu_chemistry;
  be->ops.gamma_allreduce = NULL; /* the host arrays are reduced by MPI directly */
  be->ops.step_end = cpu_step_end;
  be->ops.read_x_line = cpu_read_x_line;
  be->ops.destroy = cpu_destroy;
  snprintf(be->description, sizeof be->description, "CPU, %d OpenMP thread(s)",
           omp_get_max_threads());
  *out = be;
  return IONF_OK;
}
