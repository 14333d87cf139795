/**
 * @file config_file.c
 * @brief A config file read once: rank 0 reads it (a file, a pipe, /dev/stdin, a shell's
 *        <(...)), every rank gets the text; then the config is built from that text.
 */

#include "config/config_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "config/problems.h"
#include "config/sph_config.h"
#include "mpi/comm.h"

/* A config is a page of YAML; anything this long is not one. */
#define CONFIG_FILE_MAX_BYTES (16 << 20)

/* The folder relative input paths are taken from: the config's own folder as its path
   names it (a link's, as config_load does); the working directory ("") for standard input
   and descriptors (/dev/stdin, /dev/fd/N, /proc/self/fd/N: a pipe, a shell's <(...), or
   a redirected file, which under mpirun reaches rank 0 as a pipe anyway), so a config
   means the same on any number of ranks. */
static void config_file_dir(const char *path, char *dir, size_t cap) {
  dir[0] = '\0';
  if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6)) return;
  const char *slash = strrchr(path, '/');
  if (slash && (size_t)(slash - path) + 2 < cap) {
    memcpy(dir, path, (size_t)(slash - path) + 1);
    dir[slash - path + 1] = '\0';
  }
}

/* Rank 0's read: the whole text, whatever kind of file it is. */
static ionf_err config_file_slurp(const char *path, char **text, size_t *len) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  /* a shell's <(...) is a descriptor of mpirun's, which its ranks do not inherit */
  IONF_CHECK(f || comm_size() == 1 || (strncmp(path, "/dev/fd/", 8) != 0 &&
                                       strncmp(path, "/proc/self/fd/", 14) != 0),
             IONF_ERR_IO,
             "cannot open config file '%s': %s (a shell's <(...) does not reach the ranks of "
             "mpirun; pipe the config to rank 0's standard input instead: "
             "... | mpirun -np P ionfront run /dev/stdin)",
             path, strerror(errno));
  IONF_CHECK(f, IONF_ERR_IO, "cannot open config file '%s': %s", path, strerror(errno));
  size_t cap = 0;
  char *buf = NULL;
  ionf_err rc = IONF_OK;
  for (;;) {
    if (*len + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 16384;
      char *grown = cap <= CONFIG_FILE_MAX_BYTES + 8192 ? realloc(buf, cap) : NULL;
      if (!grown) {
        rc = ionf_error_set(IONF_ERR_CONFIG, "config file '%s' is larger than %d MiB: not a "
                            "config", path, CONFIG_FILE_MAX_BYTES >> 20);
        break;
      }
      buf = grown;
    }
    size_t got = fread(buf + *len, 1, cap - *len - 1, f);
    *len += got;
    if (got == 0) break;
  }
  if (rc == IONF_OK && ferror(f))
    rc = ionf_error_set(IONF_ERR_IO, "error reading config file '%s': %s", path, strerror(errno));
  if (rc == IONF_OK && *len > CONFIG_FILE_MAX_BYTES)
    rc = ionf_error_set(IONF_ERR_CONFIG, "config file '%s' is larger than %d MiB: not a config",
                        path, CONFIG_FILE_MAX_BYTES >> 20);
  fclose(f);
  if (rc != IONF_OK) {
    free(buf);
    *len = 0;
    return rc;
  }
  buf[*len] = '\0';
  *text = buf;
  return IONF_OK;
}

ionf_err config_file_read(const char *path, struct config_file *out) {
  memset(out, 0, sizeof *out);
  IONF_CHECK(path && path[0], IONF_ERR_USAGE, "no config file name given");
  IONF_CHECK(strlen(path) < sizeof out->name, IONF_ERR_CONFIG, "config file name '%.80s...' is "
             "too long", path);
  snprintf(out->name, sizeof out->name, "%s", path);
  config_file_dir(path, out->dir, sizeof out->dir);
  size_t len = 0;
  ionf_err rc = comm_rank() == 0 ? config_file_slurp(path, &out->owned, &len) : IONF_OK;
  /* rank 0 says how it went: the length, or the failure and its message */
  char message[1024] = "";
  if (rc != IONF_OK) snprintf(message, sizeof message, "%s", ionf_error_message());
  double head[2] = {(double)rc, (double)len};
  IONF_CALL(comm_bcast(head, 2, 0));
  if (head[0] != (double)IONF_OK) {
    IONF_CALL(comm_bcast_bytes(message, (int)sizeof message, 0));
    if (comm_rank() != 0) ionf_error_set((ionf_err)head[0], "%s", message);
    free(out->owned);
    out->owned = NULL;
    return (ionf_err)head[0];
  }
  len = (size_t)head[1];
  if (comm_rank() != 0) {
    out->owned = ionf_malloc(len + 1, "the config text");
    IONF_CHECK(out->owned, IONF_ERR_MEM, "out of memory");
    out->owned[len] = '\0';
  }
  IONF_CALL(comm_bcast_bytes(out->owned, (int)len, 0));
  out->text = out->owned;
  return IONF_OK;
}

void config_file_of_text(const char *text, const char *name, struct config_file *out) {
  memset(out, 0, sizeof *out);
  out->text = text;
  snprintf(out->name, sizeof out->name, "%s", name ? name : "YAML text");
}

void config_file_free(struct config_file *f) {
  if (!f) return;
  free(f->owned);
  memset(f, 0, sizeof *f);
}

int config_file_is_particle_run(const struct config_file *f) {
  struct param_node *root = NULL;
  if (!f->text || params_load_string(f->text, f->name, &root) != IONF_OK) {
    ionf_error_clear(); /* the loader reports it, with its message */
    return 0;
  }
  int yes = params_get(root, "particles") != NULL;
  params_free(root);
  return yes;
}

/* The tree of `f` with the overrides applied (the caller frees it). */
ionf_err config_file_tree(const struct config_file *f, char *const *overrides, int n_overrides,
                          struct param_node **root) {
  *root = NULL;
  IONF_CHECK(f->text, IONF_ERR_USAGE, "no YAML text given (NULL)");
  IONF_CALL(params_load_string(f->text, f->name, root));
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_overrides && rc == IONF_OK; ++i)
    rc = params_set_override(*root, overrides[i]);
  if (rc != IONF_OK) {
    params_free(*root);
    *root = NULL;
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

ionf_err config_load_file(const struct config_file *f, char *const *overrides, int n_overrides,
                          struct ionf_config *cfg) {
  struct param_node *root = NULL;
  config_defaults(cfg);
  IONF_CALL(config_file_tree(f, overrides, n_overrides, &root));
  ionf_err rc = config_from_params_in(root, f->name, f->dir, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

ionf_err config_file_builtin(const char *problem, struct config_file *out) {
  memset(out, 0, sizeof *out);
  IONF_CALL(config_builtin(problem, &out->text));
  snprintf(out->name, sizeof out->name, "built-in %s", problem);
  return IONF_OK;
}
