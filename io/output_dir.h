/**
 * @file output_dir.h
 * @brief The output directory: made (with its parents) and checked writable before
 *        anything is written into it; by one process, or by rank 0 for all ranks.
 */
#ifndef IONF_OUTPUT_DIR_H
#define IONF_OUTPUT_DIR_H

#include "core/error.h"

/**
 * Create `dir` and its missing parents (mkdir -p; an existing directory is fine)
 * and check, by creating and removing a file in it, that it is writable.  One
 * process, no MPI.  IONF_ERR_IO naming `dir` and the reason otherwise.
 */
IONF_NODISCARD ionf_err output_dir_prepare(const char *dir);

/**
 * Collective over the ranks (comm_mpi()): rank 0 prepares `dir` as output_dir_prepare,
 * and every rank learns the outcome, so that none goes on to write into a directory
 * that is not there.  Rank 0 returns its own error; the other ranks return
 * IONF_ERR_PEER with "rank 0 could not prepare the output directory 'DIR'".
 */
IONF_NODISCARD ionf_err output_dir_prepare_all(const char *dir);

/** 1 when the folder of `file` (a path) is `dir` (the same directory, through any links);
    0 otherwise, or when either does not exist.  One process. */
int output_dir_holds_file(const char *dir, const char *file);

/** What a run may find in its output directory (output_dir_claim_all). */
enum output_dir_mode {
  OUTPUT_DIR_NEW,       /*!< a new run: an earlier run's files are refused */
  OUTPUT_DIR_OVERWRITE, /*!< a new run with --overwrite: an earlier run's files are removed */
  OUTPUT_DIR_CONTINUE   /*!< a restart: the run's own files are continued in place */
};

/**
 * 1 when `name` (a file name without its folder) is one an ionfront run writes:
 * snapshot_NNNN.h5, snapshot_NNNN.xmf, log.csv, ifront.csv, checkpoint.h5, thermal.h5, C2-Ray's
 * binaries (xfrac3D_*.bin, IonRates3D_*.bin, Temper3D_*.bin), and their temporaries
 * (".NAME.tmp", "NAME.tmp").
 */
int output_dir_is_run_file(const char *name);

/**
 * Collective over the ranks: output_dir_prepare_all, and then rank 0 looks in `dir`
 * for an earlier run's files (output_dir_is_run_file; regular files only).  With
 * OUTPUT_DIR_NEW (a new run, or a restart into a folder other than its checkpoint's:
 * engine_run) there must be none: IONF_ERR_CONFIG naming the folder, some of the
 * files and --overwrite; with OUTPUT_DIR_OVERWRITE they are removed (nothing else
 * is); with OUTPUT_DIR_CONTINUE they stay.  Every rank learns the outcome (the other
 * ranks return IONF_ERR_PEER), before anything is written.
 */
IONF_NODISCARD ionf_err output_dir_claim_all(const char *dir, enum output_dir_mode mode);

#endif /* IONF_OUTPUT_DIR_H */
