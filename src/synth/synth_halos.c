/**
 * @file synth_halos.c
 * @brief Test 4 density peaks and extended Press-Schechter haloes per cell.
 */
#include "synth/synth_halos.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- (a) peaks -------------------------------------------------------------- */

struct peak_candidate {
  double value;
  int64_t cell;
};

/* Densest first; equal values by cell index, so the order is total and fixed. */
static int peak_cmp(const void *a, const void *b) {
  const struct peak_candidate *p = a, *q = b;
  if (p->value != q->value) return p->value > q->value ? -1 : 1;
  return (p->cell > q->cell) - (p->cell < q->cell);
}

static int64_t wrap(int64_t i, int64_t n) { return ((i % n) + n) % n; }

static int is_local_max(const double *f, int64_t n, int64_t i, int64_t j, int64_t k) {
  double v = f[(i * n + j) * n + k];
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) {
        if (!di && !dj && !dk) continue;
        int64_t q = (wrap(i + di, n) * n + wrap(j + dj, n)) * n + wrap(k + dk, n);
        if (f[q] > v) return 0;
      }
  return 1;
}

/* Periodic Chebyshev distance between two cells [cells]. */
static int64_t cell_distance(const int32_t *a, const int32_t *b, int64_t n) {
  int64_t worst = 0;
  for (int d = 0; d < 3; ++d) {
    int64_t dd = llabs((int64_t)a[d] - (int64_t)b[d]);
    if (n - dd < dd) dd = n - dd;
    if (dd > worst) worst = dd;
  }
  return worst;
}

void synth_halos_peaks_free(struct synth_peaks *p) {
  if (!p) return;
  free(p->ijk);
  free(p->rho_over_mean);
  free(p->mass_msun);
  memset(p, 0, sizeof *p);
}

ionf_err synth_halos_peaks(int64_t n, const double *rho_over_mean, int count,
                           int min_separation_cells, double cell_mass_msun,
                           struct synth_peaks *out) {
  IONF_CHECK(out && rho_over_mean && n >= 3, IONF_ERR_INTERNAL,
             "synth_halos_peaks: bad arguments (n = %lld)", (long long)n);
  memset(out, 0, sizeof *out);
  IONF_CHECK(count >= 1, IONF_ERR_CONFIG, "the number of peaks must be >= 1 (got %d)", count);
  IONF_CHECK(min_separation_cells >= 0, IONF_ERR_CONFIG,
             "the peaks' minimum separation must be >= 0 cells (got %d)", min_separation_cells);
  IONF_CHECK(isfinite(cell_mass_msun) && cell_mass_msun > 0.0, IONF_ERR_INTERNAL,
             "synth_halos_peaks: cell mass %g", cell_mass_msun);
  const size_t cells = (size_t)n * (size_t)n * (size_t)n;
  unsigned char *is_max = calloc(cells, 1);
  IONF_CHECK(is_max, IONF_ERR_MEM, "out of memory for the peak search (%zu cells)", cells);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        is_max[(i * n + j) * n + k] = (unsigned char)is_local_max(rho_over_mean, n, i, j, k);
  size_t n_cand = 0;
  for (size_t q = 0; q < cells; ++q) n_cand += is_max[q];
  struct peak_candidate *cand = malloc((n_cand ? n_cand : 1) * sizeof *cand);
  out->ijk = malloc(3 * (size_t)count * sizeof *out->ijk);
  out->rho_over_mean = malloc((size_t)count * sizeof *out->rho_over_mean);
  out->mass_msun = malloc((size_t)count * sizeof *out->mass_msun);
  if (!cand || !out->ijk || !out->rho_over_mean || !out->mass_msun) {
    free(is_max);
    free(cand);
    synth_halos_peaks_free(out);
    return ionf_error_set(IONF_ERR_MEM, "out of memory for %zu peak candidates", n_cand);
  }
  size_t c = 0;
  for (size_t q = 0; q < cells; ++q)
    if (is_max[q]) {
      cand[c].value = rho_over_mean[q];
      cand[c].cell = (int64_t)q;
      ++c;
    }
  free(is_max);
  qsort(cand, n_cand, sizeof *cand, peak_cmp);

  for (size_t m = 0; m < n_cand && out->n < count; ++m) {
    int64_t q = cand[m].cell;
    int32_t ijk[3] = {(int32_t)(q / (n * n)), (int32_t)((q / n) % n), (int32_t)(q % n)};
    int far = 1;
    for (int p = 0; p < out->n && far; ++p)
      far = cell_distance(ijk, out->ijk + 3 * p, n) >= min_separation_cells;
    if (!far) continue;
    double block = 0.0; /* the 3^3 cells around the peak, periodic */
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        for (int dk = -1; dk <= 1; ++dk)
          block += rho_over_mean[(wrap(ijk[0] + di, n) * n + wrap(ijk[1] + dj, n)) * n +
                                 wrap(ijk[2] + dk, n)];
    memcpy(out->ijk + 3 * out->n, ijk, sizeof ijk);
    out->rho_over_mean[out->n] = cand[m].value;
    out->mass_msun[out->n] = block * cell_mass_msun;
    ++out->n;
  }
  free(cand);
  return IONF_OK;
}

