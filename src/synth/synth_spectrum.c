/**
 * @file synth_spectrum.c
 * @brief ΛCDM P(k) (Eisenstein & Hu 1998 no-wiggle), sigma_8 normalisation, σ(R), σ(M).
 */
#include "synth/synth_spectrum.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>

#include "core/constants.h"

#define SPECTRUM_LIMIT 10000
#define SPECTRUM_EPSREL 1e-8
#define SPECTRUM_R8_H_MPC 8.0
#define SPECTRUM_E 2.718281828459045 /* e (M_E is not C17) */
/* The σ(R) integral runs over k in [K_MIN, X_MAX / R]: below K_MIN the integrand
 * k^(3 + n_s) is < 1e-15 of its peak, beyond kR = X_MAX the window's x^-4 tail
 * holds < 1e-9 of σ^2. */
#define SPECTRUM_K_MIN_H_MPC 1e-7
#define SPECTRUM_X_MAX 4000.0

double synth_spectrum_transfer(const struct cosmology *c, double k_h_mpc) {
  if (!(k_h_mpc > 0.0)) return 1.0;
  double h = c->h, om_h2 = c->omega_m * h * h, ob_h2 = c->omega_b * h * h;
  double fb = c->omega_b / c->omega_m;
  double theta = c->t_cmb0_k / 2.7;
  /* Eq. 26: sound horizon [Mpc]; Eq. 31: suppression; Eq. 30: effective shape (k in 1/Mpc) */
  double s_mpc = 44.5 * log(9.83 / om_h2) / sqrt(1.0 + 10.0 * pow(ob_h2, 0.75));
  double alpha = 1.0 - 0.328 * log(431.0 * om_h2) * fb + 0.38 * log(22.3 * om_h2) * fb * fb;
  double ks = 0.43 * k_h_mpc * h * s_mpc;
  double gamma_eff = c->omega_m * h * (alpha + (1.0 - alpha) / (1.0 + ks * ks * ks * ks));
  /* Eq. 28-29 */
  double q = k_h_mpc * theta * theta / gamma_eff;
  double l0 = log(2.0 * SPECTRUM_E + 1.8 * q);
  double c0 = 14.2 + 731.0 / (1.0 + 62.5 * q);
  return l0 / (l0 + c0 * q * q);
}

static double spectrum_shape(const struct cosmology *c, double n_s, double k_h_mpc) {
  double t = synth_spectrum_transfer(c, k_h_mpc);
  return pow(k_h_mpc, n_s) * t * t;
}

double synth_spectrum_power(const struct synth_spectrum *s, double k_h_mpc) {
  if (!(k_h_mpc > 0.0)) return 0.0;
  return s->amplitude * spectrum_shape(&s->cosmo, s->n_s, k_h_mpc);
}

double synth_spectrum_tophat_window(double x) {
  if (fabs(x) < 1e-3) return 1.0 - x * x / 10.0; /* next term x^4/280 < 4e-15 */
  return 3.0 * (sin(x) - x * cos(x)) / (x * x * x);
}

struct sigma_params {
  const struct cosmology *cosmo;
  double n_s, r_h_mpc;
};

/* k^3 P(k) W^2(kR) / (2π^2) with P unnormalised, as a function of ln k. */
static double sigma_integrand(double ln_k, void *vp) {
  const struct sigma_params *p = vp;
  double k = exp(ln_k), w = synth_spectrum_tophat_window(k * p->r_h_mpc);
  return k * k * k * spectrum_shape(p->cosmo, p->n_s, k) * w * w / (2.0 * IONF_PI * IONF_PI);
}

