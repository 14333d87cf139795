/**
 * @file config.c
 * @brief YAML tree -> validated struct ionf_config.
 *
 * While validating, an "effective" tree is built next to the user's: every
 * known key in a fixed order, the user's value where given and the default
 * otherwise, input paths resolved.  Validation reads the effective tree, so a
 * default goes through the same checks as a user value, and emitting that tree
 * shows the user every value the run used.
 */
#define _POSIX_C_SOURCE 200809L /* getcwd */

#include "config/config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid/clumps.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "rt/planar/planar.h"
#include "config/problems.h"
#include "engine/sequence.h"
#include "core/units.h"

/* Defaults, as YAML text: the effective tree shows exactly these, and
 * config_defaults() reads the same strings, so the two cannot drift apart. */
#define CONFIG_DEF_PERIODIC "false"
#define CONFIG_DEF_ALPHA_B "2.59e-13"
#define CONFIG_DEF_ALPHA_B_POWER "-0.7"
#define CONFIG_DEF_COLLISIONAL "true"
#define CONFIG_DEF_ABU_C "7.1e-7"
#define CONFIG_DEF_SPECTRUM "grey"
#define CONFIG_DEF_SIGMA_0 "6.30e-18"
#define CONFIG_DEF_POWER_LAW "2.8"
#define CONFIG_DEF_NUM_TAU "20000"
#define CONFIG_DEF_MIN_LOG_TAU "-20"
#define CONFIG_DEF_MAX_LOG_TAU "4"
#define CONFIG_DEF_R_MAX "0"
#define CONFIG_DEF_CONVERGENCE "1.0e-4"
#define CONFIG_DEF_MAX_ITER "100"
#define CONFIG_DEF_BACKEND "auto"
#define CONFIG_DEF_BATCH "0"
#define CONFIG_DEF_SOURCE_FORMAT "auto"
#define CONFIG_DEF_OUTPUT_DIR "out"
#define CONFIG_DEF_PROGRESS "true"
#define CONFIG_DEF_CHECKPOINT_EVERY "0"
#define CONFIG_DEF_REDUCTION "auto"

#define CONFIG_N_MAX 4096
#define CONFIG_TEXT_MAX 256

struct config_ctx {
  const char *name;        /* config name for messages */
  char dir[IONF_PATH_MAX]; /* directory of the config file with '/', "" = cwd */
  struct param_node *eff;  /* the effective tree */
  /* sequence: (production runs) decides what other sections must hold */
  int seq_given, seq_density, seq_halos;
  struct param_node *time_eff, *cosmo_eff; /* effective sections the sequence completes */
  struct param_node *outputs_node;         /* time.outputs as given (NULL: none) */
  struct param_node *t_end_node;           /* time.t_end as given (NULL: none) */
  int z_initial_given;
};

/* One mapping being validated: the user's keys and their effective copy. */
struct config_section {
  struct config_ctx *ctx;
  const char *name;              /* "grid", "sources[2]", "material.n_H" */
  const struct param_node *user; /* NULL when absent */
  struct param_node *eff;
  char path[CONFIG_TEXT_MAX];    /* "grid.N": the key taken last */
};

static const char *const config_sections[] = {"grid",     "material",   "chemistry",
                                              "sources",  "spectrum",   "time",
                                              "raytracing", "output",   "mpi",
                                              "cosmology", "sequence", "synthetic",
                                              "montecarlo"};
#define CONFIG_N(array) (sizeof(array) / sizeof((array)[0]))

/* ---- did you mean ---------------------------------------------------------- */

static size_t config_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  size_t row[64];
  if (la >= CONFIG_N(row) || lb >= CONFIG_N(row)) return SIZE_MAX;
  for (size_t j = 0; j <= lb; ++j) row[j] = j;
  for (size_t i = 1; i <= la; ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; ++j) {
      size_t up = row[j];
      size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
      size_t best = diag + cost;
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The closest candidate, if close enough to be a likely typo; a candidate
 * that shares no letter at all ("bx" -> "N") is not a typo of it. */
static const char *config_suggest(const char *word, const char *const *cands, size_t n) {
  size_t len = strlen(word);
  size_t limit = len / 3 > 2 ? len / 3 : 2;
  const char *best = NULL;
  size_t best_d = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    size_t d = config_distance(word, cands[i]);
    size_t longer = len > strlen(cands[i]) ? len : strlen(cands[i]);
    if (d <= limit && d < longer && d < best_d) {
      best = cands[i];
      best_d = d;
    }
  }
  return best;
}

static void config_join(const char *const *names, size_t n, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && used < cap; ++i)
    used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "", names[i]);
}

/* prefix NULL: top level (sections). */
static ionf_err config_check_keys(const struct config_ctx *ctx, const struct param_node *map,
                                  const char *prefix, const char *const *known, size_t n_known) {
  if (!map || map->kind != PARAM_MAPPING) return IONF_OK;
  for (size_t i = 0; i < map->n_items; ++i) {
    const char *key = map->keys[i];
    int found = 0;
    for (size_t k = 0; k < n_known && !found; ++k) found = strcmp(key, known[k]) == 0;
    if (found) continue;
    const char *guess = config_suggest(key, known, n_known);
    char list[512];
    config_join(known, n_known, list, sizeof list);
    if (!prefix) {
      if (guess)
        return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown section '%s' (did you mean '%s'?)",
                              ctx->name, key, guess);
      return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown section '%s' (sections are: %s)",
                            ctx->name, key, list);
    }
    if (guess)
      return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)",
                            ctx->name, prefix, key, guess);
    return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown key '%s.%s' (known keys: %s)", ctx->name,
                          prefix, key, list);
  }
  return IONF_OK;
}

/* ---- describing values in messages ------------------------------------------- */

static const char *config_kind(const struct param_node *n) {
  if (!n || n->kind == PARAM_NULL) return "nothing";
  switch (n->kind) {
    case PARAM_SCALAR: return n->quoted ? "a quoted string" : "a single value";
    case PARAM_SEQUENCE: return "a list";
    case PARAM_MAPPING: return "a mapping";
    case PARAM_NULL: break;
  }
  return "nothing";
}

/* The value as the user wrote it: "5 Myr", "\"64\"", "[0, 0, 200]", or its kind. */
static const char *config_text(const struct param_node *n, char *buf, size_t cap) {
  if (n && n->kind == PARAM_SCALAR) {
    snprintf(buf, cap, n->quoted ? "\"%s\"" : "%s", n->scalar);
    return buf;
  }
  if (n && n->kind == PARAM_SEQUENCE) {
    size_t used = (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < n->n_items && used < cap; ++i) {
      const struct param_node *it = n->items[i];
      const char *t = it->kind == PARAM_SCALAR ? it->scalar
                      : it->kind == PARAM_NULL ? "null"
                      : it->kind == PARAM_SEQUENCE ? "[...]" : "{...}";
      used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", t);
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
    return buf;
  }
  return config_kind(n);
}

/* ---- typed values ----------------------------------------------------------- */

static ionf_err config_number(const struct config_ctx *ctx, const char *path,
                              const struct param_node *n, const char *expected, double *out) {
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG, "%s: %s: expected %s, got %s",
             ctx->name, path, expected, config_kind(n));
  IONF_CHECK(!n->quoted, IONF_ERR_CONFIG,
             "%s: %s = %s: expected %s, got a quoted string (write it without quotes)", ctx->name,
             path, config_text(n, t, sizeof t), expected);
  IONF_CHECK(units_parse_number(n->scalar, out), IONF_ERR_CONFIG,
             "%s: %s = %s: expected %s", ctx->name, path, n->scalar, expected);
  return IONF_OK;
}

static ionf_err config_range(const struct config_ctx *ctx, const char *path,
                             const struct param_node *n, const char *rule) {
  char t[CONFIG_TEXT_MAX];
  return ionf_error_set(IONF_ERR_CONFIG, "%s: %s = %s is out of range (%s)", ctx->name, path,
                        config_text(n, t, sizeof t), rule);
}

static ionf_err config_int(const struct config_ctx *ctx, const char *path,
                           const struct param_node *n, int64_t lo, int64_t hi, int64_t *out) {
  char rule[96];
  double v = 0.0;
  snprintf(rule, sizeof rule, "an integer in %lld..%lld", (long long)lo, (long long)hi);
  IONF_CALL(config_number(ctx, path, n, rule, &v));
  IONF_CHECK(v == floor(v), IONF_ERR_CONFIG, "%s: %s = %s is not an integer (must be %s)",
             ctx->name, path, n->scalar, rule);
  if (v < (double)lo || v > (double)hi) {
    char must[128];
    snprintf(must, sizeof must, "must be %s", rule);
    return config_range(ctx, path, n, must);
  }
  *out = (int64_t)v;
  return IONF_OK;
}

static ionf_err config_bool(const struct config_ctx *ctx, const char *path,
                            const struct param_node *n, int *out) {
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG,
             "%s: %s: expected true or false, got %s", ctx->name, path, config_kind(n));
  IONF_CHECK(!n->quoted, IONF_ERR_CONFIG,
             "%s: %s = %s: expected true or false without quotes, got a quoted string",
             ctx->name, path, config_text(n, t, sizeof t));
  for (size_t i = 0; i < CONFIG_N(yes); ++i) {
    if (config_distance(n->scalar, yes[i]) == 0) {
      *out = 1;
      return IONF_OK;
    }
    if (config_distance(n->scalar, no[i]) == 0) {
      *out = 0;
      return IONF_OK;
    }
  }
  return ionf_error_set(IONF_ERR_CONFIG,
                        "%s: %s = %s: expected a bool (true/false, yes/no, on/off)", ctx->name,
                        path, n->scalar);
}