/* ---- (b) extended Press-Schechter ----------------------------------------------- */

double synth_halos_fcoll_conditional(double delta_lin_z0, double growth, double sigma2_min,
                                     double sigma2_cell) {
  double ds2 = sigma2_min - sigma2_cell;
  if (!(ds2 > 0.0) || !(growth > 0.0)) return NAN;
  double f = erfc((SYNTH_HALOS_DELTA_C - growth * delta_lin_z0) / (sqrt(2.0 * ds2) * growth));
  return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

double synth_halos_fcoll_unconditional(double sigma_min, double growth) {
  return erfc(SYNTH_HALOS_DELTA_C / (sqrt(2.0) * sigma_min * growth));
}

double synth_halos_cell_mass_msun(const struct synth_spectrum *s, double box_cmpc, int64_t n) {
  double cell = box_cmpc / (double)n;
  return s->rho_m_msun_mpc3 * cell * cell * cell;
}

void synth_halos_list_free(struct synth_halo_list *h) {
  if (!h) return;
  free(h->position_cmpc);
  free(h->mass_msun);
  memset(h, 0, sizeof *h);
}

/* The generator of plane i: distinct 32-bit seeds per plane (an odd multiplier). */
static void plane_rng_seed(gsl_rng *r, uint64_t seed, int64_t i) {
  uint32_t base = (uint32_t)((seed ^ (seed >> 32)) & 0xffffffffu);
  gsl_rng_set(r, (unsigned long)(uint32_t)(base + 0x9E3779B9u * (uint32_t)(i + 1)));
}

/* The mass scales of a request: a cell's mass, sigma at the minimum halo mass and at a
   cell's mass (the request's grid, growth factor and masses checked first). */
struct eps_scales {
  double m_cell, sigma_min, sigma_cell, s2min, s2cell;
};

static ionf_err eps_scales_of(const struct synth_eps_request *req, const struct synth_spectrum *s,
                              struct eps_scales *sc) {
  const int64_t n = req->n;
  IONF_CHECK(n >= 1 && isfinite(req->box_cmpc) && req->box_cmpc > 0.0, IONF_ERR_CONFIG,
             "EPS haloes: grid %lld cells of a %g comoving Mpc box", (long long)n, req->box_cmpc);
  IONF_CHECK(isfinite(req->growth) && req->growth > 0.0, IONF_ERR_INTERNAL,
             "EPS haloes: growth factor %g", req->growth);
  IONF_CHECK(isfinite(req->min_halo_mass_msun) && req->min_halo_mass_msun > 0.0, IONF_ERR_CONFIG,
             "EPS haloes: the minimum halo mass %g Msun must be finite and > 0",
             req->min_halo_mass_msun);
  IONF_CHECK(isfinite(req->min_source_mass_msun) && req->min_source_mass_msun > 0.0,
             IONF_ERR_CONFIG, "EPS haloes: the minimum source mass %g Msun must be finite and > 0",
             req->min_source_mass_msun);
  const double m_cell = synth_halos_cell_mass_msun(s, req->box_cmpc, n);
  IONF_CHECK(req->min_halo_mass_msun < m_cell, IONF_ERR_CONFIG,
             "EPS haloes: the minimum halo mass %.3g Msun is not below the mass of a cell, "
             "%.3g Msun (box %g comoving Mpc / %lld cells): use larger cells or a smaller mass",
             req->min_halo_mass_msun, m_cell, req->box_cmpc, (long long)n);
  double sigma_min = 0.0, sigma_cell = 0.0;
  IONF_CALL(synth_spectrum_sigma_mass(s, req->min_halo_mass_msun, &sigma_min));
  IONF_CALL(synth_spectrum_sigma_mass(s, m_cell, &sigma_cell));
  sc->m_cell = m_cell;
  sc->sigma_min = sigma_min;
  sc->sigma_cell = sigma_cell;
  sc->s2min = sigma_min * sigma_min;
  sc->s2cell = sigma_cell * sigma_cell;
  return IONF_OK;
}

/* Pass 1, per plane (fixed order of sums): f_coll sums and the haloes to come;
   first[i] := the haloes of the planes before i (n + 1 entries, zeros in). */
static ionf_err eps_count(const struct synth_eps_request *req, const struct eps_scales *sc,
                          int64_t *first, struct synth_eps_stats *stats) {
  const int64_t n = req->n;
  const double m_cell = sc->m_cell, s2min = sc->s2min, s2cell = sc->s2cell;
  const size_t plane = (size_t)n * (size_t)n;
  double *part = calloc(4 * (size_t)n, sizeof *part);
  if (!part) return ionf_error_set(IONF_ERR_MEM, "out of memory for the EPS sums");
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double f_sum = 0.0, m_sum = 0.0, rho_sum = 0.0, halo_sum = 0.0;
    int64_t count = 0;
    for (size_t q = (size_t)i * plane; q < (size_t)(i + 1) * plane; ++q) {
      double f = synth_halos_fcoll_conditional(req->delta_lin_z0[q], req->growth, s2min, s2cell);
      double m = f * m_cell * req->rho_over_mean[q];
      f_sum += f;
      m_sum += m;
      rho_sum += req->rho_over_mean[q];
      if (m >= req->min_source_mass_msun) {
        ++count;
        halo_sum += m;
      }
    }
    part[4 * i] = f_sum;
    part[4 * i + 1] = m_sum;
    part[4 * i + 2] = rho_sum;
    part[4 * i + 3] = halo_sum;
    first[i + 1] = count;
  }
  double f_all = 0.0, m_all = 0.0, rho_all = 0.0, halo_all = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    f_all += part[4 * i];
    m_all += part[4 * i + 1];
    rho_all += part[4 * i + 2];
    halo_all += part[4 * i + 3];
    first[i + 1] += first[i];
  }
  free(part);
  if (stats) {
    stats->fcoll_volume = f_all / ((double)plane * (double)n);
    stats->fcoll_mass = m_all / (m_cell * rho_all);
    stats->fcoll_ps = synth_halos_fcoll_unconditional(sc->sigma_min, req->growth);
    stats->collapsed_msun = m_all;
    stats->in_halos_msun = halo_all;
    stats->sigma_min = sc->sigma_min;
    stats->sigma_cell = sc->sigma_cell;
    stats->cell_mass_msun = m_cell;
  }
  return IONF_OK;
}

