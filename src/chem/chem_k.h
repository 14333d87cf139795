/**
 * @file chem_k.h
 * @brief C2-Ray's time-averaged implicit ionization update of one cell
 *        (shared host/device maths; Mellema et al. 2006, pyC2Ray Eqs. 2-4).
 *
 * With Gamma, n_e and the rate coefficients held constant over dt,
 * dx/dt = (1-x)(Gamma + n_e C_H) - x n_e alpha_B has the solution
 * x(t) = x_eq + (x0 - x_eq) exp(-t/t_i); its time average over the step is
 * what sets the opacity, which is why steps far longer than the I-front
 * crossing time stay photon-conserving.  n_e depends on the answer, so the
 * update is iterated on n_e.
 *
 * The grid holds the ionization state as a list of ion fractions (species_k.h;
 * today x_HII only) and the electron density sums over it
 * (chem_electron_density).  The update itself is hydrogen's; helium needs
 * C2-Ray's coupled H/He update in its place (docs/design.md "Species").
 */
#ifndef IONF_CHEM_K_H
#define IONF_CHEM_K_H

#include <math.h>

#include "core/constants.h"
#include "core/ionf_hd.h"
#include "chem/clumping_k.h"
#include "chem/species_k.h"

#define CHEM_X_FLOOR 1e-14              /* smallest ionized fraction kept */
#define CHEM_MIN_FRACTIONAL_CHANGE 1e-3 /* convergence of the n_e iteration */
#define CHEM_MIN_NEUTRAL_FRACTION 1e-8  /* cells this ionized count as converged */
#define CHEM_MAX_ITERATIONS 400

/** Rate-coefficient parameters (hydrogen's, from the species table), copied to the device once. */
struct chem_params {
  double alpha_b_1e4_cm3_s;  /*!< case-B recombination at 1e4 K [cm^3/s] */
  double alpha_b_power;      /*!< alpha_B(T) = alpha_B(1e4) (T/1e4)^power */
  double col_h0;             /*!< collisional ionization prefactor [cm^3 s^-1 K^-1/2] */
  double col_t_h0_k;         /*!< collisional ionization temperature E_HI/k [K] */
  int collisional;           /*!< include collisional ionization */
  double abu_c;              /*!< electron floor: n_e = n_H (electrons of the ions + abu_c) */
  int thermal;               /*!< evolve the temperature (else it stays fixed) */
  double t_cmb_k;            /*!< CMB temperature for Compton cooling [K]; 0: none */
  double hubble_per_s;       /*!< expansion rate for adiabatic cooling [1/s]; 0: static */
};

IONF_HD IONF_INLINE double chem_alpha_b(const struct chem_params *p, double t_k) {
  return p->alpha_b_1e4_cm3_s * pow(t_k / 1.0e4, p->alpha_b_power);
}

IONF_HD IONF_INLINE double chem_collisional_rate(const struct chem_params *p, double t_k) {
  return p->collisional ? p->col_h0 * sqrt(t_k) * exp(-p->col_t_h0_k / t_k) : 0.0;
}

/**
 * Electron density [cm^-3] of a hydrogen cell with ion fractions x_ion[species]:
 * n_H (x_HII + abu_c) (hydrogen with helium: chem_he_k.h).
 */
IONF_HD IONF_INLINE double chem_electron_density(const struct chem_params *p, double n_h_cm3,
                                                 const double *x_ion) {
  return n_h_cm3 * (species_electrons_per_h(x_ion, 1, 0.0) + p->abu_c);
}

/** Result of one cell update. */
struct chem_cell_result {
  double x_end;     /*!< ionized fraction at the end of the step */
  double x_av;      /*!< time-averaged ionized fraction over the step */
  int iterations;   /*!< n_e iterations used */
  int converged;    /*!< 0 when CHEM_MAX_ITERATIONS was reached */
  double t_end_k;   /*!< temperature at the end of the step (thermal update) */
  double t_av_k;    /*!< time-averaged temperature over the step */
};

/**
 * Analytic update of the hydrogen ionized fraction over dt with everything
 * but x held constant.  Returns the end value, and the time average in *x_av.
 */
