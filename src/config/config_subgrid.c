/**
 * @file config_subgrid.c
 * @brief The sub-grid models of a run: chemistry.clumping (chem/clumping.h) and
 *        raytracing.mean_free_path (rt/mfp.h); their checks against the rest of the
 *        config, the photon radius the run plans with, each step's radius, and the
 *        start-up description.
 *
 *   chemistry.clumping: C [>= 1]
 *                     | {model: constant, value: C}
 *                     | {model: redshift, C0 [>= 0], c1, c2 | fits_cell_size, z}
 *                     | {model: density, table: FILE | fits_cell_size, x: n/mean|1+n/mean, z}
 *   raytracing.mean_free_path: {model: Choudhury09, A [length > 0], eta}
 *                            | {model: Worseck2014, A, eta, z1 [6], eta1 [9]}
 */
#include "config/config_subgrid.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config_internal.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "io/io_clumping.h"

/* ---- chemistry.clumping ------------------------------------------------------------ */

static const char *const config_subgrid_models[] = {"constant", "redshift", "density"};

/* A clumping factor: a number >= 1. */
static ionf_err config_subgrid_factor(struct config_ctx *ctx, const char *path,
                                      const struct param_node *n, double *out) {
  IONF_CALL(config_number(ctx, path, n, "a clumping factor (a number >= 1)", out));
  if (!(*out >= 1.0))
    return config_range(ctx, path, n,
                        "must be >= 1: a clumping factor <n^2>/<n>^2 is at least 1 (1 = none)");
  return IONF_OK;
}

/* fits_cell_size: the built-in fits of that comoving cell size; by default the nearest to
   the grid's cells (grid.box_size / grid.N as given: comoving when cosmological). */
static ionf_err config_subgrid_fits(struct config_section *s, const struct ionf_config *cfg,
                                    int *fit) {
  struct config_ctx *ctx = s->ctx;
  double cell_mpc = cfg->box_size_cm / (double)cfg->n_cells_1d / IONF_MPC_CM;
  char def[32], list[128] = "";
  snprintf(def, sizeof def, "%.3f", clumping_fits_cell_mpc(clumping_fits_nearest(cell_mpc)));
  size_t used = 0;
  for (int i = 0; i < clumping_fits_count() && used < sizeof list; ++i)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%.3f", i ? ", " : "",
                             clumping_fits_cell_mpc(i));
  struct param_node *n;
  double v_cm = 0.0;
  IONF_CALL(config_take(s, "fits_cell_size", def, &n));
  IONF_CALL(config_quantity(ctx, s->path, n, UNIT_LENGTH, IONF_MPC_CM, 0.0, &v_cm));
  for (int i = 0; i < clumping_fits_count(); ++i)
    if (fabs(v_cm / IONF_MPC_CM - clumping_fits_cell_mpc(i)) < 5e-4) {
      *fit = i;
      return IONF_OK;
    }
  char rule[256];
  snprintf(rule, sizeof rule,
           "the built-in fits of Bianco et al. 2021 are for comoving cells of %s Mpc", list);
  return config_range(ctx, s->path, n, rule);
}

/* The keys a model takes besides `model` (NULL-terminated lists). */
static const char *const *config_subgrid_model_keys(int model) {
  static const char *const constant[] = {"value", NULL};
  static const char *const redshift[] = {"C0", "c1", "c2", "fits_cell_size", "z", NULL};
  static const char *const density[] = {"table", "fits_cell_size", "x", "z", NULL};
  return model == 0 ? constant : model == 1 ? redshift : density;
}

/* Every key given must belong to the model. */
static ionf_err config_subgrid_model_fits_keys(struct config_section *s, int model) {
  const char *const *known = config_subgrid_model_keys(model);
  for (size_t i = 0; s->user && i < s->user->n_items; ++i) {
    const char *key = s->user->keys[i];
    int ok = !strcmp(key, "model");
    for (const char *const *k = known; *k && !ok; ++k) ok = !strcmp(key, *k);
    char list[128] = "";
    size_t used = 0;
    for (const char *const *k = known; *k && used < sizeof list; ++k)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k == known ? "" : ", ", *k);
    IONF_CHECK(ok, IONF_ERR_CONFIG,
               "%s: chemistry.clumping.%s: does not apply to model %s (its keys: model, %s)",
               s->ctx->name, key, config_subgrid_models[model], list);
  }
  return IONF_OK;
}

