/**
 * @file test_thermal_slab.c
 * @brief The grey slab of the seed's cases 1 (lin1) and 2 (parab1) (kappa 1/m, 1 m, black
 *        walls, 32 cells): the CPU ERMC solve against the exact Q^R (thermal_exact.c),
 *        every cell within 4.5 sigma, and the estimated sigma honest: chi^2 per cell
 *        within [0.5, 1.7] (32 cells: chi^2/32 has a standard deviation of 0.25).
 */
#include "test_util.h"
#include "thermal_test_util.h"

int main(void) {
  for (int profile = THERMAL_TEST_LIN1; profile <= THERMAL_TEST_PARAB1; ++profile) {
    struct thermal_test_slab t;
    thermal_test_slab_init(&t, profile, 32, 1, 1, 4000);
    if (thermal_test_slab_solve(&t)) return 1;
    double z_max, chi2;
    thermal_test_slab_z(&t, &z_max, &chi2);
    double rel = 0.0;
    for (int64_t i = 0; i < 32; ++i)
      rel = test_worst(rel, test_abs_diff(t.q[i], t.q_exact[i]) / fabs(t.q_exact[i]));
    printf("case %d: max |z| %.2f, chi2/cell %.3f, max rel err %.4f, Q[0] %.6g exact %.6g "
           "sigma %.3g, Q[16] %.6g exact %.6g\n",
           profile + 1, z_max, chi2, rel, t.q[0], t.q_exact[0], t.q_sigma[0], t.q[16],
           t.q_exact[16]);
    EXPECT(z_max <= 4.5, "case %d: a cell %.2f sigma from the exact Q", profile + 1, z_max);
    EXPECT(chi2 >= 0.5 && chi2 <= 1.7, "case %d: chi^2 per cell %.3f", profile + 1, chi2);
    thermal_test_slab_free(&t);
  }
  return test_failures ? 1 : 0;
}
