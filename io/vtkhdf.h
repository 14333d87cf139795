/**
 * @file vtkhdf.h
 * @brief A VTKHDF sidecar that lets ParaView (5.11 and later) open a grid snapshot with
 *        its axes right and without a copy of the data.
 *
 * "<snapshot stem>.vtk.hdf" is a small HDF5 file in VTK's HDF format (version 1.0,
 * ImageData): /VTKHDF carries the image's extent, origin, spacing and direction, and
 * /VTKHDF/PointData holds one HDF5 external link per field to "SNAPSHOT.h5:/Grid/NAME"
 * (by the snapshot's basename: keep the pair together).  A point stands at each cell
 * centre (origin dx/2), so a slice or a probe at a world position reads the value of
 * the cell there.  The name ends in ".hdf", the extension ParaView 5.11 (Debian 12)
 * gives its VTKHDF reader (later versions also take ".vtkhdf").
 *
 * Axes: /Grid/NAME[i][j][k] is stored with k fastest, which VTK reads as its first
 * index; the direction matrix (rows (0 0 1), (0 1 0), (1 0 0)) maps that index to z
 * and the slowest to x, so the cell (i, j, k) appears at world (i, j, k) + 1/2 cells.
 */
#ifndef IONF_VTKHDF_H
#define IONF_VTKHDF_H

#include <stdint.h>

#include "core/error.h"

/**
 * Write "<h5_path without .h5>.vtk.hdf" (".vtk.hdf" appended when h5_path does not end
 * in ".h5") through a temporary file and a rename.  `box_size` is the side of the
 * cubic box in `length_unit` (recorded as an attribute; NULL or "" to leave it out),
 * `time` the snapshot's time in the caller's unit (FieldData/TimeValue).  `datasets`
 * are names inside the snapshot's /Grid, each an n x n x n array.  The snapshot is
 * not opened.  Errors: IONF_ERR_INPUT (bad n, box size, time or dataset name),
 * IONF_ERR_IO naming the path, IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err vtkhdf_write_sidecar(const char *h5_path, int64_t n, double box_size,
                                             const char *length_unit, double time,
                                             const char *const *datasets, int n_datasets);

#endif /* IONF_VTKHDF_H */
