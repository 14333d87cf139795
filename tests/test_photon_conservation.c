/**
 * @file test_photon_conservation.c
 * @brief Photon conservation of the rate formula.
 *
 * 1. Per ray (what C2-Ray's photon-conserving rates guarantee): along every
 *    axis and body-diagonal ray of an optically thick box, the photons the
 *    cells absorb, sum of Gamma n_HI V_shell (V_shell = 4 pi r^2 ds), plus what
 *    leaves the box, equal what entered the first cell, Ndot thick(tau_in), to
 *    1e-3 -- for grey (exact) rates and black-body rates from the tables; and
 *    the source cell absorbs Ndot (1 - thick(tau_half)) with V = V_cell.
 *    (The source cell is one cell for all directions: a diagonal ray enters
 *    its first cell with sqrt(3) tau_half, an axis ray with tau_half, so the
 *    per-ray budgets start from thick(tau_in) of the first cell.)
 * 2. Whole box: the photons all cells absorb, sum of Gamma n_HI V_cell, against
 *    Ndot for an ionized sphere inside an optically thick neutral medium (the
 *    Stromgren configuration).  Here the cubic lattice itself costs accuracy:
 *    the cells' solid-angle weights V_cell / V_shell do not tile the sphere
 *    exactly, so the sum deviates by about 1e-3 to 2e-2 depending on the
 *    optical depth per cell at the front (measured: +0.2% at tau = 1, -1.1% at
 *    tau = 0.5, +1.6% at tau = 2, r0 = 20 cells).  The test asserts 2.5% and
 *    prints the values; a wrong volume, path or source-cell treatment moves
 *    them by far more.
 */
#include <stdlib.h>
#include <string.h>

#include "rt/photo_tables.h"
#include "test_physics_common.h"
#include "test_util.h"

static struct photo_tables bb_tables(double t_eff) {
  struct photo_spectrum spectrum = {SPECTRUM_BLACKBODY, t_eff, 20000, -20.0, 4.0};
  struct species_params params = {IONF_SIGMA_HI_CM2, 2.8, 0.0, 0.0};
  struct species_data species[IONF_MAX_SPECIES];
  species_table(&params, species);
  struct photo_tables t;
  if (photo_tables_build(&spectrum, species, 1, &t) != IONF_OK) { /* with heating tables */
    fprintf(stderr, "table build failed: %s\n", ionf_error_message());
    exit(1);
  }
  return t;
}

static double thick_of(const struct photo_table_view *v, double tau) {
  if (v->grey) return exp(-tau);
  return photo_table_lookup(v->sp[SPECIES_HI].thick, v->num_tau, v->min_log_tau, v->dlog_tau, tau);
}

