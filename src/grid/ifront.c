/**
 * @file ifront.c
 * @brief I-front measurement and the analytic Stromgren solution.
 */
#include "grid/ifront.h"

#include <math.h>
#include <stdlib.h>

#include "core/constants.h"

double ifront_stromgren_radius_cm(double ndot_per_s, double n_h_cm3, double alpha_b_cm3_s) {
  return cbrt(3.0 * ndot_per_s / (4.0 * IONF_PI * alpha_b_cm3_s * n_h_cm3 * n_h_cm3));
}

double ifront_recombination_time_s(double n_h_cm3, double alpha_b_cm3_s) {
  return 1.0 / (alpha_b_cm3_s * n_h_cm3);
}

double ifront_analytic_radius_cm(double ndot_per_s, double n_h_cm3, double alpha_b_cm3_s,
                                 double t_s) {
  double t_rec = ifront_recombination_time_s(n_h_cm3, alpha_b_cm3_s);
  return ifront_stromgren_radius_cm(ndot_per_s, n_h_cm3, alpha_b_cm3_s) *
         cbrt(-expm1(-t_s / t_rec));
}

double ifront_radius_along_line_cm(const struct grid *g, const double *x_line, int32_t i_src) {
  int64_t n = g->n;
  int step = i_src < n / 2 ? 1 : -1;
  double prev_neutral = 1.0 - x_line[i_src];
  if (prev_neutral >= 0.5) return 0.0;
  for (int64_t d = 1;; ++d) {
    int64_t i = i_src + step * d;
    if (i < 0 || i >= n) return -1.0;
    double neutral = 1.0 - x_line[i];
    if (neutral >= 0.5) {
      double f = (0.5 - prev_neutral) / (neutral - prev_neutral);
      return ((double)(d - 1) + f) * g->cell_cm;
    }
    prev_neutral = neutral;
  }
}

double ifront_radius_along_x_cm(const struct grid *g, const double *x_hii, const int32_t *src) {
  int64_t n = g->n;
  double *line = malloc(sizeof(double) * (size_t)n);
  if (!line) return -1.0;
  for (int64_t i = 0; i < n; ++i) line[i] = x_hii[grid_index(n, i, src[1], src[2])];
  double r = ifront_radius_along_line_cm(g, line, src[0]);
  free(line);
  return r;
}
