/**
 * @file test_secondary.c
 * @brief Secondary ionization by fast electrons (src/chem/secondary_k.h): Shull & van
 *        Steenberg's limits (almost all heat in ionized gas, about 37% and 11% into
 *        ionization and heat in neutral gas), monotonic in x_e, energy never created,
 *        and the deposit's bookkeeping.
 */
#include <math.h>
#include <stdio.h>

#include "chem/secondary_k.h"
#include "test_util.h"

int main(void) {
  struct secondary_split lo = secondary_split_at(1e-4), hi = secondary_split_at(1.0);
  printf("x_e = 1e-4: heat %.4f, ion HI %.4f, ion HeI %.4f\n", lo.heat, lo.ion_hi, lo.ion_hei);
  printf("x_e = 1:    heat %.4f, ion HI %.4f, ion HeI %.4f\n", hi.heat, hi.ion_hi, hi.ion_hei);
  /* the fits at x_e = 1e-4, evaluated by hand (0.1114, 0.3751, 0.0541: in neutral gas a
     fast electron mostly ionizes, ~11% heats); in ionized gas all heat but 0.3% */
  EXPECT(fabs(lo.heat - 0.1114) < 1e-4 && fabs(lo.ion_hi - 0.3751) < 1e-4 &&
             fabs(lo.ion_hei - 0.0541) < 1e-4,
         "neutral-gas split %g %g %g", lo.heat, lo.ion_hi, lo.ion_hei);
  EXPECT(hi.heat == 0.9971 && hi.ion_hi == 0.0 && hi.ion_hei == 0.0, "ionized-gas split");
  /* below the fits' range: the 1e-4 values; a NaN is passed on */
  struct secondary_split zero = secondary_split_at(0.0), nan_in = secondary_split_at(NAN);
  EXPECT(zero.heat == lo.heat && zero.ion_hi == lo.ion_hi, "x_e = 0 uses x_e = 1e-4");
  EXPECT(isnan(nan_in.heat) && isnan(nan_in.ion_hi), "a NaN x_e must come out NaN, not hidden");
  /* monotonic: more heat and fewer ionizations as the gas ionizes; never over 1 */
  struct secondary_split prev = lo;
  int bad = 0;
  for (double x = 1.2e-4; x <= 1.0; x *= 1.2) {
    struct secondary_split f = secondary_split_at(x);
    bad += !(f.heat >= prev.heat && f.ion_hi <= prev.ion_hi && f.ion_hei <= prev.ion_hei &&
             f.heat + f.ion_hi + f.ion_hei <= 1.0);
    prev = f;
  }
  EXPECT(bad == 0, "%d electron fractions break monotonicity or exceed the energy", bad);
  /* bookkeeping: 1 keV of electrons per second at x_e = 0.1 */
  double heat = 0.0, ion_hi = 0.0, ion_hei = 0.0, e = 1000.0 * IONF_EV_ERG;
  secondary_deposit(0.1, e, &heat, &ion_hi, &ion_hei);
  struct secondary_split f = secondary_split_at(0.1);
  EXPECT(fabs(heat - f.heat * e) <= 1e-15 * e &&
             fabs(ion_hi * IONF_E_HI_EV * IONF_EV_ERG - f.ion_hi * e) <= 1e-15 * e &&
             fabs(ion_hei * IONF_E_HEI_EV * IONF_EV_ERG - f.ion_hei * e) <= 1e-15 * e,
         "deposit bookkeeping");
  TEST_RETURN();
}
