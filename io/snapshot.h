/**
 * @file snapshot.h
 * @brief HDF5 snapshots and the per-step log.
 *
 * Snapshot DIR/snapshot_NNNN.h5:
 *   /Grid/x_HII, /Grid/Gamma_HI [s^-1], /Grid/n_H [cm^-3], /Grid/T [K]:
 *     float64, shape (N, N, N), C order [i][j][k], i the x index; each with a
 *     string attribute `units`.
 *   Root attributes: time_s (double), box_size_cm (double: proper, or comoving
 *     when cosmological), N (int64), step (int64), config (string: the full
 *     effective YAML), ionfront_version (string); redshift (double) only when
 *     cosmological.  /Grid/dTb [mK] when output.dTb is set.
 * Written to DIR/.snapshot_NNNN.h5.tmp and renamed, so a crash never leaves a
 * truncated file under the final name.  Also root attributes time_Myr,
 * config_name, created (ISO-8601 UTC).
 *
 * A checkpoint (meta->checkpoint) is the same layout in DIR/checkpoint.h5 with
 * the root attributes checkpoint = 1 and next_snapshot_index: x_HII and T at
 * the end of step `step` are all a restart needs besides the config.
 *
 * Under MPI with more than one rank the write is collective (parallel HDF5,
 * MPI-IO): every rank calls snapshot_write and writes its slab of i-planes
 * (comm_slab); rank 0 renames the file once all slabs are in.
 */
#ifndef IONF_SNAPSHOT_H
#define IONF_SNAPSHOT_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "grid.h"

struct snapshot_meta {
  int index;              /*!< NNNN in the file name */
  int64_t step;           /*!< time steps taken so far */
  double time_s;          /*!< simulation time [s] */
  double redshift;        /*!< < 0 when not cosmological */
  int checkpoint;         /*!< 1: write DIR/checkpoint.h5 (restart state) instead */
  int next_index;         /*!< checkpoint: the next snapshot's NNNN */
};

/**
 * Write one snapshot of `fields` (x_HII is written from fields->x_hii).
 * `path_out` (may be NULL) receives the final file name.
 */
IONF_NODISCARD ionf_err snapshot_write(const struct ionf_config *cfg, const struct grid *g,
                                       const struct grid_fields *fields,
                                       const struct snapshot_meta *meta, char *path_out,
                                       size_t path_out_size);

/** Create the output directory (and parents); error names the directory. */
IONF_NODISCARD ionf_err output_dir_prepare(const char *dir);

/** The step log DIR/log.csv: header on open, one row per step. */
struct step_log {
  FILE *file;
  char path[IONF_PATH_MAX];
};
/** Open (truncate) DIR/log.csv; on a restart (resume_after_step >= 0) keep its
    rows up to that step and append. */
IONF_NODISCARD ionf_err step_log_open(struct step_log *log, const char *dir,
                                      int64_t resume_after_step);
/** Rewrite a CSV file keeping its header and the rows whose first column <= limit. */
IONF_NODISCARD ionf_err csv_keep_rows_upto(const char *path, double limit);
/** time_s, iterations, mean x_HII by volume and by mass, wall seconds of the step. */
IONF_NODISCARD ionf_err step_log_row(struct step_log *log, int64_t step, double time_s,
                                     int iterations, double x_mean_volume,
                                     double x_mean_mass, double wall_s);
void step_log_close(struct step_log *log);

#endif
