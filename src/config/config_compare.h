/**
 * @file config_compare.h
 * @brief Comparing two effective configurations (parsed YAML trees): may a run with
 *        the second continue from a checkpoint written by a run with the first?
 *
 * Only keys that do not change the physics may differ on a restart
 * (CONFIG_COMPARE_RESTART_KEYS): time.t_end, time.outputs, output.* (what is written
 * and where), raytracing.backend, mpi.reduction and debug.* (the test hooks).
 * Scalars are equal when their text is, or when both are a number with the same
 * trailing unit text ("1e-3" and "0.001", "5 Myr" and "5.0 Myr").  Input files are
 * recorded as resolved absolute paths: two that differ only in their folder (the
 * inputs moved, or the run continues from another directory) count as the same file
 * and are reported as moved; another file name is a difference.
 */
#ifndef IONF_CONFIG_COMPARE_H
#define IONF_CONFIG_COMPARE_H

#include <stddef.h>

#include "core/error.h"
#include "core/params.h"

/** The keys a restart may change, for messages and documentation. */
#define CONFIG_COMPARE_RESTART_KEYS                                                        \
  "time.t_end, time.outputs, output.* (directory, checkpoint_every, progress, overwrite, " \
  "xdmf, c2ray_binary, dTb), raytracing.backend, mpi.reduction and debug.*"

/** The first difference found: the key's path ("material.n_H", "sources[1].Ndot") and
    both values as text ("(not set)" for a missing key, "a mapping" / "a list of N"). */
struct config_compare_diff {
  char key[256];
  char old_value[1024];
  char new_value[1024];
};

/** 1 when `key` (a dotted path) may differ between a checkpoint's run and its restart. */
int config_compare_restart_may_change(const char *key);

/**
 * Compare two effective configurations.  Returns 1 and fills `d` with the first key
 * (in `old_cfg`'s order, then keys only `new_cfg` has) whose values differ and that a
 * restart may not change; 0 when they agree on every such key.  `moved` (may be NULL)
 * receives the first input file found in another folder (key "" when none).  Pure; no
 * allocation.
 */
int config_compare_restart_trees(const struct param_node *old_cfg,
                                 const struct param_node *new_cfg,
                                 struct config_compare_diff *d, struct config_compare_diff *moved);

/**
 * May a run whose effective configuration is `new_yaml` continue from checkpoint
 * `checkpoint_path`, written by a run whose effective configuration was `old_yaml`?
 * IONF_OK when they agree on every key a restart may not change; otherwise
 * IONF_ERR_INPUT naming the checkpoint, the first key that differs, both values and
 * the keys that may change.  IONF_ERR_INPUT when `old_yaml` cannot be parsed.  `moved`
 * (may be NULL): as for config_compare_restart_trees, for the caller to warn about.
 */
IONF_NODISCARD ionf_err config_compare_restart(const char *checkpoint_path, const char *old_yaml,
                                               const char *new_yaml,
                                               struct config_compare_diff *moved);

#endif /* IONF_CONFIG_COMPARE_H */
