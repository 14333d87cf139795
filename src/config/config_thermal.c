/**
 * @file config_thermal.c
 * @brief `problem: thermal`: YAML tree -> validated struct config_thermal (config_thermal.h),
 *        with the same machinery as the ionization config (config_internal.h): an effective
 *        tree of every key, the user's value or the default, read back by the checks.
 */
#include "config/config_thermal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "thermal/thermal_gas_k.h"
#include "thermal/thermal_k.h"

const char *const config_thermal_face_names[THERMAL_FACES] = {"x_lo", "x_hi", "y_lo",
                                                              "y_hi", "z_lo", "z_hi"};
const char *const config_thermal_profile_names[] = {"file",   "uniform", "lin1", "parab1",
                                                    "parab2", "sin",     "3dims"};
static const char *const thermal_gas_names[] = {"grey", "wsgg"};
static const char *const thermal_axis_names[] = {"x", "y", "z"};
static const char *const thermal_sections[] = {"problem", "grid",       "walls",  "gas",
                                               "fields",  "setup",      "montecarlo",
                                               "output",  "raytracing"};

const char *config_thermal_gas_name(int gas_model) {
  return gas_model == THERMAL_GAS_WSGG_BORDBAR14 ? "wsgg" : "grey";
}

int config_thermal_is_thermal(const struct param_node *root) {
  return root && root->kind == PARAM_MAPPING && params_get(root, "problem") != NULL;
}

int config_thermal_file_is_thermal(const struct config_file *f) {
  struct param_node *root = NULL;
  if (!f->text || params_load_string(f->text, f->name, &root) != IONF_OK) {
    ionf_error_clear(); /* the loader reports it, with its message */
    return 0;
  }
  int yes = config_thermal_is_thermal(root);
  params_free(root);
  return yes;
}

/* ---- small readers ------------------------------------------------------------------ */

/* A key given a value (a key given null counts as left out, as everywhere in the config). */
static const struct param_node *thermal_given(const struct param_node *map, const char *key) {
  const struct param_node *n = params_get(map, key);
  return n && n->kind != PARAM_NULL ? n : NULL;
}

/* A new scalar node of `text` appended to the list `seq`. */
static ionf_err thermal_seq_add(struct param_node *seq, const char *text) {
  struct param_node *n = params_new(PARAM_SCALAR, text);
  IONF_CHECK(n, IONF_ERR_MEM, "out of memory");
  return params_seq_append(seq, n);
}

/* Key `key` of section s: one value or a list of three (per axis), each read by `one`
   (its path "SECTION.KEY[a]"); the effective tree gets the list of three.  `def`: the
   default text of one value (NULL: required, `what` says what it is). */
typedef ionf_err thermal_axis_fn(const struct config_ctx *ctx, const char *path,
                                 const struct param_node *n, void *out, int axis);

static ionf_err thermal_per_axis(struct config_section *s, const char *key, const char *def,
                                 const char *what, thermal_axis_fn *one, void *out) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, def, &n));
  IONF_CALL(config_require(s, n, what));
  char base[CONFIG_TEXT_MAX], path[CONFIG_TEXT_MAX + 8];
  snprintf(base, sizeof base, "%s", s->path);
  if (n->kind == PARAM_SEQUENCE) {
    IONF_CHECK(n->n_items == 3, IONF_ERR_CONFIG,
               "%s: %s: expected one value or a list of three (x, y, z), got a list of %zu",
               s->ctx->name, base, n->n_items);
    for (int a = 0; a < 3; ++a) {
      snprintf(path, sizeof path, "%s[%d]", base, a);
      IONF_CALL(one(s->ctx, path, n->items[a], out, a));
    }
    return IONF_OK;
  }
  for (int a = 0; a < 3; ++a) IONF_CALL(one(s->ctx, base, n, out, a));
  struct param_node *seq = params_new(PARAM_SEQUENCE, NULL);
  IONF_CHECK(seq, IONF_ERR_MEM, "out of memory");
  ionf_err rc = IONF_OK;
  for (int a = 0; a < 3 && rc == IONF_OK; ++a) rc = thermal_seq_add(seq, n->scalar);
  if (rc != IONF_OK) {
    params_free(seq);
    return rc;
  }
  return params_map_set(s->eff, key, seq);
}

