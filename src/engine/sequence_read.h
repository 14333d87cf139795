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
 * Halos, as merged sources with Ndot = f_γ M Ω_b / (Ω_m m_p t_s): hdf5 (io_halos.h) or
 * 21cmfast (io_21cmfast.h).
 */
#ifndef IONF_SEQUENCE_READ_H
#define IONF_SEQUENCE_READ_H

#include "core/error.h"
#include "grid/grid.h"
#include "grid/sources.h"

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

/** The halo catalogue `path` of redshift z as merged sources, validated on the grid. */
IONF_NODISCARD ionf_err sequence_read_halos(const struct engine *e, const char *path, double z,
                                              struct source_list *out);

#endif
