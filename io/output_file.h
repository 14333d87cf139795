/**
 * @file output_file.h
 * @brief A file lands whole or not at all: written under a temporary name, synced,
 *        then renamed over its final name, so that a failure (or a crash) never leaves
 *        half a file where a good one was.
 */
#ifndef IONF_OUTPUT_FILE_H
#define IONF_OUTPUT_FILE_H

#include "core/error.h"

/**
 * fsync the finished, closed file `tmp` before it is renamed to `path`, so that a crash
 * after the rename cannot leave a truncated file under `path` (a filesystem that cannot
 * sync, EINVAL, is fine).  IONF_ERR_IO "cannot write KIND 'PATH': syncing 'TMP': reason".
 */
IONF_NODISCARD ionf_err output_file_sync(const char *tmp, const char *path, const char *kind);

/**
 * Finish a file written (and closed) as `tmp`: when `rc` is IONF_OK, sync it and rename it
 * to `path`; whenever the outcome is an error, `rc` coming in or a failure here, remove
 * `tmp`.  Returns the outcome (errors name `kind`, `path` and the reason).
 */
IONF_NODISCARD ionf_err output_file_commit(ionf_err rc, const char *tmp, const char *path,
                                           const char *kind);

#endif /* IONF_OUTPUT_FILE_H */
