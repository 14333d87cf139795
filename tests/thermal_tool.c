/**
 * @file thermal_tool.c
 * @brief Helper of validation/thermal.py (not a test): the exact slab for the cells a run
 *        wrote, and the Monte Carlo Q^R along the centre line of the seed's 3D grey cube.
 *
 * usage:
 *   thermal_tool exact-slab grey|wsgg KAPPA DX_M EPS_LO T_LO_K EPS_HI T_HI_K < CELLS
 *     CELLS: one line per cell along x, "T_K [P_ATM X_H2O X_CO2]"; prints one line per cell,
 *     "x_m Q_exact_W_per_m3", then "wall x_lo Q_W_per_m2" and "wall x_hi Q_W_per_m2"
 *     (net flux into the walls), from thermal_exact_slab.
 *   thermal_tool cube-line KAPPA N RAYS SEED LEVELS SORT
 *     the cube of the seed's cases 3-4 (1 m, N^3 cells, N odd, sigma T^4/pi =
 *     sin(pi x) sin(pi y) sin(pi z), cold black walls): the cells (N/2, N/2, k) only;
 *     prints "z_m Q_W_per_m3 sigma_W_per_m3" per cell, then "rays R steps S seconds T".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "thermal/thermal.h"
#include "thermal/thermal_exact.h"

#define TOOL_PI 3.14159265358979323846
#define TOOL_SIGMA 5.670374419e-8

static int tool_exact_slab(int argc, char **argv) {
  if (argc != 9) return 2;
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.gas_model = strcmp(argv[2], "wsgg") == 0 ? THERMAL_GAS_WSGG_BORDBAR14 : THERMAL_GAS_GREY;
  s.kappa_per_m = atof(argv[3]);
  s.cell_m[0] = atof(argv[4]);
  s.cell_m[1] = s.cell_m[2] = 1.0;
  s.n[1] = s.n[2] = 1;
  s.periodic[1] = s.periodic[2] = 1;
  s.wall[0].emissivity = atof(argv[5]);
  s.wall[0].t_k = atof(argv[6]);
  s.wall[1].emissivity = atof(argv[7]);
  s.wall[1].t_k = atof(argv[8]);
  s.rays_per_element = 2 * 5;
  s.transmissivity_min = 1e-6;
  size_t cap = 1024, n = 0;
  double *v = malloc(4 * cap * sizeof(double));
  char line[512];
  while (v && fgets(line, sizeof line, stdin)) {
    double t, p = 1.0, xw = 0.0, xc = 0.0;
    if (sscanf(line, "%lf %lf %lf %lf", &t, &p, &xw, &xc) < 1) continue;
    if (n == cap) {
      cap *= 2;
      double *w = realloc(v, 4 * cap * sizeof(double));
      if (!w) break;
      v = w;
    }
    v[n] = t, v[cap + n] = p, v[2 * cap + n] = xw, v[3 * cap + n] = xc;
    ++n;
  }
  s.n[0] = (int64_t)n;
  double *q = malloc((n + 1) * sizeof(double)), wq[2];
  struct thermal_fields f = {v, v + cap, v + 2 * cap, v + 3 * cap};
  if (!v || !q || n == 0 || thermal_exact_slab(&s, &f, q, wq) != IONF_OK) {
    fprintf(stderr, "thermal_tool: %s\n", n == 0 ? "no cells on stdin" : ionf_error_message());
    return 1;
  }
  for (size_t i = 0; i < n; ++i) printf("%.10g %.12g\n", (i + 0.5) * s.cell_m[0], q[i]);
  printf("wall x_lo %.12g\nwall x_hi %.12g\n", wq[0], wq[1]);
  free(v);
  free(q);
  return 0;
}

static int tool_cube_line(int argc, char **argv) {
  if (argc != 8) return 2;
  int64_t n = atoll(argv[3]);
  if (n < 3 || n % 2 == 0 || n > 513) {
    fprintf(stderr, "thermal_tool: N must be odd, 3 to 513\n");
    return 2;
  }
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.kappa_per_m = atof(argv[2]);
  for (int a = 0; a < 3; ++a) {
    s.n[a] = n;
    s.cell_m[a] = 1.0 / (double)n;
    s.wall[2 * a].emissivity = s.wall[2 * a + 1].emissivity = 1.0;
  }
  s.rays_per_element = atoll(argv[4]);
  s.seed = (uint32_t)strtoul(argv[5], NULL, 10);
  s.multigrid.levels = atoi(argv[6]);
  s.multigrid.steps_per_level = 5;
  s.sort_gases = atoi(argv[7]);
  s.transmissivity_min = 1e-6;
  int64_t cells = n * n * n;
  double *t = malloc((size_t)cells * sizeof(double)), q[513], qs[513];
  if (!t) return 1;
  for (int64_t i = 0; i < cells; ++i) {
    double x = ((double)(i / (n * n)) + 0.5) / (double)n;
    double y = ((double)((i / n) % n) + 0.5) / (double)n;
    double z = ((double)(i % n) + 0.5) / (double)n;
    double ib = sin(TOOL_PI * x) * sin(TOOL_PI * y) * sin(TOOL_PI * z);
    t[i] = pow(ib * TOOL_PI / TOOL_SIGMA, 0.25);
  }
  struct thermal_fields f = {t, NULL, NULL, NULL};
  struct thermal_range r = {((n / 2) * n + n / 2) * n, n, 0, 0};
  struct thermal_result out = {q, qs, NULL, NULL, 0, 0};
  double t0 = ionf_wtime();
  if (thermal_solve_cpu(&s, &f, &r, &out) != IONF_OK) {
    fprintf(stderr, "thermal_tool: %s\n", ionf_error_message());
    return 1;
  }
  double sec = ionf_wtime() - t0;
  for (int64_t k = 0; k < n; ++k) printf("%.10g %.12g %.6g\n", (k + 0.5) / (double)n, q[k], qs[k]);
  printf("rays %lld steps %lld seconds %.3f\n", (long long)out.rays_traced,
         (long long)out.steps_traced, sec);
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  int rc = 2;
  if (argc > 1 && strcmp(argv[1], "exact-slab") == 0) rc = tool_exact_slab(argc, argv);
  if (argc > 1 && strcmp(argv[1], "cube-line") == 0) rc = tool_cube_line(argc, argv);
  if (rc == 2)
    fprintf(stderr, "usage: thermal_tool exact-slab grey|wsgg KAPPA DX_M EPS_LO T_LO EPS_HI T_HI "
                    "< CELLS\n       thermal_tool cube-line KAPPA N RAYS SEED LEVELS SORT\n");
  return rc;
}
