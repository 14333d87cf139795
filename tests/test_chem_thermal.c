/**
 * @file test_chem_thermal.c
 * @brief The temperature equation of the C2-Ray update (src/chem/chem_k.h:
 *        chem_thermal_update, chem_cell_update_thermal) against closed-form solutions:
 *  1. adiabatic expansion alone (no electrons, so no radiative cooling):
 *     dT/dt = -2 H T, T = T0 exp(-2 H t), and its time average over the step;
 *  2. the thermal energy shared by newly freed electrons: with nothing heating or
 *     cooling, T_end = T0 (1 + x_av) / (1 + x_end);
 *  3. constant heating against Compton cooling off the CMB (linear in T; cold neutral
 *     gas, where the other coolants are below 1e-17 of it): dT/dt = a - c (T - T_cmb),
 *     T = T_eq + (T0 - T_eq) exp(-c t), T_eq = T_cmb + a / c, from above and from
 *     below, through chem_thermal_update and through the full cell update with no
 *     ionizing radiation (x stays at its floor);
 *  4. a long step lands on T_eq (the balance of heating and cooling).
 *  The temperature is integrated explicitly (Euler) in sub-steps changing T by at most
 *  CHEM_THERMAL_STEP_FRACTION f = 5%: for dT/dt = -k (T - T_eq) each sub-step's factor
 *  is (1 - f) against exp(-f), so the relative error of T - T_eq grows as about
 *  (f / 2) k t.  The tolerances below are that bound where it applies, else the
 *  measured error with a stated margin (the measured values are printed).
 */
#include <math.h>
#include <stdio.h>

#include "chem/chem_k.h"
#include "core/constants.h"
#include "test_util.h"

static struct chem_params params_thermal(void) {
  struct chem_params p;
  p.alpha_b_1e4_cm3_s = 2.59e-13;
  p.alpha_b_power = -0.7;
  p.col_h0 = 0.0;
  p.col_t_h0_k = 1.578e5;
  p.collisional = 0;
  p.abu_c = 0.0;
  p.thermal = 1;
  p.t_cmb_k = 0.0;
  p.hubble_per_s = 0.0;
  return p;
}

/* 1. */
static void check_adiabatic(void) {
  struct chem_params p = params_thermal();
  p.hubble_per_s = 2.3e-17; /* H(z = 9), roughly */
  const double k_dts[] = {0.01, 0.25, 1.0, 3.0}; /* 2 H dt */
  for (int i = 0; i < 4; ++i) {
    double k = 2.0 * p.hubble_per_s, dt = k_dts[i] / k, t0 = 1.0e4, t_av;
    double t_end = chem_thermal_update(&p, t0, 1e-3, 0.0, 0.0, 0.0, dt, &t_av);
    double exact = t0 * exp(-k * dt), exact_av = t0 * -expm1(-k * dt) / (k * dt);
    double e_end = test_rel_diff(t_end, exact, 0.0), e_av = test_rel_diff(t_av, exact_av, 0.0);
    /* (f / 2) k t, times 1.1: the next term of the Euler error, f^2 / 3 per sub-step,
       adds f * 2/3 = 3%; measured: 1.02 times (f / 2) k t at most */
    double bound = 1.1 * 0.5 * CHEM_THERMAL_STEP_FRACTION * k * dt;
    printf("adiabatic, 2 H dt = %-4g: T_end rel err %.3g, T_av rel err %.3g (Euler bound %.3g)\n",
           k_dts[i], e_end, e_av, bound);
    EXPECT(e_end <= bound, "adiabatic 2 H dt = %g: T_end %.8g, exact %.8g (%.3g > %.3g)",
           k_dts[i], t_end, exact, e_end, bound);
    EXPECT(e_av <= bound, "adiabatic 2 H dt = %g: T_av %.8g, exact %.8g (%.3g > %.3g)",
           k_dts[i], t_av, exact_av, e_av, bound);
  }
}

/* 2. */
static void check_electron_sharing(void) {
  struct chem_params p = params_thermal();
  const double x_ends[] = {0.0, 0.3, 1.0};
  for (int i = 0; i < 3; ++i) {
    double t_av, t0 = 1.7e4;
    double t_end = chem_thermal_update(&p, t0, 1e-3, 0.0, x_ends[i], 0.0, 1e13, &t_av);
    double e = test_rel_diff(t_end, t0 / (1.0 + x_ends[i]), 0.0);
    printf("freed electrons, x_end = %g: T_end rel err %.3g\n", x_ends[i], e);
    EXPECT(e <= 2.3e-16, "x_end = %g: T_end %.17g, T0 / (1 + x_end) %.17g", x_ends[i], t_end,
           t0 / (1.0 + x_ends[i]));
    EXPECT(test_rel_diff(t_av, t0, 0.0) <= 2.3e-16, "nothing heats or cools: T_av %.17g, T0 %.17g",
           t_av, t0);
  }
}

