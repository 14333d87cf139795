/**
 * @file io_halos.h
 * @brief Halo catalogues and halo source lists (sequence.halos) as masses by cell, and
 *        the original call that reads an ionfront catalogue straight into sources with
 *        pyC²Ray's mass-to-photon rate (Eq. 20):  Ndot = f_γ M Ω_b / (Ω_m m_p t_s).
 *
 * Formats (sequence.halos.format):
 *  - ionfront (HDF5; the layout is chosen by what the file holds, the ionfront layout
 *    winning when both are present):
 *    - ionfront: `/halos/position` (n_halo x 3, numbers, physical positions in the
 *      same length unit as `box_size`, each in [0, box_size]) and `/halos/mass`
 *      (n_halo, numbers, solar masses).  A halo goes to cell floor(pos/box_size · n)
 *      per axis; pos == box_size wraps periodically to cell 0, and a position just
 *      below box_size whose product rounds to n goes to cell n − 1.
 *    - pyC²Ray's converted source lists (`utils/source_converter.py`): root datasets
 *      `sources_positions` (n_halo x 3) and `sources_mass` (n_halo, solar masses),
 *      taken here as 1-based cell indices (integers in 1..n, stored as integers or as
 *      integral floats), as C²-Ray's lists are.  Kept for existing runs: pyC²Ray itself
 *      hands these positions to ASORA unchanged (0-based), and today's tools21cm
 *      SourceFile, which the converter uses, subtracts 1; format pyc2ray_hdf5 reads them
 *      0-based unless told otherwise.
 *  - pyc2ray_hdf5 (HDF5, one of):
 *    - a halo list as pyC²Ray's C2Ray_fstar.read_haloes reads a '.hdf5' file: root
 *      datasets `pos` (n x 3, comoving Mpc/h) and `mass` (n, Msun/h) and the root
 *      attribute `h`; positions and masses are divided by that h (as pyC²Ray does) and
 *      binned into cells of the comoving box `box_mpc` as above;
 *    - a source list as C2Ray_CubeP3M.read_sources reads one: `sources_positions`
 *      (n x 3 cell indices, `cell_index_base` 0 or 1) and `sources_mass` (n, Msun).
 *  - c2ray (text, io_halos_c2ray.h): C²-Ray/CubeP3M source lists.
 *  - 21cmfast (HDF5, io_21cmfast.h): py21cmfast 4 (Perturbed)HaloCatalog files, read by
 *    io_21cmfast_halos_read_cells (it checks the file's run against this one, so it needs
 *    the redshift and the cosmology); io_halos_read_cells does not take this format.
 *
 * Halos with mass 0 emit nothing and are dropped when the masses become sources
 * (grid/halo_model.h: halo_model_sources, which also merges them per cell).
 */
#ifndef IONF_IO_HALOS_H
#define IONF_IO_HALOS_H

#include <stddef.h>
#include <stdint.h>

#include "cosmo/cosmology.h"
#include "grid/halo_model.h"
#include "grid/sources.h"

/** The formats of sequence.halos.format (its values: config_sequence_halo_format_name). */
enum halo_format {
  HALO_FORMAT_IONFRONT,
  HALO_FORMAT_C2RAY,
  HALO_FORMAT_PYC2RAY_HDF5,
  HALO_FORMAT_21CMFAST
};

/** How to read a halo file onto the grid. */
struct io_halos_layout {
  enum halo_format format;
  int64_t n;             /*!< cells per side of the grid */
  double box_size;       /*!< ionfront: the box side in the file's position unit */
  double box_mpc;        /*!< pyc2ray_hdf5 halo lists: the comoving box side [Mpc] */
  double mass_unit_msun; /*!< c2ray: Msun per mass unit of the file */
  int cell_index_base;   /*!< pyc2ray_hdf5 source lists: 0 or 1 */
};

/**
 * Read the halo file `path` (format ionfront, c2ray or pyc2ray_hdf5; 21cmfast is
 * IONF_ERR_INTERNAL: io_21cmfast_halos_read_cells reads it) as masses by cell (not
 * merged; file order).  Errors name
 * the file, the dataset or line, the halo and the value:
 *  IONF_ERR_IO     the file cannot be opened or read;
 *  IONF_ERR_INPUT  datasets or attributes missing, wrong shape or class, counts that
 *                  disagree, bad lines, masses negative or not finite, positions or
 *                  cells outside the grid;
 *  IONF_ERR_CONFIG a layout value out of range.
 * On failure `out` is empty.
 */
IONF_NODISCARD ionf_err io_halos_read_cells(const char *path, const struct io_halos_layout *lay,
                                            struct halo_cells *out);

/**
 * Read the halo catalogue `path` (format ionfront) onto an n^3 grid of side `box_size`,
 * as sources with Ndot = f_gamma M Ω_b / (Ω_m m_p t_source_s) [1/s] (M in grams),
 * merged per cell (the returned list is ordered by cell index).
 * Errors: those of io_halos_read_cells, and IONF_ERR_CONFIG for box_size, n, f_gamma,
 * t_source_s or the cosmology out of range.  On failure `out` is empty.
 */
IONF_NODISCARD ionf_err io_halos_read(const char *path, double box_size, int64_t n,
                                      double f_gamma, double t_source_s,
                                      const struct cosmology *c, struct source_list *out);

/**
 * Photon rate of one halo of `mass_msun` solar masses [1/s] (Eq. 20, as used by
 * io_halos_read: halo_model_ndot_per_s of halo_model_f_gamma).
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
