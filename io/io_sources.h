/**
 * @file io_sources.h
 * @brief Reading source lists from files.
 *
 * Formats:
 *  - text (C2-Ray style): first line the number of sources, then one line per
 *    source "i j k Ndot [flag]" with 1-based cell indices and Ndot in photons/s.
 *    Lines starting with '#' are ignored.
 *  - HDF5: datasets /sources/position (n x 3, integer, 0-based cell indices) and
 *    /sources/Ndot (n, float64, photons/s).
 */
#ifndef IONF_IO_SOURCES_H
#define IONF_IO_SOURCES_H

#include "grid/sources.h"

/** The format of a source file (sources.format; AUTO: HDF5 by its signature, else text). */
enum source_format { SOURCE_FORMAT_AUTO, SOURCE_FORMAT_HDF5, SOURCE_FORMAT_TEXT };

/** Read sources from `path` in `format` (AUTO picks HDF5 by signature). */
IONF_NODISCARD ionf_err io_sources_read(const char *path, enum source_format format,
                                        struct source_list *out);
/** io_sources_read, each source's cell checked against the n_cells_1d^3 grid: a message
    names the file, the line (text) or source (HDF5) and the cell as the file gives it
    (1-based in text files, 0-based in HDF5 ones). */
IONF_NODISCARD ionf_err io_sources_read_grid(const char *path, enum source_format format,
                                             int64_t n_cells_1d, struct source_list *out);

#endif
