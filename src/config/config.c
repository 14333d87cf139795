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

#include "config/config_internal.h"
#include "config/problems.h"
#include "core/units.h"
#include "cosmo/cosmology.h"

static const char *const config_sections[] = {"grid",     "material",   "chemistry",
                                              "sources",  "spectrum",   "time",
                                              "raytracing", "output",   "mpi",
                                              "cosmology", "sequence", "synthetic",
                                              "montecarlo", "debug"};

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
ionf_err config_check_keys(const struct config_ctx *ctx, const struct param_node *map,
                                  const char *prefix, const char *const *known, size_t n_known) {
  if (!map || map->kind != PARAM_MAPPING) return IONF_OK;
  for (size_t i = 0; i < map->n_items; ++i) {
    const char *key = map->keys[i];
    int found = 0;
    for (size_t k = 0; k < n_known && !found; ++k) found = strcmp(key, known[k]) == 0;
    if (found) continue;
    const char *guess = config_suggest(key, known, n_known);
    const char *where = params_origin(map->items[i]) ? params_origin(map->items[i]) : ctx->name;
    char list[512];
    config_join(known, n_known, list, sizeof list);
    if (!prefix) {
      if (guess)
        return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown section '%s' (did you mean '%s'?)",
                              where, key, guess);
      return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown section '%s' (sections are: %s)",
                            where, key, list);
    }
    if (guess)
      return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown key '%s.%s' (did you mean '%s'?)",
                            where, prefix, key, guess);
    return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown key '%s.%s' (known keys: %s)", where,
                          prefix, key, list);
  }
  return IONF_OK;
}

/* ---- describing values in messages ------------------------------------------- */