IONF_HD IONF_INLINE double chem_hydrogen_analytic(double x0, double gamma_per_s, double n_e_cm3,
                                                  double coll_cm3_s, double alpha_cm3_s,
                                                  double dt_s, double *x_av) {
  double a_i = gamma_per_s + n_e_cm3 * coll_cm3_s;
  double delta = a_i + n_e_cm3 * alpha_cm3_s; /* 1/t_i */
  double x_eq = a_i / delta;
  double ddt = delta * dt_s;
  double ee = exp(-ddt);
  /* (1 - e^-y)/y, accurate for small y */
  double avg = ddt < 1e-8 ? 1.0 : -expm1(-ddt) / ddt;
  double x_end = x_eq + (x0 - x_eq) * ee;
  double xa = x_eq + (x0 - x_eq) * avg;
  *x_av = xa > CHEM_X_FLOOR ? xa : CHEM_X_FLOOR;
  return x_end > CHEM_X_FLOOR ? x_end : CHEM_X_FLOOR;
}

/**
 * One cell: iterate the analytic update on n_e = n_H (x_av + abu_c), starting
 * from the current time-averaged estimate x_av_guess.  x0 is the start-of-step
 * value and stays fixed.  The recombinations are `clumping` (the cell's C,
 * clumping_k.h) times alpha_B(T), as in C2-Ray's doric; collisional ionization is
 * not clumped.
 */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_update_clumped(
    const struct chem_params *p, double clumping, double x0, double x_av_guess, double n_h_cm3,
    double t_k, double gamma_per_s, double dt_s) {
  struct chem_cell_result r;
  double alpha = clumping * chem_alpha_b(p, t_k);
  double coll = chem_collisional_rate(p, t_k);
  double x_av = x_av_guess;
  r.converged = 0;
  r.x_end = x0;
  for (r.iterations = 1; r.iterations <= CHEM_MAX_ITERATIONS; ++r.iterations) {
    double x_av_old = x_av;
    double x_ion[IONF_MAX_SPECIES];
    x_ion[SPECIES_HI] = x_av;
    double n_e = chem_electron_density(p, n_h_cm3, x_ion);
    r.x_end = chem_hydrogen_analytic(x0, gamma_per_s, n_e, coll, alpha, dt_s, &x_av);
    if (fabs((x_av - x_av_old) / (1.0 - x_av)) < CHEM_MIN_FRACTIONAL_CHANGE ||
        (1.0 - x_av) < CHEM_MIN_NEUTRAL_FRACTION) {
      r.converged = 1;
      break;
    }
  }
  if (r.iterations > CHEM_MAX_ITERATIONS) r.iterations = CHEM_MAX_ITERATIONS;
  r.x_av = x_av;
  r.t_end_k = t_k;
  r.t_av_k = t_k;
  return r;
}

/** chem_cell_update_clumped without clumping (C = 1: the same bits). */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_update(const struct chem_params *p,
                                                             double x0, double x_av_guess,
                                                             double n_h_cm3, double t_k,
                                                             double gamma_per_s, double dt_s) {
  return chem_cell_update_clumped(p, 1.0, x0, x_av_guess, n_h_cm3, t_k, gamma_per_s, dt_s);
}

/* ---- temperature --------------------------------------------------------------- */

#define CHEM_T_FLOOR_K 1.0               /* temperatures are kept above this */
#define CHEM_MAX_THERMAL_SUBSTEPS 100000
#define CHEM_THERMAL_STEP_FRACTION 0.05  /* each sub-step changes T by at most ~5% */
#define CHEM_MIN_FRACTIONAL_T_CHANGE 1e-3 /* C2-Ray's |dT/T| criterion */
#define CHEM_MAX_THERMAL_ITERATIONS 50

/**
 * Cooling of hydrogen gas [erg s^-1 cm^-3]: case-B recombination (Hui & Gnedin
 * 1997), collisional ionization and excitation of HI (Cen 1992), free-free
 * emission (Gaunt factor 1.3), and Compton cooling off the CMB when t_cmb_k > 0
 * (negative: heating, when the gas is colder than the CMB).
 */
