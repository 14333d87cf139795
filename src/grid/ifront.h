/**
 * @file ifront.h
 * @brief Ionization-front position on the grid and the analytic Stromgren
 *        front r_I(t) = r_S (1 - exp(-t/t_rec))^(1/3) it is compared with.
 */
#ifndef IONF_IFRONT_H
#define IONF_IFRONT_H

#include <stdint.h>

#include "grid/grid.h"

/** Stromgren radius [cm] for photon rate ndot, density n_h, recombination alpha_b. */
double ifront_stromgren_radius_cm(double ndot_per_s, double n_h_cm3, double alpha_b_cm3_s);
/** Recombination time 1/(alpha_B n_H) [s]. */
double ifront_recombination_time_s(double n_h_cm3, double alpha_b_cm3_s);
/** Analytic front radius [cm] at time t_s in a uniform static medium. */
double ifront_analytic_radius_cm(double ndot_per_s, double n_h_cm3, double alpha_b_cm3_s,
                                 double t_s);

/**
 * Distance [cm] from the source cell centre to where the neutral fraction
 * 1 - x_HII first reaches 0.5 along the x axis (towards the far side of the
 * box), linearly interpolated between cell centres.  Returns -1 if the front
 * has left the box along that line.
 */
double ifront_radius_along_x_cm(const struct grid *g, const double *x_hii, const int32_t *src);
/** The same on one line of cells x_line[i] = x_HII(i, j_src, k_src), source at i = i_src. */
double ifront_radius_along_line_cm(const struct grid *g, const double *x_line, int32_t i_src);

#endif
