/**
 * @file asora_cpu.c
 * @brief ASORA on the CPU: per source, every cell of the traced domain with the
 *        short-characteristics maths of asora_k.h, in a cache-friendly causal
 *        order (see sweep_line).  Column densities live in a buffer over the source's
 *        traced domain (box clipped to the photon radius), so memory follows
 *        the work, not the grid.
 */
#include "rt/asora/asora.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "rt/asora/asora_cell_k.h"
#include "rt/photo_k.h"

/* Everything one source's sweep needs. */
struct sweep {
  struct asora_source_view view;
  double *column;   /* outgoing column density [cm^-2] per species and domain cell */
  int cut;          /* raytracing.transmission_cutoff (photo_tables_cut_any) */
  double *gamma;      /* [species][box cells] */
  double *column_out; /* optional per-grid-cell copy (tests), [species][box cells] */
  double *heating;    /* optional photo-heating accumulator, [species][box cells] */
  int64_t cells;      /* the box's cells: the species stride of the arrays */
  int n_species;      /* species blocks */
  int atomic_add;   /* several sources update gamma concurrently */
  enum asora_cpu_order order;
};

/* One cell: the shared step of asora_k.h, then the adds of every species. */
static inline int64_t sweep_cell(const struct sweep *sw, int di, int dj, int dk) {
  long long idx;
  double g[IONF_MAX_SPECIES], h[IONF_MAX_SPECIES], col_out[IONF_MAX_SPECIES];
  const struct asora_columns cols = {sw->column, NULL, NULL, NULL, NULL};
  double *heat = sw->heating ? h : NULL;
  /* cut a constant in each call, as on the GPU */
  if (!(sw->cut ? asora_cell_step(&sw->view, sw->n_species, 0, 1, &cols, di, dj, dk, &idx, g,
                                  heat, col_out)
                : asora_cell_step(&sw->view, sw->n_species, 0, 0, &cols, di, dj, dk, &idx, g,
                                  heat, col_out)))
    return 0;
  for (int s = 0; s < sw->n_species; ++s) {
    int64_t at = s * sw->cells + idx;
    if (sw->column_out) sw->column_out[at] = col_out[s];
    if (sw->atomic_add) {
#pragma omp atomic
      sw->gamma[at] += g[s];
      if (sw->heating) {
#pragma omp atomic
        sw->heating[at] += h[s];
      }
    } else {
      sw->gamma[at] += g[s];
      if (sw->heating) sw->heating[at] += h[s];
    }
  }
  return 1;
}

/*
 * Order on the CPU: lines of constant (di, dj), k innermost so that memory is
 * walked contiguously, in wavefronts of s = |di| + |dj|.  A cell's non-zero
 * interpolation neighbours lie either on its own line, nearer the source in
 * k, or on lines of smaller s, so the lines of one wavefront are independent.
 * This visits the same cells with the same per-cell maths as the octahedral
 * shells of the GPU; only the order differs, and no cell reads a value that
 * is not final, so the results are identical.
 */

/* One line: dk = 0, 1, ... outwards, then dk = -1, -2, ... (which needs dk = 0). */
static int64_t sweep_line(const struct sweep *sw, int di, int dj) {
  const struct asora_domain *d = &sw->view.dom;
  double r2_line = (double)di * di + (double)dj * dj;
  if (r2_line > d->r2_max_cells) return 0;
  int hi = d->hi[2], lo = d->lo[2];
  double reach = floor(sqrt(d->r2_max_cells - r2_line)); /* |dk| beyond which r > R */
  if (reach < (double)hi) hi = (int)reach;
  if (-reach > (double)lo) lo = -(int)reach;
  int64_t visited = 0;
  for (int dk = 0; dk <= hi; ++dk) visited += sweep_cell(sw, di, dj, dk);
  for (int dk = -1; dk >= lo; --dk) visited += sweep_cell(sw, di, dj, dk);
  return visited;
}

/* The lines of wavefront s with di in [di_lo, di_hi] (clipped to the domain). */
static int64_t sweep_wavefront_row(const struct sweep *sw, int s, int di) {
  const struct asora_domain *d = &sw->view.dom;
  int rem = s - abs(di);
  int64_t visited = 0;
  if (rem <= d->hi[1] && rem >= d->lo[1]) visited += sweep_line(sw, di, rem);
  if (rem > 0 && -rem >= d->lo[1] && -rem <= d->hi[1]) visited += sweep_line(sw, di, -rem);
  return visited;
}