static ionf_err config_string(const struct config_ctx *ctx, const char *path,
                              const struct param_node *n, const char *what, char *out,
                              size_t cap) {
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG, "%s: %s: expected %s, got %s",
             ctx->name, path, what, config_kind(n));
  IONF_CHECK(n->scalar[0] != '\0', IONF_ERR_CONFIG, "%s: %s: expected %s, got an empty string",
             ctx->name, path, what);
  IONF_CHECK(strlen(n->scalar) < cap, IONF_ERR_CONFIG,
             "%s: %s = '%.60s...' is too long (at most %zu characters)", ctx->name, path,
             n->scalar, cap - 1);
  memcpy(out, n->scalar, strlen(n->scalar) + 1);
  return IONF_OK;
}

/* Index of the value in `names` (case-insensitive). */
static ionf_err config_enum(const struct config_ctx *ctx, const char *path,
                            const struct param_node *n, const char *const *names, size_t n_names,
                            int *out) {
  char list[256];
  config_join(names, n_names, list, sizeof list);
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG, "%s: %s: expected one of %s, got %s",
             ctx->name, path, list, config_kind(n));
  for (size_t i = 0; i < n_names; ++i) {
    if (config_distance(n->scalar, names[i]) == 0) {
      *out = (int)i;
      return IONF_OK;
    }
  }
  const char *guess = config_suggest(n->scalar, names, n_names);
  if (guess)
    return ionf_error_set(IONF_ERR_CONFIG, "%s: %s = %s: must be one of %s (did you mean '%s'?)",
                          ctx->name, path, n->scalar, list, guess);
  return ionf_error_set(IONF_ERR_CONFIG, "%s: %s = %s: must be one of %s", ctx->name, path,
                        n->scalar, list);
}

/* A length or time: a bare number in `default_unit` or "6.6 kpc". */
static ionf_err config_quantity(const struct config_ctx *ctx, const char *path,
                                const struct param_node *n, enum unit_dim dim,
                                double default_unit, double cell_cm, double *out) {
  const char *like = dim == UNIT_LENGTH ? "a length like '6.6 kpc'" : "a time like '10 Myr'";
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG,
             "%s: %s: expected a number or %s, got %s", ctx->name, path, like, config_kind(n));
  char key[2 * CONFIG_TEXT_MAX];
  snprintf(key, sizeof key, "%s: %s", ctx->name, path);
  IONF_CALL(units_parse(n->scalar, dim, default_unit, cell_cm, key, out));
  return IONF_OK;
}

/* Relative input paths are relative to the config file; the result is made
 * absolute so the effective YAML means the same from any directory. */
static ionf_err config_resolve(const struct config_ctx *ctx, const char *path, const char *file,
                               char *out, size_t cap) {
  const char *dir = file[0] == '/' ? "" : ctx->dir;
  if (strncmp(dir, "./", 2) == 0) dir += 2;
  char cwd[IONF_PATH_MAX] = "";
  const char *sep = "";
  if (file[0] != '/' && dir[0] != '/' && getcwd(cwd, sizeof cwd)) {
    sep = cwd[0] && cwd[strlen(cwd) - 1] == '/' ? "" : "/";
    if (dir[0] == '\0' && strncmp(file, "./", 2) == 0) file += 2;
  }
  size_t need = strlen(cwd) + strlen(sep) + strlen(dir) + strlen(file);
  IONF_CHECK(need < cap, IONF_ERR_CONFIG, "%s: %s: the path '%s%s%s%s' is too long", ctx->name,
             path, cwd, sep, dir, file);
  snprintf(out, cap, "%s%s%s%s", cwd, sep, dir, file);
  return IONF_OK;
}

/* ---- sections --------------------------------------------------------------- */

static ionf_err config_open(struct config_ctx *ctx, const struct param_node *user,
                            const char *name, const char *const *keys, size_t n_keys,
                            struct config_section *s) {
  memset(s, 0, sizeof *s);
  s->ctx = ctx;
  s->name = name;
  s->user = user && user->kind != PARAM_NULL ? user : NULL;
  IONF_CHECK(!s->user || s->user->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: %s: expected a mapping of keys (%s: followed by indented 'key: value' lines), "
             "got %s",
             ctx->name, name, name, config_kind(s->user));
  IONF_CALL(config_check_keys(ctx, s->user, name, keys, n_keys));
  s->eff = params_new(PARAM_MAPPING, NULL);
  IONF_CHECK(s->eff, IONF_ERR_MEM, "out of memory");
  return IONF_OK;
}

/* Open a top-level section and attach its effective mapping to the tree. */
static ionf_err config_open_section(struct config_ctx *ctx, const struct param_node *root,
                                    const char *name, const char *const *keys, size_t n_keys,
                                    struct config_section *s) {
  IONF_CALL(config_open(ctx, params_get(root, name), name, keys, n_keys, s));
  IONF_CALL(params_map_set(ctx->eff, name, s->eff));
  return IONF_OK;
}

/* The effective value of `key`: a copy of the user's, else the default `def`
 * (else NULL: the caller decides whether the key is required). */
static ionf_err config_take(struct config_section *s, const char *key, const char *def,
                            struct param_node **out) {
  snprintf(s->path, sizeof s->path, "%s.%s", s->name, key);
  *out = NULL;
  const struct param_node *u = params_get(s->user, key);
  struct param_node *n = NULL;
  if (u && u->kind != PARAM_NULL)
    n = params_copy(u);
  else if (def)
    n = params_new(PARAM_SCALAR, def);
  else
    return IONF_OK;
  IONF_CHECK(n, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(s->eff, key, n));
  *out = n;
  return IONF_OK;
}

static ionf_err config_require(const struct config_section *s, const struct param_node *n,
                               const char *what) {
  IONF_CHECK(n, IONF_ERR_CONFIG, "%s: missing required key '%s' (%s)", s->ctx->name, s->path,
             what);
  return IONF_OK;
}

/* A required positive finite number. */
static ionf_err config_positive(struct config_section *s, const char *key, const char *def,
                                const char *what, double *out) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, def, &n));
  IONF_CALL(config_require(s, n, what));
  IONF_CALL(config_number(s->ctx, s->path, n, "a number", out));
  if (!(*out > 0)) {
    char rule[160];
    snprintf(rule, sizeof rule, "must be > 0: %s", what);
    return config_range(s->ctx, s->path, n, rule);
  }
  return IONF_OK;
}

static ionf_err config_grid(struct config_ctx *ctx, const struct param_node *root,
                            struct ionf_config *cfg) {
  static const char *const keys[] = {"N", "box_size", "periodic"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "grid", keys, CONFIG_N(keys), &s));

  IONF_CALL(config_take(&s, "N", NULL, &n));
  IONF_CALL(config_require(&s, n, "cells per side, an integer in 1..4096"));
  IONF_CALL(config_int(ctx, s.path, n, 1, CONFIG_N_MAX, &cfg->n_cells_1d));

  IONF_CALL(config_take(&s, "box_size", NULL, &n));
  IONF_CALL(config_require(&s, n, "side of the box, e.g. '6.6 kpc'; a bare number is in Mpc"));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_LENGTH, IONF_MPC_CM, 0.0, &cfg->box_size_cm));
  if (!(cfg->box_size_cm > 0)) return config_range(ctx, s.path, n, "must be > 0");

  IONF_CALL(config_take(&s, "periodic", CONFIG_DEF_PERIODIC, &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->periodic));
  return IONF_OK;
}

static ionf_err config_density(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  struct param_node *n;
  IONF_CALL(config_take(s, "n_H", NULL, &n));
  if (ctx->seq_density) { /* the density files of the sequence give it */
    IONF_CHECK(!n, IONF_ERR_CONFIG,
               "%s: material.n_H and sequence.density both give the density; leave "
               "material.n_H out (sequence.density is read at every redshift)",
               ctx->name);
    return IONF_OK;
  }
  IONF_CALL(config_require(s, n, "hydrogen density in cm^-3, or {file: PATH, dataset: NAME}"));
  if (n->kind == PARAM_SCALAR) {
    char t[CONFIG_TEXT_MAX];
    IONF_CALL(config_number(ctx, s->path, n, "a density in cm^-3", &cfg->n_h_cm3.value));
    IONF_CHECK(cfg->n_h_cm3.value >= 0, IONF_ERR_CONFIG, "%s: %s = %s: a density must be >= 0",
               ctx->name, s->path, config_text(n, t, sizeof t));
    return IONF_OK;
  }
  IONF_CHECK(n->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: %s: expected a density in cm^-3 or {file: PATH, dataset: NAME}, got %s",
             ctx->name, s->path, config_kind(n));

  /* Rebuild the file form from the user's node: the copy `n` is replaced. */
  static const char *const keys[] = {"file", "dataset"};
  struct config_section f;
  struct param_node *file, *dataset;
  IONF_CALL(config_open(ctx, params_get(s->user, "n_H"), "material.n_H", keys, CONFIG_N(keys),
                        &f));
  IONF_CALL(params_map_set(s->eff, "n_H", f.eff));
  IONF_CALL(config_take(&f, "file", NULL, &file));
  IONF_CALL(config_require(&f, file, "an HDF5 file; both 'file' and 'dataset' are needed"));
  IONF_CALL(config_string(ctx, f.path, file, "a file name", cfg->n_h_cm3.file,
                          sizeof cfg->n_h_cm3.file));
  IONF_CALL(config_resolve(ctx, f.path, file->scalar, cfg->n_h_cm3.file,
                           sizeof cfg->n_h_cm3.file));
  IONF_CALL(config_take(&f, "dataset", NULL, &dataset));
  IONF_CALL(config_require(&f, dataset, "the dataset in the file; both 'file' and 'dataset' are needed"));
  IONF_CALL(config_string(ctx, f.path, dataset, "a dataset name", cfg->n_h_cm3.dataset,
                          sizeof cfg->n_h_cm3.dataset));
  struct param_node *resolved = params_new(PARAM_SCALAR, cfg->n_h_cm3.file);
  IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
  resolved->quoted = 1;
  IONF_CALL(params_map_set(f.eff, "file", resolved));
  cfg->n_h_cm3.from_file = 1;
  return IONF_OK;
}

