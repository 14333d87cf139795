/**
 * @file bands_whole.c
 * @brief Whole-band tables for hydrogen and helium (see bands_whole.h, bands_whole_k.h).
 */
#include "rt/bands_whole.h"

#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/atomic_k.h"
#include "chem/secondary_k.h"
#include "core/constants.h"
#include "rt/bands.h"

/* Frequency quadrature of a band: Gauss-Legendre in ln E, BANDS_WHOLE_GL points in each of
   BANDS_WHOLE_SEGMENTS equal segments (the tables against GSL's adaptive quadrature of the
   whole spectrum: tests/test_bands.c) */
#define BANDS_WHOLE_SEGMENTS 128
#define BANDS_WHOLE_GL 8
#define BANDS_WHOLE_POINTS (BANDS_WHOLE_SEGMENTS * BANDS_WHOLE_GL)
#define BANDS_WHOLE_SPLIT_EV SECONDARY_MIN_EV /* the X-ray band starts here */

/* One band's quadrature: photons per point (weight times spectrum times E), the photon
   energy [erg] and the two shapes. */
struct bands_whole_quad {
  double pw[BANDS_WHOLE_POINTS], e_erg[BANDS_WHOLE_POINTS];
  double beta[2][BANDS_WHOLE_POINTS];
  double beta_min[2]; /* over the points that carry photons */
};

/* Band b's edges, shapes and columns-to-optical-depth matrix k; the quadrature. */
static void bands_whole_band(const struct bands_setup *setup, int b, struct bands_whole *w,
                             struct bands_whole_quad *q, gsl_integration_glfixed_table *gl) {
  const double lo = w->e_lo_ev[b], hi = w->e_hi_ev[b];
  const double llo = log(lo), seg = (log(hi) - llo) / BANDS_WHOLE_SEGMENTS;
  /* the shapes' absorbers: HI alone, then HI and HeI (HeII mixed from the two) */
  const int shape[2] = {ATOMIC_HI, ATOMIC_HEI};
  const double s_lo[2] = {atomic_sigma_cm2(shape[0], lo), atomic_sigma_cm2(shape[1], lo)};
  w->axes[b] = b == 0 ? 1 : 2;
  memset(w->k[b], 0, sizeof w->k[b]);
  w->k[b][0][shape[0]] = s_lo[0];
  if (w->axes[b] == 2) w->k[b][1][shape[1]] = s_lo[1];
  q->beta_min[0] = q->beta_min[1] = INFINITY;
  for (int i = 0; i < BANDS_WHOLE_POINTS; ++i) {
    double x, wt;
    gsl_integration_glfixed_point(llo + seg * (i / BANDS_WHOLE_GL), llo + seg * (i / BANDS_WHOLE_GL + 1),
                                  (size_t)(i % BANDS_WHOLE_GL), &x, &wt, gl);
    const double e = exp(x);
    q->pw[i] = wt * e * bands_photons_at(setup, e);
    q->e_erg[i] = e * IONF_EV_ERG;
    for (int a = 0; a < 2; ++a) {
      q->beta[a][i] = a < w->axes[b] ? atomic_sigma_cm2(shape[a], e) / s_lo[a] : 0.0;
      if (q->pw[i] > 0.0 && q->beta[a][i] < q->beta_min[a]) q->beta_min[a] = q->beta[a][i];
    }
  }
  if (w->axes[b] == 1) q->beta_min[1] = 0.0;
  w->heii_fit_error[b] = 0.0;
  if (b < 2) return;
  /* HeII's cross-section as c_0 beta_0 + c_1 beta_1: least squares in its relative error
     weighted by the points' photons (tests/test_bands.c: the absorbed photons' errors are
     several times smaller so than with uniform weights in ln E, or with HI the mixed
     absorber); one shape alone if both do not fit with positive weights */
  double m00 = 0.0, m01 = 0.0, m11 = 0.0, r0 = 0.0, r1 = 0.0;
  for (int i = 0; i < BANDS_WHOLE_POINTS; ++i) {
    const double s = atomic_sigma_cm2(ATOMIC_HEII, q->e_erg[i] / IONF_EV_ERG);
    const double g0 = q->beta[0][i] / s, g1 = q->beta[1][i] / s, wt = q->pw[i];
    m00 += wt * g0 * g0;
    m01 += wt * g0 * g1;
    m11 += wt * g1 * g1;
    r0 += wt * g0;
    r1 += wt * g1;
  }
  const double det = m00 * m11 - m01 * m01;
  double c0 = (r0 * m11 - r1 * m01) / det, c1 = (r1 * m00 - r0 * m01) / det;
  if (!(c0 >= 0.0 && c1 >= 0.0)) { /* the one shape that leaves the smaller residual */
    const int first = r0 * r0 / m00 >= r1 * r1 / m11;
    c0 = first ? r0 / m00 : 0.0;
    c1 = first ? 0.0 : r1 / m11;
  }
  w->k[b][0][ATOMIC_HEII] = c0;
  w->k[b][1][ATOMIC_HEII] = c1;
  for (int i = 0; i < BANDS_WHOLE_POINTS; ++i) {
    const double e = q->e_erg[i] / IONF_EV_ERG, s = atomic_sigma_cm2(ATOMIC_HEII, e);
    const double err = fabs((c0 * q->beta[0][i] + c1 * q->beta[1][i]) / s - 1.0);
    if (err > w->heii_fit_error[b]) w->heii_fit_error[b] = err;
  }
}

