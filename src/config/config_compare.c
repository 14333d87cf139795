/**
 * @file config_compare.c
 * @brief Comparing two effective configurations for a restart (config_compare.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "config/config_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys (and whole sections) a restart may change: none changes the state of the gas. */
static const char *const config_compare_free_keys[] = {
    "time.t_end", "time.outputs", "output", "raytracing.backend", "mpi.reduction", "debug",
    "grid.decomposition"};

int config_compare_restart_may_change(const char *key) {
  for (size_t i = 0; i < sizeof config_compare_free_keys / sizeof *config_compare_free_keys; ++i) {
    const char *k = config_compare_free_keys[i];
    size_t n = strlen(k);
    if (!strncmp(key, k, n) && (key[n] == '\0' || key[n] == '.' || key[n] == '['))
      return 1;
  }
  return 0;
}

/* Keys added after checkpoints were first written, with the default that keeps the old
   behaviour: an older checkpoint, which lacks the key, matches a config at that default. */
static const char *const config_compare_added_keys[][2] = {
    {"sequence.density.format", "hdf5"},
    {"sequence.halos.format", "ionfront"},
    {"sequence.halos.f_gamma_low_mass", "0"}};

static int config_compare_added_at_default(const char *key, const struct param_node *b) {
  if (!b || b->kind != PARAM_SCALAR || !b->scalar) return 0;
  for (size_t i = 0; i < sizeof config_compare_added_keys / sizeof *config_compare_added_keys; ++i)
    if (!strcmp(key, config_compare_added_keys[i][0]) &&
        !strcmp(b->scalar, config_compare_added_keys[i][1]))
      return 1;
  return 0;
}

/* A number and what follows it ("5 Myr": 5, "Myr"); 0 when the text is no number. */
static int config_compare_number(const char *text, double *value, const char **rest) {
  char *end = NULL;
  *value = strtod(text, &end);
  if (end == text) return 0;
  while (*end == ' ' || *end == '\t') ++end;
  *rest = end;
  return 1;
}

/* Two resolved input paths naming the same file in different folders. */
static int config_compare_moved_file(const char *a, const char *b) {
  if (a[0] != '/' || b[0] != '/') return 0;
  const char *ba = strrchr(a, '/') + 1, *bb = strrchr(b, '/') + 1;
  return ba[0] != '\0' && !strcmp(ba, bb);
}

static int config_compare_scalars_equal(const char *a, const char *b) {
  if (!strcmp(a, b)) return 1;
  double va = 0.0, vb = 0.0;
  const char *ra = NULL, *rb = NULL;
  return config_compare_number(a, &va, &ra) && config_compare_number(b, &vb, &rb) && va == vb &&
         !strcmp(ra, rb);
}

/* A node as a short text for a message. */
static void config_compare_describe(const struct param_node *n, char *buf, size_t size) {
  if (!n || n->kind == PARAM_NULL)
    snprintf(buf, size, "(not set)");
  else if (n->kind == PARAM_SCALAR)
    snprintf(buf, size, "%s", n->scalar ? n->scalar : "");
  else if (n->kind == PARAM_SEQUENCE)
    snprintf(buf, size, "a list of %zu item(s)", n->n_items);
  else
    snprintf(buf, size, "a mapping of %zu key(s)", n->n_items);
}

/* What the walk carries: the first difference, and the first moved input file. */
struct config_compare_walk {
  struct config_compare_diff *d, *moved;
};

static int config_compare_found(const char *key, const struct param_node *a,
                                const struct param_node *b, struct config_compare_diff *d) {
  snprintf(d->key, sizeof d->key, "%s", key);
  config_compare_describe(a, d->old_value, sizeof d->old_value);
  config_compare_describe(b, d->new_value, sizeof d->new_value);
  return 1;
}

static int config_compare_node(const char *key, const struct param_node *a,
                               const struct param_node *b, const struct config_compare_walk *w);

