/**
 * @file thermal_cli.h
 * @brief `ionfront run` of a `problem: thermal` config (src/engine/thermal_run.h): the run,
 *        or with --dry-run its plan, and the summary lines.
 */
#ifndef IONF_THERMAL_CLI_H
#define IONF_THERMAL_CLI_H

#include "config/config_file.h"
#include "core/error.h"

/**
 * Run (or plan, dry_run 1) the thermal config `f` with the "a.b=VALUE" overrides of the
 * command line (--set, --output, --backend: raytracing.backend, --overwrite, --quiet:
 * output.progress).  `restart_path` must be NULL (a thermal run has no checkpoints).
 * Collective; the caller reports the error.
 */
IONF_NODISCARD ionf_err thermal_cli_run(const struct config_file *f, char *const *overrides,
                                        int n_overrides, const char *restart_path, int dry_run);

#endif /* IONF_THERMAL_CLI_H */
