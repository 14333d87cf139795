/**
 * @file test_asora_thin.c
 * @brief Uniform medium: the traced column density along axes, face and body
 *        diagonals equals n_HI times the path from the source-cell centre
 *        (half a source cell, then whole cells); in an optically thin medium
 *        Gamma = Ndot sigma0 / (4 pi r^2) in every cell, i.e. Gamma r^2 is constant.
 */
#include <stdlib.h>

#include "test_physics_common.h"
#include "test_util.h"

static void check_columns(int periodic) {
  int64_t n = 40;
  int32_t src[3] = {20, 20, 20};
  double cell = 0.05 * IONF_KPC_CM, n_h = 2e-3, x0 = 0.25;
  double *nh, *x;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, periodic, n_h, x0, src, 5e48, &nh, &x, &s, &in);
  int64_t cells = n * n * n;
  double *gamma = calloc((size_t)cells, sizeof(double));
  double *column = calloc((size_t)cells, sizeof(double));
  in.column_out = column;
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, gamma, &st, NULL) == IONF_OK, "trace");
  double n_hi = n_h * (1.0 - x0);
  /* directions: axes (factor 1), face diagonals (sqrt 2), body diagonals (sqrt 3) */
  const int dirs[][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},   {0, -1, 0}, {0, 0, 1},
                         {0, 0, -1}, {1, 1, 0},  {-1, 0, 1},  {0, -1, -1}, {1, 1, 1},
                         {-1, 1, -1}, {1, -1, -1}, {-1, -1, 1}};
  for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; ++d) {
    double len = sqrt((double)(dirs[d][0] * dirs[d][0] + dirs[d][1] * dirs[d][1] +
                               dirs[d][2] * dirs[d][2]));
    for (int step = 1; step < 19; ++step) {
      int64_t i = src[0] + step * dirs[d][0], j = src[1] + step * dirs[d][1],
              k = src[2] + step * dirs[d][2];
      double expected = n_hi * cell * len * ((double)step + 0.5);
      EXPECT_REL(column[grid_index(n, i, j, k)], expected, 1e-12, "column along a grid line");
    }
  }
  free(gamma);
  free(column);
  free(nh);
  free(x);
  free(s.ijk);
  free(s.ndot_per_s);
}

static void check_inverse_square(void) {
  int64_t n = 33;
  int32_t src[3] = {16, 16, 16};
  double cell = 0.05 * IONF_KPC_CM, ndot = 1e49;
  double n_h = 1e-12; /* tau per cell ~ 1e-9: optically thin */
  double *nh, *x;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, 0, n_h, 0.0, src, ndot, &nh, &x, &s, &in);
  double *gamma = calloc((size_t)(n * n * n), sizeof(double));
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, gamma, &st, NULL) == IONF_OK, "trace");
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        double r2 = (double)((i - 16) * (i - 16) + (j - 16) * (j - 16) + (k - 16) * (k - 16));
        if (r2 == 0.0) continue;
        double expected = ndot * IONF_SIGMA_HI_CM2 / (4.0 * IONF_PI * r2 * cell * cell);
        worst = test_worst(worst, test_rel_diff(gamma[grid_index(n, i, j, k)], expected, 0.0));
      }
  EXPECT(worst < 1e-6, "Gamma r^2 not constant in a thin medium: worst relative deviation %g",
         worst);
  free(gamma);
  free(nh);
  free(x);
  free(s.ijk);
  free(s.ndot_per_s);
}

int main(void) {
  check_columns(0);
  check_columns(1);
  check_inverse_square();
  TEST_RETURN();
}