/* One clump {center, radius, n_H, temperature}; `t_default` is material.temperature's text. */
static ionf_err config_clump(struct config_ctx *ctx, const struct param_node *entry,
                             size_t index, struct param_node *eff_list, const char *t_default,
                             struct ionf_config *cfg) {
  static const char *const keys[] = {"center", "radius", "n_H", "temperature"};
  char name[64], t[CONFIG_TEXT_MAX];
  snprintf(name, sizeof name, "material.clumps[%zu]", index);
  IONF_CHECK(entry && entry->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: %s: expected a mapping {center: [x, y, z], radius: R, n_H: DENSITY, "
             "temperature: T}, got %s",
             ctx->name, name, config_kind(entry));
  struct config_section s;
  struct param_node *n;
  struct clump *c = &cfg->clumps[index];
  IONF_CALL(config_open(ctx, entry, name, keys, CONFIG_N(keys), &s));
  IONF_CALL(params_seq_append(eff_list, s.eff));

  /* lengths as grid.box_size: a bare number in Mpc, or "5 kpc" */
  double box = cfg->box_size_cm, cell = box / (double)cfg->n_cells_1d;
  IONF_CALL(config_take(&s, "center", NULL, &n));
  IONF_CALL(config_require(&s, n, "the clump's centre [x, y, z], lengths from the box corner "
                                  "like '5 kpc' (a bare number is in Mpc)"));
  IONF_CHECK(n->kind == PARAM_SEQUENCE && n->n_items == 3, IONF_ERR_CONFIG,
             "%s: %s = %s: expected a list of 3 lengths [x, y, z] from the box corner, like "
             "[5 kpc, 3.3 kpc, 3.3 kpc]",
             ctx->name, s.path, config_text(n, t, sizeof t));
  char center_path[CONFIG_TEXT_MAX];
  snprintf(center_path, sizeof center_path, "%s", s.path);
  for (int d = 0; d < 3; ++d) {
    char path[CONFIG_TEXT_MAX + 8];
    snprintf(path, sizeof path, "%s[%d]", center_path, d);
    IONF_CALL(config_quantity(ctx, path, n->items[d], UNIT_LENGTH, IONF_MPC_CM, 0.0,
                              &c->center_cm[d]));
    IONF_CHECK(c->center_cm[d] >= 0.0 && c->center_cm[d] <= box, IONF_ERR_CONFIG,
               "%s: %s = %s is outside the box (each coordinate must be in 0..%g kpc, "
               "grid.box_size)",
               ctx->name, center_path, config_text(n, t, sizeof t), box / IONF_KPC_CM);
  }
  IONF_CALL(config_take(&s, "radius", NULL, &n));
  IONF_CALL(config_require(&s, n, "the clump's radius, a length like '0.8 kpc' (a bare number "
                                  "is in Mpc)"));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_LENGTH, IONF_MPC_CM, 0.0, &c->radius_cm));
  if (!(c->radius_cm > 0)) return config_range(ctx, s.path, n, "must be > 0");

  IONF_CALL(config_take(&s, "n_H", NULL, &n));
  IONF_CALL(config_require(&s, n, "hydrogen density inside the clump in cm^-3"));
  IONF_CALL(config_number(ctx, s.path, n, "a density in cm^-3", &c->n_h_cm3));
  IONF_CHECK(c->n_h_cm3 >= 0, IONF_ERR_CONFIG, "%s: %s = %s: a density must be >= 0", ctx->name,
             s.path, config_text(n, t, sizeof t));
  IONF_CALL(config_positive(&s, "temperature", t_default,
                            "the clump's initial temperature in K", &c->temperature_k));

  /* a clump between cell centres would silently do nothing */
  if (!clumps_covers_a_cell(c, cfg->n_cells_1d, cell))
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: %s: no cell centre lies inside the clump (radius %g kpc, cells "
                          "of %g kpc); make the radius or grid.N larger",
                          ctx->name, name, c->radius_cm / IONF_KPC_CM, cell / IONF_KPC_CM);
  return IONF_OK;
}

/* material.clumps: an optional list of spherical clumps. */
static ionf_err config_clumps(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  const struct param_node *u = params_get(s->user, "clumps");
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  IONF_CHECK(u->kind == PARAM_SEQUENCE, IONF_ERR_CONFIG,
             "%s: material.clumps: expected a list of {center: [x, y, z], radius: R, n_H: "
             "DENSITY, temperature: T}, got %s",
             ctx->name, config_kind(u));
  IONF_CHECK(u->n_items <= 100000, IONF_ERR_CONFIG,
             "%s: material.clumps has %zu entries (at most 100000)", ctx->name, u->n_items);
  struct param_node *list = params_new(PARAM_SEQUENCE, NULL);
  IONF_CHECK(list, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(s->eff, "clumps", list));
  if (u->n_items == 0) return IONF_OK;
  cfg->clumps = ionf_calloc(u->n_items, sizeof *cfg->clumps, "the clumps");
  IONF_CHECK(cfg->clumps, IONF_ERR_MEM, "out of memory");
  const char *t_default = params_get(s->eff, "temperature")->scalar;
  for (size_t i = 0; i < u->n_items; ++i) {
    IONF_CALL(config_clump(ctx, u->items[i], i, list, t_default, cfg));
    cfg->n_clumps = (int)i + 1;
  }
  return IONF_OK;
}

static ionf_err config_material(struct config_ctx *ctx, const struct param_node *root,
                                struct ionf_config *cfg) {
  static const char *const keys[] = {"n_H", "temperature", "x_HII_initial", "isothermal",
                                     "clumps"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "material", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_density(&s, cfg));
  IONF_CALL(config_positive(&s, "temperature", NULL, "the initial gas temperature in K",
                            &cfg->temperature_k));
  IONF_CALL(config_take(&s, "x_HII_initial", NULL, &n));
  IONF_CALL(config_require(&s, n, "the initial ionized fraction, 0 < x <= 1"));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->x_hii_initial));
  if (!(cfg->x_hii_initial > 0 && cfg->x_hii_initial <= 1))
    return config_range(ctx, s.path, n, "must be in (0, 1]");
  IONF_CALL(config_take(&s, "isothermal", "true", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->isothermal));
  IONF_CALL(config_clumps(&s, cfg));
  return IONF_OK;
}

static ionf_err config_chemistry(struct config_ctx *ctx, const struct param_node *root,
                                 struct ionf_config *cfg) {
  static const char *const keys[] = {"alpha_B", "alpha_B_power", "collisional_ionization",
                                     "abu_c"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "chemistry", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_positive(&s, "alpha_B", CONFIG_DEF_ALPHA_B,
                            "case-B recombination coefficient at 1e4 K in cm^3/s",
                            &cfg->alpha_b_1e4_cm3_s));
  IONF_CALL(config_take(&s, "alpha_B_power", CONFIG_DEF_ALPHA_B_POWER, &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->alpha_b_power));
  IONF_CALL(config_take(&s, "collisional_ionization", CONFIG_DEF_COLLISIONAL, &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->collisional_ionization));
  IONF_CALL(config_take(&s, "abu_c", CONFIG_DEF_ABU_C, &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->abu_c));
  if (!(cfg->abu_c >= 0 && cfg->abu_c <= 1)) return config_range(ctx, s.path, n, "must be in [0, 1]");
  return IONF_OK;
}

/* A plane-parallel source {plane: FACE, flux: F}, the list's entry `index`. */
static ionf_err config_plane_entry(struct config_ctx *ctx, const struct param_node *entry,
                                   size_t index, struct param_node *eff_list,
                                   struct ionf_config *cfg) {
  static const char *const keys[] = {"plane", "flux"};
  char name[64];
  snprintf(name, sizeof name, "sources[%zu]", index);
  struct config_section s;
  struct param_node *n;
  struct planar_source *p = &cfg->planes[cfg->n_planes];
  IONF_CALL(config_open(ctx, entry, name, keys, CONFIG_N(keys), &s));
  IONF_CALL(params_seq_append(eff_list, s.eff));
  IONF_CALL(config_take(&s, "plane", NULL, &n));
  IONF_CALL(config_require(&s, n, "the face the photons enter through: x_low, x_high, y_low, "
                                  "y_high, z_low or z_high"));
  IONF_CALL(config_enum(ctx, s.path, n, planar_face_names, PLANAR_N_FACES, &p->face));
  IONF_CHECK(!cfg->periodic, IONF_ERR_CONFIG,
             "%s: %s = %s: plane-parallel sources need a non-periodic box (grid.periodic: "
             "false); in a periodic one their photons would come back through the opposite "
             "face",
             ctx->name, s.path, n->scalar);
  IONF_CALL(config_positive(&s, "flux", NULL,
                            "the photon flux through the face in photons s^-1 cm^-2",
                            &p->flux_per_cm2_s));
  cfg->n_planes++;
  return IONF_OK;
}

