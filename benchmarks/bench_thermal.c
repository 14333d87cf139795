/**
 * @file bench_thermal.c
 * @brief Thermal radiation (ERMC) benchmark on the CPU: the seed's grey sin cube (1 m,
 *        N^3 cells, kappa given, cold black walls) or the grey lin1 slab, every cell and
 *        wall patch with RAYS rays, on the OpenMP threads given; prints element-rays per
 *        second and cell crossings per second (the walk's unit of work).
 *
 * usage: bench_thermal cube|slab N RAYS THREADS [KAPPA [LEVELS [REPEATS]]]
 *   One result line: case N rays threads kappa levels seconds element_rays_per_s
 *   crossings_per_s (the best of REPEATS solves, default 3)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "thermal/thermal.h"

#define BENCH_PI 3.14159265358979323846

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s cube|slab N RAYS THREADS [KAPPA [LEVELS [REPEATS]]]\n", argv[0]);
    return 2;
  }
  int cube = strcmp(argv[1], "cube") == 0;
  int64_t n = atoll(argv[2]);
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.rays_per_element = atoll(argv[3]);
  int threads = atoi(argv[4]);
  s.kappa_per_m = argc > 5 ? atof(argv[5]) : 1.0;
  s.multigrid.levels = argc > 6 ? atoi(argv[6]) : 1;
  s.multigrid.steps_per_level = 5;
  int repeats = argc > 7 ? atoi(argv[7]) : 3;
  s.seed = 1u;
  s.transmissivity_min = 1e-6;
  for (int a = 0; a < 3; ++a) {
    s.n[a] = cube || a == 0 ? n : 4;
    s.cell_m[a] = 1.0 / (double)n;
    s.periodic[a] = !cube && a > 0;
    s.wall[2 * a].emissivity = s.wall[2 * a + 1].emissivity = 1.0;
  }
  if (!cube) {
    s.wall[0].t_k = 500.0;
    s.wall[1].t_k = 1500.0;
  }
  int64_t cells = s.n[0] * s.n[1] * s.n[2], walls = thermal_wall_patches(&s);
  double *t = malloc((size_t)cells * sizeof(double));
  double *q = malloc((size_t)(2 * cells + 2 * walls) * sizeof(double));
  if (!t || !q) return 1;
  for (int64_t i = 0; i < cells; ++i) {
    double x = ((double)(i / (s.n[1] * s.n[2])) + 0.5) * s.cell_m[0];
    double y = ((double)((i / s.n[2]) % s.n[1]) + 0.5) * s.cell_m[1];
    double z = ((double)(i % s.n[2]) + 0.5) * s.cell_m[2];
    double ib = sin(BENCH_PI * x) * sin(BENCH_PI * y) * sin(BENCH_PI * z);
    t[i] = cube ? pow(ib * BENCH_PI / 5.670374419e-8, 0.25) : 500.0 + 1000.0 * x;
  }
  struct thermal_fields f = {t, NULL, NULL, NULL};
  struct thermal_range r = {0, cells, 0, walls};
  struct thermal_result out = {q, q + cells, q + 2 * cells, q + 2 * cells + walls, 0, 0};
  omp_set_num_threads(threads);
  double best = HUGE_VAL;
  for (int k = 0; k < repeats; ++k) {
    double t0 = omp_get_wtime();
    if (thermal_solve_cpu(&s, &f, &r, &out) != IONF_OK) {
      fprintf(stderr, "%s\n", ionf_error_message());
      return 1;
    }
    double dt = omp_get_wtime() - t0;
    best = dt < best ? dt : best;
  }
  printf("%s %lld %lld %d %g %d %.4f %.4g %.4g\n", argv[1], (long long)n,
         (long long)s.rays_per_element, threads, s.kappa_per_m, s.multigrid.levels, best,
         (double)out.rays_traced / best, (double)out.steps_traced / best);
  free(t);
  free(q);
  return 0;
}
