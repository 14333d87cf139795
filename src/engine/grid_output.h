/**
 * @file grid_output.h
 * @brief A grid run's records (internal to src/engine; the grid domain's ops):
 *        snapshots with their sidecars (XDMF, C2-Ray binaries), checkpoints and
 *        restarts, and the I-front record of single-source runs (ifront.csv).
 */
#ifndef IONF_GRID_OUTPUT_H
#define IONF_GRID_OUTPUT_H

#include <stdio.h>

#include "engine/engine.h"

/** Snapshot NNNN = index (every rank writes its slab; rank 0 the sidecars), and the
    I-front record of a run with an analytic front.  Collective. */
IONF_NODISCARD ionf_err grid_write_output(struct engine *e, int index, struct engine_report *report);
/** DIR/checkpoint.h5 of the current state; next_index: the next snapshot's NNNN.  Collective. */
IONF_NODISCARD ionf_err grid_write_checkpoint(struct engine *e, int next_index, char *path,
                                              size_t size);
/** Continue from checkpoint `path` (x_HII, T, time, step; n_H in expanding boxes; a
    production run's interval).  Collective. */
IONF_NODISCARD ionf_err grid_restart(struct engine *e, const char *path);
/** DIR/ifront.csv (rank 0, single-source runs): open (a restart keeps the rows up to its
    time), and one row after each step. */
IONF_NODISCARD ionf_err grid_front_csv_open(struct engine *e, FILE **out);
IONF_NODISCARD ionf_err grid_front_csv_row(struct engine *e, FILE *f);

#endif
