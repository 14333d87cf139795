/**
 * @file config_file.h
 * @brief A config's YAML text, read once, and the configs built from it.
 *
 * `ionfront run <(ionfront example iliev1)` and `ionfront run /dev/stdin < run.yaml`
 * give a pipe, which can be read once and exists on one rank only: rank 0 reads the
 * text and broadcasts it (config_file_read), and everything after (is it a particle
 * run? the grid or particle config) is built from that text.  The config keeps its
 * path as its name in messages; relative input paths in it are relative to its folder,
 * or to the working directory for standard input and descriptors (/dev/stdin,
 * /dev/fd/N: a pipe, <(...), or a redirected file, which under mpirun is a pipe).
 */
#ifndef IONF_CONFIG_FILE_H
#define IONF_CONFIG_FILE_H

#include "config/config.h"
#include "core/error.h"
#include "core/params.h"
#include "core/path.h"

struct config_file {
  const char *text;           /*!< the YAML text */
  char *owned;                /*!< the text when read here (malloc'd), else NULL */
  char name[IONF_PATH_MAX];   /*!< for messages: the path as given, "built-in NAME", ... */
  char dir[IONF_PATH_MAX];    /*!< the folder of relative input paths, with '/'; "": the
                                   working directory */
};

/**
 * Rank 0 of the library's communicator reads `path` whole (a file, a pipe, /dev/stdin),
 * every rank gets the text or rank 0's error (the same on all ranks).  Collective.
 */
IONF_NODISCARD ionf_err config_file_read(const char *path, struct config_file *out);
/** A config of YAML `text` (borrowed: it must outlive `out`) named `name` in messages;
    relative paths are relative to the working directory. */
void config_file_of_text(const char *text, const char *name, struct config_file *out);
/** The built-in problem `problem` (IONF_ERR_USAGE when there is none such). */
IONF_NODISCARD ionf_err config_file_builtin(const char *problem, struct config_file *out);
void config_file_free(struct config_file *f);

/** 1 when the text has a particles: section (a particle run); 0 otherwise or when it does
    not parse (the loader then reports why). */
int config_file_is_particle_run(const struct config_file *f);
/** The parsed tree with the `n_overrides` "a.b=VALUE" overrides applied (caller frees). */
IONF_NODISCARD ionf_err config_file_tree(const struct config_file *f, char *const *overrides,
                                         int n_overrides, struct param_node **root);
/** A grid run's config from the text and the overrides (config_load's). */
IONF_NODISCARD ionf_err config_load_file(const struct config_file *f, char *const *overrides,
                                         int n_overrides, struct ionf_config *cfg);

#endif /* IONF_CONFIG_FILE_H */
