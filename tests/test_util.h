/**
 * @file test_util.h
 * @brief Tiny assertion helpers for the test programs (plain main, exit 0/1/77).
 */
#ifndef IONF_TEST_UTIL_H
#define IONF_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures = 0;

#define TEST_SKIP_CODE 77

#define EXPECT(cond, ...)                                              \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                    \
      fputc('\n', stderr);                                             \
      ++test_failures;                                                 \
    }                                                                  \
  } while (0)

/* NaN-safe comparisons.  A NaN must never read as "close": a loop written as
 * `if (d > worst) worst = d` or `worst = fmax(worst, d)` drops a NaN d and passes.
 * test_abs_diff / test_rel_diff return +inf when either value is NaN or when the two
 * differ in finiteness (one infinite, or opposite infinities), 0 when a == b; and
 * test_worst keeps a NaN once one is seen, so `EXPECT(worst <= tol, ...)` fails.
 * Compare as `worst <= tol` (false for NaN), never as `!(worst > tol)`. */

/** |a - b|; +inf when either is NaN or they differ in finiteness; 0 when a == b. */
static inline double test_abs_diff(double a, double b) {
  if (isnan(a) || isnan(b)) return INFINITY;
  if (a == b) return 0.0; /* equal values, equal infinities included */
  if (isinf(a) || isinf(b)) return INFINITY;
  return fabs(a - b);
}

/** |a - b| / max(|b|, floor_abs) (b the reference); +inf as test_abs_diff; 0 when a == b. */
static inline double test_rel_diff(double a, double b, double floor_abs) {
  double d = test_abs_diff(a, b);
  if (d == 0.0 || isinf(d)) return d;
  double scale = fabs(b) > floor_abs ? fabs(b) : floor_abs;
  return scale > 0.0 ? d / scale : INFINITY;
}

/** |a - b| / max(|a|, |b|) (neither is the reference); +inf as test_abs_diff; 0 when a == b. */
static inline double test_rel_diff_sym(double a, double b) {
  double d = test_abs_diff(a, b);
  if (d == 0.0 || isinf(d)) return d;
  return d / (fabs(a) > fabs(b) ? fabs(a) : fabs(b));
}

/** The worse (larger) of an accumulated error and a new one; a NaN in either is kept. */
static inline double test_worst(double worst, double err) {
  if (isnan(worst) || isnan(err)) return NAN;
  return err > worst ? err : worst;
}

/** The smaller of an accumulated least value and a new one; a NaN in either is kept. */
static inline double test_least(double least, double v) {
  if (isnan(least) || isnan(v)) return NAN;
  return v < least ? v : least;
}

/* GPU detection for every GPU test: tests/test_gpu_probe.{cu,c}, linked into each
 * test program by ionf_add_test.  test_gpu_probe returns the number of CUDA devices;
 * with none it writes why (the CUDA error string, or "CPU-only build") into why. */
#ifdef __cplusplus
extern "C"
#endif
int test_gpu_probe(char *why, size_t size);

/** 1 when IONFRONT_REQUIRE_GPU=1 is set: then a GPU test may not skip. */
static inline int test_gpu_required(void) {
  const char *v = getenv("IONFRONT_REQUIRE_GPU");
  return v && strcmp(v, "1") == 0;
}

/** The exit code of a GPU test that found no GPU: 77 (skip), or 1 with
 *  IONFRONT_REQUIRE_GPU=1 (a broken driver must not read as "no GPU"). */
static inline int test_gpu_skip(const char *why) {
  if (test_gpu_required()) {
    fprintf(stderr, "FAIL: no usable GPU (%s) and IONFRONT_REQUIRE_GPU=1\n", why);
    return 1;
  }
  printf("no usable GPU (%s): skipped\n", why);
  return TEST_SKIP_CODE;
}

/** |a - b| <= rel * |b| (+ tiny absolute floor); fails on NaN. */
#define EXPECT_REL(a, b, rel, what)                                                     \
  do {                                                                                  \
    double ea_ = (a), eb_ = (b);                                                        \
    if (!(test_abs_diff(ea_, eb_) <= (rel) * fabs(eb_) + 1e-300)) {                     \
      fprintf(stderr, "FAIL %s:%d: %s: got %.12g expected %.12g (rel err %.3g > %.3g)\n", \
              __FILE__, __LINE__, (what), ea_, eb_, fabs(ea_ - eb_) / fabs(eb_), (double)(rel)); \
      ++test_failures;                                                                  \
    }                                                                                   \
  } while (0)

#define TEST_RETURN()                                               \
  do {                                                              \
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures); \
    else printf("all checks passed\n");                             \
    return test_failures ? 1 : 0;                                   \
  } while (0)

#endif