static ionf_err thermal_axis_cells(const struct config_ctx *ctx, const char *path,
                                   const struct param_node *n, void *out, int axis) {
  return config_int(ctx, path, n, 1, CONFIG_N_MAX, (int64_t *)out + axis);
}

static ionf_err thermal_axis_size(const struct config_ctx *ctx, const char *path,
                                  const struct param_node *n, void *out, int axis) {
  double *v = (double *)out + axis;
  IONF_CALL(config_number(ctx, path, n, "a length in metres", v));
  if (!(isfinite(*v) && *v > 0.0)) return config_range(ctx, path, n, "must be a length > 0 m");
  return IONF_OK;
}

static ionf_err thermal_axis_bool(const struct config_ctx *ctx, const char *path,
                                  const struct param_node *n, void *out, int axis) {
  return config_bool(ctx, path, n, (int *)out + axis);
}

/* A number of section s in [lo, hi] (its default `def`, NULL: required). */
static ionf_err thermal_number_in(struct config_section *s, const char *key, const char *def,
                                  double lo, double hi, const char *rule, double *out) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, def, &n));
  IONF_CALL(config_require(s, n, rule));
  IONF_CALL(config_number(s->ctx, s->path, n, "a number", out));
  if (!(isfinite(*out) && *out >= lo && *out <= hi)) return config_range(s->ctx, s->path, n, rule);
  return IONF_OK;
}

/* ---- sections ----------------------------------------------------------------------- */

static ionf_err thermal_problem(struct config_ctx *ctx, const struct param_node *root) {
  const struct param_node *n = params_get(root, "problem");
  config_blame(ctx, n);
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(n && n->kind == PARAM_SCALAR && !strcmp(n->scalar, "thermal"), IONF_ERR_CONFIG,
             "%s: problem = %s: the only problem named by this key is 'thermal' (thermal "
             "radiation); leave the key out for an ionization run",
             ctx->name, config_text(n, t, sizeof t));
  struct param_node *eff = params_new(PARAM_SCALAR, "thermal");
  IONF_CHECK(eff, IONF_ERR_MEM, "out of memory");
  return params_map_set(ctx->eff, "problem", eff);
}

static ionf_err thermal_grid(struct config_ctx *ctx, const struct param_node *root,
                             struct config_thermal *cfg) {
  static const char *const keys[] = {"cells", "size_m", "periodic"};
  struct config_section s;
  IONF_CALL(config_open_section(ctx, root, "grid", keys, CONFIG_N(keys), &s));
  IONF_CALL(thermal_per_axis(&s, "cells", NULL, "cells per axis: [nx, ny, nz] or one N",
                             thermal_axis_cells, cfg->setup.n));
  IONF_CALL(thermal_per_axis(&s, "size_m", NULL, "the box's sides in m: [Lx, Ly, Lz] or one L",
                             thermal_axis_size, cfg->size_m));
  IONF_CALL(thermal_per_axis(&s, "periodic", "false", "", thermal_axis_bool,
                             cfg->setup.periodic));
  for (int a = 0; a < 3; ++a) cfg->setup.cell_m[a] = cfg->size_m[a] / (double)cfg->setup.n[a];
  return IONF_OK;
}

