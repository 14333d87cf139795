/**
 * @file cosmology.c
 * @brief Flat ΛCDM background and the Shapiro & Giroux (1987) expanding H II region.
 */
#include "cosmo/cosmology.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_expint.h>
#include <math.h>

#include "core/constants.h"

/* The unit of H0 that h counts: H0 = 100 h km/s/Mpc (a definition, not a measurement). */
#define COSMOLOGY_H100_KM_S_MPC 100.0

struct cosmology cosmology_flat(double h, double omega_m, double omega_b, double t_cmb0_k) {
  struct cosmology c;
  c.h = h;
  c.omega_m = omega_m;
  c.omega_b = omega_b;
  c.omega_lambda = 1.0 - omega_m;
  c.t_cmb0_k = t_cmb0_k;
  return c;
}

ionf_err cosmology_validate(const struct cosmology *c, const char *origin) {
  if (!origin) origin = "cosmology";
  IONF_CHECK(c, IONF_ERR_INTERNAL, "%s: NULL cosmology", origin);
  IONF_CHECK(isfinite(c->h) && c->h > 0.0, IONF_ERR_CONFIG, "%s: h = %g; must be finite and > 0",
             origin, c->h);
  IONF_CHECK(isfinite(c->omega_m) && c->omega_m > 0.0 && c->omega_m <= 1.0, IONF_ERR_CONFIG,
             "%s: omega_m = %g; must be in (0, 1]", origin, c->omega_m);
  IONF_CHECK(isfinite(c->omega_b) && c->omega_b >= 0.0 && c->omega_b <= c->omega_m,
             IONF_ERR_CONFIG, "%s: omega_b = %g; must be in [0, omega_m = %g]", origin,
             c->omega_b, c->omega_m);
  IONF_CHECK(isfinite(c->omega_lambda) && fabs(c->omega_lambda - (1.0 - c->omega_m)) <= 1e-12,
             IONF_ERR_CONFIG,
             "%s: omega_lambda = %.15g; a flat cosmology needs 1 - omega_m = %.15g", origin,
             c->omega_lambda, 1.0 - c->omega_m);
  IONF_CHECK(isfinite(c->t_cmb0_k) && c->t_cmb0_k >= 0.0, IONF_ERR_CONFIG,
             "%s: t_cmb0 = %g K; must be finite and >= 0", origin, c->t_cmb0_k);
  return IONF_OK;
}

/* H0 [1/s]. */
static double cosmology_h0_per_s(const struct cosmology *c) {
  return c->h * COSMOLOGY_H100_KM_S_MPC * IONF_KM_CM / IONF_MPC_CM;
}

double cosmology_hubble_per_s(const struct cosmology *c, double z) {
  if (!(z > -1.0)) return NAN;
  double zp1 = 1.0 + z;
  return cosmology_h0_per_s(c) * sqrt(c->omega_m * zp1 * zp1 * zp1 + c->omega_lambda);
}

double cosmology_scale_factor(double z) {
  if (!(z > -1.0)) return NAN;
  return 1.0 / (1.0 + z);
}

double cosmology_age_s(const struct cosmology *c, double z) {
  if (!(z > -1.0)) return NAN;
  double a = 1.0 / (1.0 + z), a32 = a * sqrt(a), h0 = cosmology_h0_per_s(c);
  if (c->omega_lambda == 0.0) /* Einstein–de Sitter: the limit of the closed form */
    return 2.0 / (3.0 * h0 * sqrt(c->omega_m)) * a32;
  double sl = sqrt(c->omega_lambda);
  return 2.0 / (3.0 * h0 * sl) * asinh(sqrt(c->omega_lambda / c->omega_m) * a32);
}

double cosmology_redshift_at_age(const struct cosmology *c, double t_s) {
  if (!(t_s > 0.0) || !isfinite(t_s)) return NAN;
  double h0 = cosmology_h0_per_s(c), a32;
  if (c->omega_lambda == 0.0) {
    a32 = 1.5 * h0 * sqrt(c->omega_m) * t_s;
  } else {
    double sl = sqrt(c->omega_lambda);
    a32 = sinh(1.5 * h0 * sl * t_s) / sqrt(c->omega_lambda / c->omega_m);
  }
  /* 1 + z = a^{-1} = (a^{3/2})^{-2/3} */
  return pow(a32, -2.0 / 3.0) - 1.0;
}

double cosmology_critical_density0_g_cm3(const struct cosmology *c) {
  double h0 = cosmology_h0_per_s(c);
  return 3.0 * h0 * h0 / (8.0 * IONF_PI * IONF_G_CM3_PER_G_S2);
}

double cosmology_mean_hydrogen_cm3(const struct cosmology *c, double z, double x_h) {
  if (!(z > -1.0)) return NAN;
  double rho_crit0 = cosmology_critical_density0_g_cm3(c); /* [g cm^-3] */
  double zp1 = 1.0 + z;
  return x_h * c->omega_b * rho_crit0 * zp1 * zp1 * zp1 / IONF_PROTON_MASS_G;
}

double cosmology_t_cmb_k(const struct cosmology *c, double z) {
  if (!(z > -1.0)) return NAN;
  return c->t_cmb0_k * (1.0 + z);
}

double cosmology_sg87_front_comoving_cm(double ndot_per_s, double n_h_initial_cm3,
                                        double alpha_b_cm3_s, double t_initial_s, double t_s) {
  if (!(ndot_per_s > 0.0 && n_h_initial_cm3 > 0.0 && alpha_b_cm3_s > 0.0 && t_initial_s > 0.0) ||
      !isfinite(ndot_per_s) || !isfinite(n_h_initial_cm3) || !isfinite(alpha_b_cm3_s) ||
      !isfinite(t_initial_s) || !isfinite(t_s))
    return NAN;
  if (t_s <= t_initial_s) return 0.0;

  double n = n_h_initial_cm3;
  double r_s = cbrt(3.0 * ndot_per_s / (4.0 * IONF_PI * alpha_b_cm3_s * n * n));
  double lambda = t_initial_s * alpha_b_cm3_s * n; /* t_i / t_rec,i */
  double x = lambda * (t_initial_s / t_s);         /* λ t_i / t */
  /* e^{x} E_2(λ) = e^{x - λ} [e^{λ} E_2(λ)],  x - λ = -λ (t - t_i)/t  (≤ 0: no overflow) */
  gsl_sf_result e2x, e2l;
  gsl_error_handler_t *old_handler = gsl_set_error_handler_off(); /* failures: NaN, no abort */
  int bad = gsl_sf_expint_E2_scaled_e(x, &e2x) != GSL_SUCCESS ||
            gsl_sf_expint_E2_scaled_e(lambda, &e2l) != GSL_SUCCESS;
  gsl_set_error_handler(old_handler);
  if (bad) return NAN;
  double y = lambda * ((t_s / t_initial_s) * e2x.val -
                       exp(-lambda * (t_s - t_initial_s) / t_s) * e2l.val);
  if (y < 0.0) y = 0.0; /* rounding just after switch-on */
  return r_s * cbrt(y);
}
