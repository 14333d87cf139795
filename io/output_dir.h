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

#endif /* IONF_OUTPUT_DIR_H */
