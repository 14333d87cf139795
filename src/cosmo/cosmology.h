/**
 * @file cosmology.h
 * @brief Flat ΛCDM background (radiation neglected) in CGS units, and the
 *        Shapiro & Giroux (1987) H II region in an expanding medium.
 *
 * H(z)  = H0 sqrt(Ω_m (1+z)^3 + Ω_Λ),   H0 = 100 h km/s/Mpc,  Ω_Λ = 1 − Ω_m
 * t(a)  = 2 / (3 H0 sqrt(Ω_Λ)) asinh( sqrt(Ω_Λ/Ω_m) a^{3/2} )   (exact for flat
 *         matter + Λ; the Einstein–de Sitter limit 2/(3 H0 sqrt(Ω_m)) a^{3/2} when Ω_Λ = 0)
 *
 * The functions return doubles; an argument outside the documented domain
 * gives NaN (no error state).  Call cosmology_validate() once on a
 * configuration before using it.
 */
#ifndef IONF_COSMOLOGY_H
#define IONF_COSMOLOGY_H

#include "core/error.h"

/* The default flat LCDM of configs and of 'ionfront generate' (one place), as
   numbers and, for the config's YAML defaults, as text. */
#define COSMOLOGY_DEFAULT_H 0.7
#define COSMOLOGY_DEFAULT_OMEGA_M 0.27
#define COSMOLOGY_DEFAULT_OMEGA_B 0.043
#define COSMOLOGY_DEFAULT_T_CMB_K 2.725
#define COSMOLOGY_TEXT_(x) #x
#define COSMOLOGY_TEXT(x) COSMOLOGY_TEXT_(x)

struct cosmology {
  double h;            /*!< H0 / (100 km/s/Mpc) */
  double omega_m;      /*!< matter density parameter today */
  double omega_b;      /*!< baryon density parameter today */
  double omega_lambda; /*!< cosmological constant; flat: 1 - omega_m (cosmology_flat sets it) */
  double t_cmb0_k;     /*!< CMB temperature today [K] */
};

/** A flat cosmology: omega_lambda = 1 - omega_m. */
struct cosmology cosmology_flat(double h, double omega_m, double omega_b, double t_cmb0_k);

/**
 * Check the parameters: 0 < h, 0 < Ω_m ≤ 1, 0 ≤ Ω_b ≤ Ω_m, Ω_Λ = 1 − Ω_m (to
 * 1e-12: flat), T_cmb0 ≥ 0, all finite.  IONF_ERR_CONFIG naming `origin`, the
 * parameter and its value.
 */
IONF_NODISCARD ionf_err cosmology_validate(const struct cosmology *c, const char *origin);

/** Hubble rate H(z) [1/s]. */
double cosmology_hubble_per_s(const struct cosmology *c, double z);

/** Scale factor a = 1 / (1 + z). */
double cosmology_scale_factor(double z);

/** Cosmic age at redshift z [s] (closed form above; z > -1). */
double cosmology_age_s(const struct cosmology *c, double z);

/** The redshift at cosmic age t_s [s] (exact inverse of cosmology_age_s; t_s > 0). */
double cosmology_redshift_at_age(const struct cosmology *c, double t_s);

/**
 * Mean proper hydrogen number density [cm^-3]:
 * n_H(z) = X Ω_b ρ_crit,0 (1+z)^3 / m_p,  ρ_crit,0 = 3 H0^2 / (8π G).
 * x_h is the hydrogen mass fraction (e.g. 0.76).
 */
double cosmology_mean_hydrogen_cm3(const struct cosmology *c, double z, double x_h);

/** Critical density today, ρ_crit,0 = 3 H0^2 / (8π G) [g cm^-3]. */
double cosmology_critical_density0_g_cm3(const struct cosmology *c);

/** CMB temperature T_cmb0 (1 + z) [K]. */
double cosmology_t_cmb_k(const struct cosmology *c, double z);

/**
 * Shapiro & Giroux (1987) I-front of a source switched on at cosmic age t_i in
 * a uniform medium that dilutes with the expansion (pyC²Ray Eq. 18).
 *
 * Returns the COMOVING front radius [cm] normalised to a_i = 1, i.e. comoving
 * lengths measured in proper centimetres at the switch-on redshift z_i (as in
 * the paper and M06 Test 4).  The proper radius at time t is
 *   r_proper(t) = r_I(t) · a(t)/a_i = r_I(t) · (1 + z_i) / (1 + z(t)),
 * and a comoving length in the usual a_0 = 1 convention is r_I (1 + z_i).
 *
 *   r_I(t)   = r_S,i y(t)^{1/3},   r_S,i = (3 Ndot / (4π α n_H,i^2))^{1/3}
 *   y(t)     = λ e^{λ t_i/t} [ (t/t_i) E_2(λ t_i/t) − E_2(λ) ]
 *   λ        = t_i / t_rec,i,     t_rec,i = 1 / (α n_H,i)
 *
 * y solves dy/dt = (1 − (n/n_i) y) / t_rec,i, y(t_i) = 0, i.e. photon balance
 * n_i dV_c/dt = Ndot − α n^2 V for the comoving volume V_c = V a_i^3/a^3 of the
 * fully ionized sphere, with the Einstein–de Sitter dilution n(t) = n_i (t_i/t)^2
 * (n ∝ a^-3, a ∝ t^{2/3}).  In ΛCDM the matter-dominated relation is off by
 * ~Ω_Λ (1+z)^-3 / Ω_m (3e-3 at z = 9, 1e-2 at z = 5.5), and the front it gives
 * differs from a direct integration with ΛCDM's n ∝ a^-3 by only 6e-5 after 500 Myr
 * from z_i = 9 (M06 Test 4; measured in tests/test_cosmology.c), so the
 * difference is small.  Pass ages from cosmology_age_s for t_i and t.
 *
 * Evaluated with GSL's scaled E_2 (e^x E_2(x)) so that large λ does not over- or
 * underflow: y = λ [ (t/t_i) Ẽ_2(λ t_i/t) − e^{−λ (t−t_i)/t} Ẽ_2(λ) ].
 * Returns 0 for t ≤ t_i, NaN for non-positive or non-finite arguments.
 */
double cosmology_sg87_front_comoving_cm(double ndot_per_s, double n_h_initial_cm3,
                                        double alpha_b_cm3_s, double t_initial_s, double t_s);

#endif /* IONF_COSMOLOGY_H */
