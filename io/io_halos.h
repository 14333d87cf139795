/**
 * @file io_halos.h
 * @brief Halo catalogues (HDF5) as point sources, with pyC²Ray's mass-to-photon
 *        rate (Eq. 20):  Ndot = f_γ M Ω_b / (Ω_m m_p t_s).
 *
 * Layouts (chosen by what the file holds; the ionfront layout wins when both are present):
 *  - ionfront: `/halos/position` (n_halo x 3, numbers, physical positions in the
 *    same length unit as `box_size`, each in [0, box_size]) and `/halos/mass`
 *    (n_halo, numbers, solar masses).  A halo goes to cell floor(pos/box_size · n)
 *    per axis; pos == box_size wraps periodically to cell 0, and a position just
 *    below box_size whose product rounds to n goes to cell n − 1.
 *  - pyC²Ray (`utils/source_converter.py`): root datasets `sources_positions`
 *    (n_halo x 3) and `sources_mass` (n_halo, solar masses).  The converter copies
 *    the grid positions of C²-Ray/CubeP3M source lists read by tools21cm, which
 *    are Fortran 1-based cell indices; we therefore take them as 1-based cell
 *    indices (each an integer in 1..n, stored as integers or as integral floats)
 *    and subtract 1.  `box_size` is not used for this layout.  (pyC²Ray's own
 *    handling has varied: its deprecated reader subtracted 1 for ASORA, the
 *    current `format_sources` does not, with a TODO; a 0-based file will be
 *    rejected at index 0 or read one cell off.)
 *
 * Halos with mass 0 emit nothing and are skipped (pyC²Ray's converter drops them
 * too).  The sources are then merged per cell (sources_merge_same_cell): the
 * returned list is ordered by cell index.
 */
#ifndef IONF_IO_HALOS_H
#define IONF_IO_HALOS_H

#include <stddef.h>
#include <stdint.h>

#include "cosmo/cosmology.h"
#include "grid/sources.h"

/**
 * Read the halo catalogue `path` onto an n^3 grid of side `box_size`, as sources
 * with Ndot = f_gamma M Ω_b / (Ω_m m_p t_source_s) [1/s] (M in grams).
 *
 * Errors (message naming the file, the dataset and the halo index):
 *  IONF_ERR_IO     the file cannot be opened or a dataset read;
 *  IONF_ERR_INPUT  datasets missing, wrong shape or class, masses negative or not
 *                  finite, positions outside [0, box_size] (or, pyC²Ray layout,
 *                  not an integer in 1..n);
 *  IONF_ERR_CONFIG box_size, n, f_gamma, t_source_s or the cosmology out of range.
 * On failure `out` is empty.
 */
IONF_NODISCARD ionf_err io_halos_read(const char *path, double box_size, int64_t n,
                                      double f_gamma, double t_source_s,
                                      const struct cosmology *c, struct source_list *out);

/**
 * Photon rate of one halo of `mass_msun` solar masses [1/s] (Eq. 20, as used by
 * io_halos_read).
 */
double io_halos_ndot_per_s(double mass_msun, double f_gamma, double t_source_s,
                           const struct cosmology *c);

/**
 * The cell (0..n-1) of halo `h`'s coordinate `d` (0, 1, 2: x, y, z) at physical position
 * p in [0, box_size] (io_halos_read's rule: floor(p / box_size n); box_size wraps to 0).
 * IONF_ERR_INPUT naming `path`, dataset `name`, the halo and the value when p is outside.
 */
IONF_NODISCARD ionf_err io_halos_cell_from_position(double p, double box_size, int64_t n,
                                                    const char *path, const char *name,
                                                    int64_t h, int d, int32_t *cell);

/**
 * Fill a printf-style pattern holding one double conversion with the redshift:
 * ("halos_z%.3f.h5", 8.636) -> "halos_z8.636.h5".  The result is truncated to
 * `size` (always NUL-terminated when size > 0).
 */
void io_halos_series_name(char *buf, size_t size, const char *pattern, double redshift);

#endif