/* σ^2(R) of the unnormalised spectrum. */
static ionf_err sigma2_unnormalised(const struct cosmology *c, double n_s, double r_h_mpc,
                                    double *out) {
  struct sigma_params p = {c, n_s, r_h_mpc};
  gsl_function f;
  f.function = sigma_integrand;
  f.params = &p;
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(SPECTRUM_LIMIT);
  IONF_CHECK(w, IONF_ERR_MEM, "out of memory for the sigma(R) quadrature");
  double lo = log(SPECTRUM_K_MIN_H_MPC), hi = log(SPECTRUM_X_MAX / r_h_mpc);
  double result = NAN, abserr = 0.0;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int rc = GSL_SUCCESS;
  /* Split at kR = 1: a smooth body, then the oscillating tail of the window. */
  double mid = log(1.0 / r_h_mpc), body = 0.0, tail = 0.0, e1 = 0.0, e2 = 0.0;
  if (mid <= lo) mid = lo;
  if (mid > lo)
    rc = gsl_integration_qag(&f, lo, mid, 0.0, SPECTRUM_EPSREL, SPECTRUM_LIMIT, GSL_INTEG_GAUSS31,
                             w, &body, &e1);
  if (rc == GSL_SUCCESS)
    rc = gsl_integration_qag(&f, mid, hi, 0.0, SPECTRUM_EPSREL, SPECTRUM_LIMIT, GSL_INTEG_GAUSS61,
                             w, &tail, &e2);
  gsl_set_error_handler(old);
  gsl_integration_workspace_free(w);
  result = body + tail;
  abserr = e1 + e2;
  IONF_CHECK(rc == GSL_SUCCESS && isfinite(result) && result > 0.0, IONF_ERR_INTERNAL,
             "sigma(R = %g Mpc/h): the quadrature failed (%s; result %g +- %g)", r_h_mpc,
             gsl_strerror(rc), result, abserr);
  *out = result;
  return IONF_OK;
}

ionf_err synth_spectrum_init(struct synth_spectrum *s, const struct cosmology *c, double sigma_8,
                             double n_s) {
  IONF_CALL(cosmology_validate(c, "cosmology of the power spectrum"));
  IONF_CHECK(c->t_cmb0_k > 0.0, IONF_ERR_CONFIG,
             "the Eisenstein & Hu transfer function needs T_cmb > 0 (got %g K)", c->t_cmb0_k);
  IONF_CHECK(isfinite(sigma_8) && sigma_8 > 0.0 && sigma_8 < 10.0, IONF_ERR_CONFIG,
             "sigma_8 = %g is out of range (0, 10)", sigma_8);
  IONF_CHECK(isfinite(n_s) && n_s > 0.0 && n_s < 2.0, IONF_ERR_CONFIG,
             "n_s = %g is out of range (0, 2)", n_s);
  s->cosmo = *c;
  s->sigma_8 = sigma_8;
  s->n_s = n_s;
  double s8 = 0.0;
  IONF_CALL(sigma2_unnormalised(c, n_s, SPECTRUM_R8_H_MPC, &s8));
  s->amplitude = sigma_8 * sigma_8 / s8;
  s->rho_m_msun_mpc3 = c->omega_m * cosmology_critical_density0_g_cm3(c) * IONF_MPC_CM *
                       IONF_MPC_CM * IONF_MPC_CM / IONF_M_SUN_G;
  return IONF_OK;
}

ionf_err synth_spectrum_sigma_radius(const struct synth_spectrum *s, double r_h_mpc,
                                     double *sigma) {
  IONF_CHECK(isfinite(r_h_mpc) && r_h_mpc > 0.0, IONF_ERR_INTERNAL,
             "sigma(R): radius %g Mpc/h must be > 0", r_h_mpc);
  double v = 0.0;
  IONF_CALL(sigma2_unnormalised(&s->cosmo, s->n_s, r_h_mpc, &v));
  *sigma = sqrt(s->amplitude * v);
  return IONF_OK;
}

double synth_spectrum_radius_of_mass(const struct synth_spectrum *s, double mass_msun) {
  double r_mpc = cbrt(3.0 * mass_msun / (4.0 * IONF_PI * s->rho_m_msun_mpc3));
  return r_mpc * s->cosmo.h;
}

ionf_err synth_spectrum_sigma_mass(const struct synth_spectrum *s, double mass_msun,
                                   double *sigma) {
  IONF_CHECK(isfinite(mass_msun) && mass_msun > 0.0, IONF_ERR_CONFIG,
             "sigma(M): mass %g Msun must be > 0", mass_msun);
  IONF_CALL(synth_spectrum_sigma_radius(s, synth_spectrum_radius_of_mass(s, mass_msun), sigma));
  return IONF_OK;
}