/* The sums over the points of v, v beta_0, v beta_1 and v beta_0 beta_1 into sum[4], v the
   points' photons (energy when `energy`) times ex0 ex1 (their exp(-tau_a (beta_a -
   beta_min_a))) or, when ex0 is NULL, times exp(-(tau . beta - least)). */
static void bands_whole_sums(const struct bands_whole_quad *q, const double *ex0,
                             const double *ex1, const double tau[2], double least, int energy,
                             double sum[4]) {
  sum[0] = sum[1] = sum[2] = sum[3] = 0.0;
  for (int i = 0; i < BANDS_WHOLE_POINTS; ++i) {
    const double w = q->pw[i] * (energy ? q->e_erg[i] : 1.0);
    const double v = ex0 ? w * ex0[i] * ex1[i]
                         : w * exp(-(tau[0] * q->beta[0][i] + tau[1] * q->beta[1][i] - least));
    sum[0] += v;
    sum[1] += v * q->beta[0][i];
    sum[2] += v * q->beta[1][i];
    sum[3] += v * q->beta[0][i] * q->beta[1][i];
  }
}

/* The photons (energy when `energy`) surviving optical depths (tau_0, tau_1): Lambda =
   -ln(surviving / surviving at 0) and its derivatives, into node[BANDS_WHOLE_VALUES]; ex[a]
   the points' exp(-tau_a (beta_a - beta_min_a)). */
static void bands_whole_node(const struct bands_whole_quad *q, const double *ex0,
                             const double *ex1, const double tau[2], int energy, double total,
                             double *node) {
  double sum[4];
  bands_whole_sums(q, ex0, ex1, tau, 0.0, energy, sum);
  double shift = tau[0] * q->beta_min[0] + tau[1] * q->beta_min[1];
  if (!(sum[0] > 1e-250 * total)) { /* underflow: the exponents shifted by their least */
    double least = INFINITY;
    for (int i = 0; i < BANDS_WHOLE_POINTS; ++i) {
      double x = tau[0] * q->beta[0][i] + tau[1] * q->beta[1][i];
      if (q->pw[i] > 0.0 && x < least) least = x;
    }
    bands_whole_sums(q, NULL, NULL, tau, least, energy, sum);
    shift = least;
  }
  node[0] = shift - log(sum[0] / total);
  node[1] = sum[1] / sum[0];
  node[2] = sum[2] / sum[0];
  node[3] = node[1] * node[2] - sum[3] / sum[0];
}

