/**
 * @file test_sph_kernel_table.c
 * @brief The kernel column table C(q2) (src/sph_k.h, src/sph_kernel_table.c):
 *        the quadrature gives C(0) = 6/pi (the analytic value) and a volume
 *        integral of 1; the interpolated table agrees with direct quadrature
 *        at random q2 to the accuracy sph_k.h states (error < 1e-5 of C(0)
 *        everywhere, < 2e-4 relative for q2 <= 0.9); C(1) = 0 and C = 0
 *        beyond; the interpolant's own volume integral, pi * int C dq2
 *        (exact by the trapezoid rule), is 1 to 5e-6.
 */
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/constants.h"
#include "core/error.h"
#include "particles/sph_k.h"
#include "particles/sph_kernel_table.h"
#include "test_util.h"

static double quad_integrand(double q2, void *unused) {
  (void)unused;
  return IONF_PI * sph_kernel_column_quad(q2);
}

int main(void) {
  static double table[SPH_COLUMN_INTERVALS + 1];
  EXPECT(sph_kernel_table_fill(table) == IONF_OK, "fill: %s", ionf_error_message());
  double c0 = sph_kernel_column_quad(0.0);
  EXPECT_REL(c0, 6.0 / IONF_PI, 1e-12, "C(0) = 6/pi");
  EXPECT(table[SPH_COLUMN_INTERVALS] == 0.0, "table at q2 = 1: %g", table[SPH_COLUMN_INTERVALS]);
  EXPECT(sph_kernel_column(table, 1.0) == 0.0, "C(1) = %g", sph_kernel_column(table, 1.0));
  EXPECT(sph_kernel_column(table, 1.5) == 0.0, "C(1.5) = %g", sph_kernel_column(table, 1.5));
  EXPECT(sph_kernel_column(table, 0.0) == table[0], "C(0) from the table");

  /* the kernel's volume integral from the quadrature: int_0^1 C(q2) pi dq2 = 1 */
  {
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(200);
    gsl_function f = {quad_integrand, NULL};
    double v, err;
    /* split at q2 = 1/4 where C has its (weak) break */
    double v1 = 0.0, v2 = 0.0;
    gsl_integration_qag(&f, 0.0, 0.25, 0.0, 1e-11, 200, GSL_INTEG_GAUSS21, ws, &v1, &err);
    gsl_integration_qag(&f, 0.25, 1.0, 0.0, 1e-11, 200, GSL_INTEG_GAUSS21, ws, &v2, &err);
    v = v1 + v2;
    gsl_integration_workspace_free(ws);
    EXPECT_REL(v, 1.0, 1e-9, "volume integral of the quadrature C");
  }
  /* ... and of the linear interpolant (trapezoid rule in q2, exact for it) */
  {
    double v = 0.0;
    for (int i = 0; i < SPH_COLUMN_INTERVALS; ++i)
      v += 0.5 * (table[i] + table[i + 1]) * IONF_PI / SPH_COLUMN_INTERVALS;
    printf("volume integral of the interpolated table: 1 %+.3g\n", v - 1.0);
    EXPECT_REL(v, 1.0, 5e-6, "volume integral of the table");
  }
  /* random q2 against direct quadrature */
  {
    uint64_t state = 12345u;
    double max_abs = 0.0, max_rel = 0.0;
    for (int k = 0; k < 4000; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      double q2 = (double)(state >> 11) / 9007199254740992.0;
      double exact = sph_kernel_column_quad(q2);
      double got = sph_kernel_column(table, q2);
      max_abs = test_worst(max_abs, test_abs_diff(got, exact));
      if (q2 <= 0.9) max_rel = test_worst(max_rel, test_rel_diff(got, exact, 0.0));
    }
    printf("table vs quadrature at 4000 random q2: max error %.3g of C(0), max relative "
           "(q2 <= 0.9) %.3g\n", max_abs / c0, max_rel);
    EXPECT(max_abs / c0 < 1e-5, "max error %g of C(0)", max_abs / c0);
    EXPECT(max_rel < 2e-4, "max relative error %g (q2 <= 0.9)", max_rel);
  }
  /* the per-process copy equals the fill, on first use and after, from threads too */
  {
    static double copy[8][SPH_COLUMN_INTERVALS + 1];
    int failed = 0;
#pragma omp parallel for reduction(+ : failed)
    for (int k = 0; k < 8; ++k) failed += sph_kernel_table_copy(copy[k]) != IONF_OK;
    EXPECT(failed == 0, "copies failed: %d", failed);
    for (int k = 0; k < 8; ++k)
      EXPECT(memcmp(copy[k], table, sizeof table) == 0, "copy %d differs from the fill", k);
    copy[0][3] = -1.0; /* the caller's copy is its own */
    EXPECT(sph_kernel_table_copy(copy[1]) == IONF_OK && copy[1][3] == table[3],
           "a copy after a caller changed its own");
  }
  /* monotone decreasing (the kernel decreases outward) */
  for (int i = 0; i < SPH_COLUMN_INTERVALS; ++i)
    EXPECT(table[i + 1] < table[i], "table not decreasing at %d", i);
  TEST_RETURN();
}