/* A point source {position, Ndot}, the list's entry `index`, stored as point `point`. */
static ionf_err config_source_entry(struct config_ctx *ctx, const struct param_node *entry,
                                    size_t index, struct param_node *eff_list,
                                    struct ionf_config *cfg) {
  static const char *const keys[] = {"position", "Ndot"};
  char name[64];
  snprintf(name, sizeof name, "sources[%zu]", index);
  IONF_CHECK(entry && entry->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: %s: expected a mapping {position: [i, j, k], Ndot: RATE} or {plane: FACE, "
             "flux: F}, got %s",
             ctx->name, name, config_kind(entry));
  int is_plane = params_get(entry, "plane") || params_get(entry, "flux");
  int is_point = params_get(entry, "position") || params_get(entry, "Ndot");
  IONF_CHECK(!(is_plane && is_point), IONF_ERR_CONFIG,
             "%s: %s: give either {position, Ndot} (a point source) or {plane, flux} (a "
             "plane-parallel source), not keys of both",
             ctx->name, name);
  if (is_plane) return config_plane_entry(ctx, entry, index, eff_list, cfg);
  size_t point = (size_t)cfg->n_sources_inline;
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open(ctx, entry, name, keys, CONFIG_N(keys), &s));
  IONF_CALL(params_seq_append(eff_list, s.eff));

  IONF_CALL(config_take(&s, "position", NULL, &n));
  IONF_CALL(config_require(&s, n, "0-based cell indices [i, j, k]"));
  char t[CONFIG_TEXT_MAX];
  int64_t last = cfg->n_cells_1d - 1;
  IONF_CHECK(n->kind == PARAM_SEQUENCE && n->n_items == 3, IONF_ERR_CONFIG,
             "%s: %s = %s: expected a list of 3 cell indices [i, j, k], each in 0..%lld",
             ctx->name, s.path, config_text(n, t, sizeof t), (long long)last);
  for (int d = 0; d < 3; ++d) {
    const struct param_node *c = n->items[d];
    double v = 0.0;
    int ok = c->kind == PARAM_SCALAR && !c->quoted && units_parse_number(c->scalar, &v) &&
             v == floor(v);
    IONF_CHECK(ok, IONF_ERR_CONFIG,
               "%s: %s = %s: cell indices must be integers (0-based, each in 0..%lld)",
               ctx->name, s.path, config_text(n, t, sizeof t), (long long)last);
    IONF_CHECK(v >= 0 && v <= (double)last, IONF_ERR_CONFIG,
               "%s: %s = %s is outside the grid (indices must be in 0..%lld)", ctx->name, s.path,
               config_text(n, t, sizeof t), (long long)last);
    cfg->source_ijk[3 * point + (size_t)d] = (int32_t)v;
  }
  IONF_CALL(config_positive(&s, "Ndot", NULL, "ionizing photons per second",
                            &cfg->source_ndot_per_s[point]));
  cfg->n_sources_inline++;
  return IONF_OK;
}

static ionf_err config_sources(struct config_ctx *ctx, const struct param_node *root,
                               struct ionf_config *cfg) {
  const struct param_node *u = params_get(root, "sources");
  if (ctx->seq_halos) { /* the halo catalogues of the sequence are the sources */
    IONF_CHECK(!u || u->kind == PARAM_NULL || (u->kind == PARAM_SEQUENCE && u->n_items == 0),
               IONF_ERR_CONFIG,
               "%s: sources: and sequence.halos both give the sources; leave sources: out (the "
               "halo catalogue of each redshift becomes the sources)",
               ctx->name);
    return IONF_OK;
  }
  IONF_CHECK(u && u->kind != PARAM_NULL && !(u->kind == PARAM_SEQUENCE && u->n_items == 0),
             IONF_ERR_CONFIG,
             "%s: no sources given (sources: a list of {position, Ndot} and {plane, flux}, or "
             "{file: ...})",
             ctx->name);
  IONF_CHECK(u->kind != PARAM_SCALAR, IONF_ERR_CONFIG,
             "%s: sources: expected a list of {position: [i, j, k], Ndot: RATE} and {plane: "
             "FACE, flux: F}, or {file: PATH}, got a single value",
             ctx->name);

  IONF_CHECK(u->kind != PARAM_MAPPING ||
                 !(params_get(u, "position") || params_get(u, "plane")),
             IONF_ERR_CONFIG,
             "%s: sources: one source is still a list: write it as an item, 'sources: [{...}]' "
             "or '- {...}' on the next line",
             ctx->name);
  if (u->kind == PARAM_MAPPING) {
    static const char *const keys[] = {"file", "format"};
    static const char *const formats[] = {"auto", "hdf5", "text"};
    static const enum source_format format_of[] = {SOURCE_FORMAT_AUTO, SOURCE_FORMAT_HDF5,
                                                   SOURCE_FORMAT_TEXT};
    struct config_section s;
    struct param_node *n;
    int which = 0;
    IONF_CALL(config_open_section(ctx, root, "sources", keys, CONFIG_N(keys), &s));
    IONF_CALL(config_take(&s, "file", NULL, &n));
    IONF_CALL(config_require(&s, n, "a source file, HDF5 or text"));
    IONF_CALL(config_string(ctx, s.path, n, "a file name", cfg->source_file,
                            sizeof cfg->source_file));
    IONF_CALL(config_resolve(ctx, s.path, n->scalar, cfg->source_file, sizeof cfg->source_file));
    struct param_node *resolved = params_new(PARAM_SCALAR, cfg->source_file);
    IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
    resolved->quoted = 1;
    IONF_CALL(params_map_set(s.eff, "file", resolved));
    IONF_CALL(config_take(&s, "format", CONFIG_DEF_SOURCE_FORMAT, &n));
    IONF_CALL(config_enum(ctx, s.path, n, formats, CONFIG_N(formats), &which));
    cfg->source_format = format_of[which];
    return IONF_OK;
  }

  struct param_node *list = params_new(PARAM_SEQUENCE, NULL);
  IONF_CHECK(list, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(ctx->eff, "sources", list));
  cfg->source_ijk = ionf_malloc(3 * u->n_items * sizeof *cfg->source_ijk, "source positions");
  cfg->source_ndot_per_s = ionf_malloc(u->n_items * sizeof *cfg->source_ndot_per_s, "source rates");
  cfg->planes = ionf_malloc(u->n_items * sizeof *cfg->planes, "plane sources");
  IONF_CHECK(cfg->source_ijk && cfg->source_ndot_per_s && cfg->planes, IONF_ERR_MEM,
             "out of memory");
  cfg->n_sources_inline = 0;
  cfg->n_planes = 0;
  for (size_t i = 0; i < u->n_items; ++i)
    IONF_CALL(config_source_entry(ctx, u->items[i], i, list, cfg));
  return IONF_OK;
}

static ionf_err config_spectrum(struct config_ctx *ctx, const struct param_node *root,
                                struct ionf_config *cfg) {
  static const char *const keys[] = {"type",    "T_eff",       "sigma_0",    "power_law_index",
                                     "num_tau", "min_log_tau", "max_log_tau"};
  static const char *const types[] = {"grey", "blackbody"};
  struct config_section s;
  struct param_node *n, *lo, *hi;
  int type = 0;
  int64_t num_tau = 0;
  IONF_CALL(config_open_section(ctx, root, "spectrum", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "type", CONFIG_DEF_SPECTRUM, &n));
  IONF_CALL(config_enum(ctx, s.path, n, types, CONFIG_N(types), &type));
  cfg->spectrum = type == 1 ? SPECTRUM_BLACKBODY : SPECTRUM_GREY;

  /* T_eff is only used by blackbody; given with grey it is checked and kept. */
  IONF_CALL(config_take(&s, "T_eff", NULL, &n));
  if (cfg->spectrum == SPECTRUM_BLACKBODY)
    IONF_CALL(config_require(&s, n, "the black-body temperature in K, needed for type: blackbody"));
  if (n) {
    IONF_CALL(config_number(ctx, s.path, n, "a temperature in K", &cfg->t_eff_k));
    if (!(cfg->t_eff_k > 0)) return config_range(ctx, s.path, n, "must be > 0 K");
  }
  IONF_CALL(config_positive(&s, "sigma_0", CONFIG_DEF_SIGMA_0,
                            "HI cross-section at threshold in cm^2", &cfg->sigma0_cm2));
  IONF_CALL(config_take(&s, "power_law_index", CONFIG_DEF_POWER_LAW, &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->sigma_power_law_index));
  IONF_CALL(config_take(&s, "num_tau", CONFIG_DEF_NUM_TAU, &n));
  IONF_CALL(config_int(ctx, s.path, n, 100, 1000000, &num_tau));
  cfg->num_tau = (int)num_tau;
  IONF_CALL(config_take(&s, "min_log_tau", CONFIG_DEF_MIN_LOG_TAU, &lo));
  IONF_CALL(config_number(ctx, s.path, lo, "a number", &cfg->min_log_tau));
  IONF_CALL(config_take(&s, "max_log_tau", CONFIG_DEF_MAX_LOG_TAU, &hi));
  IONF_CALL(config_number(ctx, s.path, hi, "a number", &cfg->max_log_tau));
  IONF_CHECK(cfg->min_log_tau < cfg->max_log_tau, IONF_ERR_CONFIG,
             "%s: spectrum.min_log_tau = %s must be smaller than spectrum.max_log_tau = %s",
             ctx->name, lo->scalar, hi->scalar);
  return IONF_OK;
}

static int config_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The output times: time.outputs (`n`, NULL when not given) and the `n_more` times
 * `more`, each in (0, t_end], sorted, duplicates dropped. */
static ionf_err config_output_times(struct config_ctx *ctx, const struct param_node *n,
                                    const char *t_end_text, const double *more, size_t n_more,
                                    struct ionf_config *cfg) {
  char t[CONFIG_TEXT_MAX];
  size_t count = 0;
  if (n) {
    IONF_CHECK(n->kind != PARAM_MAPPING, IONF_ERR_CONFIG,
               "%s: time.outputs: expected a time or a list of times like [10 Myr, 50 Myr], got "
               "a mapping",
               ctx->name);
    count = n->kind == PARAM_SEQUENCE ? n->n_items : 1;
    IONF_CHECK(count > 0, IONF_ERR_CONFIG,
               "%s: time.outputs is an empty list (leave it out to write only at t_end)",
               ctx->name);
  }
  cfg->output_times_s =
      ionf_malloc((count + n_more) * sizeof *cfg->output_times_s, "output times");
  IONF_CHECK(cfg->output_times_s, IONF_ERR_MEM, "out of memory");
  for (size_t i = 0; i < count; ++i) {
    const struct param_node *item = n->kind == PARAM_SEQUENCE ? n->items[i] : n;
    char path[64];
    if (n->kind == PARAM_SEQUENCE)
      snprintf(path, sizeof path, "time.outputs[%zu]", i);
    else
      snprintf(path, sizeof path, "time.outputs");
    double v = 0.0;
    IONF_CALL(config_quantity(ctx, path, item, UNIT_TIME, IONF_MYR_S, 0.0, &v));
    /* "0.5 Gyr" and "500 Myr" may differ in the last bit. */
    if (v > cfg->t_end_s && v <= cfg->t_end_s * (1 + 1e-12)) v = cfg->t_end_s;
    IONF_CHECK(v > 0 && v <= cfg->t_end_s, IONF_ERR_CONFIG,
               "%s: %s = %s is out of range (must be in (0, t_end], t_end = %s)", ctx->name, path,
               config_text(item, t, sizeof t), t_end_text);
    cfg->output_times_s[i] = v;
  }
  for (size_t i = 0; i < n_more; ++i) cfg->output_times_s[count + i] = more[i];
  count += n_more;
  qsort(cfg->output_times_s, count, sizeof *cfg->output_times_s, config_cmp_double);
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i)
    if (kept == 0 || cfg->output_times_s[i] - cfg->output_times_s[kept - 1] > 1e-9 * cfg->t_end_s)
      cfg->output_times_s[kept++] = cfg->output_times_s[i];
  cfg->n_outputs = (int)kept;
  return IONF_OK;
}