/* Band b's tables from its quadrature. */
static ionf_err bands_whole_tables(struct bands_whole *w, int b, const struct bands_whole_quad *q,
                                   double norm_photons) {
  const int n1 = w->axes[b] == 2 ? BANDS_WHOLE_NODES : 1;
  double *ex = malloc(sizeof(double) * BANDS_WHOLE_POINTS * (BANDS_WHOLE_NODES + (size_t)n1));
  if (!ex) return ionf_error_set(IONF_ERR_MEM, "no memory for the whole-band tables");
  double *ex1 = ex + (size_t)BANDS_WHOLE_POINTS * BANDS_WHOLE_NODES;
  for (int i = 0; i < BANDS_WHOLE_NODES; ++i)
    for (int p = 0; p < BANDS_WHOLE_POINTS; ++p) {
      const double t = bands_whole_node_tau(i);
      ex[(size_t)i * BANDS_WHOLE_POINTS + p] = exp(-t * (q->beta[0][p] - q->beta_min[0]));
      if (i < n1) ex1[(size_t)i * BANDS_WHOLE_POINTS + p] = exp(-t * (q->beta[1][p] - q->beta_min[1]));
    }
  double total = 0.0, total_e = 0.0;
  for (int p = 0; p < BANDS_WHOLE_POINTS; ++p) {
    total += q->pw[p];
    total_e += q->pw[p] * q->e_erg[p];
  }
  w->photons[b] = total / norm_photons;
  w->energy_erg[b] = total_e / norm_photons;
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < BANDS_WHOLE_NODES; ++i)
    for (int j = 0; j < n1; ++j) {
      const double tau[2] = {bands_whole_node_tau(i), n1 > 1 ? bands_whole_node_tau(j) : 0.0};
      const size_t at = (size_t)w->offset[b] + ((size_t)i * (size_t)n1 + (size_t)j) * BANDS_WHOLE_VALUES;
      const double *e0 = ex + (size_t)i * BANDS_WHOLE_POINTS, *e1 = ex1 + (size_t)j * BANDS_WHOLE_POINTS;
      bands_whole_node(q, e0, e1, tau, 0, total, w->table + at);
      if (w->e_table) bands_whole_node(q, e0, e1, tau, 1, total_e, w->e_table + at);
    }
  free(ex);
  return IONF_OK;
}

/* Lambda at node i of band b's photon (e == 0) or energy table along axis a (the other
   tau 0). */
static double bands_whole_axis_lambda(const struct bands_whole *w, int b, int e, int a, int i) {
  const double *t = (e ? w->e_table : w->table) + w->offset[b];
  const long long node = w->axes[b] == 1 ? i : (a == 0 ? (long long)i * BANDS_WHOLE_NODES : i);
  return t[node * BANDS_WHOLE_VALUES];
}

/* Band b's dark_a (BANDS_WHOLE_H_DARK): the first node tau_a from which on every node along
   axis a (the other tau 0) has Lambda >= BANDS_WHOLE_DARK_LAMBDA in the photon and (when
   built) energy tables; Lambda grows with either tau (k >= 0), so the band is dark beyond
   it whatever the other tau.  BANDS_WHOLE_TAU_MAX (the tables' end) where no node is;
   also axis 1 of a one-axis band. */
static double bands_whole_dark(const struct bands_whole *w, int b, int a) {
  double dark = BANDS_WHOLE_TAU_MAX;
  if (a >= w->axes[b]) return dark;
  for (int i = BANDS_WHOLE_NODES - 1; i >= 0; --i) {
    int all = bands_whole_axis_lambda(w, b, 0, a, i) >= BANDS_WHOLE_DARK_LAMBDA;
    if (w->e_table) all = all && bands_whole_axis_lambda(w, b, 1, a, i) >= BANDS_WHOLE_DARK_LAMBDA;
    if (!all) break;
    dark = bands_whole_node_tau(i);
  }
  return dark;
}

