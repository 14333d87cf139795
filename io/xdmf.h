/**
 * @file xdmf.h
 * @brief XDMF sidecar files that let ParaView and VisIt open a snapshot's
 *        /Grid datasets as a uniform mesh.
 *
 * One XDMF 3 file per snapshot, "SNAPSHOT.xmf", with one uniform grid: a
 * 3DCoRectMesh of (n+1)^3 nodes, origin 0 and spacing box/n, the snapshot time, and
 * one cell-centred scalar Attribute per dataset pointing at "SNAPSHOT_xdmf.h5:/NAME"
 * (float64, n x n x n).  The DataItems name the data file by its basename, so the
 * three files can be moved together.
 *
 * Axis order: XDMF lists dimensions slowest first and reads the fastest index as X,
 * while the snapshot's /Grid/NAME[i][j][k] has k (our z) fastest.  So that the picture
 * is the box and not its transpose (x and z swapped), SNAPSHOT_xdmf.h5 holds each
 * field transposed, NAME[k][j][i]: a copy of the data, which is why `output.xdmf` is
 * off by default; ParaView users get the same picture without a copy from the VTKHDF
 * sidecar (io/vtkhdf.h).
 */
#ifndef IONF_XDMF_H
#define IONF_XDMF_H

#include <stdint.h>

#include "core/error.h"

/**
 * Write "<h5_path without .h5>_xdmf.h5" (the snapshot's /Grid datasets, read back
 * from h5_path and transposed) and "<h5_path without .h5>.xmf" (".xmf" appended when
 * h5_path does not end in ".h5"), each through a temporary file and a rename.  `length_unit` (e.g. "kpc",
 * "cm"; NULL or "" to leave it out) is the unit of box_size, recorded in an
 * Information element; `time` is written as the grid's Time value, in the
 * caller's unit.  `datasets` are names inside /Grid (n_datasets >= 0).
 * Errors: IONF_ERR_INPUT (bad n, box size or dataset name), IONF_ERR_IO (naming
 * the path; the snapshot unreadable or a dataset missing), IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err xdmf_write_sidecar(const char *h5_path, int64_t n, double box_size,
                                           const char *length_unit, double time,
                                           const char *const *datasets, int n_datasets);

#endif /* IONF_XDMF_H */
