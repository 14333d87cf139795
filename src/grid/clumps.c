/**
 * @file clumps.c
 * @brief Painting spherical clumps onto the grid.  Only the cells of a clump's
 *        bounding box are visited (OpenMP over its x planes), so a small clump
 *        costs little on a big grid.
 */
#include "grid/clumps.h"

#include <math.h>
#include <stddef.h>

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

/* Visit the cells inside c, setting the fields that are not NULL; returns their number. */
static int64_t clump_visit(const struct clump *c, int64_t n, double cell_cm, double *n_h,
                           double *t_k) {
  int64_t lo[3], hi[3], inside = 0;
  for (int a = 0; a < 3; ++a) clump_range(c, a, n, cell_cm, &lo[a], &hi[a]);
#pragma omp parallel for schedule(static) reduction(+ : inside)
  for (int64_t i = lo[0]; i <= hi[0]; ++i)
    for (int64_t j = lo[1]; j <= hi[1]; ++j)
      for (int64_t k = lo[2]; k <= hi[2]; ++k) {
        if (!clumps_contains_cell(c, cell_cm, i, j, k)) continue;
        int64_t idx = (i * n + j) * n + k;
        if (n_h) n_h[idx] = c->n_h_cm3;
        if (t_k) t_k[idx] = c->temperature_k;
        ++inside;
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

int64_t clumps_paint(const struct clump *clumps, int n_clumps, int64_t n, double cell_cm,
                     double *n_h_cm3, double *temperature_k) {
  int64_t painted = 0;
  for (int q = 0; q < n_clumps; ++q)
    painted += clump_visit(&clumps[q], n, cell_cm, n_h_cm3, temperature_k);
  return painted;
}