static int wavefront_count(const struct asora_domain *d) {
  int max_i = -d->lo[0] > d->hi[0] ? -d->lo[0] : d->hi[0];
  int max_j = -d->lo[1] > d->hi[1] ? -d->lo[1] : d->hi[1];
  return max_i + max_j + 1;
}

static void sweep_init(struct sweep *sw, const struct trace_input *in, int64_t s, double *gamma) {
  struct asora_source_view *v = &sw->view;
  v->n_h_cm3 = in->n_h_cm3;
  v->n_abs_cm3 = NULL; /* the absorbers from n_H and x in the cell step */
  v->split = NULL;     /* the X-ray electrons' split too */
  v->geo = NULL;      /* the stencils' geometry computed in the cell step */
  v->geo_side = 0;
  v->x_ion_av = in->x_ion_av;
  v->abundance_he = in->abundance_he;
  v->n = in->grid.n;
  v->periodic = in->grid.periodic;
  v->box = in->grid.box;
  v->cell_cm = in->grid.cell_cm;
  for (int a = 0; a < 3; ++a) v->src[a] = in->sources->ijk[3 * s + a];
  v->ndot_per_s = in->sources->ndot_per_s[s];
  asora_domain_make(v->src, in->grid.n, in->grid.periodic, &in->grid.box, in->r_max_cells,
                    &v->dom);
  v->tables = in->tables;
  v->bands = in->bands;
  sw->gamma = gamma;
  sw->cells = grid_box_cells(&in->grid.box);
  sw->n_species = in->n_species > 0 ? in->n_species : 1;
  sw->column_out = in->column_out;
  sw->heating = in->tables.heating || in->bands.heating ? in->heating_out : NULL;
  sw->order = in->order;
  sw->cut = photo_tables_cut_any(&in->tables);
}

/* One source in cube shells max(|d|) = h (the GPU's order), one thread. */
static int64_t sweep_cubes(const struct sweep *sw) {
  int64_t visited = 0;
  int h_max = asora_domain_h_max(&sw->view.dom);
  for (int h = 0; h <= h_max; ++h) {
    struct asora_cube_shell cs;
    asora_cube_shell_make(&sw->view.dom, h, &cs);
    for (long long t = 0; t < cs.start[6]; ++t) {
      int di, dj, dk;
      asora_cube_shell_cell(&cs, t, &di, &dj, &dk);
      visited += sweep_cell(sw, di, dj, dk);
    }
  }
  return visited;
}

/* One source in octahedral shells q = 0, 1, ... (ASORA's order), one thread. */
static int64_t sweep_shells(const struct sweep *sw) {
  const struct asora_domain *d = &sw->view.dom;
  int64_t visited = 0;
  for (int q = 0; q <= d->q_max; ++q)
    for (int di = (d->lo[0] > -q ? d->lo[0] : -q); di <= (d->hi[0] < q ? d->hi[0] : q); ++di) {
      int rem = q - abs(di);
      for (int dj = (d->lo[1] > -rem ? d->lo[1] : -rem); dj <= (d->hi[1] < rem ? d->hi[1] : rem);
           ++dj) {
        int rk = rem - abs(dj);
        if (rk >= d->lo[2] && rk <= d->hi[2]) visited += sweep_cell(sw, di, dj, rk);
        if (rk > 0 && -rk >= d->lo[2] && -rk <= d->hi[2]) visited += sweep_cell(sw, di, dj, -rk);
      }
    }
  return visited;
}

/* One source by one thread. */
static int64_t sweep_serial(const struct sweep *sw) {
  if (sw->order == ASORA_ORDER_SHELLS) return sweep_shells(sw);
  if (sw->order == ASORA_ORDER_CUBES) return sweep_cubes(sw);
  int64_t visited = 0;
  int n_fronts = wavefront_count(&sw->view.dom);
  for (int s = 0; s < n_fronts; ++s) {
    int lo = sw->view.dom.lo[0] > -s ? sw->view.dom.lo[0] : -s;
    int hi = sw->view.dom.hi[0] < s ? sw->view.dom.hi[0] : s;
    for (int di = lo; di <= hi; ++di) visited += sweep_wavefront_row(sw, s, di);
  }
  return visited;
}