IONF_HD IONF_INLINE double chem_cooling(const struct chem_params *p, double t_k, double n_e,
                                        double n_hi, double n_hii) {
  double lambda = 2.0 * 157807.0 / t_k;
  double rec = 3.435e-30 * t_k * pow(lambda, 1.970) / pow(1.0 + pow(lambda / 2.25, 0.376), 3.720);
  double sqrt_t = sqrt(t_k);
  double shield = 1.0 / (1.0 + sqrt(t_k / 1e5));
  double coll_ion = 1.27e-21 * sqrt_t * shield * exp(-157809.1 / t_k);
  double coll_exc = 7.5e-19 * shield * exp(-118348.0 / t_k);
  double brems = 1.42e-27 * 1.3 * sqrt_t;
  double cool = n_e * (n_hii * (rec + brems) + n_hi * (coll_ion + coll_exc));
  if (p->t_cmb_k > 0.0) {
    double t4 = p->t_cmb_k * p->t_cmb_k * p->t_cmb_k * p->t_cmb_k;
    cool += 1.017e-37 * t4 * (t_k - p->t_cmb_k) * n_e;
  }
  return cool;
}

/**
 * Temperature over dt with the ionization state held at its time average:
 * (3/2) k n_tot dT/dt = n_HI G - Lambda(T) - (3/2) k n_tot 2 H T, integrated
 * explicitly in sub-steps that change T by a few per cent at most (each term
 * limits the step, so heating balanced by fast cooling stays stable).  The
 * end value is rescaled from n_tot(x_av) to n_tot(x_end) at fixed thermal
 * energy: newly freed electrons share it.  Returns T at the end; *t_av_k gets
 * the time average.
 */
IONF_HD IONF_INLINE double chem_thermal_update(const struct chem_params *p, double t0_k,
                                               double n_h_cm3, double x_av, double x_end,
                                               double heat_per_hi_erg_s, double dt_s,
                                               double *t_av_k) {
  double n_hi = n_h_cm3 * (1.0 - x_av), n_hii = n_h_cm3 * x_av;
  double x_ion[IONF_MAX_SPECIES];
  x_ion[SPECIES_HI] = x_av;
  double n_e = chem_electron_density(p, n_h_cm3, x_ion);
  double n_tot = n_h_cm3 * (1.0 + x_av);
  double per_energy = 1.0 / (1.5 * IONF_K_B_ERG_PER_K * n_tot); /* K per (erg/cm^3) */
  double heat = n_hi * heat_per_hi_erg_s * per_energy;     /* K/s */
  double t = t0_k, elapsed = 0.0, integral = 0.0;
  for (int sub = 0; sub < CHEM_MAX_THERMAL_SUBSTEPS && elapsed < dt_s; ++sub) {
    double cool = chem_cooling(p, t, n_e, n_hi, n_hii) * per_energy + 2.0 * p->hubble_per_s * t;
    double rate = heat - cool;
    double scale = fabs(heat) > fabs(cool) ? fabs(heat) : fabs(cool);
    double h = dt_s - elapsed;
    if (scale > 0.0 && CHEM_THERMAL_STEP_FRACTION * t / scale < h)
      h = CHEM_THERMAL_STEP_FRACTION * t / scale;
    if (sub == CHEM_MAX_THERMAL_SUBSTEPS - 1) h = dt_s - elapsed;
    double t_next = t + h * rate;
    if (t_next < CHEM_T_FLOOR_K) t_next = CHEM_T_FLOOR_K;
    integral += 0.5 * (t + t_next) * h;
    t = t_next;
    elapsed += h;
  }
  *t_av_k = dt_s > 0.0 ? integral / dt_s : t0_k;
  double t_end = t * (1.0 + x_av) / (1.0 + x_end);
  return t_end > CHEM_T_FLOOR_K ? t_end : CHEM_T_FLOOR_K;
}

