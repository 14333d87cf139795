/**
 * @file xdmf.h
 * @brief XDMF sidecar files that let ParaView and VisIt open a snapshot's
 *        /Grid datasets as a uniform mesh.
 *
 * One XDMF 3 file per snapshot, next to it, with one uniform grid: a
 * 3DCoRectMesh of (n+1)^3 nodes, origin 0 and spacing box/n, the snapshot time,
 * and one cell-centred scalar Attribute per dataset pointing at
 * "SNAPSHOT.h5:/Grid/NAME" (float64, n x n x n).  The DataItems name the
 * snapshot by its basename, so the pair can be moved together.
 *
 * Axis order: XDMF lists dimensions slowest first and treats the fastest index
 * as X, so a viewer's X axis is our k and its Z axis our i (the box is cubic and
 * the spacing the same on every axis, so the picture is the transposed box).
 */
#ifndef IONF_XDMF_H
#define IONF_XDMF_H

#include <stdint.h>

#include "core/error.h"

/**
 * Write "<h5_path without .h5>.xmf" (".xmf" appended when h5_path does not end
 * in ".h5"), through a temporary file and a rename.  `length_unit` (e.g. "kpc",
 * "cm"; NULL or "" to leave it out) is the unit of box_size, recorded in an
 * Information element; `time` is written as the grid's Time value, in the
 * caller's unit.  `datasets` are names inside /Grid (n_datasets >= 0).
 * Errors: IONF_ERR_INPUT (bad n, box size or dataset name), IONF_ERR_IO (naming
 * the path), IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err xdmf_write_sidecar(const char *h5_path, int64_t n, double box_size,
                                           const char *length_unit, double time,
                                           const char *const *datasets, int n_datasets);

#endif /* IONF_XDMF_H */
