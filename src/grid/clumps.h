/**
 * @file clumps.h
 * @brief Spherical clumps in the initial conditions (material.clumps): cells
 *        whose centres lie inside a clump get its density and initial
 *        temperature; later clumps win where they overlap.
 */
#ifndef IONF_CLUMPS_H
#define IONF_CLUMPS_H

#include <stdint.h>

struct grid_box;

/** One clump, in the config's box coordinates (from the corner of cell (0, 0, 0)). */
struct clump {
  double center_cm[3];   /*!< centre [cm; comoving when cosmological, like grid.box_size] */
  double radius_cm;      /*!< radius [cm] */
  double n_h_cm3;        /*!< hydrogen density inside [cm^-3] */
  double temperature_k;  /*!< initial temperature inside [K] */
};

/** Whether the centre of cell (i, j, k) of an n^3 grid of cells `cell_cm` lies inside c. */
int clumps_contains_cell(const struct clump *c, double cell_cm, int64_t i, int64_t j, int64_t k);

/**
 * Paint the clumps into n_h_cm3 and temperature_k over the cells of `box` of the n^3
 * grid (grid/grid.h: each field the box in C order, grid_box_cells(box) values; either
 * may be NULL), in list order, so later clumps win.  A box cell is at global cell
 * lo + offset, folded into [0, n) where the box crosses a periodic face (its images);
 * its centre and the test are those of that global cell (clumps_contains_cell), so the
 * box gets the whole grid's values at its cells, bit for bit (clumps themselves are not
 * periodic).  Returns the number of the box's cells painted (a cell inside two clumps
 * counts twice; for grid_box_whole(n), 0: no clump covers a cell).
 */
int64_t clumps_paint(const struct clump *clumps, int n_clumps, int64_t n,
                     const struct grid_box *box, double cell_cm, double *n_h_cm3,
                     double *temperature_k);

/** Whether any cell centre of an n^3 grid lies inside clump c (O(1): the nearest one). */
int clumps_covers_a_cell(const struct clump *c, int64_t n, double cell_cm);

#endif
