/**
 * @file tb21_k.h
 * @brief The 21-cm differential brightness temperature of one cell (shared
 *        host/device maths; pyC2Ray Eq. 21).
 *
 * With the spin temperature saturated (T_s >> T_CMB) and no redshift-space
 * distortions,
 *
 *   dT_b [mK] = 27 (1 - x_HII) (1 + delta) sqrt(0.15 / (Omega_m h^2) (1 + z) / 10)
 *               (Omega_b h^2 / 0.023),
 *
 * with 1 + delta = n_H / mean(n_H).  The cosmology and redshift enter only
 * through the prefactor, computed once per field.
 */
#ifndef IONF_TB21_K_H
#define IONF_TB21_K_H

#include <math.h>

#include "core/ionf_hd.h"

/** The brightness temperature of a neutral mean-density cell [mK]. */
IONF_HD IONF_INLINE double tb21_prefactor_mk(double omega_m, double omega_b, double h,
                                             double redshift) {
  const double h2 = h * h;
  return 27.0 * sqrt(0.15 / (omega_m * h2) * (1.0 + redshift) / 10.0) * (omega_b * h2 / 0.023);
}

/** dT_b [mK] of a cell with ionized fraction x_hii and overdensity 1 + delta,
 *  from the prefactor of tb21_prefactor_mk. */
IONF_HD IONF_INLINE double tb21_cell_mk(double prefactor_mk, double x_hii, double one_plus_delta) {
  return prefactor_mk * (1.0 - x_hii) * one_plus_delta;
}

/** dT_b [mK] of one cell, everything in one call. */
IONF_HD IONF_INLINE double tb21_dtb_mk(double x_hii, double one_plus_delta, double omega_m,
                                       double omega_b, double h, double redshift) {
  return tb21_cell_mk(tb21_prefactor_mk(omega_m, omega_b, h, redshift), x_hii, one_plus_delta);
}

#endif /* IONF_TB21_K_H */
