/**
 * @file test_mfp_model.c
 * @brief The mean-free-path models (rt/mfp.h): R(z) of Choudhury09 and Worseck2014
 *        against values worked out by hand, and the smallest and largest R over a
 *        redshift interval (the largest sizes a run's halos) against a dense sampling,
 *        including an interval whose smallest R lies inside.
 */
#include <stdio.h>

#include "core/constants.h"
#include "rt/mfp.h"
#include "test_util.h"

/* The range against 20001 samples: the largest must be found exactly at an end, and no
   sample may fall below the smallest or above the largest. */
static void check_range(const struct mfp_model *m, double z_lo, double z_hi, const char *what) {
  double r_min, r_max, s_min = INFINITY, s_max = 0.0;
  mfp_range_cm(m, z_lo, z_hi, &r_min, &r_max);
  for (int i = 0; i <= 20000; ++i) {
    double r = mfp_comoving_cm(m, z_lo + (z_hi - z_lo) * i / 20000.0);
    s_min = r < s_min ? r : s_min;
    s_max = r > s_max ? r : s_max;
  }
  EXPECT(s_max <= r_max && r_max <= s_max * (1.0 + 1e-15), "%s: largest %.17g, samples' %.17g",
         what, r_max, s_max);
  EXPECT(s_min >= r_min * (1.0 - 1e-12) && s_min <= r_min * (1.0 + 1e-6),
         "%s: smallest %.17g, samples' %.17g", what, r_min, s_min);
  double a, b;
  mfp_range_cm(m, z_hi, z_lo, &a, &b);
  EXPECT(a == r_min && b == r_max, "%s: the ends in either order", what);
}

int main(void) {
  struct mfp_model none = {MFP_NONE, 0.0, 0.0, 0.0, 0.0};
  EXPECT(mfp_comoving_cm(&none, 7.0) == 0.0, "none: 0");
  /* R = A ((1+z)/5)^eta: 210 Mpc (7/5)^-9 at z = 6, worked out by hand (Python) */
  struct mfp_model ch = {MFP_CHOUDHURY09, 210.0 * IONF_MPC_CM, -9.0, 0.0, 0.0};
  EXPECT_REL(mfp_comoving_cm(&ch, 6.0) / IONF_MPC_CM, 10.164054231880689, 1e-14, "Choudhury09 z = 6");
  EXPECT_REL(mfp_comoving_cm(&ch, 4.0) / IONF_MPC_CM, 210.0, 1e-15, "Choudhury09 z = 4: A");
  /* pyC2Ray's Worseck2014 with its parameter files' A 210, eta -9, z1 6, eta1 9, at z = 9 */
  struct mfp_model wo = {MFP_WORSECK2014, 210.0 * IONF_MPC_CM, -9.0, 6.0, 9.0};
  EXPECT_REL(mfp_comoving_cm(&wo, 9.0) / IONF_MPC_CM, 10.574210481880687, 1e-14, "Worseck2014 z = 9");
  EXPECT(mfp_comoving_cm(&wo, 6.0) == 2.0 * mfp_comoving_cm(&ch, 6.0), "Worseck2014 at z1: twice");
  check_range(&ch, 6.0, 15.0, "Choudhury09 6..15");
  check_range(&wo, 5.5, 20.0, "Worseck2014 5.5..20");
  /* eta -4.5, eta1 9: d ln R / d ln(1+z) = 0 where ((1+z)/7)^9 = 1, at z = z1 = 6, the
     smallest R (100 Mpc (7/5)^-4.5 x 2, by hand) */
  struct mfp_model mid = {MFP_WORSECK2014, 100.0 * IONF_MPC_CM, -4.5, 6.0, 9.0};
  double r_min, r_max;
  mfp_range_cm(&mid, 4.0, 10.0, &r_min, &r_max);
  EXPECT_REL(r_min / IONF_MPC_CM, 44.000117384866556, 1e-13, "Worseck2014's interior minimum");
  check_range(&mid, 4.0, 10.0, "Worseck2014 4..10, minimum inside");
  check_range(&mid, 6.5, 10.0, "Worseck2014 6.5..10, minimum outside");
  struct mfp_model up = {MFP_WORSECK2014, 100.0 * IONF_MPC_CM, 2.0, 6.0, -3.0};
  check_range(&up, 3.0, 12.0, "Worseck2014 with eta > 0, eta1 < 0");
  EXPECT(!strcmp(mfp_name(MFP_CHOUDHURY09), "Choudhury09") &&
             !strcmp(mfp_name(MFP_WORSECK2014), "Worseck2014"),
         "names as the config spells them");
  TEST_RETURN();
}
