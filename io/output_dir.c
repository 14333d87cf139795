/**
 * @file output_dir.c
 * @brief The output directory: mkdir -p, a writability probe, and the collective
 *        "rank 0 prepares it, every rank learns the outcome".
 */
#define _POSIX_C_SOURCE 200809L

#include "io/output_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/path.h"
#include "mpi/comm.h"

/* mkdir one path; an existing directory is fine. */
static int output_dir_mkdir_one(const char *p) {
  struct stat st;
  if (stat(p, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return 0;
    errno = ENOTDIR;
    return -1;
  }
  if (mkdir(p, 0777) == 0) return 0;
  /* Someone else (another rank) may have created it meanwhile. */
  if (errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  return -1;
}

ionf_err output_dir_prepare(const char *dir) {
  IONF_CHECK(dir && dir[0], IONF_ERR_IO, "cannot create output directory '': empty path");
  char buf[IONF_PATH_MAX];
  size_t len = strlen(dir);
  IONF_CHECK(len < sizeof buf, IONF_ERR_IO, "cannot create output directory '%s': %s", dir,
             strerror(ENAMETOOLONG));
  memcpy(buf, dir, len + 1);

  /* mkdir -p: each parent in turn, then the directory itself. */
  for (size_t c = 1; c <= len; ++c) {
    if (buf[c] != '/' && buf[c] != '\0') continue;
    if (buf[c - 1] == '/') continue; /* "a//b" or a trailing slash */
    char saved = buf[c];
    buf[c] = '\0';
    int bad = output_dir_mkdir_one(buf);
    buf[c] = saved;
    IONF_CHECK(!bad, IONF_ERR_IO, "cannot create output directory '%s': %s", dir,
               strerror(errno));
  }

  /* Writable?  Only creating a file tells for sure (ACLs, read-only mounts, quotas). */
  char probe[IONF_PATH_MAX + 64];
  int plen = snprintf(probe, sizeof probe, "%s/.ionfront_probe_%ld", dir, (long)getpid());
  IONF_CHECK(plen > 0 && (size_t)plen < sizeof probe, IONF_ERR_IO,
             "output directory '%s' is not writable: %s", dir, strerror(ENAMETOOLONG));
  int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  IONF_CHECK(fd >= 0, IONF_ERR_IO, "output directory '%s' is not writable: %s", dir,
             strerror(errno));
  close(fd);
  IONF_CHECK(unlink(probe) == 0, IONF_ERR_IO, "output directory '%s' is not writable: %s", dir,
             strerror(errno));
  return IONF_OK;
}

ionf_err output_dir_prepare_all(const char *dir) {
  ionf_err rc = comm_rank() == 0 ? output_dir_prepare(dir) : IONF_OK;
  ionf_err any = IONF_OK;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 could not prepare the output directory '%s'",
             dir ? dir : "");
  return IONF_OK;
}
