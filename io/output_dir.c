/**
 * @file output_dir.c
 * @brief The output directory: mkdir -p, a writability probe, the collective
 *        "rank 0 prepares it, every rank learns the outcome", and an earlier run's files
 *        (refused, removed with --overwrite, or continued by a restart).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/output_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "chem/species.h"
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

int output_dir_holds_file(const char *dir, const char *file) {
  char folder[IONF_PATH_MAX];
  snprintf(folder, sizeof folder, "%s", file);
  char *slash = strrchr(folder, '/');
  if (!slash) snprintf(folder, sizeof folder, ".");
  else if (slash == folder) folder[1] = '\0'; /* "/checkpoint.h5" */
  else *slash = '\0';
  struct stat a, b;
  return stat(dir, &a) == 0 && stat(folder, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

/* `name` ends with `suffix` */
static int output_dir_ends_with(const char *name, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && !memcmp(name + len - n, suffix, n);
}

int output_dir_is_run_file(const char *name) {
  if (name[0] == '.') ++name; /* ".snapshot_0001.h5.tmp" */
  size_t len = strlen(name);
  if (output_dir_ends_with(name, len, ".tmp")) len -= 4;
  char base[256];
  if (len == 0 || len >= sizeof base) return 0;
  memcpy(base, name, len);
  base[len] = '\0';
  if (!strcmp(base, "log.csv") || !strcmp(base, "ifront.csv") || !strcmp(base, "checkpoint.h5") ||
      !strcmp(base, "thermal.h5")) /* a thermal run's result (io/thermal_io.h) */
    return 1;
  if (!strncmp(base, "snapshot_", 9))
    return output_dir_ends_with(base, len, ".h5") || output_dir_ends_with(base, len, ".xmf") ||
           output_dir_ends_with(base, len, ".hdf"); /* snapshot_NNNN.vtk.hdf */
  if (!output_dir_ends_with(base, len, ".bin")) return 0;
  if (!strncmp(base, "Temper3D_", 9)) return 1;
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) { /* every species' C2-Ray stems */
    const struct species_names *sn = species_names_of(s);
    const char *stems[2] = {sn->c2ray_xfrac_stem, sn->c2ray_rates_stem};
    for (int k = 0; k < 2; ++k) {
      size_t n = strlen(stems[k]);
      if (!strncmp(base, stems[k], n) && base[n] == '_') return 1;
    }
  }
  return 0;
}

/* Rank 0's part of output_dir_claim_all: find (and with OVERWRITE remove) the files. */
static ionf_err output_dir_claim(const char *dir, enum output_dir_mode mode) {
  IONF_CALL(output_dir_prepare(dir));
  if (mode == OUTPUT_DIR_CONTINUE) return IONF_OK;
  DIR *d = opendir(dir);
  IONF_CHECK(d, IONF_ERR_IO, "cannot list output directory '%s': %s", dir, strerror(errno));
  char listed[512] = "", path[IONF_PATH_MAX + 300];
  long n_found = 0;
  ionf_err rc = IONF_OK;
  struct dirent *ent;
  while (rc == IONF_OK && (ent = readdir(d)) != NULL) {
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    if (!output_dir_is_run_file(ent->d_name) || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (mode == OUTPUT_DIR_OVERWRITE) {
      if (unlink(path) != 0)
        rc = ionf_error_set(IONF_ERR_IO, "--overwrite: cannot remove '%s': %s", path,
                            strerror(errno));
      continue;
    }
    size_t used = strlen(listed);
    if (n_found < 4) snprintf(listed + used, sizeof listed - used, "%s%s", n_found ? ", " : "", ent->d_name);
    ++n_found;
  }
  closedir(d);
  IONF_CALL(rc);
  IONF_CHECK(n_found == 0, IONF_ERR_CONFIG,
             "output directory '%s' holds another run's files (%s%s; %ld in all): a new run "
             "would overwrite some and leave the others beside its own.  Choose another "
             "directory (--output DIR), continue that run (--restart %s/checkpoint.h5), or "
             "pass --overwrite (output.overwrite: true) to remove them first",
             dir, listed, n_found > 4 ? ", ..." : "", n_found, dir);
  return IONF_OK;
}

ionf_err output_dir_claim_all(const char *dir, enum output_dir_mode mode) {
  ionf_err rc = comm_rank() == 0 ? output_dir_claim(dir ? dir : "", mode) : IONF_OK;
  ionf_err any = IONF_OK;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER,
             "rank 0 could not prepare the output directory '%s' (it says why)", dir ? dir : "");
  return IONF_OK;
}
