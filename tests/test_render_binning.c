/**
 * @file test_render_binning.c
 * @brief Particles onto a grid (CPU path): the binned sums hold the particles'
 *        weighted totals times the stencil's weight inside the box, the cell
 *        averages keep the weighted total of the values, every empty cell is
 *        filled with a value inside the range of its neighbours, and a grid
 *        fed one particle takes its value everywhere.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/render.h"
#include "test_util.h"

static unsigned long long lcg = 987654321;
static double uniform(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg >> 11) / 9007199254740992.0;
}

/* Stencil weight inside the box around cell (ci, cj, ck) (all of it when periodic). */
static double stencil_inside(int ci, int cj, int ck, int n, int ns, int periodic) {
  double s = 0.0;
  for (int a = -ns; a <= ns; ++a)
    for (int b = -ns; b <= ns; ++b)
      for (int c = -ns; c <= ns; ++c)
        if (render_stencil_index(ci, a, n, periodic) >= 0 &&
            render_stencil_index(cj, b, n, periodic) >= 0 &&
            render_stencil_index(ck, c, n, periodic) >= 0)
          s += render_stencil_weight(a, b, c, ns);
  return s;
}

static void check(int n, int64_t count, int ns, int periodic) {
  double *pos = malloc(3 * count * sizeof *pos), *m = malloc(count * sizeof *m),
         *val = malloc(count * sizeof *val);
  double total_m = 0.0, total_mv = 0.0, vmin = INFINITY, vmax = -INFINITY;
  for (int64_t p = 0; p < count; ++p) {
    /* particles clustered towards one corner, so that many cells stay empty */
    for (int d = 0; d < 3; ++d) pos[3 * p + d] = n * pow(uniform(), 2.0);
    m[p] = 1.0 + uniform();
    val[p] = 1e-3 * exp(6.0 * uniform());
    double s = stencil_inside((int)pos[3 * p], (int)pos[3 * p + 1], (int)pos[3 * p + 2], n, ns,
                              periodic);
    total_m += m[p] * s;
    total_mv += m[p] * val[p] * s;
    vmin = test_least(vmin, val[p]), vmax = test_worst(vmax, val[p]);
  }
  size_t cells = (size_t)n * n * n;
  double *wv = malloc(cells * sizeof *wv), *w = malloc(cells * sizeof *w),
         *grid = malloc(cells * sizeof *grid);
  struct render_bin_input in = {pos, m, val, count, n, ns, periodic};
  int64_t outside = -1;
  EXPECT(render_bin_cpu(&in, wv, w, &outside) == IONF_OK, "bin");
  double sum_w = 0.0, sum_wv = 0.0;
  for (size_t c = 0; c < cells; ++c) sum_w += w[c], sum_wv += wv[c];
  int64_t empty = render_bin_average_fill(wv, w, n, periodic, grid);
  double kept = 0.0, lo = INFINITY, hi = -INFINITY;
  for (size_t c = 0; c < cells; ++c) {
    kept += w[c] * grid[c];
    lo = test_least(lo, grid[c]), hi = test_worst(hi, grid[c]); /* a NaN is kept */
  }
  printf("n %d, %lld particles, stencil %d, periodic %d: %lld cells empty; weight %.12g vs "
         "%.12g, weighted values %.12g vs %.12g, after averaging %.12g; grid in [%.4g, %.4g]\n",
         n, (long long)count, ns, periodic, (long long)empty, sum_w, total_m, sum_wv, total_mv,
         kept, lo, hi);
  EXPECT(outside == 0, "%lld particles outside", (long long)outside);
  EXPECT_REL(sum_w, total_m, 1e-12, "summed weights");
  EXPECT_REL(sum_wv, total_mv, 1e-12, "summed weighted values");
  EXPECT_REL(kept, total_mv, 1e-12, "weighted total of the averages");
  if (ns == 0) EXPECT(empty > 0, "the clustered set should leave empty cells");
  EXPECT(lo >= vmin * (1 - 1e-12) && hi <= vmax * (1 + 1e-12),
         "averages and fills [%g, %g] outside the particles' [%g, %g]", lo, hi, vmin, vmax);
  free(pos), free(m), free(val), free(wv), free(w), free(grid);
}

int main(void) {
  check(16, 3000, 0, 0);
  check(16, 3000, 1, 1);
  check(16, 3000, 2, 0);
  /* one particle: its value fills the whole grid */
  const int n = 8;
  double pos[3] = {0.5, 7.2, 3.9}, m = 2.0, v = 42.0;
  struct render_bin_input in = {pos, &m, &v, 1, n, 0, 0};
  double wv[512], w[512], grid[512];
  EXPECT(render_bin_cpu(&in, wv, w, NULL) == IONF_OK, "bin one");
  EXPECT(w[(0 * n + 7) * n + 3] == 2.0, "the particle's cell holds its mass");
  int64_t empty = render_bin_average_fill(wv, w, n, 0, grid);
  EXPECT(empty == 511, "empty cells %lld", (long long)empty);
  int all = 1;
  for (int c = 0; c < 512; ++c) all &= fabs(grid[c] - 42.0) < 1e-12;
  EXPECT(all, "the filled grid holds the one value");
  TEST_RETURN();
}