const char *config_kind(const struct param_node *n) {
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
const char *config_text(const struct param_node *n, char *buf, size_t cap) {
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

ionf_err config_number(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                       const char *expected, double *out) {
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

ionf_err config_range(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                      const char *rule) {
  char t[CONFIG_TEXT_MAX];
  return ionf_error_set(IONF_ERR_CONFIG, "%s: %s = %s is out of range (%s)", ctx->name, path,
                        config_text(n, t, sizeof t), rule);
}

ionf_err config_int(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                    int64_t lo, int64_t hi, int64_t *out) {
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

ionf_err config_bool(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                     int *out) {
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

ionf_err config_string(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                       const char *what, char *out, size_t cap) {
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
ionf_err config_enum(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                     const char *const *names, size_t n_names, int *out) {
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
ionf_err config_quantity(const struct config_ctx *ctx, const char *path, const struct param_node *n,
                         enum unit_dim dim, double default_unit, double cell_cm, double *out) {
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
ionf_err config_resolve(const struct config_ctx *ctx, const char *path, const char *file, char *out,
                        size_t cap) {
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

void config_blame(struct config_ctx *ctx, const struct param_node *n) {
  ctx->name = params_origin(n) ? params_origin(n) : ctx->config_name;
}

ionf_err config_open(struct config_ctx *ctx, const struct param_node *user, const char *name,
                     const char *const *keys, size_t n_keys, struct config_section *s) {
  config_blame(ctx, user);
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
ionf_err config_open_section(struct config_ctx *ctx, const struct param_node *root,
                             const char *name, const char *const *keys, size_t n_keys,
                             struct config_section *s) {
  IONF_CALL(config_open(ctx, params_get(root, name), name, keys, n_keys, s));
  IONF_CALL(params_map_set(ctx->eff, name, s->eff));
  return IONF_OK;
}

/* The effective value of `key`: a copy of the user's, else the default `def`
 * (else NULL: the caller decides whether the key is required). */
ionf_err config_take(struct config_section *s, const char *key, const char *def,
                     struct param_node **out) {
  snprintf(s->path, sizeof s->path, "%s.%s", s->name, key);
  *out = NULL;
  const struct param_node *u = params_get(s->user, key);
  struct param_node *n = NULL;
  config_blame(s->ctx, u ? u : s->user);
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

ionf_err config_take_enum(struct config_section *s, const char *key, const char *def,
                          const char *const *names, size_t n_names, int *which) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, def, &n));
  return config_enum(s->ctx, s->path, n, names, n_names, which);
}

ionf_err config_require(const struct config_section *s, const struct param_node *n,
                        const char *what) {
  IONF_CHECK(n, IONF_ERR_CONFIG, "%s: missing required key '%s' (%s)", s->ctx->name, s->path,
             what);
  return IONF_OK;
}

/* A required positive finite number. */
ionf_err config_positive(struct config_section *s, const char *key, const char *def,
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

ionf_err config_effective_yaml(const struct config_ctx *ctx, char **out) {
  *out = NULL;
  char header[IONF_PATH_MAX + 128];
  snprintf(header, sizeof header,
           "# ionfront effective configuration (%s), overrides applied, every default filled in\n",
           ctx->config_name);
  for (char *c = header; *c; ++c) /* a newline in the name would end the comment */
    if ((unsigned char)*c < 0x20 && c[1] != '\0') *c = '?';
  char *body = params_emit_yaml(ctx->eff);
  if (!body) return IONF_ERR_MEM;
  size_t hl = strlen(header), bl = strlen(body);
  *out = ionf_malloc(hl + bl + 1, "the effective config");
  if (*out) {
    memcpy(*out, header, hl);
    memcpy(*out + hl, body, bl + 1);
  }
  free(body);
  return *out ? IONF_OK : IONF_ERR_MEM;
}

static ionf_err config_emit(const struct config_ctx *ctx, struct ionf_config *cfg) {
  return config_effective_yaml(ctx, &cfg->effective_yaml);
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
  /* in the order of the effective config */
  static config_section_fn *const readers[] = {
      config_medium_grid,    config_medium_material, config_medium_chemistry,
      config_sources,        config_sources_spectrum, config_time,
      config_run_raytracing, config_run_montecarlo,  config_run_output,
      config_run_mpi,        config_cosmology,       config_sequence,
      config_synthetic,      config_debug};
  for (size_t r = 0; r < CONFIG_N(readers); ++r) IONF_CALL(readers[r](ctx, root, cfg));
  IONF_CALL(config_species_check(ctx, cfg));
  IONF_CALL(config_subgrid_check(ctx, cfg));
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
  cfg->clumping.kind = CLUMPING_NONE;  /* C = 1 (memset above zeroes the rest) */
  cfg->clumping.z_fixed = -1.0;
  cfg->mean_free_path.kind = MFP_NONE;
  cfg->source_format = SOURCE_FORMAT_AUTO;
  cfg->spectrum = SPECTRUM_GREY;
  cfg->spectrum_e_max_ev = 10.0 * IONF_E_HEII_EV;
  cfg->band_sub_bins[0] = 1; /* C2-Ray's helium version: 1, 26 and 20 sub-bins */
  cfg->band_sub_bins[1] = 26;
  cfg->band_sub_bins[2] = 20;
  cfg->recombination_case_b = 1;
  cfg->secondary_ionization = 1;
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
  cfg->write_xdmf = 0;
  cfg->write_vtkhdf = 1;
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
  cfg->debug.signal_after_step = -1;
  cfg->debug.fail_trace_rank = -1;
  cfg->debug.fail_load_rank = -1;
  cfg->debug.fail_log_step = -1;
}

/* free(p) and forget it, so that a second config_free is harmless */
#define CONFIG_RELEASE(p) (free(p), (p) = NULL)

void config_free(struct ionf_config *cfg) {
  if (!cfg) return;
  CONFIG_RELEASE(cfg->source_ijk);
  CONFIG_RELEASE(cfg->source_ndot_per_s);
  CONFIG_RELEASE(cfg->planes);
  CONFIG_RELEASE(cfg->clumps);
  CONFIG_RELEASE(cfg->output_times_s);
  CONFIG_RELEASE(cfg->effective_yaml);
  free(cfg->sequence.redshifts);
  free(cfg->sequence.times_s);
  free(cfg->sequence.steps);
  memset(&cfg->sequence, 0, sizeof cfg->sequence);
  cfg->n_sources_inline = cfg->n_planes = cfg->n_clumps = cfg->n_outputs = 0;
}

/* The folder of the config file `name` with '/' ("" for a built-in or a bare name). */
static void config_dir_of(const char *name, char *dir, size_t cap) {
  const char *slash = strrchr(name, '/');
  dir[0] = '\0';
  if (strncmp(name, "built-in ", 9) != 0 && slash && (size_t)(slash - name) + 2 < cap) {
    memcpy(dir, name, (size_t)(slash - name) + 1);
    dir[slash - name + 1] = '\0';
  }
}

ionf_err config_from_params(const struct param_node *root, const char *name,
                            struct ionf_config *cfg) {
  char dir[IONF_PATH_MAX];
  config_dir_of(name ? name : "config", dir, sizeof dir);
  return config_from_params_in(root, name, dir, cfg);
}

ionf_err config_from_params_in(const struct param_node *root, const char *name, const char *dir,
                               struct ionf_config *cfg) {
  config_defaults(cfg);
  if (!name) name = "config";
  snprintf(cfg->config_name, sizeof cfg->config_name, "%s", name);
  struct config_ctx ctx = {.name = name, .config_name = name};
  /* Input files are relative to the config file's folder; built-in configs have none. */
  snprintf(ctx.dir, sizeof ctx.dir, "%s", dir ? dir : "");
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

/* The overrides applied to a parsed tree, then the configuration read from it; frees root. */
static ionf_err config_from_tree(struct param_node *root, const char *name,
                                 char *const *overrides, int n_overrides,
                                 struct ionf_config *cfg) {
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_overrides && rc == IONF_OK; ++i)
    rc = params_set_override(root, overrides[i]);
  if (rc == IONF_OK) rc = config_from_params(root, name, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

ionf_err config_builtin(const char *problem, const char **text) {
  *text = problem ? problems_yaml(problem) : NULL;
  if (*text) return IONF_OK;
  const char *known[64];
  int n = problems_count() < 64 ? problems_count() : 64;
  for (int i = 0; i < n; ++i) known[i] = problems_name(i);
  char list[512];
  config_join(known, (size_t)n, list, sizeof list);
  const char *guess = problem ? config_suggest(problem, known, (size_t)n) : NULL;
  char hint[128] = "";
  if (guess) snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
  return ionf_error_set(IONF_ERR_USAGE, "unknown built-in problem '%s'%s; known problems: %s",
                        problem ? problem : "", hint, list);
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
    const char *text = NULL;
    IONF_CALL(config_builtin(problem, &text));
    snprintf(name, sizeof name, "built-in %s", problem);
    IONF_CALL(params_load_string(text, name, &root));
  }
  return config_from_tree(root, name, overrides, n_overrides, cfg);
}

ionf_err config_load_text(const char *text, const char *name, char *const *overrides,
                          int n_overrides, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  config_defaults(cfg);
  IONF_CHECK(text != NULL, IONF_ERR_USAGE, "no YAML text given (NULL)");
  IONF_CALL(params_load_string(text, name, &root));
  return config_from_tree(root, name, overrides, n_overrides, cfg);
}