/* Pass 2: each plane draws 3 uniforms for every cell from its own stream, so a
 * cell's point does not depend on threads or redshift; haloes keep the
 * middle 90% of the cell, where floor(x / cell) recovers the cell exactly.
 * Plane i's haloes go from first[i] on in out's arrays. */
static ionf_err eps_place(const struct synth_eps_request *req, const struct eps_scales *sc,
                          const int64_t *first, struct synth_halo_list *out) {
  const int64_t n = req->n;
  const double m_cell = sc->m_cell, s2min = sc->s2min, s2cell = sc->s2cell;
  const double cell = req->box_cmpc / (double)n;
  int failed = 0;
#pragma omp parallel reduction(|| : failed)
  {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
    if (!r) failed = 1;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      if (!r) continue;
      plane_rng_seed(r, req->seed, i);
      int64_t h = first[i];
      for (int64_t j = 0; j < n; ++j)
        for (int64_t k = 0; k < n; ++k) {
          double u[3] = {gsl_rng_uniform(r), gsl_rng_uniform(r), gsl_rng_uniform(r)};
          size_t q = ((size_t)i * (size_t)n + (size_t)j) * (size_t)n + (size_t)k;
          double f = synth_halos_fcoll_conditional(req->delta_lin_z0[q], req->growth, s2min,
                                                   s2cell);
          double m = f * m_cell * req->rho_over_mean[q];
          if (!(m >= req->min_source_mass_msun)) continue;
          const int64_t idx[3] = {i, j, k};
          for (int d = 0; d < 3; ++d)
            out->position_cmpc[3 * h + d] = ((double)idx[d] + 0.05 + 0.9 * u[d]) * cell;
          out->mass_msun[h] = m;
          ++h;
        }
    }
    if (r) gsl_rng_free(r);
  }
  if (failed) return ionf_error_set(IONF_ERR_MEM, "out of memory for the halo position generators");
  return IONF_OK;
}

ionf_err synth_halos_eps(const struct synth_eps_request *req, const struct synth_spectrum *s,
                         struct synth_halo_list *out, struct synth_eps_stats *stats) {
  IONF_CHECK(req && s && out && req->delta_lin_z0 && req->rho_over_mean, IONF_ERR_INTERNAL,
             "synth_halos_eps: NULL argument");
  memset(out, 0, sizeof *out);
  struct eps_scales sc = {0.0, 0.0, 0.0, 0.0, 0.0};
  IONF_CALL(eps_scales_of(req, s, &sc));
  const int64_t n = req->n;
  int64_t *first = calloc((size_t)n + 1, sizeof *first);
  if (!first) return ionf_error_set(IONF_ERR_MEM, "out of memory for the EPS sums");
  ionf_err rc = eps_count(req, &sc, first, stats);
  const int64_t n_halo = rc == IONF_OK ? first[n] : 0;
  if (rc == IONF_OK) {
    out->position_cmpc = malloc((n_halo ? (size_t)n_halo : 1) * 3 * sizeof *out->position_cmpc);
    out->mass_msun = malloc((n_halo ? (size_t)n_halo : 1) * sizeof *out->mass_msun);
    if (!out->position_cmpc || !out->mass_msun)
      rc = ionf_error_set(IONF_ERR_MEM, "out of memory for %lld haloes", (long long)n_halo);
  }
  if (rc == IONF_OK) rc = eps_place(req, &sc, first, out);
  free(first);
  if (rc != IONF_OK) {
    synth_halos_list_free(out);
    return rc;
  }
  out->n = n_halo;
  return IONF_OK;
}