static ionf_err config_time(struct config_ctx *ctx, const struct param_node *root,
                            struct ionf_config *cfg) {
  static const char *const keys[] = {"dt", "t_end", "outputs"};
  struct config_section s;
  struct param_node *dt, *t_end, *n;
  IONF_CALL(config_open_section(ctx, root, "time", keys, CONFIG_N(keys), &s));

  IONF_CALL(config_take(&s, "dt", NULL, &dt));
  IONF_CALL(config_require(&s, dt, "the time step, e.g. '5 Myr'; a bare number is in Myr"));
  IONF_CALL(config_quantity(ctx, s.path, dt, UNIT_TIME, IONF_MYR_S, 0.0, &cfg->dt_s));
  if (!(cfg->dt_s > 0)) return config_range(ctx, s.path, dt, "must be > 0");

  IONF_CALL(config_take(&s, "t_end", NULL, &t_end));
  if (ctx->seq_given) { /* t_end and the outputs follow from sequence.redshifts */
    if (!t_end) { /* its place in the effective tree, filled in by config_sequence */
      struct param_node *slot = params_new(PARAM_NULL, NULL);
      IONF_CHECK(slot, IONF_ERR_MEM, "out of memory");
      IONF_CALL(params_map_set(s.eff, "t_end", slot));
    }
    IONF_CALL(config_take(&s, "outputs", NULL, &n));
    ctx->time_eff = s.eff;
    ctx->t_end_node = t_end;
    ctx->outputs_node = n;
    return IONF_OK;
  }
  IONF_CALL(config_require(&s, t_end, "the end time, e.g. '500 Myr'; a bare number is in Myr"));
  IONF_CALL(config_quantity(ctx, s.path, t_end, UNIT_TIME, IONF_MYR_S, 0.0, &cfg->t_end_s));
  if (!(cfg->t_end_s > 0)) return config_range(ctx, s.path, t_end, "must be > 0");
  IONF_CHECK(cfg->dt_s <= cfg->t_end_s, IONF_ERR_CONFIG,
             "%s: time.dt = %s is larger than time.t_end = %s", ctx->name, dt->scalar,
             t_end->scalar);

  IONF_CALL(config_take(&s, "outputs", NULL, &n));
  if (!n) { /* default: one output at t_end */
    struct param_node *end_copy = params_copy(t_end);
    n = params_new(PARAM_SEQUENCE, NULL);
    if (!n || !end_copy) {
      params_free(n);
      params_free(end_copy);
      return ionf_error_set(IONF_ERR_MEM, "out of memory");
    }
    IONF_CALL(params_map_set(s.eff, "outputs", n));
    IONF_CALL(params_seq_append(n, end_copy));
  }
  return config_output_times(ctx, n, t_end->scalar, NULL, 0, cfg);
}

static ionf_err config_raytracing(struct config_ctx *ctx, const struct param_node *root,
                                  struct ionf_config *cfg) {
  static const char *const keys[] = {"R_max", "convergence_fraction", "max_iterations",
                                     "backend", "source_batch_size", "method"};
  static const char *const methods[] = {"asora", "montecarlo"};
  static const char *const backends[] = {"cpu", "cuda", "auto"};
  static const enum backend_kind backend_of[] = {BACKEND_CPU, BACKEND_CUDA, BACKEND_AUTO};
  struct config_section s;
  struct param_node *n;
  int64_t iters = 0;
  int which = 0;
  IONF_CALL(config_open_section(ctx, root, "raytracing", keys, CONFIG_N(keys), &s));

  /* Bare numbers are cells; lengths are converted with the grid's cell. */
  double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  double r_cm = 0.0;
  IONF_CALL(config_take(&s, "R_max", CONFIG_DEF_R_MAX, &n));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_LENGTH, cell_cm, cell_cm, &r_cm));
  cfg->r_max_cells = r_cm / cell_cm;
  if (!(cfg->r_max_cells >= 0))
    return config_range(ctx, s.path, n, "must be >= 0; 0 means the whole box");

  IONF_CALL(config_take(&s, "convergence_fraction", CONFIG_DEF_CONVERGENCE, &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->convergence_fraction));
  if (!(cfg->convergence_fraction > 0 && cfg->convergence_fraction <= 0.1))
    return config_range(ctx, s.path, n, "must be in (0, 0.1]");

  IONF_CALL(config_take(&s, "max_iterations", CONFIG_DEF_MAX_ITER, &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 10000, &iters));
  cfg->max_iterations = (int)iters;

  IONF_CALL(config_take(&s, "backend", CONFIG_DEF_BACKEND, &n));
  IONF_CALL(config_enum(ctx, s.path, n, backends, CONFIG_N(backends), &which));
  cfg->backend = backend_of[which];

  int64_t batch = 0;
  IONF_CALL(config_take(&s, "source_batch_size", CONFIG_DEF_BATCH, &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 100000000, &batch));
  cfg->source_batch_size = batch;

  IONF_CALL(config_take(&s, "method", "asora", &n));
  IONF_CALL(config_enum(ctx, s.path, n, methods, CONFIG_N(methods), &which));
  cfg->method = which == 1 ? RT_METHOD_MONTECARLO : RT_METHOD_ASORA;
  return IONF_OK;
}

/* montecarlo: read only with raytracing.method: montecarlo (else it must be absent). */
static ionf_err config_montecarlo(struct config_ctx *ctx, const struct param_node *root,
                                  struct ionf_config *cfg) {
  static const char *const keys[] = {"packets_per_source", "seed", "target_relative_error",
                                     "max_packets_per_source", "recombination_emission",
                                     "recombination_packets", "alpha_A"};
  const struct param_node *user = params_get(root, "montecarlo");
  if (cfg->method != RT_METHOD_MONTECARLO) {
    IONF_CHECK(!user || user->kind == PARAM_NULL, IONF_ERR_CONFIG,
               "%s: montecarlo: is given but raytracing.method is asora (set raytracing.method: "
               "montecarlo, or remove the montecarlo section)",
               ctx->name);
    return IONF_OK;
  }
  struct config_section s;
  struct param_node *n;
  struct mc_config *mc = &cfg->montecarlo;
  int64_t v = 0;
  IONF_CALL(config_open_section(ctx, root, "montecarlo", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "packets_per_source", "100000", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 4294967295LL, &mc->packets_per_source));
  IONF_CALL(config_take(&s, "seed", "1", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 4294967295LL, &v));
  mc->seed = (uint32_t)v;
  IONF_CALL(config_take(&s, "target_relative_error", "0", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &mc->target_relative_error));
  if (!(mc->target_relative_error >= 0.0 && mc->target_relative_error < 1.0))
    return config_range(ctx, s.path, n, "must be in [0, 1); 0 keeps packets_per_source fixed");
  IONF_CALL(config_take(&s, "max_packets_per_source", "100000000", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 4294967295LL, &mc->max_packets_per_source));
  if (mc->max_packets_per_source < mc->packets_per_source)
    return config_range(ctx, s.path, n, "must be >= montecarlo.packets_per_source");
  IONF_CALL(config_take(&s, "recombination_emission", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &mc->recombination_emission));
  IONF_CALL(config_take(&s, "recombination_packets", "0", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 1000000000000LL, &mc->recombination_packets));
  IONF_CALL(config_take(&s, "alpha_A", "4.18e-13", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &mc->alpha_a_1e4_cm3_s));
  if (!(mc->alpha_a_1e4_cm3_s >= cfg->alpha_b_1e4_cm3_s && mc->alpha_a_1e4_cm3_s < 1e-10))
    return config_range(ctx, s.path, n, "must be >= chemistry.alpha_B (case A counts every "
                                        "recombination) and < 1e-10");
  IONF_CHECK(cfg->n_planes == 0, IONF_ERR_CONFIG,
             "%s: raytracing.method = montecarlo does not carry plane-parallel sources yet "
             "(sources has %d plane(s)); use raytracing.method: asora",
             ctx->name, cfg->n_planes);
  return IONF_OK;
}

static ionf_err config_output(struct config_ctx *ctx, const struct param_node *root,
                              struct ionf_config *cfg) {
  static const char *const keys[] = {"directory", "progress", "checkpoint_every", "xdmf",
                                     "c2ray_binary", "dTb"};
  struct config_section s;
  struct param_node *n;
  int64_t every = 0;
  IONF_CALL(config_open_section(ctx, root, "output", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "directory", CONFIG_DEF_OUTPUT_DIR, &n));
  IONF_CALL(config_string(ctx, s.path, n, "a directory name", cfg->output_dir,
                          sizeof cfg->output_dir));
  IONF_CALL(config_take(&s, "progress", CONFIG_DEF_PROGRESS, &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->progress));
  IONF_CALL(config_take(&s, "checkpoint_every", CONFIG_DEF_CHECKPOINT_EVERY, &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 100000000, &every));
  cfg->checkpoint_every = every;
  IONF_CALL(config_take(&s, "xdmf", "true", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_xdmf));
  IONF_CALL(config_take(&s, "c2ray_binary", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_c2ray_binary));
  IONF_CALL(config_take(&s, "dTb", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_dtb));
  return IONF_OK;
}

