/**
 * @file sph_kernel_table.c
 * @brief The kernel column table by GSL quadrature (see sph_kernel_table.h).
 */
#include "particles/sph_kernel_table.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <string.h>

#include "particles/sph_k.h"

#define COLUMN_QUAD_LIMIT 200

struct chord {
  double q2;
};

/* W(r, 1) at the point s along the chord of squared impact parameter q2. */
static double chord_integrand(double s, void *vp) {
  const struct chord *c = vp;
  return sph_kernel_w(sqrt(c->q2 + s * s), 1.0);
}

/* int_a^b of the integrand; GSL_EROUND (round-off limited) is accurate enough. */
static int chord_piece(gsl_integration_workspace *ws, struct chord *c, double a, double b,
                       double *out) {
  gsl_function f = {chord_integrand, c};
  double err;
  *out = 0.0;
  if (!(b > a)) return GSL_SUCCESS;
  int rc = gsl_integration_qag(&f, a, b, 0.0, 1e-13, COLUMN_QUAD_LIMIT, GSL_INTEG_GAUSS21, ws,
                               out, &err);
  return rc == GSL_EROUND ? GSL_SUCCESS : rc;
}

/* The half chord s in [0, sqrt(1 - q2)], split where r = 1/2 (the spline's break). */
static int column_quad(gsl_integration_workspace *ws, double q2, double *out) {
  *out = 0.0;
  if (!(q2 < 1.0)) return GSL_SUCCESS;
  if (q2 < 0.0) q2 = 0.0;
  struct chord c = {q2};
  double s_end = sqrt(1.0 - q2);
  double s_break = q2 < 0.25 ? sqrt(0.25 - q2) : 0.0;
  double inner, outer;
  int rc = chord_piece(ws, &c, 0.0, s_break, &inner);
  if (rc == GSL_SUCCESS) rc = chord_piece(ws, &c, s_break, s_end, &outer);
  *out = 2.0 * (inner + outer);
  return rc;
}

double sph_kernel_column_quad(double q2) {
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(COLUMN_QUAD_LIMIT);
  double c = NAN;
  if (ws) {
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (column_quad(ws, q2, &c) != GSL_SUCCESS) c = NAN;
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(ws);
  }
  return c;
}

ionf_err sph_kernel_table_fill(double *table) {
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(COLUMN_QUAD_LIMIT);
  if (!ws) return ionf_error_set(IONF_ERR_MEM, "kernel column table: no GSL workspace");
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int rc = GSL_SUCCESS;
  int i;
  for (i = 0; i <= SPH_COLUMN_INTERVALS && rc == GSL_SUCCESS; ++i)
    rc = column_quad(ws, (double)i / (double)SPH_COLUMN_INTERVALS, &table[i]);
  gsl_set_error_handler(old);
  gsl_integration_workspace_free(ws);
  if (rc != GSL_SUCCESS)
    return ionf_error_set(IONF_ERR_INTERNAL, "kernel column table: quadrature failed at q2 = %g (%s)",
                          (double)(i - 1) / (double)SPH_COLUMN_INTERVALS, gsl_strerror(rc));
  return IONF_OK;
}

ionf_err sph_kernel_table_copy(double *table) {
  static double cached[SPH_COLUMN_INTERVALS + 1];
  static int ready = 0;
  ionf_err rc = IONF_OK;
#pragma omp critical(ionf_sph_kernel_table)
  {
    if (!ready) {
      rc = sph_kernel_table_fill(cached);
      ready = rc == IONF_OK;
    }
    if (ready) memcpy(table, cached, sizeof cached);
  }
  return rc;
}
