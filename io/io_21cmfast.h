/**
 * @file io_21cmfast.h
 * @brief py21cmfast 4 output files (HDF5) as a sequence's inputs: the overdensity of a
 *        PerturbedField and the halos of a (Perturbed)HaloCatalog.
 *
 * Layout (py21cmfast 4.x, `io/h5.py`: `write_output_to_hdf5`, the cache's files; checked
 * against files written by py21cmfast 4.1.1):
 *
 *   /                                   attribute 21cmFAST-version
 *   /<Struct>/                          attribute redshift (float64)
 *   /<Struct>/InputParameters/simulation_options/   attributes HII_DIM, BOX_LEN (Mpc;
 *                                       absent when the run gave LOWRES_CELL_SIZE_MPC or
 *                                       neither), LOWRES_CELL_SIZE_MPC, NON_CUBIC_FACTOR, ...
 *   /<Struct>/InputParameters/cosmo_params/         attributes hlittle, OMm, OMb, Y_He, ...
 *   /<Struct>/OutputFields/             the arrays; attributes n_halos, buffer_size (halos)
 *
 * <Struct> is `PerturbedField` (dataset `density`: the overdensity δ = ρ/ρ̄ − 1 at the
 * redshift, float32, shape (HII_DIM, HII_DIM, NON_CUBIC_FACTOR HII_DIM), C order, axes
 * x, y, z = ionfront's i, j, k), `PerturbedHaloCatalog` (halos moved to their Eulerian
 * positions) or `HaloCatalog` (Lagrangian positions): datasets `halo_masses` (Msun) and
 * `halo_coords` (n, 3: comoving Mpc in [0, BOX_LEN)), of which the first `n_halos` rows
 * are halos (the rest is buffer).  (21cmFAST 3's HaloField / PerturbHaloField files have
 * another layout and are not read.)
 *
 * The box: BOX_LEN when present, else round(HII_DIM × LOWRES_CELL_SIZE_MPC, 3), else
 * 1.5 Mpc × HII_DIM (py21cmfast 4's SimulationOptions: a default cell of 1.5 Mpc).
 */
#ifndef IONF_IO_21CMFAST_H
#define IONF_IO_21CMFAST_H

#include <stdint.h>

#include "core/error.h"
#include "cosmo/cosmology.h"
#include "grid/halo_model.h" /* struct halo_cells */

struct grid_box;

/** What the run expects a 21cmFAST file to say; a mismatch is refused, naming the file,
    the attribute and both values. */
struct io_21cmfast_expect {
  int64_t n;                    /*!< grid.N: HII_DIM must equal it (density) */
  double box_mpc;               /*!< grid.box_size [comoving Mpc]: the box to 1e-6 */
  double redshift;              /*!< the sequence's z: the struct's `redshift` to 1e-3 */
  const struct cosmology *cosmo;/*!< h, Ω_m, Ω_b: hlittle, OMm, OMb to 1e-6 (relative) */
};

/**
 * A PerturbedField file: its attributes checked against `x` (HII_DIM = n,
 * NON_CUBIC_FACTOR 1, the box, the redshift, the cosmology), *y_he its Y_He, and with
 * `out` the cells of `box` (as io_field_read_box) as 1 + δ, each finite and >= 0.
 * Errors: IONF_ERR_IO (cannot open or read), IONF_ERR_INPUT (a missing group, dataset or
 * attribute, a mismatch, a bad value: each named with the file).
 */
IONF_NODISCARD ionf_err io_21cmfast_density_read_box(const char *file,
                                                     const struct io_21cmfast_expect *x,
                                                     const struct grid_box *box, double *out,
                                                     double *y_he);

/**
 * A PerturbedHaloCatalog (preferred) or HaloCatalog file's halos as masses by cell (file
 * order, not merged; the halo model makes them sources: grid/halo_model.h): its
 * attributes checked against `x` (the box, the redshift, the cosmology), the first
 * n_halos rows read (out->n of them); a halo's cell is floor(p / L n) per axis
 * (io_halos_cell_from_position, L = grid.box_size; a coordinate up to 1e-6 L past L,
 * float32 rounding of a wrapped position, is the periodic image at 0).  Halos of mass 0
 * are kept (they emit nothing).  Errors as io_21cmfast_density_read_box, plus masses not
 * finite or negative and positions outside the box, naming the halo.  On failure `out`
 * is empty.
 */
IONF_NODISCARD ionf_err io_21cmfast_halos_read_cells(const char *file,
                                                     const struct io_21cmfast_expect *x,
                                                     struct halo_cells *out);

#endif
