/**
 * @file clumps.c
 * @brief Painting spherical clumps onto a box of the grid.  Only the box's cells in
 *        a clump's bounding box are visited (OpenMP over its x planes), so a small
 *        clump costs little on a big grid.
 */
#include "grid/clumps.h"

#include <math.h>
#include <stddef.h>

#include "grid/grid.h"

int clumps_contains_cell(const struct clump *c, double cell_cm, int64_t i, int64_t j,
                         int64_t k) {
  double dx = ((double)i + 0.5) * cell_cm - c->center_cm[0];
  double dy = ((double)j + 0.5) * cell_cm - c->center_cm[1];
  double dz = ((double)k + 0.5) * cell_cm - c->center_cm[2];
  return dx * dx + dy * dy + dz * dz <= c->radius_cm * c->radius_cm;
}

/* The index range [*lo, *hi] of cells along one axis whose centres can lie inside. */
static void clump_range(const struct clump *c, int axis, int64_t n, double cell_cm, int64_t *lo,
                        int64_t *hi) {
  double a = floor((c->center_cm[axis] - c->radius_cm) / cell_cm - 0.5);
  double b = ceil((c->center_cm[axis] + c->radius_cm) / cell_cm - 0.5);
  *lo = a < 0.0 ? 0 : a > (double)(n - 1) ? n : (int64_t)a;
  *hi = b > (double)(n - 1) ? n - 1 : b < 0.0 ? -1 : (int64_t)b;
}

/* A run of a box's cells along one axis: box offsets [l0, l1), global cell g0 at l0. */
struct clump_run {
  int64_t l0, l1, g0;
};

/* The box's cells along one axis [lo, lo + extent) whose global cells lie in [glo, ghi],
   as at most two runs (returns their number).  Global cells are folded into [0, n): a
   box across a periodic face holds images there (extent <= n, so the axis is one piece
   from lo mod n and, when it wraps, one from 0); a box of a non-periodic grid lies in
   [0, n), where the fold changes nothing. */
static int clump_box_runs(int64_t lo, int64_t extent, int64_t n, int64_t glo, int64_t ghi,
                          struct clump_run run[2]) {
  int64_t first = lo % n;
  if (first < 0) first += n;
  const int64_t head = n - first < extent ? n - first : extent;
  const int64_t piece_l[2] = {0, head}, piece_g[2] = {first, 0};
  const int64_t piece_len[2] = {head, extent - head};
  int runs = 0;
  for (int p = 0; p < 2; ++p) {
    int64_t a = piece_g[p] > glo ? piece_g[p] : glo;
    int64_t b = piece_g[p] + piece_len[p] - 1 < ghi ? piece_g[p] + piece_len[p] - 1 : ghi;
    if (piece_len[p] <= 0 || a > b) continue;
    run[runs].l0 = piece_l[p] + (a - piece_g[p]);
    run[runs].l1 = piece_l[p] + (b - piece_g[p]) + 1;
    run[runs].g0 = a;
    ++runs;
  }
  return runs;
}

/* Visit the box's cells inside c, setting the fields (the box in C order) that are not
   NULL; returns their number.  The test is made on the global cell, as over the whole
   grid, so a box's values are the whole grid's at its cells, bit for bit. */
static int64_t clump_visit(const struct clump *c, int64_t n, const struct grid_box *box,
                           double cell_cm, double *n_h, double *t_k) {
  struct clump_run run[3][2];
  int runs[3];
  for (int a = 0; a < 3; ++a) {
    int64_t glo, ghi;
    clump_range(c, a, n, cell_cm, &glo, &ghi);
    runs[a] = clump_box_runs(box->lo[a], box->extent[a], n, glo, ghi, run[a]);
  }
  const int64_t ey = box->extent[1], ez = box->extent[2];
  int64_t inside = 0;
  for (int p = 0; p < runs[0]; ++p) {
    const struct clump_run ri = run[0][p];
#pragma omp parallel for schedule(static) reduction(+ : inside)
    for (int64_t li = ri.l0; li < ri.l1; ++li) {
      const int64_t i = ri.g0 + (li - ri.l0);
      for (int q = 0; q < runs[1]; ++q)
        for (int64_t lj = run[1][q].l0; lj < run[1][q].l1; ++lj) {
          const int64_t j = run[1][q].g0 + (lj - run[1][q].l0);
          for (int r = 0; r < runs[2]; ++r)
            for (int64_t lk = run[2][r].l0; lk < run[2][r].l1; ++lk) {
              const int64_t k = run[2][r].g0 + (lk - run[2][r].l0);
              if (!clumps_contains_cell(c, cell_cm, i, j, k)) continue;
              int64_t idx = (li * ey + lj) * ez + lk;
              if (n_h) n_h[idx] = c->n_h_cm3;
              if (t_k) t_k[idx] = c->temperature_k;
              ++inside;
            }
        }
    }
  }
  return inside;
}

int clumps_covers_a_cell(const struct clump *c, int64_t n, double cell_cm) {
  /* the squared distance separates by axis: the nearest centre is the nearest per axis,
     that of the cell holding the clump's centre (or of the box's last cell) */
  int64_t nearest[3];
  for (int a = 0; a < 3; ++a) {
    double i = floor(c->center_cm[a] / cell_cm);
    nearest[a] = i < 0.0 ? 0 : i > (double)(n - 1) ? n - 1 : (int64_t)i;
  }
  return clumps_contains_cell(c, cell_cm, nearest[0], nearest[1], nearest[2]);
}

int64_t clumps_paint(const struct clump *clumps, int n_clumps, int64_t n,
                     const struct grid_box *box, double cell_cm, double *n_h_cm3,
                     double *temperature_k) {
  int64_t painted = 0;
  for (int q = 0; q < n_clumps; ++q)
    painted += clump_visit(&clumps[q], n, box, cell_cm, n_h_cm3, temperature_k);
  return painted;
}
