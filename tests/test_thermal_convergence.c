/**
 * @file test_thermal_convergence.c
 * @brief The error of the grey slab (seed cases 1 and 2, 32 cells each) falls as
 *        1/sqrt(N): the RMS error against the exact Q^R over the 64 cells with N = 500 and
 *        16 N rays per cell has the ratio 4 (sqrt 16).  Bounds: each RMS over 64 cells has
 *        a relative standard deviation of about 1/sqrt(2 * 64) = 9%, so the ratio's is
 *        about 13%; [2.6, 6.2] is 4 exp(+-0.44), 3.4 of those.  The estimated sigma must
 *        fall by 4 within 5% (it is the sample's spread, with little noise).
 */
#include "test_util.h"
#include "thermal_test_util.h"

static int rms(int64_t rays, uint32_t seed, double *err, double *sig) {
  double e2 = 0.0, s2 = 0.0;
  for (int profile = THERMAL_TEST_LIN1; profile <= THERMAL_TEST_PARAB1; ++profile) {
    struct thermal_test_slab t;
    thermal_test_slab_init(&t, profile, 32, 1, 1, rays);
    t.s.seed = seed;
    if (thermal_test_slab_solve(&t)) return 1;
    for (int i = 0; i < 32; ++i) {
      double d = test_abs_diff(t.q[i], t.q_exact[i]);
      e2 += d * d;
      s2 += t.q_sigma[i] * t.q_sigma[i];
    }
    thermal_test_slab_free(&t);
  }
  *err = sqrt(e2 / 64.0);
  *sig = sqrt(s2 / 64.0);
  return 0;
}

int main(void) {
  double e1, s1, e16, s16;
  if (rms(500, 2024u, &e1, &s1) || rms(8000, 4048u, &e16, &s16)) return 1;
  double ratio = e1 / e16, sratio = s1 / s16;
  printf("RMS error %.4g W/m^3 (N = 500), %.4g (N = 8000): ratio %.3f; sigma ratio %.3f\n", e1,
         e16, ratio, sratio);
  EXPECT(ratio >= 2.6 && ratio <= 6.2, "error ratio %.3f for 16x the rays", ratio);
  EXPECT(fabs(sratio - 4.0) <= 0.2, "sigma ratio %.3f for 16x the rays", sratio);
  return test_failures ? 1 : 0;
}
