/**
 * @file test_thermal_repeat.c
 * @brief A thermal solve gives the same bits on 1 and 2 OpenMP threads and when its
 *        range of cells and wall patches is split in two (as among MPI ranks): a
 *        non-uniform 3D case with grey walls, the WSGG, 2 multigrid levels.
 */
#include <omp.h>

#include "test_util.h"
#include "thermal/thermal.h"

#define NX 7
#define NY 6
#define NZ 5
#define CELLS (NX * NY * NZ)

static double t_k[CELLS], xw[CELLS], xc[CELLS];

static int solve(const struct thermal_setup *s, int64_t c0, int64_t c1, int64_t w0, int64_t w1,
                 double *q, double *qs, double *wq, double *wqs) {
  struct thermal_fields f = {t_k, NULL, xw, xc};
  struct thermal_range r = {c0, c1 - c0, w0, w1 - w0};
  struct thermal_result out = {q + c0, qs + c0, wq + w0, wqs + w0, 0, 0};
  ionf_err rc = thermal_solve_cpu(s, &f, &r, &out);
  if (rc != IONF_OK) fprintf(stderr, "%s\n", ionf_error_message());
  return rc != IONF_OK;
}

int main(void) {
  for (int i = 0; i < CELLS; ++i) {
    t_k[i] = 600.0 + 900.0 * sin(0.37 * i) * sin(0.37 * i);
    xw[i] = 0.05 + 0.2 * (i % 3);
    xc[i] = 0.1;
  }
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.n[0] = NX;
  s.n[1] = NY;
  s.n[2] = NZ;
  s.cell_m[0] = s.cell_m[1] = s.cell_m[2] = 0.1;
  s.periodic[1] = 1;
  const double eps[6] = {1.0, 0.6, 0, 0, 0.8, 0.3};
  for (int f = 0; f < 6; ++f) {
    s.wall[f].emissivity = eps[f];
    s.wall[f].t_k = 400.0 + 150.0 * f;
  }
  s.gas_model = THERMAL_GAS_WSGG_BORDBAR14;
  s.rays_per_element = 64;
  s.seed = 99u;
  s.transmissivity_min = 1e-5;
  s.multigrid.levels = 2;
  s.multigrid.steps_per_level = 3;
  int64_t walls = thermal_wall_patches(&s);
  static double a[4][CELLS], b[4][CELLS], c[4][CELLS];
  double *ra[4] = {a[0], a[1], a[2], a[3]}, *rb[4] = {b[0], b[1], b[2], b[3]};
  double *rc[4] = {c[0], c[1], c[2], c[3]};
  omp_set_num_threads(1);
  if (solve(&s, 0, CELLS, 0, walls, ra[0], ra[1], ra[2], ra[3])) return 1;
  omp_set_num_threads(2);
  if (solve(&s, 0, CELLS, 0, walls, rb[0], rb[1], rb[2], rb[3])) return 1;
  if (solve(&s, 0, 101, 0, 23, rc[0], rc[1], rc[2], rc[3]) ||
      solve(&s, 101, CELLS, 23, walls, rc[0], rc[1], rc[2], rc[3]))
    return 1;
  int differ_threads = 0, differ_split = 0, nonzero = 0;
  for (int k = 0; k < 4; ++k) {
    int64_t count = k < 2 ? CELLS : walls;
    for (int64_t i = 0; i < count; ++i) {
      differ_threads += memcmp(&a[k][i], &b[k][i], sizeof(double)) != 0;
      differ_split += memcmp(&a[k][i], &c[k][i], sizeof(double)) != 0;
      nonzero += a[k][i] != 0.0;
    }
  }
  printf("%d values differ between 1 and 2 threads, %d with the range split; %d nonzero\n",
         differ_threads, differ_split, nonzero);
  EXPECT(differ_threads == 0, "%d values differ between 1 and 2 threads", differ_threads);
  EXPECT(differ_split == 0, "%d values differ with the range split in two", differ_split);
  EXPECT(nonzero > 2 * CELLS, "only %d nonzero results", nonzero);
  return test_failures ? 1 : 0;
}
