/**
 * @file thermal_test_util.h
 * @brief Shared set-ups of the thermal tests: the plane slab of the seed's cases 1 and 2
 *        (Silvestri & Pecnik 2019, Table 1: kappa 1/m, 1 m, black walls; lin1 and parab1)
 *        and a comparison of a solve with its exact solution (z-scores).
 */
#ifndef IONF_THERMAL_TEST_UTIL_H
#define IONF_THERMAL_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "thermal/thermal.h"
#include "thermal/thermal_exact.h"

/** Temperature profiles of the seed's eqs. 18-19 (x in m on a 1 m slab). */
enum thermal_test_profile { THERMAL_TEST_LIN1, THERMAL_TEST_PARAB1 };

/** A slab problem: setup, fields, and result arrays. */
struct thermal_test_slab {
  struct thermal_setup s;
  double *t_k, *p_atm, *x_h2o, *x_co2;
  struct thermal_fields f;
  struct thermal_range r;
  struct thermal_result out;
  double *q, *q_sigma, *wq, *wq_sigma; /* results */
  double *q_exact;                     /* [nx] */
  double wq_exact[2];
};

static inline double thermal_test_profile_t(int profile, double x) {
  return profile == THERMAL_TEST_LIN1 ? 500.0 + 1000.0 * x : 500.0 - 2000.0 * x * x + 2000.0 * x;
}

/** A grey slab of nx cells along x (1 m; y, z periodic, ny x nz cells of 1 m). */
static inline void thermal_test_slab_init(struct thermal_test_slab *t, int profile, int64_t nx,
                                          int64_t ny, int64_t nz, int64_t rays) {
  memset(t, 0, sizeof *t);
  struct thermal_setup *s = &t->s;
  s->n[0] = nx;
  s->n[1] = ny;
  s->n[2] = nz;
  s->cell_m[0] = 1.0 / (double)nx;
  s->cell_m[1] = s->cell_m[2] = 1.0;
  s->periodic[1] = s->periodic[2] = 1;
  s->wall[THERMAL_FACE_X_LO].emissivity = s->wall[THERMAL_FACE_X_HI].emissivity = 1.0;
  s->wall[THERMAL_FACE_X_LO].t_k = thermal_test_profile_t(profile, 0.0);
  s->wall[THERMAL_FACE_X_HI].t_k = thermal_test_profile_t(profile, 1.0);
  s->gas_model = THERMAL_GAS_GREY;
  s->kappa_per_m = 1.0;
  s->rays_per_element = rays;
  s->seed = 12345u;
  s->transmissivity_min = 1e-6;
  int64_t cells = nx * ny * nz;
  t->t_k = calloc((size_t)cells, sizeof(double));
  t->p_atm = calloc((size_t)cells, sizeof(double));
  t->x_h2o = calloc((size_t)cells, sizeof(double));
  t->x_co2 = calloc((size_t)cells, sizeof(double));
  for (int64_t i = 0; i < cells; ++i) {
    double x = ((double)(i / (ny * nz)) + 0.5) / (double)nx;
    t->t_k[i] = thermal_test_profile_t(profile, x);
    t->p_atm[i] = 1.0;
  }
  t->f.t_k = t->t_k;
  t->q = calloc((size_t)cells, sizeof(double));
  t->q_sigma = calloc((size_t)cells, sizeof(double));
  t->wq = calloc((size_t)(2 * ny * nz), sizeof(double));
  t->wq_sigma = calloc((size_t)(2 * ny * nz), sizeof(double));
  t->q_exact = calloc((size_t)nx, sizeof(double));
}

/** Solve all elements on the CPU and the exact slab; 0 on success (prints the error). */
static inline int thermal_test_slab_solve(struct thermal_test_slab *t) {
  int64_t cells = t->s.n[0] * t->s.n[1] * t->s.n[2];
  t->r.cell_first = 0;
  t->r.cell_count = cells;
  t->r.wall_first = 0;
  t->r.wall_count = thermal_wall_patches(&t->s);
  t->out.q_w_per_m3 = t->q;
  t->out.q_sigma_w_per_m3 = t->q_sigma;
  t->out.wall_q_w_per_m2 = t->wq;
  t->out.wall_q_sigma_w_per_m2 = t->wq_sigma;
  ionf_err rc = thermal_solve_cpu(&t->s, &t->f, &t->r, &t->out);
  if (rc == IONF_OK) rc = thermal_exact_slab(&t->s, &t->f, t->q_exact, t->wq_exact);
  if (rc != IONF_OK) {
    fprintf(stderr, "thermal solve failed: %s\n", ionf_error_message());
    return 1;
  }
  return 0;
}

/** Cells' z-scores against the exact Q: the largest |z| and chi^2 per cell (NaN-safe:
    a NaN gives +inf). */
static inline void thermal_test_slab_z(const struct thermal_test_slab *t, double *z_max,
                                       double *chi2_per_cell) {
  int64_t nx = t->s.n[0], per = t->s.n[1] * t->s.n[2];
  double zm = 0.0, chi2 = 0.0;
  for (int64_t i = 0; i < nx * per; ++i) {
    double z = (t->q[i] - t->q_exact[i / per]) / t->q_sigma[i];
    if (!isfinite(z)) z = INFINITY;
    zm = fabs(z) > zm || isinf(z) ? fabs(z) : zm;
    chi2 += z * z;
  }
  *z_max = zm;
  *chi2_per_cell = chi2 / (double)(nx * per);
}

static inline void thermal_test_slab_free(struct thermal_test_slab *t) {
  free(t->t_k);
  free(t->p_atm);
  free(t->x_h2o);
  free(t->x_co2);
  free(t->q);
  free(t->q_sigma);
  free(t->wq);
  free(t->wq_sigma);
  free(t->q_exact);
}

#endif /* IONF_THERMAL_TEST_UTIL_H */