/* Two mappings: `a`'s keys in order, then the keys only `b` has. */
static int config_compare_maps(const char *key, const struct param_node *a,
                               const struct param_node *b, const struct config_compare_walk *w) {
  char sub[sizeof w->d->key];
  for (size_t i = 0; i < a->n_items; ++i) {
    snprintf(sub, sizeof sub, "%s%s%s", key, key[0] ? "." : "", a->keys[i]);
    if (config_compare_node(sub, a->items[i], params_get(b, a->keys[i]), w)) return 1;
  }
  for (size_t i = 0; i < b->n_items; ++i) {
    if (params_get(a, b->keys[i])) continue;
    snprintf(sub, sizeof sub, "%s%s%s", key, key[0] ? "." : "", b->keys[i]);
    if (config_compare_node(sub, NULL, b->items[i], w)) return 1;
  }
  return 0;
}

static int config_compare_node(const char *key, const struct param_node *a,
                               const struct param_node *b, const struct config_compare_walk *w) {
  if (key[0] && config_compare_restart_may_change(key)) return 0;
  struct config_compare_diff *d = w->d;
  int a_null = !a || a->kind == PARAM_NULL, b_null = !b || b->kind == PARAM_NULL;
  if (a_null && config_compare_added_at_default(key, b)) return 0;
  if (a_null || b_null) return a_null == b_null ? 0 : config_compare_found(key, a, b, d);
  if (a->kind != b->kind) return config_compare_found(key, a, b, d);
  if (a->kind == PARAM_SCALAR) {
    const char *sa = a->scalar ? a->scalar : "", *sb = b->scalar ? b->scalar : "";
    if (config_compare_scalars_equal(sa, sb)) return 0;
    if (!config_compare_moved_file(sa, sb)) return config_compare_found(key, a, b, d);
    if (w->moved && !w->moved->key[0]) config_compare_found(key, a, b, w->moved);
    return 0;
  }
  if (a->kind == PARAM_MAPPING) return config_compare_maps(key, a, b, w);
  char sub[sizeof d->key];
  for (size_t i = 0; i < a->n_items && i < b->n_items; ++i) {
    snprintf(sub, sizeof sub, "%s[%zu]", key, i);
    if (config_compare_node(sub, a->items[i], b->items[i], w)) return 1;
  }
  return a->n_items == b->n_items ? 0 : config_compare_found(key, a, b, d);
}

int config_compare_restart_trees(const struct param_node *old_cfg,
                                 const struct param_node *new_cfg,
                                 struct config_compare_diff *d, struct config_compare_diff *moved) {
  memset(d, 0, sizeof *d);
  if (moved) memset(moved, 0, sizeof *moved);
  const struct config_compare_walk w = {d, moved};
  return config_compare_node("", old_cfg, new_cfg, &w);
}

ionf_err config_compare_restart(const char *checkpoint_path, const char *old_yaml,
                                const char *new_yaml, struct config_compare_diff *moved) {
  struct param_node *old_cfg = NULL, *new_cfg = NULL;
  ionf_err rc = params_load_string(old_yaml, "the checkpoint's stored configuration", &old_cfg);
  if (rc != IONF_OK) {
    ionf_error_clear();
    return ionf_error_set(IONF_ERR_INPUT,
                          "checkpoint '%s': its stored configuration (root attribute 'config') "
                          "cannot be read as YAML",
                          checkpoint_path);
  }
  rc = params_load_string(new_yaml, "this run's effective configuration", &new_cfg);
  struct config_compare_diff d;
  int differs = rc == IONF_OK && config_compare_restart_trees(old_cfg, new_cfg, &d, moved);
  params_free(old_cfg);
  params_free(new_cfg);
  IONF_CALL(rc);
  IONF_CHECK(!differs, IONF_ERR_INPUT,
             "checkpoint '%s' was written by a run with %s = %s; this config has %s = %s: only "
             CONFIG_COMPARE_RESTART_KEYS " may change on a restart (start a new run, into "
             "another output directory or with --overwrite, to change anything else)",
             checkpoint_path, d.key, d.old_value, d.key, d.new_value);
  return IONF_OK;
}
