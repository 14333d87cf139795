/**
 * @file test_photo_locate.c
 * @brief photo_table_locate_fast (no log10) against photo_table_locate (log10).
 *
 * For the default tables (20000 points from 1e-20 to 1e4) and the eor problem's (10000),
 * optical depths spread over every decade, at the nodes and a relative 1e-15 either side
 * of them, below the table and above it:
 *  - the interpolated thick table agrees with the log10 position's to 1e-12 relative (the
 *    log10 route's own rounding is ~ulp(log10 tau) / dlog_tau ~ 3e-12 in the fraction;
 *    measured 6.0e-14 at 20000 and 10000 points) — the tables' values, not the fraction, since
 *    at a node either side of it is the same value;
 *  - where the two positions are more than 1e-9 of an interval from a node, the same
 *    interval;
 *  - the fraction lies in [0, 1] and the interval inside the table;
 *  - tables too coarse for the series (dlog_tau > PHOTO_FAST_DLOG_TAU_MAX) get no
 *    inv_tau, so the log10 route.
 */
#include <math.h>
#include <stdlib.h>

#include "core/constants.h"
#include "rt/photo_tables.h"
#include "test_util.h"

static struct photo_tables build(int num_tau) {
  struct photo_spectrum spectrum = {SPECTRUM_BLACKBODY, 1e5, num_tau, -20.0, 4.0};
  struct species_params params = {IONF_SIGMA_HI_CM2, 2.8, 0.0, 0.0};
  struct species_data species[IONF_MAX_SPECIES];
  species_table(&params, species);
  struct photo_tables t;
  if (photo_tables_build(&spectrum, species, 0, &t) != IONF_OK) {
    fprintf(stderr, "table build failed: %s\n", ionf_error_message());
    exit(1);
  }
  return t;
}

static void check(int num_tau) {
  struct photo_tables t = build(num_tau);
  struct photo_table_view v = photo_tables_view(&t);
  EXPECT(v.inv_tau != NULL, "%d points: the fast locate applies", num_tau);
  const double *thick = v.sp[SPECIES_HI].thick;
  double worst = 0.0;
  long long cases = 0, same_interval = 0, far_from_node = 0;
  unsigned seed = 12345u;
  for (int k = 0; k < 400000; ++k) {
    double tau;
    if (k < 3 * num_tau && k % 3 != 1) { /* a node, and 1e-15 either side of it */
      int i = k / 3 + 1;
      tau = photo_table_tau(i, v.min_log_tau, v.dlog_tau) * (k % 3 == 0 ? 1.0 : 1.0 + 1e-15);
    } else if (k < 3 * num_tau) {
      tau = photo_table_tau(k / 3 + 1, v.min_log_tau, v.dlog_tau) * (1.0 - 1e-15);
    } else { /* every decade from 1e-24 to 1e8, and zero */
      double u = rand_r(&seed) / ((double)RAND_MAX + 1.0);
      tau = k % 1000 == 0 ? 0.0 : pow(10.0, -24.0 + 32.0 * u);
    }
    struct photo_table_pos a = photo_table_locate(v.num_tau, v.min_log_tau, v.dlog_tau, tau);
    struct photo_table_pos b = photo_table_locate_fast(&v, tau);
    EXPECT(b.i0 >= 0 && b.i1 <= v.num_tau && b.f >= 0.0 && b.f <= 1.0,
           "tau = %.17g: interval %d..%d, fraction %.17g", tau, b.i0, b.i1, b.f);
    if (!(b.i0 >= 0 && b.i1 <= v.num_tau)) continue;
    double va = photo_table_at(thick, a), vb = photo_table_at(thick, b);
    worst = test_worst(worst, test_rel_diff(vb, va, 1e-300));
    ++cases;
    double from_node = a.f < 0.5 ? a.f : 1.0 - a.f;
    if (from_node > 1e-9) {
      ++far_from_node;
      same_interval += a.i0 == b.i0;
    }
  }
  printf("%d points: %lld optical depths, thick table max rel diff %.3g; same interval %lld of "
         "%lld away from the nodes\n",
         num_tau, cases, worst, same_interval, far_from_node);
  EXPECT(worst <= 1e-12, "%d points: fast locate differs by %.3g", num_tau, worst);
  EXPECT(same_interval == far_from_node, "%d points: %lld intervals differ", num_tau,
         far_from_node - same_interval);
  photo_tables_free(&t);
}

int main(void) {
  check(20000);
  check(10000);
  /* coarse tables: no inv_tau, the log10 route */
  struct photo_tables t = build(1000);
  struct photo_table_view v = photo_tables_view(&t);
  EXPECT(v.inv_tau == NULL, "1000 points (dlog_tau 0.024): no fast locate");
  struct photo_table_pos a = photo_table_locate(v.num_tau, v.min_log_tau, v.dlog_tau, 0.37);
  struct photo_table_pos b = photo_table_locate_fast(&v, 0.37);
  EXPECT(a.i0 == b.i0 && a.f == b.f, "1000 points: the log10 route");
  photo_tables_free(&t);
  return test_failures ? 1 : 0;
}
