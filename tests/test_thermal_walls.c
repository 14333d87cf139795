/**
 * @file test_thermal_walls.c
 * @brief Wall patches: the net flux into the walls of the grey slab (seed case 1, lin1,
 *        2 x 2 patches per wall) against the exact one, with black walls and with grey
 *        diffuse walls (emissivities 0.5 and 0.8: rays reflected diffusely), and the cells'
 *        Q^R of the grey-walled slab against its exact solution: every value within 4.5
 *        sigma, chi^2 per value within [0.4, 1.8] (40 values: its standard deviation 0.22).
 */
#include "test_util.h"
#include "thermal_test_util.h"

static int check(double eps_lo, double eps_hi) {
  struct thermal_test_slab t;
  thermal_test_slab_init(&t, THERMAL_TEST_LIN1, 32, 2, 2, 4000);
  t.s.wall[THERMAL_FACE_X_LO].emissivity = eps_lo;
  t.s.wall[THERMAL_FACE_X_HI].emissivity = eps_hi;
  if (thermal_test_slab_solve(&t)) return 1;
  double zq, chi2q;
  thermal_test_slab_z(&t, &zq, &chi2q);
  double zw = 0.0, chi2w = 0.0;
  for (int w = 0; w < 8; ++w) {
    double z = (t.wq[w] - t.wq_exact[w / 4]) / t.wq_sigma[w];
    if (!isfinite(z)) z = INFINITY;
    zw = test_worst(zw, fabs(z));
    chi2w += z * z;
  }
  double chi2 = (chi2q * 128.0 + chi2w) / 136.0;
  printf("walls %.1f %.1f: q_in exact %.6g %.6g W/m^2, MC %.6g +- %.3g, %.6g +- %.3g; "
         "max |z| walls %.2f cells %.2f, chi2/value %.3f\n",
         eps_lo, eps_hi, t.wq_exact[0], t.wq_exact[1], t.wq[0], t.wq_sigma[0], t.wq[4],
         t.wq_sigma[4], zw, zq, chi2);
  EXPECT(zw <= 4.5, "walls %.1f %.1f: a patch %.2f sigma from the exact flux", eps_lo, eps_hi,
         zw);
  EXPECT(zq <= 4.5, "walls %.1f %.1f: a cell %.2f sigma from the exact Q", eps_lo, eps_hi, zq);
  EXPECT(chi2 >= 0.4 && chi2 <= 1.8, "walls %.1f %.1f: chi^2 per value %.3f", eps_lo, eps_hi,
         chi2);
  thermal_test_slab_free(&t);
  return 0;
}

int main(void) {
  if (check(1.0, 1.0) || check(0.5, 0.8)) return 1;
  return test_failures ? 1 : 0;
}