/* walls.FACE of a non-periodic axis (required), none on a periodic one. */
static ionf_err thermal_wall(struct config_section *walls, int face, struct config_thermal *cfg) {
  static const char *const keys[] = {"emissivity", "T_K"};
  struct config_ctx *ctx = walls->ctx;
  const char *name = config_thermal_face_names[face];
  int axis = face / 2;
  const struct param_node *u = thermal_given(walls->user, name);
  char path[64];
  snprintf(path, sizeof path, "walls.%s", name);
  if (cfg->setup.periodic[axis]) {
    config_blame(ctx, u);
    IONF_CHECK(!u, IONF_ERR_CONFIG,
               "%s: %s is given, but the %s axis is periodic (grid.periodic): a periodic axis "
               "has no walls; remove %s or make the axis non-periodic",
               ctx->name, path, thermal_axis_names[axis], path);
    return IONF_OK;
  }
  config_blame(ctx, u ? u : walls->user);
  IONF_CHECK(u, IONF_ERR_CONFIG,
             "%s: missing required key '%s' ({emissivity, T_K}): the %s axis is not periodic "
             "(grid.periodic), so both of its faces need a wall",
             ctx->name, path, thermal_axis_names[axis]);
  struct config_section s;
  IONF_CALL(config_open(ctx, u, path, keys, CONFIG_N(keys), &s));
  ionf_err rc = params_map_set(walls->eff, name, s.eff);
  if (rc != IONF_OK) return rc;
  struct thermal_wall *w = &cfg->setup.wall[face];
  IONF_CALL(thermal_number_in(&s, "emissivity", "1", 0.0, 1.0,
                              "an emissivity in [0, 1]; 1 = black", &w->emissivity));
  IONF_CALL(thermal_number_in(&s, "T_K", NULL, 0.0, 1e6, "the wall temperature in K, >= 0",
                              &w->t_k));
  return IONF_OK;
}

static ionf_err thermal_walls(struct config_ctx *ctx, const struct param_node *root,
                              struct config_thermal *cfg) {
  struct config_section s;
  IONF_CALL(config_open_section(ctx, root, "walls", config_thermal_face_names, THERMAL_FACES,
                                &s));
  for (int f = 0; f < THERMAL_FACES; ++f) IONF_CALL(thermal_wall(&s, f, cfg));
  return IONF_OK;
}

static ionf_err thermal_gas(struct config_ctx *ctx, const struct param_node *root,
                            struct config_thermal *cfg) {
  static const char *const keys[] = {"model", "kappa_per_m", "pressure_atm", "x_H2O", "x_CO2"};
  struct config_section s;
  IONF_CALL(config_open_section(ctx, root, "gas", keys, CONFIG_N(keys), &s));
  int model = 0;
  IONF_CALL(config_take_enum(&s, "model", "grey", thermal_gas_names,
                             CONFIG_N(thermal_gas_names), &model));
  cfg->setup.gas_model = model == 1 ? THERMAL_GAS_WSGG_BORDBAR14 : THERMAL_GAS_GREY;
  if (cfg->setup.gas_model == THERMAL_GAS_GREY) {
    IONF_CALL(config_positive(&s, "kappa_per_m", NULL,
                              "the grey absorption coefficient in 1/m", &cfg->setup.kappa_per_m));
  } else {
    const struct param_node *k = thermal_given(s.user, "kappa_per_m");
    config_blame(ctx, k);
    IONF_CHECK(!k, IONF_ERR_CONFIG,
               "%s: gas.kappa_per_m is given with gas.model = wsgg: the weighted sum of grey "
               "gases takes its absorption from T, pressure and the mole fractions; remove it",
               ctx->name);
  }
  IONF_CALL(config_positive(&s, "pressure_atm", "1", "the total pressure in atm",
                            &cfg->pressure_atm));
  IONF_CALL(thermal_number_in(&s, "x_H2O", "0", 0.0, 1.0, "a mole fraction in [0, 1]",
                              &cfg->x_h2o));
  IONF_CALL(thermal_number_in(&s, "x_CO2", "0", 0.0, 1.0, "a mole fraction in [0, 1]",
                              &cfg->x_co2));
  IONF_CHECK(cfg->x_h2o + cfg->x_co2 <= 1.0 + 1e-12, IONF_ERR_CONFIG,
             "%s: gas.x_H2O + gas.x_CO2 = %g + %g exceeds 1", ctx->name, cfg->x_h2o, cfg->x_co2);
  return IONF_OK;
}

