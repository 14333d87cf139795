/**
 * @file synth_files.h
 * @brief Writing synthetic inputs in the layouts the readers take: density grids
 *        (io_density_read), halo catalogues (io_halos_read, ionfront layout) and
 *        source lists (io_sources_read, HDF5 or C2-Ray text).
 *
 * Every file is written to DIR/.NAME.tmp, synced and renamed, so no reader ever
 * sees half a file under the final name; the directory is created when missing.
 * Each file carries a one-line `signature` (the generator and its parameters):
 * the root attribute `synthetic` (HDF5) or the first line "# ionfront synthetic:
 * SIGNATURE" (text), read back by synth_files_signature() to tell whether an
 * existing file was made with the same parameters.
 *
 * Layouts:
 *  - density: dataset DATASET (n, n, n) float64 C order, proper n_H [cm^-3] at the
 *    file's redshift, attribute `units` = "cm^-3"; root attributes `redshift`,
 *    `box_size_cmpc`, `synthetic`, `description`.
 *  - halos: `/halos/position` (m, 3) float64 comoving Mpc in [0, box),
 *    `/halos/mass` (m) float64 Msun (each with `units`); root attributes
 *    `redshift`, `box_size_cmpc`, `synthetic`, `description`.
 *  - sources, HDF5: `/sources/position` (m, 3) int32 0-based cells, `/sources/Ndot`
 *    (m) float64 [1/s], `/sources/mass` (m) float64 Msun; root `synthetic`.
 *  - sources, text: "# ionfront synthetic: ...", comment lines, the count, then
 *    "i j k Ndot 1" with 1-based cells (C2-Ray's sources.dat), the mass in a comment.
 */
#ifndef IONF_SYNTH_FILES_H
#define IONF_SYNTH_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "io/io_sources.h" /* enum source_format */

IONF_NODISCARD ionf_err synth_files_write_density(const char *path, const char *dataset,
                                                  int64_t n, const double *n_h_cm3,
                                                  double redshift, double box_cmpc,
                                                  const char *signature,
                                                  const char *description);

IONF_NODISCARD ionf_err synth_files_write_halos(const char *path, int64_t m,
                                                const double *position_cmpc,
                                                const double *mass_msun, double redshift,
                                                double box_cmpc, const char *signature,
                                                const char *description);

/** `format`: HDF5 or TEXT (AUTO: HDF5 when the name ends in .h5/.hdf5/.he5, else text). */
IONF_NODISCARD ionf_err synth_files_write_sources(const char *path, enum source_format format,
                                                  int64_t m, const int32_t *ijk,
                                                  const double *ndot_per_s,
                                                  const double *mass_msun,
                                                  const char *signature,
                                                  const char *description);

/**
 * The signature of an existing file: *found = 1 and `out` filled when it has one,
 * 0 when the file is not ours (no attribute / first line).  IONF_ERR_IO when it
 * cannot be opened.
 */
IONF_NODISCARD ionf_err synth_files_signature(const char *path, char *out, size_t cap,
                                              int *found);

/** 1 when `path` names an HDF5 file by its extension (.h5, .hdf5, .he5). */
int synth_files_hdf5_name(const char *path);

#endif