/* z: the redshift a run without one evaluates the model at (optional). */
static ionf_err config_subgrid_z(struct config_section *s, struct clumping_model *m) {
  struct param_node *n;
  IONF_CALL(config_take(s, "z", NULL, &n));
  if (!n) return IONF_OK;
  double z = 0.0;
  IONF_CALL(config_number(s->ctx, s->path, n, "a redshift", &z));
  if (!(z >= 0.0 && z < 1e4)) return config_range(s->ctx, s->path, n, "must be a redshift in [0, 1e4)");
  m->z_fixed = z;
  s->ctx->clumping_z_given = 1;
  return IONF_OK;
}

static ionf_err config_subgrid_redshift(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  struct clumping_model *m = &cfg->clumping;
  const char *names[3] = {"C0", "c1", "c2"};
  double *dst[3] = {&m->c0, &m->c1, &m->c2};
  int given = 0;
  for (int k = 0; k < 3; ++k) given += params_get(s->user, names[k]) != NULL;
  if (given == 0) { /* the built-in fit of the cell size */
    int fit = 0;
    IONF_CALL(config_subgrid_fits(s, cfg, &fit));
    clumping_fits_redshift(fit, &m->c0, &m->c1, &m->c2);
    m->fits_cell_mpc = clumping_fits_cell_mpc(fit);
    return config_subgrid_z(s, m);
  }
  IONF_CHECK(!params_get(s->user, "fits_cell_size"), IONF_ERR_CONFIG,
             "%s: chemistry.clumping: give either the fit's C0, c1, c2 or fits_cell_size (the "
             "built-in fit of that cell size), not both",
             ctx->name);
  for (int k = 0; k < 3; ++k) {
    struct param_node *n;
    IONF_CALL(config_take(s, names[k], NULL, &n));
    IONF_CALL(config_require(s, n, "the redshift model needs C0, c1 and c2 of "
                                   "C(z) = C0 exp(c1 z + c2 z^2) + 1 (or none of them: the "
                                   "built-in fit of the grid's cell size)"));
    IONF_CALL(config_number(ctx, s->path, n, "a number", dst[k]));
  }
  if (!(m->c0 >= 0.0))
    return config_range(ctx, "chemistry.clumping.C0", params_get(s->eff, "C0"),
                        "must be >= 0, so that C(z) = C0 exp(c1 z + c2 z^2) + 1 is at least 1");
  return config_subgrid_z(s, m);
}

static ionf_err config_subgrid_density(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  struct clumping_model *m = &cfg->clumping;
  struct param_node *n;
  IONF_CALL(config_take(s, "table", NULL, &n));
  if (n) {
    IONF_CHECK(!params_get(s->user, "fits_cell_size"), IONF_ERR_CONFIG,
               "%s: chemistry.clumping: give either a table or fits_cell_size (the built-in "
               "fits of that cell size), not both",
               ctx->name);
    char file[IONF_PATH_MAX], key[2 * CONFIG_TEXT_MAX];
    IONF_CALL(config_string(ctx, s->path, n, "a file name", file, sizeof file));
    IONF_CALL(config_resolve(ctx, s->path, n->scalar, file, sizeof file));
    struct param_node *resolved = params_new(PARAM_SCALAR, file);
    IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
    resolved->quoted = 1;
    IONF_CALL(params_map_set(s->eff, "table", resolved));
    snprintf(key, sizeof key, "%s: %s", ctx->name, s->path);
    IONF_CALL(io_clumping_read_table(file, key, &m->table));
  } else {
    int fit = 0;
    IONF_CALL(config_subgrid_fits(s, cfg, &fit));
    clumping_fits_table(fit, &m->table);
    m->fits_cell_mpc = clumping_fits_cell_mpc(fit);
  }
  static const char *const xs[] = {"n/mean", "1+n/mean"};
  int which = 0;
  IONF_CALL(config_take_enum(s, "x", "n/mean", xs, CONFIG_N(xs), &which));
  m->x_plus_one = which == 1;
  return config_subgrid_z(s, m);
}

