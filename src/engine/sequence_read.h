/**
 * @file sequence_read.h
 * @brief One redshift's inputs of a production run read in the formats of
 *        `sequence.density.format` and `sequence.halos.format` (docs/inputs.md).
 *
 * Density, as proper n_H [cm^-3] at the sequence's redshift z:
 *  - hdf5:     the dataset `sequence.density.dataset` as it is (io_density.h);
 *  - cubep3m:  raw (N / fine_mesh)^3 X_H Ω_b ρ_crit,0 (1 + z)^3 / m_p (io_cubep3m.h:
 *              ρ/ρ̄ = raw (N / fine_mesh)^3; X_H = hydrogen_mass_fraction);
 *  - 21cmfast: (1 + δ) (1 − Y_He) Ω_b ρ_crit,0 (1 + z)^3 / m_p (io_21cmfast.h; Y_He the
 *              file's, h and Ω_b the run's, which the file's must equal).
 * (cosmology_mean_hydrogen_cm3 gives the mean; one product per cell.)
 * Halos, as masses by cell (struct halo_cells; the halo model makes them sources in
 * engine/sequence.c, the same for every format): ionfront, c2ray and pyc2ray_hdf5 by
 * io_halos_read_cells (io_halos.h), 21cmfast by io_21cmfast_halos_read_cells
 * (io_21cmfast.h, its attributes checked against the run).  The engine chooses a reader
 * by the two format keys here only.
 */
#ifndef IONF_SEQUENCE_READ_H
#define IONF_SEQUENCE_READ_H

#include "core/error.h"
#include "grid/grid.h"
#include "grid/halo_model.h" /* struct halo_cells */

struct engine;

/**
 * The density file `path` of redshift z: with `out`, the cells of `box` as proper n_H
 * [cm^-3] (grid_box_cells(box) doubles, the box's C order); with `out` NULL, the checks
 * that need no values (the file, its header or shape, a 21cmFAST file's attributes).
 * Messages name the file and what is wrong (the caller adds the key and the redshift).
 */
IONF_NODISCARD ionf_err sequence_read_density(const struct engine *e, const char *path,
                                              double z, const struct grid_box *box,
                                              double *out);

/**
 * The halo file `path` of redshift z as masses by cell, in sequence.halos.format (not
 * merged, file order).  Messages name the file and what is wrong (the caller adds the key
 * and the redshift).  On failure `out` is empty.
 */
IONF_NODISCARD ionf_err sequence_read_halos(const struct engine *e, const char *path, double z,
                                            struct halo_cells *out);

#endif