static ionf_err config_mpi(struct config_ctx *ctx, const struct param_node *root,
                           struct ionf_config *cfg) {
  static const char *const keys[] = {"reduction"};
  static const char *const modes[] = {"auto", "nccl", "scatter", "reduce", "allreduce"};
  static const enum reduction_mode mode_of[] = {REDUCTION_AUTO, REDUCTION_NCCL,
                                                REDUCTION_SCATTER, REDUCTION_REDUCE,
                                                REDUCTION_ALLREDUCE};
  struct config_section s;
  struct param_node *n;
  int which = 0;
  IONF_CALL(config_open_section(ctx, root, "mpi", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "reduction", CONFIG_DEF_REDUCTION, &n));
  IONF_CALL(config_enum(ctx, s.path, n, modes, CONFIG_N(modes), &which));
  cfg->reduction = mode_of[which];
  return IONF_OK;
}

static ionf_err config_cosmology(struct config_ctx *ctx, const struct param_node *root,
                                 struct ionf_config *cfg) {
  static const char *const keys[] = {"cosmological", "h", "Omega_m", "Omega_b", "T_cmb",
                                     "z_initial"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "cosmology", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "cosmological", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->cosmological));
  IONF_CALL(config_positive(&s, "h", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_H), "the Hubble parameter H0 / (100 km/s/Mpc)",
                            &cfg->hubble_h));
  IONF_CALL(config_positive(&s, "Omega_m", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_OMEGA_M), "the matter density parameter",
                            &cfg->omega_m));
  IONF_CALL(config_positive(&s, "Omega_b", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_OMEGA_B), "the baryon density parameter",
                            &cfg->omega_b));
  IONF_CALL(config_positive(&s, "T_cmb", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_T_CMB_K), "the CMB temperature today in K",
                            &cfg->t_cmb0_k));
  /* with a sequence the first redshift is the default (config_sequence) */
  IONF_CALL(config_take(&s, "z_initial", ctx->seq_given ? NULL : "9.0", &n));
  ctx->cosmo_eff = s.eff;
  ctx->z_initial_given = n != NULL;
  if (n) {
    IONF_CALL(config_number(ctx, s.path, n, "a redshift", &cfg->z_initial));
    if (!(cfg->z_initial >= 0.0 && cfg->z_initial < 1e4))
      return config_range(ctx, s.path, n, "must be a redshift in [0, 1e4)");
  }
  if (cfg->write_dtb && !cfg->cosmological)
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: output.dTb needs a redshift: set cosmology.cosmological: true",
                          ctx->name);
  if (!(cfg->omega_m <= 1.0 && cfg->omega_b <= cfg->omega_m))
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: cosmology: need Omega_b <= Omega_m <= 1 (flat LCDM), got "
                          "Omega_b = %g, Omega_m = %g",
                          ctx->name, cfg->omega_b, cfg->omega_m);
  return IONF_OK;
}

/* A file name pattern of the sequence: one number conversion for the redshift,
 * resolved relative to the config file; the effective tree gets the resolved one. */
static ionf_err config_pattern(struct config_section *f, struct param_node *n, char *out,
                               size_t cap) {
  struct config_ctx *ctx = f->ctx;
  char text[IONF_PATH_MAX], probe[IONF_PATH_MAX + 64];
  IONF_CALL(config_string(ctx, f->path, n, "a file name pattern like \"density_z%.3f.h5\"", text,
                          sizeof text));
  sequence_file_name(text, 10.0, probe, sizeof probe);
  IONF_CHECK(probe[0], IONF_ERR_CONFIG,
             "%s: %s = '%s': the pattern must hold exactly one number conversion for the "
             "redshift, such as %%.3f (write %%%% for a literal %%)",
             ctx->name, f->path, text);
  IONF_CALL(config_resolve(ctx, f->path, text, out, cap));
  sequence_file_name(out, 10.0, probe, sizeof probe);
  IONF_CHECK(probe[0], IONF_ERR_CONFIG,
             "%s: %s: the pattern resolved against the config file's directory, '%s', holds "
             "another '%%'; give an absolute pattern",
             ctx->name, f->path, out);
  struct param_node *resolved = params_new(PARAM_SCALAR, out);
  IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
  resolved->quoted = 1;
  IONF_CALL(params_map_set(f->eff, "pattern", resolved));
  return IONF_OK;
}

/* sequence.density or sequence.halos: a mapping opened as its own section. */
static ionf_err config_sequence_part(struct config_section *s, const char *key, const char *name,
                                     const char *const *keys, size_t n_keys, const char *usage,
                                     struct config_section *f) {
  const struct param_node *u = params_get(s->user, key);
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(u->kind == PARAM_MAPPING, IONF_ERR_CONFIG, "%s: %s = %s: expected %s",
             s->ctx->name, name, config_text(u, t, sizeof t), usage);
  IONF_CALL(config_open(s->ctx, u, name, keys, n_keys, f));
  IONF_CALL(params_map_set(s->eff, key, f->eff));
  return IONF_OK;
}

/* sequence: redshifts, their times and steps, the outputs, t_end, the file patterns. */
static ionf_err config_sequence(struct config_ctx *ctx, const struct param_node *root,
                                struct ionf_config *cfg) {
  static const char *const keys[] = {"redshifts", "density", "halos"};
  struct sequence_config *seq = &cfg->sequence;
  struct config_section s;
  struct param_node *n;
  char t[CONFIG_TEXT_MAX], t2[CONFIG_TEXT_MAX];
  if (!ctx->seq_given) return IONF_OK;
  IONF_CALL(config_open_section(ctx, root, "sequence", keys, CONFIG_N(keys), &s));
  IONF_CHECK(cfg->cosmological, IONF_ERR_CONFIG,
             "%s: sequence: needs cosmology.cosmological: true (a run along a list of redshifts "
             "runs in an expanding universe)",
             ctx->name);

  IONF_CALL(config_take(&s, "redshifts", NULL, &n));
  const char *usage = "a list of at least two redshifts, strictly descending, e.g. [20, 19, 18]";
  IONF_CALL(config_require(&s, n, usage));
  IONF_CHECK(n->kind == PARAM_SEQUENCE && n->n_items >= 2 && n->n_items <= 1000000,
             IONF_ERR_CONFIG, "%s: sequence.redshifts = %s: expected %s", ctx->name,
             config_text(n, t, sizeof t), usage);
  size_t count = n->n_items;
  seq->redshifts = ionf_malloc(count * sizeof(double), "the redshifts of the sequence");
  seq->times_s = ionf_malloc(count * sizeof(double), "the times of the sequence");
  seq->steps = ionf_malloc((count - 1) * sizeof(int64_t), "the steps of the sequence");
  IONF_CHECK(seq->redshifts && seq->times_s && seq->steps, IONF_ERR_MEM, "out of memory");
  for (size_t i = 0; i < count; ++i) {
    char path[64];
    snprintf(path, sizeof path, "sequence.redshifts[%zu]", i);
    double z = 0.0;
    IONF_CALL(config_number(ctx, path, n->items[i], "a redshift", &z));
    if (!(z >= 0.0 && z < 1e4))
      return config_range(ctx, path, n->items[i], "must be a redshift in [0, 1e4)");
    IONF_CHECK(i == 0 || z < seq->redshifts[i - 1], IONF_ERR_CONFIG,
               "%s: %s = %s is not below sequence.redshifts[%zu] = %s: the redshifts must be "
               "strictly descending (the run goes from the first to the last)",
               ctx->name, path, config_text(n->items[i], t, sizeof t), i - 1,
               i ? config_text(n->items[i - 1], t2, sizeof t2) : "");
    seq->redshifts[i] = z;
  }
  seq->n_redshifts = (int)count;

  /* The run starts at the first redshift. */
  double z0 = seq->redshifts[0];
  if (ctx->z_initial_given) {
    IONF_CHECK(fabs(cfg->z_initial - z0) <= 1e-12 * (1.0 + z0), IONF_ERR_CONFIG,
               "%s: cosmology.z_initial = %.17g differs from the first of sequence.redshifts "
               "(%s); leave cosmology.z_initial out (it defaults to the first redshift)",
               ctx->name, cfg->z_initial, config_text(n->items[0], t, sizeof t));
  } else {
    struct param_node *first = params_copy(n->items[0]);
    IONF_CHECK(first, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_map_set(ctx->cosmo_eff, "z_initial", first));
  }
  cfg->z_initial = z0;

  /* Times from the first redshift, and equal steps that end on every redshift. */
  struct cosmology c = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  double age0 = cosmology_age_s(&c, z0);
  seq->times_s[0] = 0.0;
  for (size_t i = 1; i < count; ++i) seq->times_s[i] = cosmology_age_s(&c, seq->redshifts[i]) - age0;
  for (size_t i = 0; i + 1 < count; ++i) {
    /* an interval of exactly k steps (to rounding) stays at k */
    double span = (seq->times_s[i + 1] - seq->times_s[i]) / cfg->dt_s;
    double steps = ceil(span * (1.0 - 1e-12));
    IONF_CHECK(steps <= 1e9, IONF_ERR_CONFIG,
               "%s: time.dt is too small for sequence.redshifts: %.3g steps between z = %g and "
               "z = %g",
               ctx->name, steps, seq->redshifts[i], seq->redshifts[i + 1]);
    seq->steps[i] = steps < 1.0 ? 1 : (int64_t)steps;
  }

  /* t_end is implied: a given one must agree (units may round it) */
  double implied = seq->times_s[count - 1];
  char implied_text[64], t_end_text[64];
  snprintf(implied_text, sizeof implied_text, "%.17g Myr", implied / IONF_MYR_S);
  snprintf(t_end_text, sizeof t_end_text, "%.6f Myr", implied / IONF_MYR_S);
  if (ctx->t_end_node) {
    double given = 0.0;
    IONF_CALL(config_quantity(ctx, "time.t_end", ctx->t_end_node, UNIT_TIME, IONF_MYR_S, 0.0,
                              &given));
    IONF_CHECK(fabs(given - implied) <= 1e-6 * implied, IONF_ERR_CONFIG,
               "%s: time.t_end = %s does not match sequence.redshifts: from z = %s to z = %s is "
               "%s; leave time.t_end out (it is implied)",
               ctx->name, config_text(ctx->t_end_node, t, sizeof t),
               config_text(n->items[0], t2, sizeof t2), n->items[count - 1]->scalar, t_end_text);
  }
  cfg->t_end_s = implied;
  struct param_node *end = params_new(PARAM_SCALAR, implied_text);
  IONF_CHECK(end, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(ctx->time_eff, "t_end", end));
  IONF_CALL(config_output_times(ctx, ctx->outputs_node, t_end_text, seq->times_s + 1, count - 1,
                                cfg));

  if (ctx->seq_density) {
    static const char *const dkeys[] = {"pattern", "dataset"};
    struct config_section f;
    IONF_CALL(config_sequence_part(&s, "density", "sequence.density", dkeys, CONFIG_N(dkeys),
                                   "{pattern: \"density_z%.3f.h5\", dataset: NAME}", &f));
    IONF_CALL(config_take(&f, "pattern", NULL, &n));
    IONF_CALL(config_require(&f, n, "the HDF5 files, e.g. \"density_z%.3f.h5\" (the redshift "
                                    "fills in the number)"));
    IONF_CALL(config_pattern(&f, n, seq->density_pattern, sizeof seq->density_pattern));
    IONF_CALL(config_take(&f, "dataset", NULL, &n));
    IONF_CALL(config_require(&f, n, "the dataset of proper n_H in cm^-3 in each file"));
    IONF_CALL(config_string(ctx, f.path, n, "a dataset name", seq->density_dataset,
                            sizeof seq->density_dataset));
  }
  if (ctx->seq_halos) {
    static const char *const hkeys[] = {"pattern", "f_gamma", "t_source", "position_unit"};
    struct config_section f;
    IONF_CALL(config_sequence_part(&s, "halos", "sequence.halos", hkeys, CONFIG_N(hkeys),
                                   "{pattern: \"halos_z%.3f.h5\", f_gamma: NUMBER, t_source: TIME}",
                                   &f));
    IONF_CALL(config_take(&f, "pattern", NULL, &n));
    IONF_CALL(config_require(&f, n, "the HDF5 halo catalogues, e.g. \"halos_z%.3f.h5\""));
    IONF_CALL(config_pattern(&f, n, seq->halo_pattern, sizeof seq->halo_pattern));
    IONF_CALL(config_positive(&f, "f_gamma", NULL,
                              "ionizing photons per baryon in halos over the source lifetime",
                              &seq->halo_f_gamma));
    IONF_CALL(config_take(&f, "t_source", NULL, &n));
    IONF_CALL(config_require(&f, n, "the source lifetime, e.g. '10 Myr'; a bare number is in Myr"));
    IONF_CALL(config_quantity(ctx, f.path, n, UNIT_TIME, IONF_MYR_S, 0.0, &seq->halo_t_source_s));
    if (!(seq->halo_t_source_s > 0)) return config_range(ctx, f.path, n, "must be > 0");
    double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
    IONF_CALL(config_take(&f, "position_unit", "1 Mpc", &n));
    IONF_CALL(config_quantity(ctx, f.path, n, UNIT_LENGTH, IONF_MPC_CM, cell_cm,
                              &seq->halo_position_unit_cm));
    if (!(seq->halo_position_unit_cm > 0))
      return config_range(ctx, f.path, n, "must be a comoving length > 0");
  }
  return IONF_OK;
}