static void check_rays(struct photo_table_view view, double tau_cell, const char *label) {
  int64_t n = 49;
  int32_t src[3] = {24, 24, 24};
  double cell = 0.05 * IONF_KPC_CM, ndot = 5e48;
  double n_h = tau_cell / (IONF_SIGMA_HI_CM2 * cell);
  double *nh, *x;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, 0, n_h, 0.0, src, ndot, &nh, &x, &s, &in);
  in.tables = view;
  double *gamma = calloc((size_t)(n * n * n), sizeof(double));
  double *column = calloc((size_t)(n * n * n), sizeof(double));
  in.column_out = column;
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, gamma, &st, NULL) == IONF_OK, "trace");
  double v_cell = cell * cell * cell;
  double sigma0 = view.sp[SPECIES_HI].sigma0_cm2;
  double source_absorbed = gamma[grid_index(n, 24, 24, 24)] * n_h * v_cell;
  double tau_half = sigma0 * n_h * 0.5 * cell;
  EXPECT_REL(source_absorbed, ndot * (1.0 - thick_of(&view, tau_half)), 1e-6,
             "source cell absorbs Ndot (1 - thick(tau_half))");
  const int dirs[][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},   {0, -1, 0},  {0, 0, 1},
                         {0, 0, -1}, {1, 1, 1}, {-1, 1, 1},  {1, -1, 1},  {1, 1, -1},
                         {-1, -1, 1}, {-1, 1, -1}, {1, -1, -1}, {-1, -1, -1}};
  for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; ++d) {
    double len2 = (double)(dirs[d][0] * dirs[d][0] + dirs[d][1] * dirs[d][1] +
                           dirs[d][2] * dirs[d][2]);
    double along = 0.0, last_column = 0.0;
    /* column entering the first cell: the source's half cell along this direction */
    double entering = n_h * 0.5 * cell * sqrt(len2);
    for (int step = 1; step <= 24; ++step) {
      int64_t idx = grid_index(n, 24 + step * dirs[d][0], 24 + step * dirs[d][1],
                               24 + step * dirs[d][2]);
      double r2 = len2 * step * step * cell * cell;
      double v_shell = 4.0 * IONF_PI * r2 * sqrt(len2) * cell;
      along += gamma[idx] * n_h * v_shell;
      last_column = column[idx];
    }
    double in_flow = ndot * thick_of(&view, sigma0 * entering);
    double escaped = ndot * thick_of(&view, sigma0 * last_column);
    if (fabs((along + escaped) / in_flow - 1.0) > 1e-3)
      fprintf(stderr, "%s ray (%d,%d,%d): (absorbed + escaped) / entered = %.6f\n", label,
              dirs[d][0], dirs[d][1], dirs[d][2], (along + escaped) / in_flow);
    EXPECT_REL(along + escaped, in_flow, 1e-3, "photons along one ray");
    EXPECT(escaped < 1e-3 * ndot || !view.grey, "grey box not optically thick: %g escaped",
           escaped / ndot);
  }
  free(gamma);
  free(column);
  free(nh);
  free(x);
  free(s.ijk);
  free(s.ndot_per_s);
}

static double whole_box(double tau_cell, double r0) {
  int64_t n = 96;
  int32_t src[3] = {48, 48, 48};
  double cell = 0.05 * IONF_KPC_CM, ndot = 1e50;
  double n_h = tau_cell / (IONF_SIGMA_HI_CM2 * cell);
  double *nh, *x;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, 0, n_h, 0.0, src, ndot, &nh, &x, &s, &in);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        double r2 = (double)((i - 48) * (i - 48) + (j - 48) * (j - 48) + (k - 48) * (k - 48));
        if (r2 < r0 * r0) x[grid_index(n, i, j, k)] = 1.0 - 1e-9;
      }
  double *gamma = calloc((size_t)(n * n * n), sizeof(double));
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, gamma, &st, NULL) == IONF_OK, "trace");
  double absorbed = 0.0, v_cell = cell * cell * cell;
  for (int64_t c = 0; c < n * n * n; ++c) absorbed += gamma[c] * n_h * (1.0 - x[c]) * v_cell;
  free(gamma);
  free(nh);
  free(x);
  free(s.ijk);
  free(s.ndot_per_s);
  return absorbed / ndot;
}

int main(void) {
  check_rays(test_grey_view(), 0.5, "grey");
  check_rays(test_grey_view(), 3.0, "grey thick cells");
  struct photo_tables bb = bb_tables(1e5);
  check_rays(photo_tables_view(&bb), 0.5, "black body 1e5 K");
  check_rays(photo_tables_view(&bb), 20.0, "black body 1e5 K, thick cells");
  photo_tables_free(&bb);

  const double taus[] = {0.5, 1.0, 2.0};
  for (int t = 0; t < 3; ++t) {
    double f = whole_box(taus[t], 20.0);
    printf("whole box, ionized sphere r0 = 20 cells, tau per neutral cell %.1f: absorbed = %.5f Ndot\n",
           taus[t], f);
    EXPECT(fabs(f - 1.0) < 0.025, "whole-box photon budget %.5f Ndot (tau %.1f)", f, taus[t]);
  }
  TEST_RETURN();
}