ionf_err config_subgrid_clumping(struct config_section *chem, struct ionf_config *cfg) {
  struct config_ctx *ctx = chem->ctx;
  struct clumping_model *m = &cfg->clumping;
  struct param_node *n;
  IONF_CALL(config_take(chem, "clumping", NULL, &n));
  if (!n) return IONF_OK; /* none: C = 1, and the effective config without the key */
  ctx->clumping_where = ctx->name;
  if (n->kind == PARAM_SCALAR) {
    m->kind = CLUMPING_CONSTANT;
    return config_subgrid_factor(ctx, chem->path, n, &m->value);
  }
  IONF_CHECK(n->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: chemistry.clumping: expected a clumping factor (a number >= 1) or a mapping "
             "{model: constant|redshift|density, ...}, got %s",
             ctx->name, config_kind(n));
  static const char *const keys[] = {"model", "value", "C0", "c1", "c2", "fits_cell_size",
                                     "table", "x", "z"};
  struct config_section s;
  IONF_CALL(config_open(ctx, params_get(chem->user, "clumping"), "chemistry.clumping", keys,
                        CONFIG_N(keys), &s));
  IONF_CALL(params_map_set(chem->eff, "clumping", s.eff));
  IONF_CALL(config_take(&s, "model", NULL, &n));
  IONF_CALL(config_require(&s, n, "constant, redshift or density"));
  int model = 0;
  IONF_CALL(config_enum(ctx, s.path, n, config_subgrid_models, CONFIG_N(config_subgrid_models),
                        &model));
  IONF_CALL(config_subgrid_model_fits_keys(&s, model));
  if (model == 0) {
    m->kind = CLUMPING_CONSTANT;
    IONF_CALL(config_take(&s, "value", NULL, &n));
    IONF_CALL(config_require(&s, n, "the clumping factor, a number >= 1"));
    return config_subgrid_factor(ctx, s.path, n, &m->value);
  }
  m->kind = model == 1 ? CLUMPING_REDSHIFT : CLUMPING_DENSITY;
  return model == 1 ? config_subgrid_redshift(&s, cfg) : config_subgrid_density(&s, cfg);
}

/* ---- raytracing.mean_free_path ------------------------------------------------------- */