/* fields.KEY: an optional dataset name, refused beside the uniform gas.KEY (given). */
static ionf_err thermal_dataset(struct config_section *s, const struct param_node *root,
                                const char *key, int required, char *out) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, NULL, &n));
  if (required) IONF_CALL(config_require(s, n, "the dataset of T [K], [nx][ny][nz] doubles"));
  if (!n) return IONF_OK;
  IONF_CALL(config_string(s->ctx, s->path, n, "a dataset name", out, CONFIG_THERMAL_NAME_MAX));
  const struct param_node *uniform = thermal_given(params_get(root, "gas"), key);
  config_blame(s->ctx, uniform);
  IONF_CHECK(required || !uniform, IONF_ERR_CONFIG,
             "%s: both gas.%s (uniform) and fields.%s (a dataset) are given: keep one",
             s->ctx->name, key, key);
  return IONF_OK;
}

static ionf_err thermal_fields(struct config_ctx *ctx, const struct param_node *root,
                               struct config_thermal *cfg) {
  static const char *const keys[] = {"file", "T_K", "pressure_atm", "x_H2O", "x_CO2"};
  static const char *const field_keys[CONFIG_THERMAL_FIELDS] = {"T_K", "pressure_atm",
                                                                "x_H2O", "x_CO2"};
  struct config_section s;
  IONF_CALL(config_open_section(ctx, root, "fields", keys, CONFIG_N(keys), &s));
  struct param_node *n;
  char file[IONF_PATH_MAX];
  IONF_CALL(config_take(&s, "file", NULL, &n));
  IONF_CALL(config_require(&s, n, "the HDF5 file of the fields"));
  IONF_CALL(config_string(ctx, s.path, n, "a file name", file, sizeof file));
  IONF_CALL(config_resolve(ctx, s.path, file, cfg->file, sizeof cfg->file));
  free(n->scalar); /* the effective config shows the resolved path */
  n->scalar = NULL;
  IONF_CHECK((n->scalar = malloc(strlen(cfg->file) + 1)) != NULL, IONF_ERR_MEM, "out of memory");
  memcpy(n->scalar, cfg->file, strlen(cfg->file) + 1);
  n->quoted = 1;
  for (int k = 0; k < CONFIG_THERMAL_FIELDS; ++k)
    IONF_CALL(thermal_dataset(&s, root, field_keys[k], k == CONFIG_THERMAL_T, cfg->dataset[k]));
  cfg->profile = CONFIG_THERMAL_FILE;
  return IONF_OK;
}

static ionf_err thermal_setup(struct config_ctx *ctx, const struct param_node *root,
                              struct config_thermal *cfg) {
  static const char *const keys[] = {"profile", "axis", "T_K"};
  struct config_section s;
  IONF_CALL(config_open_section(ctx, root, "setup", keys, CONFIG_N(keys), &s));
  int profile = 0;
  IONF_CALL(config_take_enum(&s, "profile", NULL, config_thermal_profile_names + 1, 6, &profile));
  cfg->profile = (enum config_thermal_profile)(profile + 1);
  IONF_CALL(config_take_enum(&s, "axis", "x", thermal_axis_names, 3, &cfg->axis));
  if (cfg->profile == CONFIG_THERMAL_UNIFORM)
    return config_positive(&s, "T_K", NULL, "the uniform temperature in K", &cfg->uniform_t_k);
  const struct param_node *t = thermal_given(s.user, "T_K");
  config_blame(ctx, t);
  IONF_CHECK(!t, IONF_ERR_CONFIG, "%s: setup.T_K is for setup.profile = uniform (profile %s "
             "sets T itself)", ctx->name, config_thermal_profile_names[cfg->profile]);
  return IONF_OK;
}

/* Exactly one of fields: and setup:. */
static ionf_err thermal_medium(struct config_ctx *ctx, const struct param_node *root,
                               struct config_thermal *cfg) {
  const struct param_node *f = params_get(root, "fields"), *s = params_get(root, "setup");
  int has_f = f && f->kind != PARAM_NULL, has_s = s && s->kind != PARAM_NULL;
  config_blame(ctx, has_s ? s : f);
  IONF_CHECK(has_f != has_s, IONF_ERR_CONFIG,
             "%s: %s: a thermal run takes its temperature from fields: (an HDF5 file: {file, "
             "T_K, ...}) or from setup: (a profile: {profile: uniform|lin1|parab1|parab2|sin|"
             "3dims, ...}), exactly one of them",
             ctx->name, has_f ? "both fields: and setup: are given" : "neither fields: nor setup: is given");
  return has_f ? thermal_fields(ctx, root, cfg) : thermal_setup(ctx, root, cfg);
}

