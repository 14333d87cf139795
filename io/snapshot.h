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
 *     effective YAML), ionfront_version (string); redshift (double) and
 *     density_redshift (double: the redshift /Grid/n_H stands at, the middle of
 *     the last step) only when cosmological.  /Grid/dTb [mK] when output.dTb is set.
 *   Production runs (config sequence:) add the inputs of the interval the state
 *     was evolved with: inputs_redshift (double), density_file and halo_file
 *     (strings, when from the sequence), n_sources (int64), Ndot_total_per_s; and,
 *     when low-mass haloes are on (sequence.halos.f_gamma_low_mass > 0), the dataset
 *     /low_mass_suppressed_cells (int64, the flat cells (i N + j) N + k whose low-mass
 *     haloes the interval's sources leave out, ascending; a restart takes them back).
 *   Sub-grid models (snapshot_write_subgrid): R_max_cells (double, with
 *     raytracing.mean_free_path: the photon radius of the step that ended at the
 *     snapshot, snapshot 0's at z_initial) and clumping_factor (double, with a constant
 *     or redshift chemistry.clumping: that step's C).
 * Written to DIR/.snapshot_NNNN.h5.tmp and renamed, so a crash never leaves a
 * truncated file under the final name.  Also root attributes time_Myr,
 * config_name, created (ISO-8601 UTC).
 *
 * A checkpoint (meta->checkpoint) is the same layout in DIR/checkpoint.h5 with
 * the root attributes checkpoint = 1 and next_snapshot_index: x_HII and T at
 * the end of step `step` are all a restart needs besides the config (and, in an
 * expanding universe, n_H, density_redshift and sum_n_H_cm3).
 *
 * Under MPI with more than one rank the write is collective (parallel HDF5,
 * MPI-IO): every rank calls snapshot_write and writes its slab of i-planes
 * (comm_slab); rank 0 renames the file once all slabs are in.
 */
#ifndef IONF_SNAPSHOT_H
#define IONF_SNAPSHOT_H

#include <stdint.h>
#include <stdio.h>

#include "core/path.h"
#include "fields/fields.h"
#include "grid/grid.h"

/** What a snapshot records of the run besides its state (from the run's config). */
struct snapshot_run {
  const char *output_dir;     /*!< DIR of DIR/snapshot_NNNN.h5 ("" or NULL: the working directory) */
  double box_size_cm;         /*!< root attribute box_size_cm */
  const char *config_yaml;    /*!< root attribute config: the full effective YAML */
  const char *config_name;    /*!< root attribute config_name: file name or "built-in NAME" */
};

/** Production runs: the inputs the state was evolved with (its interval's files). */
struct snapshot_inputs {
  double redshift;          /*!< the redshift of the files */
  const char *density_file; /*!< "" when the density does not come from the sequence */
  const char *halo_file;    /*!< "" when the sources do not come from the sequence */
  int64_t n_sources;        /*!< sources after merging per cell */
  double ndot_total_per_s;  /*!< their photons per second */
  const int64_t *suppressed_cells; /*!< low-mass haloes suppressed in these flat cells */
  int64_t n_suppressed_cells;      /*!< their number; < 0: low-mass haloes off (no dataset) */
};

struct snapshot_meta {
  int index;              /*!< NNNN in the file name */
  int64_t step;           /*!< time steps taken so far */
  double time_s;          /*!< simulation time [s] */
  double redshift;        /*!< < 0 when not cosmological */
  int checkpoint;         /*!< 1: write DIR/checkpoint.h5 (restart state) instead */
  int next_index;         /*!< checkpoint: the next snapshot's NNNN */
  double density_redshift; /*!< cosmological: the redshift /Grid/n_H stands at */
  double sum_n_h_cm3;     /*!< cosmological checkpoints: the engine's sum of n_H */
  const struct snapshot_inputs *inputs; /*!< production runs; NULL otherwise */
  int64_t mc_seed;        /*!< Monte Carlo runs: montecarlo.seed; < 0 otherwise */
  int64_t mc_packets_per_source; /*!< Monte Carlo runs: packets per source the next step
                                      takes (adapted to a target error; a restart's) */
  const double *gamma_rel_err; /*!< Monte Carlo runs: n^3 relative error of Gamma, or NULL */
};

/**
 * Write one snapshot of `fields` (per species /Grid/x_<ion> and /Grid/Gamma_<species>:
 * x_HII and Gamma_HI; then n_H, T, dTb).
 * `path_out` (may be NULL) receives the final file name.
 */
IONF_NODISCARD ionf_err snapshot_write(const struct snapshot_run *run, const struct grid *g,
                                       const struct fields *fields,
                                       const struct snapshot_meta *meta, char *path_out,
                                       size_t path_out_size);

/** The sub-grid models' values of the step that ended at a snapshot (0: not written). */
struct snapshot_subgrid {
  double r_max_cells;     /*!< raytracing.mean_free_path: that step's photon radius [cells] */
  double clumping_factor; /*!< a uniform chemistry.clumping: that step's C */
};

/** snapshot_write with the root attributes R_max_cells and clumping_factor of `sub` (NULL:
    none, as snapshot_write). */
IONF_NODISCARD ionf_err snapshot_write_subgrid(const struct snapshot_run *run,
                                               const struct grid *g, const struct fields *fields,
                                               const struct snapshot_meta *meta,
                                               const struct snapshot_subgrid *sub, char *path_out,
                                               size_t path_out_size);

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
/** One step: time_s, iterations, mean x_HII by volume and by mass, wall seconds
    of the step, then the redshift at its end (< 0: not cosmological, written nan),
    the number of sources and their photons per second. */
IONF_NODISCARD ionf_err step_log_row(struct step_log *log, int64_t step, double time_s,
                                     int iterations, double x_mean_volume,
                                     double x_mean_mass, double wall_s, double redshift,
                                     int64_t n_sources, double ndot_total_per_s);
void step_log_close(struct step_log *log);

#endif