ionf_err bands_whole_build(const struct bands_setup *setup, double norm_photons, int heating,
                           struct bands_whole *w) {
  memset(w, 0, sizeof *w);
  const double edges[5] = {IONF_E_HI_EV, IONF_E_HEI_EV, IONF_E_HEII_EV, BANDS_WHOLE_SPLIT_EV,
                           setup->e_max_ev};
  w->n_bands = setup->e_max_ev > 1.001 * BANDS_WHOLE_SPLIT_EV ? 4 : 3;
  w->doubles = BANDS_WHOLE_HEADER * BANDS_WHOLE_MAX;
  for (int b = 0; b < w->n_bands; ++b) {
    w->e_lo_ev[b] = edges[b];
    w->e_hi_ev[b] = b + 1 == w->n_bands ? setup->e_max_ev : edges[b + 1];
    w->offset[b] = (long long)w->doubles;
    w->doubles += (size_t)BANDS_WHOLE_NODES * (b == 0 ? 1 : BANDS_WHOLE_NODES) * BANDS_WHOLE_VALUES;
  }
  w->table = malloc(sizeof(double) * w->doubles);
  if (heating) w->e_table = malloc(sizeof(double) * w->doubles);
  struct bands_whole_quad *q = malloc(sizeof *q);
  gsl_integration_glfixed_table *gl = gsl_integration_glfixed_table_alloc(BANDS_WHOLE_GL);
  ionf_err rc = IONF_OK;
  if (!w->table || (heating && !w->e_table) || !q || !gl)
    rc = ionf_error_set(IONF_ERR_MEM, "no memory for the whole-band tables");
  for (int b = 0; b < w->n_bands && rc == IONF_OK; ++b) {
    bands_whole_band(setup, b, w, q, gl);
    rc = bands_whole_tables(w, b, q, norm_photons);
  }
  for (int b = 0; b < BANDS_WHOLE_MAX && rc == IONF_OK; ++b) { /* the headers */
    double *h[2] = {w->table + BANDS_WHOLE_HEADER * b, w->e_table ? w->e_table + BANDS_WHOLE_HEADER * b : NULL};
    double dark[2] = {0.0, 0.0}; /* once for both tables */
    for (int a = 0; a < 2 && b < w->n_bands; ++a) dark[a] = bands_whole_dark(w, b, a);
    for (int t = 0; t < 2; ++t) {
      if (!h[t]) continue;
      memset(h[t], 0, sizeof(double) * BANDS_WHOLE_HEADER);
      if (b >= w->n_bands) continue;
      memcpy(h[t] + BANDS_WHOLE_H_K, w->k[b], sizeof w->k[b]);
      h[t][BANDS_WHOLE_H_PHOTONS] = w->photons[b];
      h[t][BANDS_WHOLE_H_ENERGY] = w->energy_erg[b];
      h[t][BANDS_WHOLE_H_AXES] = w->axes[b];
      h[t][BANDS_WHOLE_H_OFFSET] = (double)w->offset[b];
      for (int a = 0; a < 2; ++a) h[t][BANDS_WHOLE_H_DARK + a] = dark[a];
    }
  }
  free(q);
  if (gl) gsl_integration_glfixed_table_free(gl);
  if (rc != IONF_OK) bands_whole_free(w);
  return rc;
}

void bands_whole_free(struct bands_whole *w) {
  free(w->table);
  free(w->e_table);
  w->table = w->e_table = NULL;
  w->n_bands = 0;
}

struct bands_whole_view bands_whole_view_of(const struct bands_whole *w) {
  struct bands_whole_view v;
  memset(&v, 0, sizeof v);
  v.n_bands = w->table ? w->n_bands : 0;
  v.doubles = v.n_bands ? (long long)w->doubles : 0;
  v.table = w->table;
  v.e_table = w->e_table;
  return v;
}