static ionf_err thermal_montecarlo(struct config_ctx *ctx, const struct param_node *root,
                                   struct config_thermal *cfg) {
  static const char *const keys[] = {"rays_per_element", "seed", "transmissivity_min",
                                     "multigrid", "sort_gases"};
  static const char *const mg_keys[] = {"levels", "steps_per_level"};
  struct config_section s, mg;
  struct param_node *n;
  int64_t v;
  IONF_CALL(config_open_section(ctx, root, "montecarlo", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "rays_per_element", "1000", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 4294967295LL, &cfg->setup.rays_per_element));
  IONF_CALL(config_take(&s, "seed", "1", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 4294967295LL, &v));
  cfg->setup.seed = (uint32_t)v;
  IONF_CALL(thermal_number_in(&s, "transmissivity_min", "1e-6", 0.0, 1.0,
                              "a transmissivity in (0, 1): a ray ends below it",
                              &cfg->setup.transmissivity_min));
  IONF_CHECK(cfg->setup.transmissivity_min > 0.0 && cfg->setup.transmissivity_min < 1.0,
             IONF_ERR_CONFIG, "%s: montecarlo.transmissivity_min = %g is out of range (a "
             "transmissivity in (0, 1): a ray ends below it)", ctx->name,
             cfg->setup.transmissivity_min);
  IONF_CALL(config_open(ctx, params_get(s.user, "multigrid"), "montecarlo.multigrid", mg_keys,
                        CONFIG_N(mg_keys), &mg));
  IONF_CALL(params_map_set(s.eff, "multigrid", mg.eff));
  IONF_CALL(config_take(&mg, "levels", "1", &n));
  IONF_CALL(config_int(ctx, mg.path, n, 0, THERMAL_LEVELS_MAX, &v));
  cfg->setup.multigrid.levels = (int)v;
  IONF_CALL(config_take(&mg, "steps_per_level", "5", &n));
  IONF_CALL(config_int(ctx, mg.path, n, 1, 1000000, &v));
  cfg->setup.multigrid.steps_per_level = (int)v;
  IONF_CALL(config_take(&s, "sort_gases", "false", &n));
  return config_bool(ctx, s.path, n, &cfg->setup.sort_gases);
}

static ionf_err thermal_output(struct config_ctx *ctx, const struct param_node *root,
                               struct config_thermal *cfg) {
  static const char *const keys[] = {"directory", "overwrite", "progress"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "output", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "directory", CONFIG_DEF_OUTPUT_DIR, &n));
  IONF_CALL(config_string(ctx, s.path, n, "a directory", cfg->output_dir, sizeof cfg->output_dir));
  IONF_CALL(config_take(&s, "overwrite", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->overwrite));
  IONF_CALL(config_take(&s, "progress", CONFIG_DEF_PROGRESS, &n));
  return config_bool(ctx, s.path, n, &cfg->progress);
}

