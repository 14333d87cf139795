/**
 * @file tb21.h
 * @brief The 21-cm differential brightness temperature of a grid (pyC2Ray
 *        Eq. 21, saturated spin temperature, no redshift-space distortions);
 *        the per-cell maths is in tb21_k.h.
 */
#ifndef IONF_TB21_H
#define IONF_TB21_H

#include <stdint.h>

/**
 * dtb_mk_out[c] = dT_b [mK] of cell c from x_hii[c] and 1 + delta = n_h[c] /
 * mean(n_h) over the n_cells cells (OpenMP).  n_h may be NULL for a uniform
 * medium (1 + delta = 1); when the mean of n_h is not positive (no hydrogen)
 * every cell gets 0.  The output may not alias the inputs.
 */
void tb21_field(int64_t n_cells, const double *x_hii, const double *n_h, double omega_m,
                double omega_b, double h, double redshift, double *dtb_mk_out);

#endif /* IONF_TB21_H */
