/**
 * @file io_halos_c2ray.h
 * @brief C²-Ray / CubeP3M source lists (text; sequence.halos.format: c2ray) as halo masses
 *        by cell, in both of C²-Ray's mass classes.
 *
 * The layout is what C²-Ray's sourceprops.F90 (count_or_read_in_sources) reads with
 * Fortran list-directed input, and tools21cm's SourceFile after it:
 *   - the first line: the number of sources N (an integer; the rest of the line, such
 *     as tools21cm's "0.0", is ignored);
 *   - N records of five numbers "i j k M_HMACH M_LMACH": the cell, 1-based, and the
 *     masses of its high-mass and low-mass atomically cooling haloes in the list's mass
 *     unit.  As in list-directed input a record may run over line breaks and blank
 *     lines, and the rest of the line its fifth number ends is ignored (C²-Ray's lists
 *     for its "Gradual supp." recipe carry a sixth column).
 * Besides: text after '#' is a comment; i, j, k must be integral (written as integers
 * or as integral reals, C²-Ray reads them into reals); masses finite and >= 0 (Fortran's
 * 1.0D+10 is read too); nothing but blank lines and comments may follow the N records.
 *
 * Masses: C²-Ray turns them into photons with M_grid, the mean mass of a cell of the
 * N-body simulation's fine mesh (nbody_cubep3m.F90: M_grid = Ω_m ρ_crit,0 (L/h Mpc)^3 /
 * n_box^3 for a box of L Mpc/h and n_box cells per side), and tools21cm's SourceFile
 * multiplies by the same M_grid (conv.gridmass_to_msol) to give solar masses.  The
 * caller passes the unit in Msun (io_halos_c2ray_mass_unit_msun, or 1 for lists in Msun).
 */
#ifndef IONF_IO_HALOS_C2RAY_H
#define IONF_IO_HALOS_C2RAY_H

#include <stdint.h>

#include "core/error.h"
#include "cosmo/cosmology.h"
#include "grid/halo_model.h"

/**
 * Read C²-Ray source list `path` for an n^3 grid: cells (0-based), masses of both
 * classes [Msun] (mass_low_msun set).  Errors name the file, the line and the value:
 * IONF_ERR_IO (cannot open or read), IONF_ERR_INPUT (no count, a bad number, a cell
 * outside 1..n, a record missing at the end of the file, text after the N records).
 * On failure `out` is empty.
 */
IONF_NODISCARD ionf_err io_halos_c2ray_read(const char *path, int64_t n, double mass_unit_msun,
                                            struct halo_cells *out);

/**
 * C²-Ray's mass unit M_grid [Msun]: Ω_m ρ_crit,0 box_cm^3 / nbody_mesh^3, with box_cm the
 * comoving side of the box and nbody_mesh the cells per side of the N-body fine mesh.
 */
double io_halos_c2ray_mass_unit_msun(const struct cosmology *c, double box_cm,
                                     int64_t nbody_mesh);

#endif
