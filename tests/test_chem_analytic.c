/**
 * @file test_chem_analytic.c
 * @brief The C2-Ray chemistry update against analytic solutions of the
 *        ionization ODE with constant Gamma:
 *  1. n_e held fixed: dx/dt = (1-x) A - x B is linear; the end value and the
 *     time average over dt (checked by quadrature) are exact for any dt.
 *  2. n_e = n_H x (no electron floor, no collisions): dx/dt = Gamma (1-x) -
 *     n_H alpha x^2 is a Riccati equation with a closed-form solution; many
 *     C2-Ray steps follow it, and one long step lands on its equilibrium.
 *  3. The grid pass (OpenMP) equals the per-cell function in every cell.
 */
#include <stdlib.h>

#include "chem/chem.h"
#include "chem/chem_k.h"
#include "test_util.h"

static struct chem_params params_no_floor(void) {
  struct chem_params p;
  p.alpha_b_1e4_cm3_s = 2.59e-13;
  p.alpha_b_power = -0.7;
  p.col_h0 = 0.0;
  p.col_t_h0_k = 1.578e5;
  p.collisional = 0;
  p.abu_c = 0.0;
  p.thermal = 0;
  p.t_cmb_k = 0.0;
  p.hubble_per_s = 0.0;
  return p;
}

static void check_linear(void) {
  const double dts[] = {1e9, 3e12, 1e14, 3e16};
  for (int d = 0; d < 4; ++d) {
    double x0 = 0.1, gamma = 2e-13, n_e = 1e-3, alpha = 2.59e-13, coll = 1e-15, dt = dts[d];
    double x_av;
    double x_end = chem_hydrogen_analytic(x0, gamma, n_e, coll, alpha, dt, &x_av);
    double a = gamma + n_e * coll, b = n_e * alpha, rate = a + b, x_eq = a / rate;
    double exact_end = x_eq + (x0 - x_eq) * exp(-rate * dt);
    EXPECT_REL(x_end, exact_end, 1e-12, "linear ODE end value");
    /* time average by Simpson's rule over the exact solution */
    int m = 400000;
    double h = dt / m, sum = 0.0;
    for (int i = 0; i <= m; ++i) {
      double w = (i == 0 || i == m) ? 1.0 : (i % 2 ? 4.0 : 2.0);
      sum += w * (x_eq + (x0 - x_eq) * exp(-rate * h * i));
    }
    EXPECT_REL(x_av, sum * h / 3.0 / dt, 1e-9, "linear ODE time average");
  }
}

static double riccati(double x0, double gamma, double a, double t) {
  double disc = sqrt(gamma * gamma + 4.0 * a * gamma);
  double xp = (-gamma + disc) / (2.0 * a), xm = (-gamma - disc) / (2.0 * a);
  double k = (x0 - xp) / (x0 - xm), e = exp(-a * (xp - xm) * t);
  return (xp - xm * k * e) / (1.0 - k * e);
}

static void check_riccati(void) {
  struct chem_params p = params_no_floor();
  double n_h = 1e-3, t_k = 1e4, gamma = 1e-14, x0 = 1.2e-3;
  double a = n_h * chem_alpha_b(&p, t_k);
  double t_ion = 1.0 / gamma;
  /* many short steps follow the exact curve */
  double dt = t_ion / 50.0, x = x0;
  double worst = 0.0;
  for (int s = 1; s <= 500; ++s) {
    struct chem_cell_result r = chem_cell_update(&p, x, x, n_h, t_k, gamma, dt);
    EXPECT(r.converged, "n_e iteration did not converge");
    x = r.x_end;
    double exact = riccati(x0, gamma, a, s * dt);
    worst = test_worst(worst, test_rel_diff(x, exact, 0.0));
  }
  EXPECT(worst < 2e-3, "short steps: largest deviation from the Riccati solution %g", worst);
  /* one step much longer than the ionization time reaches the equilibrium */
  struct chem_cell_result r = chem_cell_update(&p, x0, x0, n_h, t_k, gamma, 1e4 * t_ion);
  double x_eq = riccati(x0, gamma, a, 1e30);
  EXPECT_REL(r.x_end, x_eq, 1e-3, "long step reaches the equilibrium ionized fraction");
  EXPECT_REL(1.0 - r.x_end, 1.0 - x_eq, 1e-3, "long step reaches the equilibrium neutral fraction");
  /* no radiation: recombination only, x falls as 1/(1/x0 + a t) */
  double xr0 = 0.9, t = 0.0, xr = xr0;
  for (int s = 0; s < 200; ++s) {
    struct chem_cell_result rr = chem_cell_update(&p, xr, xr, n_h, t_k, 0.0, 1e13);
    xr = rr.x_end;
    t += 1e13;
  }
  EXPECT_REL(xr, 1.0 / (1.0 / xr0 + a * t), 2e-3, "pure recombination");
}

static void check_grid_pass(void) {
  int64_t cells = 1000;
  double *n_h = malloc(sizeof(double) * cells), *t = malloc(sizeof(double) * cells);
  double *g = malloc(sizeof(double) * cells), *x = malloc(sizeof(double) * cells);
  double *x_av = malloc(sizeof(double) * cells), *x_end = malloc(sizeof(double) * cells);
  for (int64_t c = 0; c < cells; ++c) {
    n_h[c] = 1e-3 * (1.0 + (double)(c % 7));
    t[c] = 1e4 + 100.0 * (double)(c % 13);
    g[c] = 1e-16 * (double)(c % 101);
    x[c] = x_av[c] = 1.2e-3 + 1e-3 * (double)(c % 5);
  }
  struct chem_params p = params_no_floor();
  p.collisional = 1;
  p.col_h0 = 5.835e-11;
  p.abu_c = 7.1e-7;
  struct chem_input in = {cells, 3.15e14, p, n_h, t, g, x, NULL, cells, 1, {.abundance_he = 0.0}};
  struct chem_state st = {x_av, x_end, NULL, NULL};
  struct chem_pass_result res;
  EXPECT(chem_cpu_pass(&in, &st, &res) == IONF_OK, "pass");
  double sum = 0.0;
  for (int64_t c = 0; c < cells; ++c) {
    struct chem_cell_result r = chem_cell_update(&p, x[c], x[c], n_h[c], t[c], g[c], 3.15e14);
    EXPECT(r.x_end == x_end[c] && r.x_av == x_av[c], "cell %lld differs from chem_cell_update",
           (long long)c);
    sum += r.x_end;
  }
  EXPECT_REL(res.sum_x_end, sum, 1e-12, "sum of x_end");
  free(n_h); free(t); free(g); free(x); free(x_av); free(x_end);
}

int main(void) {
  check_linear();
  check_riccati();
  check_grid_pass();
  TEST_RETURN();
}
