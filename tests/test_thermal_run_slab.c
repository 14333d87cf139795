/**
 * The built-in slabs through the whole run (config -> generated profile and walls -> the
 * rank's range -> thermal_run_solve on the CPU) against the exact slab solution
 * (src/thermal/thermal_exact.h) of the same setup and medium: thermal_slab (grey, seed
 * case 1: lin1 from 500 to 1500 K between walls at 500 and 1500 K) and thermal_wsgg (H2O-CO2
 * WSGG, parab1).  Each cell's z-score (Q - exact) / sigma stays within 5 and chi^2 per cell
 * near 1 (the error estimate is honest; measured 1.07 and 0.99 with 400 rays, 512 cells: the
 * band 0.7..1.4 is some 6 standard deviations of chi^2/cell wide each way), and each wall's mean flux within 5 sigma of the
 * exact one; a mix-up of axis, wall or sign would be off by many sigma.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_file.h"
#include "config/config_thermal.h"
#include "engine/thermal_run.h"
#include "test_util.h"
#include "thermal/thermal_exact.h"

static void check_builtin(const char *name, const char *rays) {
  char rays_set[64];
  snprintf(rays_set, sizeof rays_set, "montecarlo.rays_per_element=%s", rays);
  char *sets[] = {rays_set, "raytracing.backend=cpu"};
  struct config_file f;
  struct config_thermal cfg;
  struct thermal_run *r = NULL;
  if (config_file_builtin(name, &f) != IONF_OK) {
    EXPECT(0, "%s: %s", name, ionf_error_message());
    return;
  }
  ionf_err rc = config_thermal_load_file(&f, sets, 2, &cfg);
  config_file_free(&f);
  if (rc == IONF_OK) rc = thermal_run_create(&cfg, &r);
  EXPECT(rc == IONF_OK, "%s: %s", name, ionf_error_message());
  if (rc != IONF_OK) return;
  int64_t nx = cfg.setup.n[0], per = cfg.setup.n[1] * cfg.setup.n[2], cells = r->cells;
  EXPECT(r->range.cell_first == 0 && r->range.cell_count == cells, "one rank: every cell");
  double *q = calloc((size_t)cells, sizeof(double)), *sigma = calloc((size_t)cells, sizeof(double));
  double *exact = calloc((size_t)nx, sizeof(double)), wall_exact[2];
  struct thermal_fields fields = {r->t_k, r->p_atm, r->x_h2o, r->x_co2};
  rc = thermal_run_solve(r, NULL, 0, q, sigma);
  EXPECT(rc == IONF_OK, "%s solve: %s", name, ionf_error_message());
  rc = thermal_exact_slab(&cfg.setup, &fields, exact, wall_exact);
  EXPECT(rc == IONF_OK, "%s exact: %s", name, ionf_error_message());
  double z_max = 0.0, chi2 = 0.0;
  for (int64_t c = 0; c < cells; ++c) {
    double z = (q[c] - exact[c / per]) / sigma[c];
    z_max = test_worst(z_max, isfinite(z) ? fabs(z) : INFINITY);
    chi2 += z * z;
  }
  chi2 /= (double)cells;
  printf("%s: %lld cells, largest |z| %.2f, chi^2 per cell %.3f\n", name, (long long)cells,
         z_max, chi2);
  EXPECT(z_max <= 5.0, "%s: a cell is %.2f sigma from the exact Q", name, z_max);
  EXPECT(chi2 >= 0.7 && chi2 <= 1.4, "%s: chi^2 per cell %.3f (an honest sigma gives ~1)", name,
         chi2);
  for (int w = 0; w < 2; ++w) { /* the walls' patches: x_lo then x_hi, per patches each */
    double sum = 0.0, var = 0.0;
    for (int64_t p = 0; p < per; ++p) {
      sum += r->wall_q_w_per_m2[w * per + p];
      var += r->wall_q_sigma_w_per_m2[w * per + p] * r->wall_q_sigma_w_per_m2[w * per + p];
    }
    double mean = sum / (double)per, z = (mean - wall_exact[w]) * (double)per / sqrt(var);
    printf("%s: wall %s: %.6g W/m^2 (exact %.6g), z %.2f\n", name, w ? "x_hi" : "x_lo", mean,
           wall_exact[w], z);
    EXPECT(isfinite(z) && fabs(z) <= 5.0, "%s: wall %d is %.2f sigma from exact", name, w, z);
  }
  free(q);
  free(sigma);
  free(exact);
  thermal_run_destroy(r);
  config_thermal_free(&cfg);
}

int main(void) {
  check_builtin("thermal_slab", "400");
  check_builtin("thermal_wsgg", "400");
  if (test_failures) fprintf(stderr, "%d failure(s)\n", test_failures);
  return test_failures ? 1 : 0;
}
