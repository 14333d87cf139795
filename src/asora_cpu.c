/**
 * @file asora_cpu.c
 * @brief ASORA on the CPU: per source, shells in order; cells of a shell are
 *        independent.  Column densities live in a buffer over the source's
 *        traced domain (box clipped to the photon radius), so memory follows
 *        the work, not the grid.
 */
#include "asora.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "asora_k.h"
#include "photo_k.h"

/* Everything one source's sweep needs. */
struct sweep {
  const struct trace_input *in;
  const int32_t *src;
  double ndot;
  struct asora_domain dom;
  double *column;   /* outgoing column density [cm^-2] per domain cell */
  double *gamma;
  int atomic_add;   /* several sources update gamma concurrently */
};

/* One cell at offset (di, dj, dk): interpolate, store the column, add the rate. */
static inline int64_t sweep_cell(const struct sweep *sw, int q, int di, int dj, int dk) {
  const struct trace_input *in = sw->in;
  long long r2 = (long long)di * di + (long long)dj * dj + (long long)dk * dk;
  if ((double)r2 > sw->dom.r2_max_cells) return 0; /* nothing inside the radius needs it */
  const int64_t n = in->grid.n;
  const double cell_cm = in->grid.cell_cm;
  int64_t gi = asora_wrap(sw->src[0] + di, n, in->grid.periodic);
  int64_t gj = asora_wrap(sw->src[1] + dj, n, in->grid.periodic);
  int64_t gk = asora_wrap(sw->src[2] + dk, n, in->grid.periodic);
  int64_t idx = grid_index(n, gi, gj, gk);
  double n_hi = in->n_h_cm3[idx] * (1.0 - in->x_hii_av[idx]);
  double col_in, ds_cells, volume;
  if (q == 0) {
    col_in = 0.0;
    ds_cells = 0.5;
    volume = cell_cm * cell_cm * cell_cm;
  } else {
    struct asora_stencil st;
    double col[4];
    asora_stencil_make(di, dj, dk, &st);
    for (int m = 0; m < st.n; ++m)
      col[m] = sw->column[asora_domain_box_index(&sw->dom, st.off[m][0], st.off[m][1],
                                                 st.off[m][2])];
    col_in = asora_column_in(&st, col, in->tables.sigma0_cm2);
    ds_cells = st.ds_cells;
    volume = asora_shell_volume_cm3(di, dj, dk, ds_cells, cell_cm);
  }
  double ds_cm = ds_cells * cell_cm;
  double col_out = col_in + n_hi * ds_cm;
  sw->column[asora_domain_box_index(&sw->dom, di, dj, dk)] = col_out;
  if (in->column_out) in->column_out[idx] = col_out;
  if (col_in > PHOTO_MAX_COLUMN_CM2) return 1;
  double sigma0 = in->tables.sigma0_cm2;
  double g = photo_gamma(&in->tables, sw->ndot, sigma0 * col_in, sigma0 * col_out, n_hi, ds_cm,
                         volume);
  if (sw->atomic_add) {
#pragma omp atomic
    sw->gamma[idx] += g;
  } else {
    sw->gamma[idx] += g;
  }
  return 1;
}

/* The cells of shell q in row di (all dj, both signs of dk) inside the domain. */
static int64_t sweep_shell_rows(const struct sweep *sw, int q, int di) {
  const struct asora_domain *d = &sw->dom;
  int64_t visited = 0;
  int rem = q - abs(di);
  int dj_lo = d->lo[1] > -rem ? d->lo[1] : -rem;
  int dj_hi = d->hi[1] < rem ? d->hi[1] : rem;
  for (int dj = dj_lo; dj <= dj_hi; ++dj) {
    int rk = rem - abs(dj);
    if (rk <= d->hi[2] && rk >= d->lo[2]) visited += sweep_cell(sw, q, di, dj, rk);
    if (rk > 0 && -rk >= d->lo[2] && -rk <= d->hi[2]) visited += sweep_cell(sw, q, di, dj, -rk);
  }
  return visited;
}

static void sweep_init(struct sweep *sw, const struct trace_input *in, int64_t s, double *gamma) {
  sw->in = in;
  sw->src = in->sources->ijk + 3 * s;
  sw->ndot = in->sources->ndot_per_s[s];
  int src[3] = {sw->src[0], sw->src[1], sw->src[2]};
  asora_domain_make(src, in->grid.n, in->grid.periodic, in->r_max_cells, &sw->dom);
  sw->gamma = gamma;
}

/* One source by one thread. */
static int64_t sweep_serial(const struct sweep *sw) {
  int64_t visited = 0;
  for (int q = 0; q <= sw->dom.q_max; ++q) {
    int lo = sw->dom.lo[0] > -q ? sw->dom.lo[0] : -q;
    int hi = sw->dom.hi[0] < q ? sw->dom.hi[0] : q;
    for (int di = lo; di <= hi; ++di) visited += sweep_shell_rows(sw, q, di);
  }
  return visited;
}

/* One source by the whole team: rows of a shell in parallel, a barrier per shell. */
static int64_t sweep_team(const struct sweep *sw) {
  int64_t visited = 0;
#pragma omp parallel reduction(+ : visited)
  for (int q = 0; q <= sw->dom.q_max; ++q) {
    int lo = sw->dom.lo[0] > -q ? sw->dom.lo[0] : -q;
    int hi = sw->dom.hi[0] < q ? sw->dom.hi[0] : q;
#pragma omp for schedule(dynamic, 1)
    for (int di = lo; di <= hi; ++di) visited += sweep_shell_rows(sw, q, di);
  }
  return visited;
}

ionf_err asora_cpu_trace(const struct trace_input *in, double *gamma_out,
                         struct trace_stats *stats) {
  int64_t visited = 0;
  if (in->source_count <= 0) {
    if (stats) stats->cells_traced = 0;
    return IONF_OK;
  }
  /* The largest domain sizes every buffer. */
  long long max_cells = 0;
  for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
    struct sweep sw;
    sweep_init(&sw, in, s, gamma_out);
    long long c = asora_domain_box_cells(&sw.dom);
    if (c > max_cells) max_cells = c;
  }
  int threads = omp_get_max_threads();
  int over_sources = in->source_count >= 2 * (int64_t)threads && threads > 1;
  int n_buffers = over_sources ? threads : 1;
  double *buffers = malloc((size_t)max_cells * (size_t)n_buffers * sizeof(double));
  if (!buffers)
    return ionf_error_set(IONF_ERR_MEM,
                          "ray tracing: could not allocate %d column buffer(s) of %lld cells "
                          "(%.2f GB); set raytracing.R_max to trace less",
                          n_buffers, max_cells,
                          8.0 * (double)max_cells * n_buffers / 1e9);
  if (over_sources) {
#pragma omp parallel reduction(+ : visited)
    {
      double *mine = buffers + (size_t)max_cells * (size_t)omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
      for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
        struct sweep sw;
        sweep_init(&sw, in, s, gamma_out);
        sw.column = mine;
        sw.atomic_add = 1;
        visited += sweep_serial(&sw);
      }
    }
  } else {
    for (int64_t s = in->first_source; s < in->first_source + in->source_count; ++s) {
      struct sweep sw;
      sweep_init(&sw, in, s, gamma_out);
      sw.column = buffers;
      sw.atomic_add = 0;
      visited += threads > 1 ? sweep_team(&sw) : sweep_serial(&sw);
    }
  }
  free(buffers);
  if (stats) stats->cells_traced = visited;
  return IONF_OK;
}
