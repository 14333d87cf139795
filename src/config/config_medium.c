/**
 * @file config_medium.c
 * @brief The medium of a grid run: grid:, material: (density, clumps), chemistry:.
 */
#include "config/config_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/constants.h"
#include "grid/clumps.h"

ionf_err config_medium_grid(struct config_ctx *ctx, const struct param_node *root,
                            struct ionf_config *cfg) {
  static const char *const keys[] = {"N", "box_size", "periodic", "decomposition"};
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

  /* how the grid is split among ranks (grid/decomp.h); auto decided at start-up */
  static const char *const kinds[] = {"auto", "replicated", "slabs"};
  static const enum decomposition_mode kind_of[] = {DECOMPOSITION_AUTO, DECOMPOSITION_REPLICATED,
                                                    DECOMPOSITION_SLABS};
  int which = 0;
  IONF_CALL(config_take_enum(&s, "decomposition", "auto", kinds, CONFIG_N(kinds), &which));
  cfg->decomposition = kind_of[which];
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

/* Helium's keys of the material section, optional (absent: hydrogen alone, and the
   effective config of a hydrogen run stays as it was): abundance_He in [0, 1], the
   initial He fractions x_HeII (default x_HII_initial) and x_HeIII (default 0). */
static ionf_err config_medium_helium(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  struct param_node *n;
  cfg->abundance_he = 0.0;
  IONF_CALL(config_take(s, "abundance_He", NULL, &n));
  if (n) {
    IONF_CALL(config_number(ctx, s->path, n, "the number ratio n_He / n_H", &cfg->abundance_he));
    if (!(cfg->abundance_he >= 0.0 && cfg->abundance_he <= 1.0))
      return config_range(ctx, s->path, n, "must be in [0, 1] (primordial: about 0.08)");
  }
  cfg->x_heii_initial = cfg->x_hii_initial;
  cfg->x_heiii_initial = 0.0;
  const char *keys[2] = {"x_HeII_initial", "x_HeIII_initial"};
  double *dst[2] = {&cfg->x_heii_initial, &cfg->x_heiii_initial};
  for (int k = 0; k < 2; ++k) {
    IONF_CALL(config_take(s, keys[k], NULL, &n));
    if (!n) continue;
    IONF_CALL(config_number(ctx, s->path, n, "a fraction of helium", dst[k]));
    if (!(*dst[k] >= 0.0 && *dst[k] <= 1.0)) return config_range(ctx, s->path, n, "must be in [0, 1]");
  }
  IONF_CHECK(cfg->x_heii_initial + cfg->x_heiii_initial <= 1.0, IONF_ERR_CONFIG,
             "%s: material.x_HeII_initial + x_HeIII_initial = %g exceeds 1", ctx->name,
             cfg->x_heii_initial + cfg->x_heiii_initial);
  return IONF_OK;
}

ionf_err config_medium_material(struct config_ctx *ctx, const struct param_node *root,
                                struct ionf_config *cfg) {
  static const char *const keys[] = {"n_H",         "temperature",    "x_HII_initial",
                                     "isothermal",  "clumps",         "abundance_He",
                                     "x_HeII_initial", "x_HeIII_initial"};
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
  return config_medium_helium(&s, cfg);
}

ionf_err config_medium_chemistry(struct config_ctx *ctx, const struct param_node *root,
                                 struct ionf_config *cfg) {
  static const char *const keys[] = {"alpha_B", "alpha_B_power", "collisional_ionization",
                                     "abu_c", "case", "clumping"};
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
  /* the recombination case of runs with helium (hydrogen alone: chemistry.alpha_B's) */
  IONF_CALL(config_take(&s, "case", NULL, &n));
  if (n) {
    IONF_CHECK(n->kind == PARAM_SCALAR && n->scalar &&
                   (!strcmp(n->scalar, "A") || !strcmp(n->scalar, "B")),
               IONF_ERR_CONFIG, "%s: %s = %s: A or B", ctx->name, s.path,
               n->scalar ? n->scalar : "(not a word)");
    cfg->recombination_case_b = !strcmp(n->scalar, "B");
  }
  return config_subgrid_clumping(&s, cfg); /* the sub-grid clumping factor (optional) */
}
