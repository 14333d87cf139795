/**
 * @file synth_spectrum.h
 * @brief Linear ΛCDM matter power spectrum at z = 0, normalised to sigma_8, and
 *        the mass variance σ(R), σ(M) of a top-hat filter.
 *
 *   P(k) = A k^n_s T(k)^2    [(Mpc/h)^3, k in h/Mpc]
 *
 * T(k) is the Eisenstein & Hu (1998, ApJ 496, 605, Eqs. 26, 28-31) "no-wiggle"
 * transfer function.  Chosen over BBKS (Bardeen et al. 1986 with Sugiyama's shape
 * parameter, which the old Python stand-in used) because it is fitted to
 * Boltzmann-code spectra with baryons, with a scale-dependent baryon suppression
 * tied to the sound horizon, where BBKS rescales a baryon-free fit by one shape
 * parameter; sub-Mpc boxes and 1e8 Msun haloes sit at k ~ 10-1000 h/Mpc, far from
 * where the two were matched.  The acoustic wiggles it leaves out do not matter
 * in boxes of <= 100 Mpc.
 *
 *   σ^2(R) = 1/(2π^2) ∫ k^3 P(k) W^2(kR) d ln k,   W(x) = 3 (sin x - x cos x) / x^3
 *
 * is integrated with GSL's adaptive quadrature; A makes σ(8 Mpc/h) = sigma_8.
 * A mass M is the top-hat of radius R = (3 M / (4π ρ̄_m))^{1/3}, ρ̄_m the comoving
 * mean matter density.
 */
#ifndef IONF_SYNTH_SPECTRUM_H
#define IONF_SYNTH_SPECTRUM_H

#include "cosmo/cosmology.h"
#include "core/error.h"

struct synth_spectrum {
  struct cosmology cosmo;
  double sigma_8;          /*!< rms overdensity in top-hat spheres of 8 Mpc/h at z = 0 */
  double n_s;              /*!< primordial spectral index */
  double amplitude;        /*!< A [(Mpc/h)^(3 + n_s)] */
  double rho_m_msun_mpc3;  /*!< comoving mean matter density [Msun / Mpc^3] (h included) */
};

/** Normalise the spectrum: checks the cosmology (T_cmb > 0 for T(k)), sigma_8 > 0, n_s. */
IONF_NODISCARD ionf_err synth_spectrum_init(struct synth_spectrum *s, const struct cosmology *c,
                                            double sigma_8, double n_s);

/** Eisenstein & Hu (1998) no-wiggle transfer function; k in h/Mpc; T -> 1 as k -> 0. */
double synth_spectrum_transfer(const struct cosmology *c, double k_h_mpc);

/** P(k) at z = 0 [(Mpc/h)^3]; k in h/Mpc (0 for k <= 0). */
double synth_spectrum_power(const struct synth_spectrum *s, double k_h_mpc);

/** Top-hat window W(x) = 3 (sin x - x cos x) / x^3 (series for small x). */
double synth_spectrum_tophat_window(double x);

/** σ(R) at z = 0 of top-hat spheres of radius r_h_mpc [Mpc/h]. */
IONF_NODISCARD ionf_err synth_spectrum_sigma_radius(const struct synth_spectrum *s,
                                                    double r_h_mpc, double *sigma);

/** σ(M) at z = 0 of the top-hat holding mass_msun [Msun] of matter at the mean density. */
IONF_NODISCARD ionf_err synth_spectrum_sigma_mass(const struct synth_spectrum *s,
                                                  double mass_msun, double *sigma);

/** The top-hat radius [Mpc/h] that holds mass_msun of matter at the mean density. */
double synth_spectrum_radius_of_mass(const struct synth_spectrum *s, double mass_msun);

#endif