/* One source by the whole team: the lines of a wavefront in parallel, a barrier per wavefront. */
static int64_t sweep_team(const struct sweep *sw) {
  int64_t visited = 0;
  int n_fronts = wavefront_count(&sw->view.dom);
#pragma omp parallel reduction(+ : visited)
  for (int s = 0; s < n_fronts; ++s) {
    int lo = sw->view.dom.lo[0] > -s ? sw->view.dom.lo[0] : -s;
    int hi = sw->view.dom.hi[0] < s ? sw->view.dom.hi[0] : s;
#pragma omp for schedule(dynamic, 1)
    for (int di = lo; di <= hi; ++di) visited += sweep_wavefront_row(sw, s, di);
  }
  return visited;
}

void asora_cpu_workspace_free(struct asora_cpu_workspace *ws) {
  free(ws->buffers);
  ws->buffers = NULL;
  ws->capacity = 0;
  free(ws->split);
  ws->split = NULL;
  ws->split_capacity = 0;
}

/* Helium with secondary ionization: each cell's secondary_split_at(x_HII) once per pass
   (bands_secondary_split), not six pow() per cell and source.  NULL without X-rays. */
static ionf_err split_fields(const struct trace_input *in, struct asora_cpu_workspace *ws,
                             const double **out) {
  *out = NULL;
  if (in->n_species != BANDS_N_ABSORBERS || !in->bands.secondary) return IONF_OK;
  const int64_t cells = grid_box_cells(&in->grid.box);
  const size_t need = 3 * (size_t)cells;
  if (ws->split_capacity < need) {
    free(ws->split);
    ws->split = malloc(need * sizeof(double));
    ws->split_capacity = ws->split ? need : 0;
    if (!ws->split)
      return ionf_error_set(IONF_ERR_MEM, "ray tracing: no memory for the X-ray split (%.2f GB)",
                            8.0 * (double)need / 1e9);
  }
  double *split = ws->split;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) {
    const struct secondary_split f = secondary_split_at(in->x_ion_av[SPECIES_HI * cells + c]);
    split[c] = f.heat;
    split[cells + c] = f.ion_hi;
    split[2 * cells + c] = f.ion_hei;
  }
  *out = split;
  return IONF_OK;
}

ionf_err asora_cpu_trace(const struct trace_input *in, double *gamma_out,
                         struct trace_stats *stats, struct asora_cpu_workspace *ws) {
  int64_t visited = 0;
  if (in->source_count <= 0) {
    if (stats) stats->cells_traced = 0;
    return IONF_OK;
  }
  /* The largest domain sizes every buffer (one such box per species). */
  long long max_cells = 0;
  for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
    struct sweep sw;
    sweep_init(&sw, in, s, gamma_out);
    long long c = sw.n_species * asora_domain_box_cells(&sw.view.dom);
    if (c > max_cells) max_cells = c;
  }
  int threads = omp_get_max_threads();
  int over_sources = in->source_count >= 2 * (int64_t)threads && threads > 1;
  int n_buffers = over_sources ? threads : 1;
  size_t need = (size_t)max_cells * (size_t)n_buffers;
  struct asora_cpu_workspace local = {NULL, 0, NULL, 0};
  if (!ws) ws = &local;
  const double *split = NULL;
  ionf_err rc = split_fields(in, ws, &split);
  if (rc != IONF_OK) {
    asora_cpu_workspace_free(&local);
    return rc;
  }
  if (ws->capacity < need) {
    free(ws->buffers);
    ws->buffers = malloc(need * sizeof(double));
    ws->capacity = ws->buffers ? need : 0;
    if (!ws->buffers) {
      asora_cpu_workspace_free(&local);
      return ionf_error_set(IONF_ERR_MEM,
                            "ray tracing: could not allocate %d column buffer(s) of %lld cells "
                            "(%.2f GB); set raytracing.R_max to trace less",
                            n_buffers, max_cells, 8.0 * (double)need / 1e9);
    }
  }
  double *buffers = ws->buffers;
  if (over_sources) {
#pragma omp parallel reduction(+ : visited)
    {
      double *mine = buffers + (size_t)max_cells * (size_t)omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
      for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
        struct sweep sw;
        sweep_init(&sw, in, s, gamma_out);
        sw.view.split = split;
        sw.column = mine;
        sw.atomic_add = 1;
        visited += sweep_serial(&sw);
      }
    }
  } else {
    for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
      struct sweep sw;
      sweep_init(&sw, in, s, gamma_out);
      sw.view.split = split;
      sw.column = buffers;
      sw.atomic_add = 0;
      visited += threads > 1 && in->order == ASORA_ORDER_LINES ? sweep_team(&sw)
                                                                : sweep_serial(&sw);
    }
  }
  asora_cpu_workspace_free(&local);
  if (stats) stats->cells_traced = visited;
  return IONF_OK;
}