ionf_err config_subgrid_mfp(struct config_section *rt, struct ionf_config *cfg) {
  struct config_ctx *ctx = rt->ctx;
  struct mfp_model *m = &cfg->mean_free_path;
  struct param_node *n;
  IONF_CALL(config_take(rt, "mean_free_path", NULL, &n));
  if (!n) return IONF_OK; /* raytracing.R_max alone */
  ctx->mfp_where = ctx->name;
  IONF_CHECK(n->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: raytracing.mean_free_path: expected a mapping {model: Choudhury09|Worseck2014, "
             "A: LENGTH, eta: NUMBER, ...}, got %s",
             ctx->name, config_kind(n));
  static const char *const keys[] = {"model", "A", "eta", "z1", "eta1"};
  static const char *const models[] = {"Choudhury09", "Worseck2014"};
  struct config_section s;
  IONF_CALL(config_open(ctx, params_get(rt->user, "mean_free_path"), "raytracing.mean_free_path",
                        keys, CONFIG_N(keys), &s));
  IONF_CALL(params_map_set(rt->eff, "mean_free_path", s.eff));
  IONF_CALL(config_take(&s, "model", NULL, &n));
  IONF_CALL(config_require(&s, n, "Choudhury09 or Worseck2014"));
  int which = 0;
  IONF_CALL(config_enum(ctx, s.path, n, models, CONFIG_N(models), &which));
  m->kind = which == 0 ? MFP_CHOUDHURY09 : MFP_WORSECK2014;
  IONF_CHECK(which == 1 || (!params_get(s.user, "z1") && !params_get(s.user, "eta1")),
             IONF_ERR_CONFIG,
             "%s: raytracing.mean_free_path: z1 and eta1 belong to model Worseck2014 (Choudhury09 "
             "is A ((1+z)/5)^eta)",
             ctx->name);
  IONF_CALL(config_take(&s, "A", NULL, &n));
  IONF_CALL(config_require(&s, n, "the mean free path at z = 4, a comoving length like '210 Mpc' "
                                  "(a bare number is in Mpc)"));
  double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_LENGTH, IONF_MPC_CM, cell_cm, &m->a_cm));
  if (!(m->a_cm > 0.0)) return config_range(ctx, s.path, n, "must be a length > 0");
  IONF_CALL(config_take(&s, "eta", NULL, &n));
  IONF_CALL(config_require(&s, n, "the power of (1+z)/5, e.g. -9"));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &m->eta));
  if (which == 0) return IONF_OK;
  IONF_CALL(config_take(&s, "z1", "6", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a redshift", &m->z1));
  if (!(m->z1 >= 0.0)) return config_range(ctx, s.path, n, "must be a redshift >= 0");
  IONF_CALL(config_take(&s, "eta1", "9", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &m->eta1));
  return IONF_OK;
}

/* ---- checks after every section ----------------------------------------------------- */

/* The redshifts a cosmological run spans: from z_initial to where t_end takes it. */
static void config_subgrid_z_span(const struct ionf_config *cfg, double *z_start, double *z_end) {
  *z_start = cfg->z_initial;
  const struct sequence_config *seq = &cfg->sequence;
  if (seq->n_redshifts > 0) {
    *z_end = seq->redshifts[seq->n_redshifts - 1];
    return;
  }
  struct cosmology c = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  *z_end = cosmology_redshift_at_age(&c, cosmology_age_s(&c, cfg->z_initial) + cfg->t_end_s);
}

ionf_err config_subgrid_check(struct config_ctx *ctx, struct ionf_config *cfg) {
  const char *name = ctx->clumping_where ? ctx->clumping_where : ctx->config_name;
  struct clumping_model *cm = &cfg->clumping;
  if (cm->kind == CLUMPING_REDSHIFT || cm->kind == CLUMPING_DENSITY) {
    IONF_CHECK(!cfg->cosmological || !ctx->clumping_z_given, IONF_ERR_CONFIG,
               "%s: chemistry.clumping.z: a cosmological run evaluates the model at each step's "
               "redshift; leave z out (it is for runs without a redshift)",
               name);
    if (cfg->cosmological) cm->z_fixed = -1.0;
    else if (!ctx->clumping_z_given) cm->z_fixed = cfg->z_initial; /* the run's nominal z */
  }
  IONF_CHECK(cm->kind == CLUMPING_NONE || cfg->method != RT_METHOD_MONTECARLO ||
                 !cfg->montecarlo.recombination_emission,
             IONF_ERR_CONFIG,
             "%s: chemistry.clumping with montecarlo.recombination_emission: the diffuse field's "
             "recombination photons are not clumped; use one or the other",
             name);
  const struct mfp_model *mm = &cfg->mean_free_path;
  if (mm->kind == MFP_NONE) return IONF_OK;
  name = ctx->mfp_where ? ctx->mfp_where : ctx->config_name;
  IONF_CHECK(cfg->cosmological, IONF_ERR_CONFIG,
             "%s: raytracing.mean_free_path: the model gives R_max from the redshift, so it needs "
             "a cosmological run (cosmology.cosmological: true); a static run takes a fixed "
             "raytracing.R_max",
             name);
  double z0, z1, r_min_cm, r_max_cm;
  config_subgrid_z_span(cfg, &z0, &z1);
  mfp_range_cm(mm, z0, z1, &r_min_cm, &r_max_cm);
  const double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d; /* comoving */
  double plan = r_max_cm / cell_cm;
  IONF_CHECK(r_min_cm > 0.0 && isfinite(plan), IONF_ERR_CONFIG,
             "%s: raytracing.mean_free_path: R(z) from z = %g to %g is %g to %g Mpc: not a "
             "usable photon radius (check A and eta)",
             name, z0, z1, r_min_cm / IONF_MPC_CM, r_max_cm / IONF_MPC_CM);
  if (cfg->r_max_cap_cells > 0.0 && plan > cfg->r_max_cap_cells) plan = cfg->r_max_cap_cells;
  cfg->r_max_cells = plan; /* the halos and buffers are sized for the largest */
  return IONF_OK;
}

/* ---- the run ------------------------------------------------------------------------- */

double config_subgrid_r_max_cells(const struct ionf_config *cfg, double z) {
  if (cfg->mean_free_path.kind == MFP_NONE) return cfg->r_max_cells;
  double r = mfp_comoving_cm(&cfg->mean_free_path, z) /
             (cfg->box_size_cm / (double)cfg->n_cells_1d);
  if (cfg->r_max_cap_cells > 0.0 && r > cfg->r_max_cap_cells) r = cfg->r_max_cap_cells;
  return r > 0.0 && r < cfg->r_max_cells ? r : cfg->r_max_cells; /* never beyond the plan */
}

/* ---- the start-up log ---------------------------------------------------------------- */

/* Where the density model's coefficients come from. */
static void config_subgrid_source(const struct clumping_model *m, char *buf, size_t size) {
  if (m->fits_cell_mpc > 0.0)
    snprintf(buf, size, "Bianco et al. 2021's fits for %.3f Mpc cells", m->fits_cell_mpc);
  else
    snprintf(buf, size, "the table's %d rows", m->table.n_rows);
}

static void config_subgrid_describe_clumping(const struct ionf_config *cfg, double z0, double z1,
                                             char *buf, size_t size) {
  const struct clumping_model *m = &cfg->clumping;
  char from[96];
  config_subgrid_source(m, from, sizeof from);
  if (m->kind == CLUMPING_CONSTANT) {
    snprintf(buf, size, "clumping: C = %g times every recombination (chemistry.clumping)",
             m->value);
  } else if (m->kind == CLUMPING_REDSHIFT) {
    int n = snprintf(buf, size, "clumping: C(z) = %g exp(%g z + %g z^2) + 1%s%s%s: C = %.4g at z = %g",
                     m->c0, m->c1, m->c2, m->fits_cell_mpc > 0.0 ? " (" : "",
                     m->fits_cell_mpc > 0.0 ? from : "", m->fits_cell_mpc > 0.0 ? ")" : "",
                     clumping_redshift_factor(m->c0, m->c1, m->c2, z0), z0);
    if (n > 0 && (size_t)n < size && m->z_fixed >= 0.0)
      snprintf(buf + n, size - (size_t)n, " (fixed: the run's redshift does not evolve)");
    else if (n > 0 && (size_t)n < size)
      snprintf(buf + n, size - (size_t)n, " to %.4g at z = %.4g",
               clumping_redshift_factor(m->c0, m->c1, m->c2, z1), z1);
  } else if (m->kind == CLUMPING_DENSITY) {
    const struct clumping_table *t = &m->table;
    double abc[3];
    clumping_table_at(t, z0, abc);
    double lo = z0 < z1 ? z0 : z1, hi = z0 < z1 ? z1 : z0;
    int outside = t->n_rows > 0 && (lo < t->z[0] || hi > t->z[t->n_rows - 1]);
    snprintf(buf, size,
             "clumping: C = max(1, a x^2 + b x + c), x = %s, a, b, c linear in z from %s "
             "(z = %g to %g%s); at z = %g: a = %.4g, b = %.4g, c = %.4g",
             m->x_plus_one ? "1 + n_H/<n_H> (pyC2Ray)" : "n_H/<n_H>", from,
             t->n_rows ? t->z[0] : 0.0, t->n_rows ? t->z[t->n_rows - 1] : 0.0,
             outside ? "; the run goes beyond, where the end rows hold" : "", z0, abc[0], abc[1],
             abc[2]);
  }
}

int config_subgrid_describe(const struct ionf_config *cfg,
                            char lines[2][CONFIG_SUBGRID_LINE_MAX]) {
  int n = 0;
  double z0 = cfg->clumping.z_fixed >= 0.0 ? cfg->clumping.z_fixed : cfg->z_initial, z1 = z0;
  if (cfg->cosmological) config_subgrid_z_span(cfg, &z0, &z1);
  if (cfg->clumping.kind != CLUMPING_NONE)
    config_subgrid_describe_clumping(cfg, z0, z1, lines[n++], CONFIG_SUBGRID_LINE_MAX);
  const struct mfp_model *m = &cfg->mean_free_path;
  if (m->kind == MFP_NONE) return n;
  const double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  double r_min, r_max;
  mfp_range_cm(m, z0, z1, &r_min, &r_max);
  char worseck[96] = "", cap[96] = "";
  if (m->kind == MFP_WORSECK2014)
    snprintf(worseck, sizeof worseck, " (1 + ((1+z)/%g)^%g)", 1.0 + m->z1, m->eta1);
  if (cfg->r_max_cap_cells > 0.0)
    snprintf(cap, sizeof cap, ", capped at raytracing.R_max = %.4g cells", cfg->r_max_cap_cells);
  double r0 = mfp_comoving_cm(m, z0), r1 = mfp_comoving_cm(m, z1);
  snprintf(lines[n++], CONFIG_SUBGRID_LINE_MAX,
           "R_max: %s mean free path R(z) = %g Mpc ((1+z)/5)^%g%s, comoving: %.4g Mpc (%.4g "
           "cells) at z = %g, %.4g Mpc (%.4g cells) at z = %.4g, %.4g to %.4g Mpc in between%s; "
           "halos and buffers sized for %.4g cells",
           mfp_name(m->kind), m->a_cm / IONF_MPC_CM, m->eta, worseck, r0 / IONF_MPC_CM,
           r0 / cell_cm, z0, r1 / IONF_MPC_CM, r1 / cell_cm, z1, r_min / IONF_MPC_CM,
           r_max / IONF_MPC_CM, cap, cfg->r_max_cells);
  return n;
}
