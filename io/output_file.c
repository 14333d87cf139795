/**
 * @file output_file.c
 * @brief Temporary file, sync, rename (output_file.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

ionf_err output_file_sync(const char *tmp, const char *path, const char *kind) {
  int fd = open(tmp, O_RDONLY);
  if (fd < 0)
    return ionf_error_set(IONF_ERR_IO, "cannot write %s '%s': reopening '%s' to sync: %s", kind,
                          path, tmp, strerror(errno));
  int bad = fsync(fd) != 0 && errno != EINVAL; /* EINVAL: the filesystem cannot sync */
  int err = errno;
  close(fd);
  if (bad)
    return ionf_error_set(IONF_ERR_IO, "cannot write %s '%s': syncing '%s': %s", kind, path, tmp,
                          strerror(err));
  return IONF_OK;
}

ionf_err output_file_commit(ionf_err rc, const char *tmp, const char *path, const char *kind) {
  if (rc == IONF_OK) rc = output_file_sync(tmp, path, kind);
  if (rc == IONF_OK && rename(tmp, path) != 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write %s '%s': renaming '%s' to it: %s", kind, path,
                        tmp, strerror(errno));
  if (rc != IONF_OK) unlink(tmp);
  return rc;
}
