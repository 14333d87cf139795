/**
 * @file test_util.h
 * @brief Tiny assertion helpers for the test programs (plain main, exit 0/1/77).
 */
#ifndef IONF_TEST_UTIL_H
#define IONF_TEST_UTIL_H

#include <math.h>
#include <stdio.h>

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

/** |a - b| <= rel * |b| (+ tiny absolute floor). */
#define EXPECT_REL(a, b, rel, what)                                                     \
  do {                                                                                  \
    double ea_ = (a), eb_ = (b);                                                        \
    if (!(fabs(ea_ - eb_) <= (rel) * fabs(eb_) + 1e-300)) {                             \
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
