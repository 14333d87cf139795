/**
 * @file dry_run.h
 * @brief `ionfront run CONFIG --dry-run`: check everything a run would, print the plan,
 *        write nothing.
 */
#ifndef IONF_DRY_RUN_H
#define IONF_DRY_RUN_H

#include "core/error.h"

/** Load the config (`config_path`, NULL: the built-in default) with the overrides, check
    its inputs and memory as the run would and print the plan (rank 0).  Collective; the
    run's error when it would not start. */
IONF_NODISCARD ionf_err dry_run(const char *config_path, char *const *overrides,
                                int n_overrides);

#endif
