/**
 * @file io_cubep3m.h
 * @brief CubeP3M / C²-Ray density files (the `%.3fn_all.dat` files pyC²Ray reads with
 *        tools21cm's DensityFile), read by box.
 *
 * Layout (tools21cm `density_file.py`; no Fortran record markers: a stream file):
 *   bytes 0..11   three int32, the mesh (n_x, n_y, n_z), little-endian;
 *   then          n_x n_y n_z float32, little-endian, in Fortran order (x fastest):
 *                 the value of cell (x, y, z) is number x + n_x (y + n_y z).
 * So the file is 12 + 4 n^3 bytes for an n^3 mesh.  Cell (x, y, z) is ionfront's cell
 * (i, j, k) = (x, y, z): the axes pyC²Ray gets from tools21cm's Fortran-order array,
 * and those of C²-Ray's source lists (io_halos.h, pyC²Ray layout).
 *
 * The values are CubeP3M's raw density: mass per coarse cell in units whose fine
 * cells average 1, so a cell of an n^3 coarse mesh averages (n_fine / n)^3 and
 * ρ / ρ̄ = raw (n / n_fine)^3 (tools21cm: cgs_density = raw ρ_crit,0 Ω_b (n / n_fine)^3,
 * comoving baryons in g cm^-3).  This reader returns the raw values; the conversion to
 * n_H is the sequence's (engine/sequence_read.c).
 */
#ifndef IONF_IO_CUBEP3M_H
#define IONF_IO_CUBEP3M_H

#include <stdint.h>

#include "core/error.h"

struct grid_box;

/**
 * The checks that need no values: the file opens, its header is (n, n, n) and its size
 * is 12 + 4 n^3 bytes.  IONF_ERR_IO when it cannot be opened or read, IONF_ERR_INPUT
 * naming the file and what is wrong (a byte-swapped header is named as big-endian,
 * which is not read).
 */
IONF_NODISCARD ionf_err io_cubep3m_check(const char *file, int64_t n);

/**
 * The raw values of the cells of `box` (grid/grid.h: may wrap on a periodic grid, each
 * extent in [1, n]) into `out` in the box's C order (grid_box_cells(box) doubles), read
 * one file row (fixed y, z) at a time, so the whole file is never in memory.  The checks
 * of io_cubep3m_check first; a value that is not finite or negative is IONF_ERR_INPUT
 * naming the file and its global cell (i, j, k).
 */
IONF_NODISCARD ionf_err io_cubep3m_read_box(const char *file, int64_t n, const struct grid_box *box,
                                            double *out);

#endif
