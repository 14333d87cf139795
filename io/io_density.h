/**
 * @file io_density.h
 * @brief Reading a 3D scalar field (e.g. n_H) from an HDF5 dataset.
 */
#ifndef IONF_IO_DENSITY_H
#define IONF_IO_DENSITY_H

#include <stdint.h>

#include "core/error.h"

struct grid_box;

/**
 * Read dataset `dataset` of HDF5 file `file` into `out` (n^3 doubles, C order).
 * The dataset must be 3D with shape (n, n, n) and a numeric type. Errors name
 * the file, dataset, expected/actual shape; NaN/Inf/negative values are
 * IONF_ERR_INPUT naming the first bad cell (i, j, k) and value.
 */
IONF_NODISCARD ionf_err io_density_read(const char *file, const char *dataset, int64_t n,
                                        double *out);

/**
 * The checks of io_density_read that need no data: the file opens, the dataset
 * exists, is numeric and has shape (n, n, n).  Values are checked when read.
 */
IONF_NODISCARD ionf_err io_density_check(const char *file, const char *dataset, int64_t n);

/** The same for any non-negative field (out NULL: the checks of io_density_check only); messages call a value `what`, values `plural`. */
IONF_NODISCARD ionf_err io_field_read(const char *file, const char *dataset, int64_t n,
                                      const char *what, const char *plural, double *out);

/**
 * io_field_read of the cells of `box` only (grid/grid.h): `out` gets the box in C order
 * (grid_box_cells(box) doubles).  On a periodic grid the box may wrap (lo < 0 or
 * lo + extent > n: those cells are images of global cell (mod n)); each axis is then
 * read as at most two pieces, each a hyperslab, so the whole dataset is never read into
 * memory.  Same checks and messages as io_field_read; a bad value is named by its
 * GLOBAL (i, j, k) cell (the first in the box's C order).  Each box extent must be in
 * [1, n] (IONF_ERR_INTERNAL).  The whole-grid readers are this with grid_box_whole(n).
 */
IONF_NODISCARD ionf_err io_field_read_box(const char *file, const char *dataset, int64_t n,
                                          const struct grid_box *box, const char *what,
                                          const char *plural, double *out);

/** io_field_read_box without the value check (out NULL: the file, the dataset, its shape
    and type only): for fields whose values may be negative, such as an overdensity. */
IONF_NODISCARD ionf_err io_field_read_box_any(const char *file, const char *dataset, int64_t n,
                                              const struct grid_box *box, double *out);

/** io_density_read of the cells of `box` only (io_field_read_box with n_H's words). */
IONF_NODISCARD ionf_err io_density_read_box(const char *file, const char *dataset, int64_t n,
                                            const struct grid_box *box, double *out);

#endif
