/**
 * @file grid.h
 * @brief The uniform Cartesian grid and the local box of it that a rank holds.
 *
 * Global layout: C order, cell (i, j, k) of the N^3 grid at (i*N + j)*N + k, i the x
 * index.  A rank holds a box of the grid, [lo, lo + extent) per axis in global cell
 * coordinates, halo included (across a periodic face lo may be negative or lo +
 * extent beyond N: the halo's cells are images); its fields (fields/fields.h) are
 * that box in C order, so every loop over a rank's cells runs over grid_box_cells
 * and every kernel finds a cell with grid_box_index.  Today's runs hold the whole
 * grid on every rank (grid_box_whole: lo 0, extent N, no halo); a domain
 * decomposition gives each rank its slab plus a halo and adds the exchange.
 * All index arithmetic is int64_t (2048^3 is 2^33 cells).
 */
#ifndef IONF_GRID_H
#define IONF_GRID_H

#include <stdint.h>

#include "core/error.h"
#include "core/ionf_hd.h"

/** The part of the grid a rank holds, in global cell coordinates (halo included). */
struct grid_box {
  int64_t lo[3];      /*!< first cell per axis */
  int64_t extent[3];  /*!< cells per axis */
  int64_t halo;       /*!< cells of halo on each side of the owned part (0: none) */
};

struct grid {
  int64_t n;          /*!< cells per side of the whole grid */
  double cell_cm;     /*!< cell side [cm] (proper: in an expanding box, this step's) */
  int periodic;       /*!< periodic boundaries */
  struct grid_box box;/*!< the cells this rank holds */
};

/** Index of cell (i, j, k) in the whole N^3 grid (files, sources, global cell keys). */
IONF_HD IONF_INLINE int64_t grid_index(int64_t n, int64_t i, int64_t j, int64_t k) {
  return (i * n + j) * n + k;
}

/** Number of cells of the whole grid, n^3. */
IONF_HD IONF_INLINE int64_t grid_cells(int64_t n) { return n * n * n; }

/** The box of the whole grid (a rank that holds every cell). */
IONF_HD IONF_INLINE struct grid_box grid_box_whole(int64_t n) {
  struct grid_box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = 0;
    b.extent[a] = n;
  }
  b.halo = 0;
  return b;
}

/** Cells of a box: the length of each field's block on this rank. */
IONF_HD IONF_INLINE int64_t grid_box_cells(const struct grid_box *b) {
  return b->extent[0] * b->extent[1] * b->extent[2];
}

/** Index in the box's fields of the cell at global coordinates (i, j, k), which it holds. */
IONF_HD IONF_INLINE int64_t grid_box_index(const struct grid_box *b, int64_t i, int64_t j,
                                           int64_t k) {
  return ((i - b->lo[0]) * b->extent[1] + (j - b->lo[1])) * b->extent[2] + (k - b->lo[2]);
}

/** Whether the box holds the whole grid (every rank's view today). */
IONF_HD IONF_INLINE int grid_box_is_whole(const struct grid_box *b, int64_t n) {
  return b->lo[0] == 0 && b->lo[1] == 0 && b->lo[2] == 0 && b->extent[0] == n &&
         b->extent[1] == n && b->extent[2] == n;
}

#endif /* IONF_GRID_H */
