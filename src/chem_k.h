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
 * The cell state is a list of species (today hydrogen only) so that helium
 * can join without reshaping every caller.
 */
#ifndef IONF_CHEM_K_H
#define IONF_CHEM_K_H

#include <math.h>

#include "ionf_hd.h"

#define CHEM_X_FLOOR 1e-14              /* smallest ionized fraction kept */
#define CHEM_MIN_FRACTIONAL_CHANGE 1e-3 /* convergence of the n_e iteration */
#define CHEM_MIN_NEUTRAL_FRACTION 1e-8  /* cells this ionized count as converged */
#define CHEM_MAX_ITERATIONS 400

/** Rate-coefficient parameters, copied to the device once. */
struct chem_params {
  double alpha_b_1e4_cm3_s;  /*!< case-B recombination at 1e4 K [cm^3/s] */
  double alpha_b_power;      /*!< alpha_B(T) = alpha_B(1e4) (T/1e4)^power */
  double col_h0;             /*!< collisional ionization prefactor [cm^3 s^-1 K^-1/2] */
  double col_t_h0_k;         /*!< collisional ionization temperature E_HI/k [K] */
  int collisional;           /*!< include collisional ionization */
  double abu_c;              /*!< electron floor: n_e = n_H (x + abu_c) */
};

IONF_HD IONF_INLINE double chem_alpha_b(const struct chem_params *p, double t_k) {
  return p->alpha_b_1e4_cm3_s * pow(t_k / 1.0e4, p->alpha_b_power);
}

IONF_HD IONF_INLINE double chem_collisional_rate(const struct chem_params *p, double t_k) {
  return p->collisional ? p->col_h0 * sqrt(t_k) * exp(-p->col_t_h0_k / t_k) : 0.0;
}

/** Result of one cell update. */
struct chem_cell_result {
  double x_end;     /*!< ionized fraction at the end of the step */
  double x_av;      /*!< time-averaged ionized fraction over the step */
  int iterations;   /*!< n_e iterations used */
  int converged;    /*!< 0 when CHEM_MAX_ITERATIONS was reached */
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
 * value and stays fixed.
 */
IONF_HD IONF_INLINE struct chem_cell_result chem_cell_update(const struct chem_params *p,
                                                             double x0, double x_av_guess,
                                                             double n_h_cm3, double t_k,
                                                             double gamma_per_s, double dt_s) {
  struct chem_cell_result r;
  double alpha = chem_alpha_b(p, t_k);
  double coll = chem_collisional_rate(p, t_k);
  double x_av = x_av_guess;
  r.converged = 0;
  r.x_end = x0;
  for (r.iterations = 1; r.iterations <= CHEM_MAX_ITERATIONS; ++r.iterations) {
    double x_av_old = x_av;
    double n_e = n_h_cm3 * (x_av + p->abu_c);
    r.x_end = chem_hydrogen_analytic(x0, gamma_per_s, n_e, coll, alpha, dt_s, &x_av);
    if (fabs((x_av - x_av_old) / (1.0 - x_av)) < CHEM_MIN_FRACTIONAL_CHANGE ||
        (1.0 - x_av) < CHEM_MIN_NEUTRAL_FRACTION) {
      r.converged = 1;
      break;
    }
  }
  if (r.iterations > CHEM_MAX_ITERATIONS) r.iterations = CHEM_MAX_ITERATIONS;
  r.x_av = x_av;
  return r;
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

#endif /* IONF_CHEM_K_H */
