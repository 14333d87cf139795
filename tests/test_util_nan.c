/**
 * @file test_util_nan.c
 * @brief The NaN-safe comparisons of tests/test_util.h: a NaN (or a lone infinity)
 *        fed into a comparison reads as a failure, never as "close".
 *        - no argument: the helpers' values, and that an EXPECT on a worst-of loop fed a
 *          NaN counts a failure where the old `if (d > worst) worst = d` loop passed;
 *        - `nan`: a comparison loop as the tests write it, fed one NaN: must exit 1
 *          (registered with WILL_FAIL).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

/* a comparison as the tests write it: worst relative difference, then `worst <= tol` */
static int compare_as_tests_do(const double *a, const double *b, int n, double tol) {
  double worst = 0.0;
  for (int i = 0; i < n; ++i) worst = test_worst(worst, test_rel_diff(a[i], b[i], 1e-300));
  printf("worst relative difference %.3g (tolerance %.3g)\n", worst, tol);
  EXPECT(worst <= tol, "arrays differ by %.3g", worst);
  return 0;
}

static void check_helpers(void) {
  const double nan = NAN, inf = INFINITY;
  EXPECT(test_abs_diff(1.0, 1.0) == 0.0, "equal values");
  EXPECT(test_abs_diff(1.0, 3.0) == 2.0 && test_abs_diff(3.0, 1.0) == 2.0, "|1 - 3|");
  EXPECT(isinf(test_abs_diff(nan, 1.0)) && isinf(test_abs_diff(1.0, nan)), "one NaN: +inf");
  EXPECT(isinf(test_abs_diff(nan, nan)), "two NaNs: +inf, not 0");
  EXPECT(isinf(test_abs_diff(inf, 1e308)) && isinf(test_abs_diff(-1e308, -inf)),
         "finite against infinite: +inf");
  EXPECT(test_abs_diff(inf, inf) == 0.0 && test_abs_diff(-inf, -inf) == 0.0, "equal infinities");
  EXPECT(isinf(test_abs_diff(inf, -inf)), "opposite infinities: +inf");
  EXPECT(test_abs_diff(1.0, 3.0) > 0.0, "positive");
  EXPECT(test_rel_diff(1.5, 1.0, 0.0) == 0.5, "relative to the reference (second)");
  EXPECT(test_rel_diff(0.0, 0.0, 0.0) == 0.0, "0 vs 0");
  EXPECT(test_rel_diff(1e-310, 0.0, 1e-300) == 1e-310 / 1e-300, "floor below |b|");
  EXPECT(isinf(test_rel_diff(1.0, 0.0, 0.0)), "x vs 0 with no floor: +inf");
  EXPECT(isinf(test_rel_diff(nan, 1.0, 0.0)) && isinf(test_rel_diff(1.0, nan, 1.0)), "NaN relative");
  EXPECT(test_rel_diff_sym(1.0, 2.0) == 0.5 && test_rel_diff_sym(2.0, 1.0) == 0.5, "symmetric");
  EXPECT(isinf(test_rel_diff_sym(nan, 0.0)) && test_rel_diff_sym(0.0, 0.0) == 0.0, "symmetric NaN, 0");
  EXPECT(test_worst(1.0, 2.0) == 2.0 && test_worst(2.0, 1.0) == 2.0, "worst of two");
  EXPECT(isnan(test_worst(0.0, nan)) && isnan(test_worst(nan, 5.0)), "worst keeps a NaN");
  EXPECT(test_least(1.0, 2.0) == 1.0 && isnan(test_least(nan, 2.0)) && isnan(test_least(1.0, nan)),
         "least keeps a NaN");
}

/* The pattern this helper replaces drops a NaN; the helper keeps it and the check fails. */
static void check_nan_fails(void) {
  double a[4] = {1.0, 2.0, NAN, 4.0}, b[4] = {1.0, 2.0, 3.0, 4.0};
  double old = 0.0, worst = 0.0;
  for (int i = 0; i < 4; ++i) {
    double d = fabs(a[i] - b[i]) / b[i];
    if (d > old) old = d; /* the old loop: NaN > old is false, so the NaN vanishes */
    worst = test_worst(worst, test_rel_diff(a[i], b[i], 0.0));
  }
  EXPECT(old == 0.0, "the old loop reads a NaN as agreement (%g): the reason for test_worst", old);
  EXPECT(!(worst <= 1e300), "the NaN reads as +inf (%g)", worst);
  EXPECT(isnan(test_worst(worst, NAN)), "test_worst keeps a NaN error");
  /* an EXPECT of the tests' form on it counts a failure */
  fprintf(stderr, "the next three FAIL lines are expected (counted, then discounted):\n");
  int before = test_failures;
  compare_as_tests_do(a, b, 4, 1e-10);
  int counted = test_failures - before;
  test_failures = before;
  EXPECT(counted == 1, "a NaN in the compared arrays counted %d failure(s), want 1", counted);
  /* EXPECT_REL too */
  before = test_failures;
  EXPECT_REL(NAN, 1.0, 1e-3, "NaN against 1 (expected to fail here)");
  EXPECT_REL(INFINITY, 1.0, 1e-3, "inf against 1 (expected to fail here)");
  counted = test_failures - before;
  test_failures = before;
  EXPECT(counted == 2, "EXPECT_REL with a NaN or an infinity counted %d failure(s), want 2", counted);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "nan") == 0) { /* must fail: one NaN among equal values */
    double a[3] = {1.0, NAN, 3.0}, b[3] = {1.0, 2.0, 3.0};
    compare_as_tests_do(a, b, 3, 1e-10);
    TEST_RETURN();
  }
  check_helpers();
  check_nan_fails();
  TEST_RETURN();
}