/**
 * One cell with an evolving temperature: the ionization update at the
 * time-averaged temperature, then the temperature at the new time-averaged
 * ionization, repeated until the average temperature settles (C2-Ray's
 * |dT/T| criterion).  t0_k is the start-of-step temperature.  `clumping` multiplies
 * the recombinations (chem_cell_update_clumped), not the cooling (C2-Ray's practice).
 */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_update_thermal_clumped(
    const struct chem_params *p, double clumping, double x0, double x_av_guess, double t0_k,
    double t_av_guess, double n_h_cm3, double gamma_per_s, double heat_per_hi_erg_s,
    double dt_s) {
  struct chem_cell_result r;
  double t_av = t_av_guess, x_av = x_av_guess;
  int iterations = 0;
  for (int it = 0; it < CHEM_MAX_THERMAL_ITERATIONS; ++it) {
    r = chem_cell_update_clumped(p, clumping, x0, x_av, n_h_cm3, t_av, gamma_per_s, dt_s);
    iterations += r.iterations;
    x_av = r.x_av;
    double t_av_new;
    r.t_end_k = chem_thermal_update(p, t0_k, n_h_cm3, r.x_av, r.x_end, heat_per_hi_erg_s, dt_s,
                                    &t_av_new);
    double change = fabs(t_av_new - t_av) / t_av_new;
    t_av = t_av_new;
    if (change < CHEM_MIN_FRACTIONAL_T_CHANGE) break;
  }
  r.t_av_k = t_av;
  r.iterations = iterations;
  return r;
}

/** chem_cell_update_thermal_clumped without clumping (C = 1: the same bits). */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_update_thermal(
    const struct chem_params *p, double x0, double x_av_guess, double t0_k, double t_av_guess,
    double n_h_cm3, double gamma_per_s, double heat_per_hi_erg_s, double dt_s) {
  return chem_cell_update_thermal_clumped(p, 1.0, x0, x_av_guess, t0_k, t_av_guess, n_h_cm3,
                                          gamma_per_s, heat_per_hi_erg_s, dt_s);
}

/**
 * Whether a cell's time-averaged fraction still moved in this global pass
 * (C2-Ray's per-cell non-convergence test).
 */
IONF_HD IONF_INLINE int chem_cell_unconverged(double x_av_old, double x_av_new) {
  double dx = fabs(x_av_new - x_av_old);
  return dx > CHEM_MIN_FRACTIONAL_CHANGE &&
         dx / (1.0 - x_av_old) > CHEM_MIN_FRACTIONAL_CHANGE &&
         (1.0 - x_av_old) > CHEM_MIN_NEUTRAL_FRACTION;
}

/**
 * One cell of a chemistry pass (the CPU loop and the CUDA kernel run exactly this):
 * the update from the start-of-step state (x0, t_k) with the cell's current estimates
 * *x_av (and *t_av_k when `thermal`), which it replaces; returns the result (x_end,
 * t_end_k) and sets *unconverged when the cell still moved (chem_cell_unconverged, and
 * C2-Ray's |dT/T| when thermal).  Hydrogen's update: the species list has one entry.
 * The recombinations are the cell's clumping factor C (`clumping`, clumping_k.h) times
 * alpha_B(T), as C2-Ray's doric; collisional ionization and the cooling (chem_cooling's
 * recombination cooling too) are not clumped, as in C2-Ray.  C = 1 changes no bit.
 */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_pass(const struct chem_params *p,
                                                           const struct chem_clumping *clumping,
                                                           int thermal, double dt_s, double x0,
                                                           double n_h_cm3, double t_k,
                                                           double gamma_per_s, double heat_erg_s,
                                                           double *x_av, double *t_av_k,
                                                           int *unconverged) {
  double x_av_old = *x_av;
  struct chem_cell_result r;
  const double c = chem_clumping_factor(clumping, n_h_cm3);
  if (thermal) {
    double t_av_old = *t_av_k;
    r = chem_cell_update_thermal_clumped(p, c, x0, x_av_old, t_k, t_av_old, n_h_cm3,
                                         gamma_per_s, heat_erg_s, dt_s);
    *t_av_k = r.t_av_k;
    *unconverged = chem_cell_unconverged(x_av_old, r.x_av) ||
                   fabs(r.t_av_k - t_av_old) > CHEM_MIN_FRACTIONAL_T_CHANGE * r.t_av_k;
  } else {
    r = chem_cell_update_clumped(p, c, x0, x_av_old, n_h_cm3, t_k, gamma_per_s, dt_s);
    *unconverged = chem_cell_unconverged(x_av_old, r.x_av);
  }
  *x_av = r.x_av;
  return r;
}

#endif /* IONF_CHEM_K_H */
