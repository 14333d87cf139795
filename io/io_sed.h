/**
 * @file io_sed.h
 * @brief Reading a tabulated source spectrum (rt/sed.h).
 *
 * Formats:
 *  - text: two columns per line, photon energy [eV] and photons s^-1 eV^-1 (any
 *    normalisation: the run scales it to the sources' rates); '#' starts a comment;
 *  - HDF5: datasets /energy_eV and /photons_per_s_per_eV, one-dimensional, equal
 *    lengths.
 * The energies must increase strictly and be positive, the photon rates be finite and
 * not negative, with at least two points and some photons above 13.598 eV.
 */
#ifndef IONF_IO_SED_H
#define IONF_IO_SED_H

#include "core/error.h"
#include "rt/sed.h"

/** Read `path` (HDF5 by its signature, else text) into *out.  Errors name the file,
    the line (text) or dataset (HDF5) and the value: IONF_ERR_IO, IONF_ERR_INPUT. */
IONF_NODISCARD ionf_err io_sed_read(const char *path, struct sed *out);

#endif /* IONF_IO_SED_H */
