/**
 * @file synth_density.h
 * @brief Synthetic cosmological density grids: a Gaussian random field with the
 *        linear ΛCDM spectrum (synth_spectrum.h), its log-normal transform, and
 *        the proper hydrogen density at a redshift.
 *
 * Grids are n^3 cells in C order, index (i*n + j)*n + k, of a periodic comoving
 * box.  The field is drawn in Fourier space: every mode of FFTW's r2c half
 * space (i, j in 0..n-1, k in 0..n/2) gets two Gaussian numbers from GSL's
 * MT19937 in that fixed order, whatever the thread count; the planes k = 0 and
 * k = n/2, which hold each mode and its conjugate, are then made Hermitian (the
 * mode first in that order keeps its draw) and self-conjugate modes real.  The
 * inverse FFT (FFTW c2r, FFTW_ESTIMATE so the plan does not depend on timings)
 * gives the real field.  With <|δ_k|^2> = V P(k) the grid's variance is the sum
 * of P(k)/V over the box's modes (the k = 0 mode is zero: the box has the mean
 * density).  Same seed and n -> the same bits, on any number of threads.
 * MT19937 takes a 32-bit seed: a 64-bit seed is folded (seed ^ seed >> 32).
 */
#ifndef IONF_SYNTH_DENSITY_H
#define IONF_SYNTH_DENSITY_H

#include <stdint.h>

#include "core/error.h"
#include "synth/synth_spectrum.h"

/** Hydrogen mass fraction used for n_H (as the C2-Ray comparison runs). */
#define SYNTH_DENSITY_X_H 0.76

/**
 * Linear overdensity δ at z = 0 on n^3 cells of a periodic box of comoving side
 * box_cmpc [Mpc, not Mpc/h], with the spectrum `s`, from `seed`, into `delta` (n^3).
 */
IONF_NODISCARD ionf_err synth_density_linear(int64_t n, double box_cmpc,
                                             const struct synth_spectrum *s, uint64_t seed,
                                             double *delta);

/** What the log-normal transform saw (for reports and tests). */
struct synth_lognormal_stats {
  double sigma_lin;       /*!< rms of growth * δ over the grid */
  double raw_mean;        /*!< grid mean of exp(gδ - σ²/2) before it is made exactly 1 */
  double min_over_mean;   /*!< smallest ρ/ρ̄ */
  double max_over_mean;   /*!< largest ρ/ρ̄ */
};

/**
 * ρ/ρ̄ = exp(g δ − σ²/2) with g = `growth` (D(z)) and σ² the variance of g δ on
 * the grid, then divided by its grid mean so that the box holds exactly the
 * mean density (the mean differs from 1 by the sampling of the large modes).
 * `rho_over_mean` may be `delta_z0` (in place).  Sums are taken plane by plane
 * in a fixed order, so the result does not depend on the thread count.
 */
IONF_NODISCARD ionf_err synth_density_lognormal(int64_t n, const double *delta_z0, double growth,
                                                double *rho_over_mean,
                                                struct synth_lognormal_stats *stats);

/**
 * Proper hydrogen density [cm^-3] at redshift z: n_H = n̄_H(z) ρ/ρ̄, with
 * n̄_H(z) = cosmology_mean_hydrogen_cm3(c, z, SYNTH_DENSITY_X_H).  In place allowed.
 */
void synth_density_hydrogen(int64_t n, const double *rho_over_mean, const struct cosmology *c,
                            double z, double *n_h_cm3);

/** 1 when FFTW's OpenMP threads are built in (else the FFT runs on one thread). */
int synth_density_fft_threaded(void);

#endif
