/**
 * @file synth_growth.c
 * @brief Linear growth factor D(z) in flat ΛCDM by GSL quadrature.
 */
#include "synth/synth_growth.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>

#define SYNTH_GROWTH_LIMIT 200

static double growth_e(const struct cosmology *c, double a) {
  return sqrt(c->omega_m / (a * a * a) + c->omega_lambda);
}

/* 1 / (a E(a))^3 = (a / (Ω_m + Ω_Λ a^3))^{3/2}: finite (zero) at a = 0. */
static double growth_integrand(double a, void *params) {
  const struct cosmology *c = params;
  double q = a / (c->omega_m + c->omega_lambda * a * a * a);
  return q * sqrt(q);
}

/* The unnormalised D(a) = E(a) ∫_0^a (a' E(a'))^-3 da'. */
static double growth_unnormalised(const struct cosmology *c, double a) {
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(SYNTH_GROWTH_LIMIT);
  if (!w) return NAN;
  gsl_function f;
  f.function = growth_integrand;
  f.params = (void *)c;
  double result = NAN, abserr = 0.0;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int rc = gsl_integration_qag(&f, 0.0, a, 0.0, 1e-11, SYNTH_GROWTH_LIMIT, GSL_INTEG_GAUSS31, w,
                               &result, &abserr);
  gsl_set_error_handler(old);
  gsl_integration_workspace_free(w);
  return rc == GSL_SUCCESS ? growth_e(c, a) * result : NAN;
}

double synth_growth_factor(const struct cosmology *c, double z) {
  if (!(z > -1.0) || !isfinite(z)) return NAN;
  return growth_unnormalised(c, 1.0 / (1.0 + z)) / growth_unnormalised(c, 1.0);
}
