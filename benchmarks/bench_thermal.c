/**
 * @file bench_thermal.c
 * @brief Thermal radiation (ERMC) benchmark: one solve of every cell and wall patch of an
 *        N^3 box of 1 m, the seed's case-10 set-up (a slab between black walls at 500 K
 *        along x, periodic y and z, parab1 temperature 500 - 2000 x^2 + 2000 x [K]) with a
 *        grey gas (kappa 5 /m, about the Planck mean of case 10) or the Bordbar 2014 WSGG
 *        (x_H2O 0.2, x_CO2 0.1, 1 atm); prints the time and the throughput in cells x rays
 *        per second (the seed's unit) and ray steps per second.  The CPU solve uses
 *        OMP_NUM_THREADS threads.
 *
 * usage: bench_thermal cpu|cuda N RAYS grey|wsgg [SORT [LEVELS [PLAIN [REPEATS]]]]
 *   SORT 0/1 (band sorting), LEVELS (multigrid levels, 5 steps per level; 1 = off),
 *   PLAIN 0/1 (cuda: the kernel without the read-only data cache).
 *   One result line: backend N rays gas sort levels plain seconds cells_rays_per_s
 *   steps_per_s mean_q_w_per_m3
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/ionf_config.h"
#include "thermal/thermal.h"
#if IONF_HAVE_CUDA
#include "gpu/thermal/thermal_cuda.h"
#endif


int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s cpu|cuda N RAYS grey|wsgg [SORT [LEVELS [PLAIN [REPEATS]]]]\n",
            argv[0]);
    return 2;
  }
  int cuda = strcmp(argv[1], "cuda") == 0;
  int n = atoi(argv[2]);
  long long rays = atoll(argv[3]);
  int wsgg = strcmp(argv[4], "wsgg") == 0;
  int sort = argc > 5 ? atoi(argv[5]) : 0;
  int levels = argc > 6 ? atoi(argv[6]) : 1;
  int plain = argc > 7 ? atoi(argv[7]) : 0;
  int repeats = argc > 8 ? atoi(argv[8]) : 2;
  if (n < 1 || rays < 1 || repeats < 1) return 2;
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  for (int a = 0; a < 3; ++a) {
    s.n[a] = n;
    s.cell_m[a] = 1.0 / n;
  }
  s.periodic[1] = s.periodic[2] = 1;
  s.wall[THERMAL_FACE_X_LO].emissivity = s.wall[THERMAL_FACE_X_HI].emissivity = 1.0;
  s.wall[THERMAL_FACE_X_LO].t_k = s.wall[THERMAL_FACE_X_HI].t_k = 500.0;
  s.gas_model = wsgg ? THERMAL_GAS_WSGG_BORDBAR14 : THERMAL_GAS_GREY;
  s.kappa_per_m = 5.0;
  s.rays_per_element = rays;
  s.seed = 1;
  s.transmissivity_min = 1e-6;
  s.multigrid.levels = levels;
  s.multigrid.steps_per_level = 5;
  s.sort_gases = sort;
  int64_t cells = (int64_t)n * n * n, walls = thermal_wall_patches(&s);
  double *t = malloc(sizeof(double) * (size_t)cells), *xh = malloc(sizeof(double) * (size_t)cells);
  double *xc = malloc(sizeof(double) * (size_t)cells), *q = malloc(sizeof(double) * (size_t)cells);
  double *qs = malloc(sizeof(double) * (size_t)cells);
  double *wq = malloc(sizeof(double) * (size_t)walls), *ws = malloc(sizeof(double) * (size_t)walls);
  if (!t || !xh || !xc || !q || !qs || !wq || !ws) return 1;
  for (int64_t c = 0; c < cells; ++c) {
    double x = ((double)(c / ((int64_t)n * n)) + 0.5) / n;
    t[c] = 500.0 - 2000.0 * x * x + 2000.0 * x;
    xh[c] = 0.2;
    xc[c] = 0.1;
  }
  struct thermal_fields f = {t, NULL, wsgg ? xh : NULL, wsgg ? xc : NULL};
  struct thermal_range r = {0, cells, 0, walls};
  for (int rep = 0; rep < repeats; ++rep) {
    struct thermal_result out = {q, qs, wq, ws, 0, 0};
    double t0 = ionf_wtime();
    ionf_err rc;
    if (cuda) {
#if IONF_HAVE_CUDA
      struct thermal_cuda_options o = {plain, 0};
      rc = thermal_solve_cuda_opt(&s, &f, &r, &out, 0, &o);
#else
      rc = ionf_error_set(IONF_ERR_UNSUPPORTED, "this build has no CUDA");
#endif
    } else {
      rc = thermal_solve_cpu(&s, &f, &r, &out);
    }
    double sec = ionf_wtime() - t0;
    if (rc != IONF_OK) {
      fprintf(stderr, "bench_thermal: %s\n", ionf_error_message());
      return 1;
    }
    double mean = 0.0;
    for (int64_t c = 0; c < cells; ++c) mean += q[c] / (double)cells;
    printf("%s %d %lld %s %d %d %d %.4f %.4e %.4e %.6e\n", cuda ? "cuda" : "cpu", n, rays,
           wsgg ? "wsgg" : "grey", sort, levels, plain, sec, (double)(cells + walls) * rays / sec,
           (double)out.steps_traced / sec, mean);
    fflush(stdout);
  }
  free(t); free(xh); free(xc); free(q); free(qs); free(wq); free(ws);
  return 0;
}