/* synthetic.kind = eor: the files sequence: names, made by synth_write_eor_sequence. */
static ionf_err config_synthetic_eor(struct config_ctx *ctx, struct config_section *s,
                                     struct ionf_config *cfg) {
  struct synthetic_config *syn = &cfg->synthetic;
  static const char *const iliev4_only[] = {"redshift", "peaks", "min_separation", "f_gamma",
                                            "t_source"};
  for (size_t k = 0; k < CONFIG_N(iliev4_only); ++k)
    IONF_CHECK(!params_get(s->user, iliev4_only[k]), IONF_ERR_CONFIG,
               "%s: synthetic.%s applies to kind iliev4 only (kind eor takes the redshifts from "
               "sequence.redshifts and f_gamma, t_source from sequence.halos)",
               ctx->name, iliev4_only[k]);
  IONF_CALL(config_positive(s, "min_halo_mass", "1e8",
                            "the smallest halo of the collapsed fraction [Msun]",
                            &syn->min_halo_mass_msun));
  char m_text[64];
  snprintf(m_text, sizeof m_text, "%.17g", syn->min_halo_mass_msun);
  IONF_CALL(config_positive(s, "min_source_mass", m_text,
                            "the collapsed mass a cell needs to hold a halo [Msun]",
                            &syn->min_source_mass_msun));
  const struct sequence_config *seq = &cfg->sequence;
  IONF_CHECK(seq->density_pattern[0] && seq->halo_pattern[0], IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor makes the density grids and halo catalogues of "
             "sequence:, so sequence.density and sequence.halos must both be given",
             ctx->name);
  IONF_CHECK(strcmp(seq->density_dataset, "n_H") == 0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes the density as dataset 'n_H', but "
             "sequence.density.dataset = '%s'",
             ctx->name, seq->density_dataset);
  IONF_CHECK(fabs(seq->halo_position_unit_cm / IONF_MPC_CM - 1.0) < 1e-9, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes halo positions in comoving Mpc, but "
             "sequence.halos.position_unit is %g Mpc",
             ctx->name, seq->halo_position_unit_cm / IONF_MPC_CM);
  IONF_CHECK(cfg->omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor: haloes emit f_gamma photons per baryon, so "
             "cosmology.Omega_b must be > 0",
             ctx->name);
  return IONF_OK;
}

/* synthetic: only when given (absent: no section in the effective config). */
static ionf_err config_synthetic(struct config_ctx *ctx, const struct param_node *root,
                                 struct ionf_config *cfg) {
  static const char *const keys[] = {"kind",          "seed",           "sigma_8", "n_s",
                                     "redshift",      "peaks",          "min_separation",
                                     "f_gamma",       "t_source",       "min_halo_mass",
                                     "min_source_mass"};
  static const char *const kinds[] = {"iliev4", "eor"};
  static const enum synthetic_kind kind_of[] = {SYNTHETIC_ILIEV4, SYNTHETIC_EOR};
  const struct param_node *u = params_get(root, "synthetic");
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  struct synthetic_config *syn = &cfg->synthetic;
  struct config_section s;
  struct param_node *n;
  int which = 0;
  int64_t v = 0;
  IONF_CALL(config_open_section(ctx, root, "synthetic", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "kind", NULL, &n));
  IONF_CALL(config_require(&s, n, "what to make: iliev4 (the Iliev et al. 2006 Test 4 stand-in) "
                                  "or eor (the density and halo files of sequence:)"));
  IONF_CALL(config_enum(ctx, s.path, n, kinds, CONFIG_N(kinds), &which));
  syn->kind = kind_of[which];
  const int eor = syn->kind == SYNTHETIC_EOR;

  IONF_CALL(config_take(&s, "seed", eor ? "1" : "4", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 4294967295LL, &v));
  syn->seed = (uint64_t)v;
  IONF_CALL(config_positive(&s, "sigma_8", "0.8", "the rms linear overdensity in 8 Mpc/h spheres",
                            &syn->sigma_8));
  if (!(syn->sigma_8 < 10.0))
    return config_range(ctx, s.path, params_get(s.eff, "sigma_8"), "must be in (0, 10)");
  IONF_CALL(config_positive(&s, "n_s", "1.0", "the primordial spectral index", &syn->n_s));
  if (!(syn->n_s < 2.0))
    return config_range(ctx, s.path, params_get(s.eff, "n_s"), "must be in (0, 2)");
  if (eor) return config_synthetic_eor(ctx, &s, cfg);
  static const char *const eor_only[] = {"min_halo_mass", "min_source_mass"};
  for (size_t k = 0; k < CONFIG_N(eor_only); ++k)
    IONF_CHECK(!params_get(s.user, eor_only[k]), IONF_ERR_CONFIG,
               "%s: synthetic.%s applies to kind eor only (this is kind iliev4)", ctx->name,
               eor_only[k]);

  /* The density's redshift: a cosmological run starts at its own. */
  char z_text[64];
  snprintf(z_text, sizeof z_text, "%.17g", cfg->z_initial);
  int user_z = params_get(s.user, "redshift") != NULL;
  IONF_CALL(config_take(&s, "redshift", cfg->cosmological ? z_text : "9", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a redshift", &syn->redshift));
  if (!(syn->redshift >= 0.0 && syn->redshift < 1000.0))
    return config_range(ctx, s.path, n, "must be a redshift in [0, 1000)");
  IONF_CHECK(!(cfg->cosmological && user_z && syn->redshift != cfg->z_initial), IONF_ERR_CONFIG,
             "%s: synthetic.redshift = %s differs from cosmology.z_initial = %g: a cosmological "
             "run starts from the density at z_initial (leave synthetic.redshift out)",
             ctx->name, n->scalar, cfg->z_initial);

  IONF_CALL(config_take(&s, "peaks", "16", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 100000, &v));
  syn->peaks = (int)v;
  IONF_CALL(config_take(&s, "min_separation", "4", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, cfg->n_cells_1d, &v));
  syn->min_separation_cells = (int)v;
  IONF_CALL(config_positive(&s, "f_gamma", "250", "ionizing photons per baryon of a source",
                            &syn->f_gamma));
  IONF_CALL(config_take(&s, "t_source", "3 Myr", &n));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_TIME, IONF_MYR_S, 0.0, &syn->t_source_s));
  if (!(syn->t_source_s > 0)) return config_range(ctx, s.path, n, "must be > 0");

  /* iliev4 writes the two files the run reads. */
  IONF_CHECK(cfg->n_h_cm3.from_file, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 makes the density file, so material.n_H must be "
             "{file: PATH, dataset: NAME} (it is a number)",
             ctx->name);
  IONF_CHECK(cfg->source_file[0], IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 makes the source file, so sources must be "
             "{file: PATH} (it is a list of sources)",
             ctx->name);
  IONF_CHECK(cfg->n_cells_1d >= 3, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 needs grid.N >= 3 (got %lld)", ctx->name,
             (long long)cfg->n_cells_1d);
  IONF_CHECK(cfg->omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4: sources emit f_gamma photons per baryon, so "
             "cosmology.Omega_b must be > 0",
             ctx->name);
  return IONF_OK;
}