static ionf_err thermal_raytracing(struct config_ctx *ctx, const struct param_node *root,
                                   struct config_thermal *cfg) {
  static const char *const keys[] = {"backend"};
  static const char *const backends[] = {"cpu", "cuda", "auto"};
  static const enum backend_kind backend_of[] = {BACKEND_CPU, BACKEND_CUDA, BACKEND_AUTO};
  struct config_section s;
  int which = 2;
  IONF_CALL(config_open_section(ctx, root, "raytracing", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take_enum(&s, "backend", CONFIG_DEF_BACKEND, backends, CONFIG_N(backends),
                             &which));
  cfg->backend = backend_of[which];
  return IONF_OK;
}

/* What one section cannot check alone: WSGG needs some H2O or CO2. */
static ionf_err thermal_cross_check(struct config_ctx *ctx, const struct config_thermal *cfg) {
  config_blame(ctx, NULL);
  int species_fields = cfg->dataset[CONFIG_THERMAL_X_H2O][0] || cfg->dataset[CONFIG_THERMAL_X_CO2][0];
  IONF_CHECK(cfg->setup.gas_model != THERMAL_GAS_WSGG_BORDBAR14 || species_fields ||
                 cfg->x_h2o + cfg->x_co2 > 0.0,
             IONF_ERR_CONFIG,
             "%s: gas.model = wsgg with no H2O and no CO2 (gas.x_H2O = gas.x_CO2 = 0 and no "
             "fields.x_H2O / fields.x_CO2): the gas would be transparent",
             ctx->name);
  int gases = thermal_gas_count(cfg->setup.gas_model);
  IONF_CHECK(!cfg->setup.sort_gases || cfg->setup.rays_per_element >= 2 * gases,
             IONF_ERR_CONFIG, "%s: montecarlo.sort_gases = true with montecarlo.rays_per_element "
             "= %lld: sorting by grey gas needs at least %d rays (2 per grey gas of gas.model "
             "%s)", ctx->name, (long long)cfg->setup.rays_per_element, 2 * gases,
             config_thermal_gas_name(cfg->setup.gas_model));
  ionf_err rc = thermal_setup_check(&cfg->setup);
  if (rc != IONF_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", ionf_error_message());
    return ionf_error_set(rc, "%s: %s", ctx->name, why);
  }
  return IONF_OK;
}

static ionf_err thermal_emit(const struct config_ctx *ctx, struct config_thermal *cfg) {
  return config_effective_yaml(ctx, &cfg->effective_yaml);
}

static ionf_err thermal_build(struct config_ctx *ctx, const struct param_node *root,
                              struct config_thermal *cfg) {
  IONF_CHECK(root && root->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: expected a mapping of sections at the top level", ctx->name);
  IONF_CALL(config_check_keys(ctx, root, NULL, thermal_sections, CONFIG_N(thermal_sections)));
  IONF_CALL(thermal_problem(ctx, root));
  IONF_CALL(thermal_grid(ctx, root, cfg));
  IONF_CALL(thermal_walls(ctx, root, cfg));
  IONF_CALL(thermal_gas(ctx, root, cfg));
  IONF_CALL(thermal_medium(ctx, root, cfg));
  IONF_CALL(thermal_montecarlo(ctx, root, cfg));
  IONF_CALL(thermal_output(ctx, root, cfg));
  IONF_CALL(thermal_raytracing(ctx, root, cfg));
  IONF_CALL(thermal_cross_check(ctx, cfg));
  return thermal_emit(ctx, cfg);
}

/* ---- public ----------------------------------------------------------------------- */

ionf_err config_thermal_from_params(const struct param_node *root, const char *name,
                                   const char *dir, struct config_thermal *cfg) {
  memset(cfg, 0, sizeof *cfg);
  if (!name) name = "config";
  snprintf(cfg->config_name, sizeof cfg->config_name, "%s", name);
  struct config_ctx ctx = {.name = name, .config_name = name};
  snprintf(ctx.dir, sizeof ctx.dir, "%s", dir ? dir : "");
  ctx.eff = params_new(PARAM_MAPPING, NULL);
  if (!ctx.eff) return IONF_ERR_MEM;
  ionf_err rc = thermal_build(&ctx, root, cfg);
  params_free(ctx.eff);
  if (rc != IONF_OK) {
    config_thermal_free(cfg);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

ionf_err config_thermal_load_file(const struct config_file *f, char *const *overrides,
                                  int n_overrides, struct config_thermal *cfg) {
  struct param_node *root = NULL;
  memset(cfg, 0, sizeof *cfg);
  IONF_CALL(config_file_tree(f, overrides, n_overrides, &root));
  ionf_err rc = config_thermal_from_params(root, f->name, f->dir, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

void config_thermal_free(struct config_thermal *cfg) {
  if (!cfg) return;
  free(cfg->effective_yaml);
  cfg->effective_yaml = NULL;
}
