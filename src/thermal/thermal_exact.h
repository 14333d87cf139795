/**
 * @file thermal_exact.h
 * @brief Exact solution of a plane slab (x between two grey diffuse walls, y and z
 *        periodic, the fields uniform in y and z and piecewise constant per cell along x)
 *        for the grey gas and the WSGG models: Q^R at every cell centre and the net flux
 *        into both walls.  The references of the tests and validation/thermal.py.
 *
 * For one grey gas j (a WSGG splits into one grey problem per gas: source
 * kappa_j a_j(T) I_b(T), wall emission eps a_j(T_w) sigma T_w^4, the results summed):
 *   G(x) = 2 J_1 E_2(tau(x)) + 2 J_2 E_2(tau_L - tau(x)) + 2 pi sum_c I_b,c K_c(x),
 *   K_c(x) = E_2(tau to c's near face) - E_2(tau to its far face)    (c not containing x),
 *          = 2 - E_2(tau(x) - tau_lo,c) - E_2(tau_hi,c - tau(x))      (c containing x),
 *   Q(x) = kappa (4 pi I_b(x) - G(x)),
 * with J_w the walls' radiosities (J_w = eps_w pi I_b,w + (1 - eps_w) H_w, H_w the flux
 * arriving at wall w: 2 J_other E_3(tau_L) + 2 pi sum_c I_b,c (E_3(near) - E_3(far)); a
 * 2x2 linear system) and the net flux into wall w, H_w - J_w (Modest, Radiative Heat
 * Transfer, 3rd ed., ch. 14, the exponential-integral solution of the slab).  E_n by GSL.
 */
#ifndef IONF_THERMAL_EXACT_H
#define IONF_THERMAL_EXACT_H

#include "core/error.h"
#include "thermal/thermal.h"

/**
 * The slab along x of setup s (periodic[1], periodic[2] set, x closed by walls x_lo and
 * x_hi) with the fields of the cells (i, 0, 0): q_w_per_m3[nx] at the cell centres, and
 * wall_q_w_per_m2[2] the net flux into x_lo and x_hi [W/m^2] (absorbed - emitted).
 */
ionf_err thermal_exact_slab(const struct thermal_setup *s, const struct thermal_fields *f,
                            double *q_w_per_m3, double wall_q_w_per_m2[2]);

#endif /* IONF_THERMAL_EXACT_H */