static ionf_err config_emit(const struct config_ctx *ctx, struct ionf_config *cfg) {
  char header[IONF_PATH_MAX + 128];
  snprintf(header, sizeof header,
           "# ionfront effective configuration (%s), overrides applied, every default filled in\n",
           ctx->name);
  for (char *c = header; *c; ++c) /* a newline in the name would end the comment */
    if ((unsigned char)*c < 0x20 && c[1] != '\0') *c = '?';
  char *body = params_emit_yaml(ctx->eff);
  if (!body) return IONF_ERR_MEM;
  size_t hl = strlen(header), bl = strlen(body);
  cfg->effective_yaml = ionf_malloc(hl + bl + 1, "the effective config");
  if (cfg->effective_yaml) {
    memcpy(cfg->effective_yaml, header, hl);
    memcpy(cfg->effective_yaml + hl, body, bl + 1);
  }
  free(body);
  return cfg->effective_yaml ? IONF_OK : IONF_ERR_MEM;
}

static ionf_err config_build(struct config_ctx *ctx, const struct param_node *root,
                             struct ionf_config *cfg) {
  IONF_CHECK(!root || root->kind == PARAM_NULL || root->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: expected a mapping of sections (grid:, material:, sources:, ...) at the top "
             "level, got %s",
             ctx->name, config_kind(root));
  IONF_CALL(config_check_keys(ctx, root, NULL, config_sections, CONFIG_N(config_sections)));
  /* a sequence changes what material, sources and time must hold */
  const struct param_node *seq = params_get(root, "sequence");
  const struct param_node *part;
  ctx->seq_given = seq && seq->kind != PARAM_NULL;
  ctx->seq_density = ctx->seq_given && (part = params_get(seq, "density")) && part->kind != PARAM_NULL;
  ctx->seq_halos = ctx->seq_given && (part = params_get(seq, "halos")) && part->kind != PARAM_NULL;
  IONF_CALL(config_grid(ctx, root, cfg));
  IONF_CALL(config_material(ctx, root, cfg));
  IONF_CALL(config_chemistry(ctx, root, cfg));
  IONF_CALL(config_sources(ctx, root, cfg));
  IONF_CALL(config_spectrum(ctx, root, cfg));
  IONF_CALL(config_time(ctx, root, cfg));
  IONF_CALL(config_raytracing(ctx, root, cfg));
  IONF_CALL(config_montecarlo(ctx, root, cfg));
  IONF_CALL(config_output(ctx, root, cfg));
  IONF_CALL(config_mpi(ctx, root, cfg));
  IONF_CALL(config_cosmology(ctx, root, cfg));
  IONF_CALL(config_sequence(ctx, root, cfg));
  IONF_CALL(config_synthetic(ctx, root, cfg));
  IONF_CALL(config_emit(ctx, cfg));
  return IONF_OK;
}

/* ---- public ------------------------------------------------------------------ */

void config_defaults(struct ionf_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->periodic = 0;
  cfg->alpha_b_1e4_cm3_s = strtod(CONFIG_DEF_ALPHA_B, NULL);
  cfg->alpha_b_power = strtod(CONFIG_DEF_ALPHA_B_POWER, NULL);
  cfg->collisional_ionization = 1;
  cfg->abu_c = strtod(CONFIG_DEF_ABU_C, NULL);
  cfg->source_format = SOURCE_FORMAT_AUTO;
  cfg->spectrum = SPECTRUM_GREY;
  cfg->sigma0_cm2 = strtod(CONFIG_DEF_SIGMA_0, NULL);
  cfg->sigma_power_law_index = strtod(CONFIG_DEF_POWER_LAW, NULL);
  cfg->num_tau = (int)strtol(CONFIG_DEF_NUM_TAU, NULL, 10);
  cfg->min_log_tau = strtod(CONFIG_DEF_MIN_LOG_TAU, NULL);
  cfg->max_log_tau = strtod(CONFIG_DEF_MAX_LOG_TAU, NULL);
  cfg->r_max_cells = strtod(CONFIG_DEF_R_MAX, NULL);
  cfg->convergence_fraction = strtod(CONFIG_DEF_CONVERGENCE, NULL);
  cfg->max_iterations = (int)strtol(CONFIG_DEF_MAX_ITER, NULL, 10);
  cfg->source_batch_size = 0;
  cfg->isothermal = 1;
  cfg->backend = BACKEND_AUTO;
  snprintf(cfg->output_dir, sizeof cfg->output_dir, "%s", CONFIG_DEF_OUTPUT_DIR);
  cfg->checkpoint_every = 0;
  cfg->write_xdmf = 1;
  cfg->cosmological = 0;
  cfg->hubble_h = COSMOLOGY_DEFAULT_H;
  cfg->omega_m = COSMOLOGY_DEFAULT_OMEGA_M;
  cfg->omega_b = COSMOLOGY_DEFAULT_OMEGA_B;
  cfg->t_cmb0_k = COSMOLOGY_DEFAULT_T_CMB_K;
  cfg->z_initial = 9.0;
  cfg->write_c2ray_binary = 0;
  cfg->write_dtb = 0;
  cfg->reduction = REDUCTION_AUTO;
  cfg->progress = 1;
}

void config_free(struct ionf_config *cfg) {
  if (!cfg) return;
  free(cfg->source_ijk);
  free(cfg->source_ndot_per_s);
  free(cfg->planes);
  free(cfg->clumps);
  cfg->planes = NULL;
  cfg->clumps = NULL;
  cfg->n_planes = 0;
  cfg->n_clumps = 0;
  free(cfg->output_times_s);
  free(cfg->effective_yaml);
  free(cfg->sequence.redshifts);
  free(cfg->sequence.times_s);
  free(cfg->sequence.steps);
  memset(&cfg->sequence, 0, sizeof cfg->sequence);
  cfg->source_ijk = NULL;
  cfg->source_ndot_per_s = NULL;
  cfg->output_times_s = NULL;
  cfg->effective_yaml = NULL;
  cfg->n_sources_inline = 0;
  cfg->n_outputs = 0;
}

ionf_err config_from_params(const struct param_node *root, const char *name,
                            struct ionf_config *cfg) {
  config_defaults(cfg);
  if (!name) name = "config";
  snprintf(cfg->config_name, sizeof cfg->config_name, "%s", name);
  struct config_ctx ctx = {.name = name};
  /* Input files are relative to the config file; built-in configs have none. */
  const char *slash = strrchr(name, '/');
  if (strncmp(name, "built-in ", 9) != 0 && slash &&
      (size_t)(slash - name) + 2 < sizeof ctx.dir) {
    memcpy(ctx.dir, name, (size_t)(slash - name) + 1);
    ctx.dir[slash - name + 1] = '\0';
  }
  ctx.eff = params_new(PARAM_MAPPING, NULL);
  if (!ctx.eff) return IONF_ERR_MEM;
  ionf_err rc = config_build(&ctx, root, cfg);
  params_free(ctx.eff);
  if (rc != IONF_OK) {
    config_free(cfg);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

ionf_err config_load(const char *path, const char *builtin_name, char *const *overrides,
                     int n_overrides, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  char name[IONF_PATH_MAX];
  config_defaults(cfg);
  if (path) {
    snprintf(name, sizeof name, "%s", path);
    IONF_CALL(params_load_file(path, &root));
  } else {
    const char *problem = builtin_name ? builtin_name : PROBLEMS_DEFAULT;
    const char *text = problems_yaml(problem);
    if (!text) {
      const char *known[64];
      int n = problems_count() < 64 ? problems_count() : 64;
      for (int i = 0; i < n; ++i) known[i] = problems_name(i);
      char list[512];
      config_join(known, (size_t)n, list, sizeof list);
      const char *guess = config_suggest(problem, known, (size_t)n);
      char hint[128] = "";
      if (guess) snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
      return ionf_error_set(IONF_ERR_USAGE, "unknown built-in problem '%s'%s; known problems: %s",
                            problem, hint, list);
    }
    snprintf(name, sizeof name, "built-in %s", problem);
    IONF_CALL(params_load_string(text, name, &root));
  }
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_overrides && rc == IONF_OK; ++i)
    rc = params_set_override(root, overrides[i]);
  if (rc == IONF_OK) rc = config_from_params(root, name, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

ionf_err config_load_text(const char *text, const char *name, char *const *overrides,
                          int n_overrides, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  config_defaults(cfg);
  IONF_CHECK(text != NULL, IONF_ERR_USAGE, "no YAML text given (NULL)");
  IONF_CALL(params_load_string(text, name, &root));
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_overrides && rc == IONF_OK; ++i)
    rc = params_set_override(root, overrides[i]);
  if (rc == IONF_OK) rc = config_from_params(root, name, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}