/* Compton set-up of 3 and 4: n_e = n_H (the electron floor abu_c = 1, x = 0), T_cmb = 100 K. */
struct compton {
  struct chem_params p;
  double n_h, c_per_s, a_k_per_s, heat_per_hi_erg_s, t_eq_k;
};

static struct compton compton_case(double t_eq_k) {
  struct compton s;
  s.p = params_thermal();
  s.p.abu_c = 1.0;
  s.p.t_cmb_k = 100.0;
  s.n_h = 1e-3;
  double t4 = pow(s.p.t_cmb_k, 4.0), per_energy = 1.0 / (1.5 * IONF_K_B_ERG_PER_K * s.n_h);
  s.c_per_s = 1.017e-37 * t4 * s.n_h * per_energy; /* Compton: Lambda = 1.017e-37 T_cmb^4 (T - T_cmb) n_e */
  s.t_eq_k = t_eq_k;
  s.a_k_per_s = s.c_per_s * (t_eq_k - s.p.t_cmb_k);
  s.heat_per_hi_erg_s = s.a_k_per_s / (s.n_h * per_energy); /* n_HI = n_H */
  return s;
}

/* 3. */
static void check_compton(void) {
  const double t0s[] = {2000.0, 10.0}; /* above T_eq (cooling) and below T_cmb (heating) */
  const double c_dts[] = {0.1, 0.5, 2.0};
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) {
      struct compton s = compton_case(1000.0);
      double t0 = t0s[j], dt = c_dts[i] / s.c_per_s, t_av;
      double exact = s.t_eq_k + (t0 - s.t_eq_k) * exp(-s.c_per_s * dt);
      double t_end = chem_thermal_update(&s.p, t0, s.n_h, 0.0, 0.0, s.heat_per_hi_erg_s, dt, &t_av);
      /* the error is in T - T_eq: relative to |T0 - T_eq| e^{-c t} */
      double scale = fabs(t0 - s.t_eq_k) * exp(-s.c_per_s * dt);
      double e = test_abs_diff(t_end, exact) / scale;
      /* (f / 2) c t, times 1.25: from above T_eq a sub-step may be T / (T - T_cmb) = 1.05
         times f / c long, and the f^2 / 3 term adds 3%; measured: 1.08 times (f / 2) c t
         at most (T0 = 2000 K, c dt = 2), 0.64 from below */
      double bound = 1.25 * 0.5 * CHEM_THERMAL_STEP_FRACTION * c_dts[i];
      struct chem_cell_result r = chem_cell_update_thermal(&s.p, 0.0, 0.0, t0, t0, s.n_h, 0.0,
                                                           s.heat_per_hi_erg_s, dt);
      double e_cell = test_abs_diff(r.t_end_k, exact) / scale;
      printf("Compton, T0 = %-4g K, c dt = %-3g: T_end %.6g K, exact %.6g K, error of T - T_eq "
             "%.3g (cell update %.3g; Euler bound %.3g), x_end %.3g\n",
             t0, c_dts[i], t_end, exact, e, e_cell, bound, r.x_end);
      EXPECT(e <= bound, "Compton T0 %g c dt %g: T_end %.8g, exact %.8g (%.3g > %.3g)", t0,
             c_dts[i], t_end, exact, e, bound);
      EXPECT(e_cell <= bound, "Compton T0 %g c dt %g, cell update: T_end %.8g, exact %.8g "
             "(%.3g > %.3g)", t0, c_dts[i], r.t_end_k, exact, e_cell, bound);
    }
}

/* 4. */
static void check_balance(void) {
  const double t_eqs[] = {300.0, 1000.0, 3000.0};
  for (int i = 0; i < 3; ++i) {
    struct compton s = compton_case(t_eqs[i]);
    double t_av, dt = 60.0 / s.c_per_s; /* 60 e-folds */
    double t_end = chem_thermal_update(&s.p, 2000.0, s.n_h, 0.0, 0.0, s.heat_per_hi_erg_s, dt, &t_av);
    double e = test_rel_diff(t_end, s.t_eq_k, 0.0);
    printf("balance: T_eq %g K: T_end %.10g K, rel err %.3g\n", s.t_eq_k, t_end, e);
    /* Euler's fixed point is T_eq itself and e^-60 ~ 1e-26: rounding is left; measured
       1.6e-13 at most (T_eq = 3000 K), 6x margin */
    EXPECT(e <= 1e-12, "T_eq %g: T_end %.10g (rel err %.3g)", s.t_eq_k, t_end, e);
  }
}

int main(void) {
  check_adiabatic();
  check_electron_sharing();
  check_compton();
  check_balance();
  TEST_RETURN();
}
