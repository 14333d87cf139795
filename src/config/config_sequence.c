/**
 * @file config_sequence.c
 * @brief sequence: the redshifts of a production run, their times and steps, and the
 *        file patterns and formats of its density grids and halo catalogues.
 */
#include "config/config_internal.h"

#include <math.h>
#include <stdio.h>

#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "io/io_halos.h"
#include "io/io_halos_c2ray.h"

void config_sequence_file_name(const char *pattern, double z, char *buf, size_t size) {
  io_halos_series_name(buf, size, pattern, z); /* "" unless one number conversion */
}

const char *config_sequence_density_format_name(enum sequence_density_format f) {
  return f == SEQUENCE_DENSITY_CUBEP3M    ? "CubeP3M"
         : f == SEQUENCE_DENSITY_21CMFAST ? "21cmFAST PerturbedField"
                                          : "HDF5 n_H";
}

/* sequence.halos.format's values, in enum halo_format's order. */
static const char *const config_halo_formats[] = {"ionfront", "c2ray", "pyc2ray_hdf5",
                                                  "21cmfast"};

const char *config_sequence_halo_format_name(enum halo_format f) {
  return (unsigned)f < CONFIG_N(config_halo_formats) ? config_halo_formats[f] : "?";
}

/* A file name pattern of the sequence: one number conversion for the redshift,
 * resolved relative to the config file; the effective tree gets the resolved one. */
static ionf_err config_pattern(struct config_section *f, struct param_node *n, char *out,
                               size_t cap) {
  struct config_ctx *ctx = f->ctx;
  char text[IONF_PATH_MAX], probe[IONF_PATH_MAX + 64];
  IONF_CALL(config_string(ctx, f->path, n, "a file name pattern like \"density_z%.3f.h5\"", text,
                          sizeof text));
  config_sequence_file_name(text, 10.0, probe, sizeof probe);
  IONF_CHECK(probe[0], IONF_ERR_CONFIG,
             "%s: %s = '%s': the pattern must hold exactly one number conversion for the "
             "redshift, such as %%.3f (write %%%% for a literal %%)",
             ctx->name, f->path, text);
  IONF_CALL(config_resolve(ctx, f->path, text, out, cap));
  config_sequence_file_name(out, 10.0, probe, sizeof probe);
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

/* sequence.redshifts: at least two, strictly descending (*list: the node, for messages). */
static ionf_err config_sequence_redshifts(struct config_section *s, struct sequence_config *seq,
                                          struct param_node **list) {
  struct config_ctx *ctx = s->ctx;
  struct param_node *n;
  char t[CONFIG_TEXT_MAX], t2[CONFIG_TEXT_MAX];
  IONF_CALL(config_take(s, "redshifts", NULL, &n));
  const char *usage = "a list of at least two redshifts, strictly descending, e.g. [20, 19, 18]";
  IONF_CALL(config_require(s, n, usage));
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
  *list = n;
  return IONF_OK;
}

/* The run starts at the first redshift (cosmology.z_initial); the times from there, and
   equal steps that end on every redshift. */
static ionf_err config_sequence_steps(struct config_ctx *ctx, const struct param_node *list,
                                      struct ionf_config *cfg) {
  struct sequence_config *seq = &cfg->sequence;
  size_t count = (size_t)seq->n_redshifts;
  char t[CONFIG_TEXT_MAX];
  double z0 = seq->redshifts[0];
  if (ctx->z_initial_given) {
    IONF_CHECK(fabs(cfg->z_initial - z0) <= 1e-12 * (1.0 + z0), IONF_ERR_CONFIG,
               "%s: cosmology.z_initial = %.17g differs from the first of sequence.redshifts "
               "(%s); leave cosmology.z_initial out (it defaults to the first redshift)",
               ctx->name, cfg->z_initial, config_text(list->items[0], t, sizeof t));
  } else {
    struct param_node *first = params_copy(list->items[0]);
    IONF_CHECK(first, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_map_set(ctx->cosmo_eff, "z_initial", first));
  }
  cfg->z_initial = z0;

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
  return IONF_OK;
}

/* t_end is implied: a given one must agree (units may round it); then the output times. */
static ionf_err config_sequence_end(struct config_ctx *ctx, const struct param_node *list,
                                    struct ionf_config *cfg) {
  struct sequence_config *seq = &cfg->sequence;
  size_t count = (size_t)seq->n_redshifts;
  char t[CONFIG_TEXT_MAX], t2[CONFIG_TEXT_MAX];
  double implied = seq->times_s[count - 1];
  char implied_text[64], t_end_text[64];
  snprintf(implied_text, sizeof implied_text, "%.17g Myr", implied / IONF_MYR_S);
  snprintf(t_end_text, sizeof t_end_text, "%.6f Myr", implied / IONF_MYR_S);
  if (ctx->t_end_node) {
    double given = 0.0;
    config_blame(ctx, ctx->t_end_node);
    IONF_CALL(config_quantity(ctx, "time.t_end", ctx->t_end_node, UNIT_TIME, IONF_MYR_S, 0.0,
                              &given));
    IONF_CHECK(fabs(given - implied) <= 1e-6 * implied, IONF_ERR_CONFIG,
               "%s: time.t_end = %s does not match sequence.redshifts: from z = %s to z = %s is "
               "%s; leave time.t_end out (it is implied)",
               ctx->name, config_text(ctx->t_end_node, t, sizeof t),
               config_text(list->items[0], t2, sizeof t2), list->items[count - 1]->scalar,
               t_end_text);
  }
  cfg->t_end_s = implied;
  struct param_node *end = params_new(PARAM_SCALAR, implied_text);
  IONF_CHECK(end, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(ctx->time_eff, "t_end", end));
  return config_time_outputs(ctx, ctx->outputs_node, t_end_text, seq->times_s + 1, count - 1,
                             cfg);
}

/* A key of a sequence part that its format or model does not read: refused by name
   ("sequence.halos.f_gamma is not used with ...; leave it out"). */
static ionf_err config_sequence_unused(const struct config_section *f, const char *key,
                                       const char *why) {
  const struct param_node *u = params_get(f->user, key);
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  config_blame(f->ctx, u);
  return ionf_error_set(IONF_ERR_CONFIG, "%s: %s.%s %s; leave it out", f->ctx->name, f->name,
                        key, why);
}

/* A key of a sequence part that its format does not read: refused by name. */
static ionf_err config_sequence_not_for(const struct config_section *f, const char *key,
                                        const char *format, const char *why) {
  char text[512];
  snprintf(text, sizeof text, "is not read with %s.format: %s (%s)", f->name, format, why);
  return config_sequence_unused(f, key, text);
}

/* sequence.density, format cubep3m: the fine mesh and the hydrogen mass fraction. */
static ionf_err config_sequence_cubep3m(struct config_section *f, struct sequence_config *seq) {
  struct param_node *n;
  IONF_CALL(config_take(f, "fine_mesh", NULL, &n));
  IONF_CALL(config_require(f, n, "CubeP3M's fine mesh, cells per side: the raw density of a "
                                 "cell averages (fine_mesh / grid.N)^3; tools21cm's value for "
                                 "the 244 Mpc/h run, which pyC2Ray uses, is 8000"));
  IONF_CALL(config_int(f->ctx, f->path, n, 1, 1000000, &seq->density_fine_mesh));
  IONF_CALL(config_take(f, "hydrogen_mass_fraction", "0.76", &n));
  IONF_CALL(config_number(f->ctx, f->path, n, "the hydrogen mass fraction of the baryons",
                          &seq->density_x_h));
  if (!(seq->density_x_h > 0.0 && seq->density_x_h <= 1.0))
    return config_range(f->ctx, f->path, n, "a mass fraction in (0, 1]");
  return IONF_OK;
}

/* sequence.density {format, pattern, dataset | fine_mesh, hydrogen_mass_fraction}. */
static ionf_err config_sequence_density(struct config_section *s, struct sequence_config *seq) {
  static const char *const keys[] = {"format", "pattern", "dataset", "fine_mesh",
                                     "hydrogen_mass_fraction"};
  static const char *const formats[] = {"hdf5", "cubep3m", "21cmfast"};
  static const enum sequence_density_format format_of[] = {
      SEQUENCE_DENSITY_HDF5, SEQUENCE_DENSITY_CUBEP3M, SEQUENCE_DENSITY_21CMFAST};
  struct config_section f;
  struct param_node *n;
  int which = 0;
  IONF_CALL(config_sequence_part(s, "density", "sequence.density", keys, CONFIG_N(keys),
                                 "{pattern: \"density_z%.3f.h5\", dataset: NAME}", &f));
  IONF_CALL(config_take_enum(&f, "format", "hdf5", formats, CONFIG_N(formats), &which));
  seq->density_format = format_of[which];
  IONF_CALL(config_take(&f, "pattern", NULL, &n));
  IONF_CALL(config_require(&f, n, "the density files, e.g. \"density_z%.3f.h5\" (the redshift "
                                  "fills in the number)"));
  IONF_CALL(config_pattern(&f, n, seq->density_pattern, sizeof seq->density_pattern));
  if (seq->density_format != SEQUENCE_DENSITY_HDF5)
    IONF_CALL(config_sequence_not_for(&f, "dataset", formats[which],
                                      "the format fixes where the density is"));
  if (seq->density_format != SEQUENCE_DENSITY_CUBEP3M) {
    IONF_CALL(config_sequence_not_for(&f, "fine_mesh", formats[which], "CubeP3M files only"));
    IONF_CALL(config_sequence_not_for(&f, "hydrogen_mass_fraction", formats[which],
                                      seq->density_format == SEQUENCE_DENSITY_21CMFAST
                                          ? "21cmFAST files give Y_He: X_H = 1 - Y_He"
                                          : "the files hold n_H"));
  }
  if (seq->density_format == SEQUENCE_DENSITY_CUBEP3M)
    return config_sequence_cubep3m(&f, seq);
  if (seq->density_format == SEQUENCE_DENSITY_21CMFAST) return IONF_OK;
  IONF_CALL(config_take(&f, "dataset", NULL, &n));
  IONF_CALL(config_require(&f, n, "the dataset of proper n_H in cm^-3 in each file"));
  IONF_CALL(config_string(s->ctx, f.path, n, "a dataset name", seq->density_dataset,
                          sizeof seq->density_dataset));
  return IONF_OK;
}

/* Why a format does not read position_unit: where its positions are. */
static const char *config_halos_positions(enum halo_format fmt) {
  return fmt == HALO_FORMAT_C2RAY          ? "C2-Ray's source lists give cells"
         : fmt == HALO_FORMAT_PYC2RAY_HDF5 ? "pyC2Ray's lists give Mpc/h or cells"
                                           : "21cmFAST's halo_coords are comoving Mpc";
}

/* The keys of one format: position_unit (ionfront), mass_unit or nbody_mesh (c2ray),
   cell_index_base (pyc2ray_hdf5), none (21cmfast); the others' are refused. */
static ionf_err config_halos_format_keys(struct config_section *f, struct ionf_config *cfg) {
  struct config_ctx *ctx = f->ctx;
  struct sequence_config *seq = &cfg->sequence;
  struct param_node *n;
  enum halo_format fmt = seq->halo_format;
  const char *name = config_sequence_halo_format_name(fmt);
  double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  seq->halo_position_unit_cm = IONF_MPC_CM;
  if (fmt != HALO_FORMAT_IONFRONT)
    IONF_CALL(config_sequence_not_for(f, "position_unit", name, config_halos_positions(fmt)));
  if (fmt != HALO_FORMAT_C2RAY) {
    IONF_CALL(config_sequence_not_for(f, "mass_unit", name, "C2-Ray source lists only"));
    IONF_CALL(config_sequence_not_for(f, "nbody_mesh", name, "C2-Ray source lists only"));
  }
  if (fmt != HALO_FORMAT_PYC2RAY_HDF5)
    IONF_CALL(config_sequence_not_for(f, "cell_index_base", name, "pyC2Ray's source lists only"));
  if (fmt == HALO_FORMAT_IONFRONT) {
    IONF_CALL(config_take(f, "position_unit", "1 Mpc", &n));
    IONF_CALL(config_quantity(ctx, f->path, n, UNIT_LENGTH, IONF_MPC_CM, cell_cm,
                              &seq->halo_position_unit_cm));
    if (!(seq->halo_position_unit_cm > 0))
      return config_range(ctx, f->path, n, "must be a comoving length > 0");
  } else if (fmt == HALO_FORMAT_C2RAY) {
    const struct param_node *unit = params_get(f->user, "mass_unit");
    const struct param_node *mesh_node = params_get(f->user, "nbody_mesh");
    int given_unit = unit && unit->kind != PARAM_NULL;
    int given_mesh = mesh_node && mesh_node->kind != PARAM_NULL;
    IONF_CHECK(given_unit != given_mesh, IONF_ERR_CONFIG,
               "%s: sequence.halos (format c2ray): give %s: C2-Ray source lists hold masses in "
               "units of the mean mass of a cell of the N-body fine mesh; nbody_mesh: N (its "
               "cells per side, e.g. 6144 for CubeP3M's 114/h Mpc box) computes that unit from "
               "the box and the cosmology, mass_unit: M gives it in Msun (1 for lists in Msun)",
               ctx->name, given_unit ? "only one of mass_unit and nbody_mesh" : "mass_unit or nbody_mesh");
    if (given_unit) {
      IONF_CALL(config_positive(f, "mass_unit", NULL, "Msun per mass unit of the lists",
                                &seq->halo_mass_unit_msun));
    } else {
      int64_t mesh = 0;
      IONF_CALL(config_take(f, "nbody_mesh", NULL, &n));
      IONF_CALL(config_int(ctx, f->path, n, 1, 1000000, &mesh));
      struct cosmology c = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
      seq->halo_mass_unit_msun = io_halos_c2ray_mass_unit_msun(&c, cfg->box_size_cm, mesh);
    }
  } else if (fmt == HALO_FORMAT_PYC2RAY_HDF5) {
    int64_t base = 0;
    IONF_CALL(config_take(f, "cell_index_base", "0", &n));
    IONF_CALL(config_int(ctx, f->path, n, 0, 1, &base));
    seq->halo_cell_index_base = (int)base;
  }
  return IONF_OK;
}

/* sequence.halos: f_gamma (f_star f_gamma), t_source (constant accretion) and
   f_gamma_low_mass (format c2ray) as the model needs them. */
static ionf_err config_halos_efficiency(struct config_section *f, struct ionf_config *cfg,
                                        struct param_node *f_gamma, struct param_node *t_source) {
  struct config_ctx *ctx = f->ctx;
  struct sequence_config *seq = &cfg->sequence;
  struct halo_model *m = &seq->halo_model;
  struct param_node *n;
  double f_gamma_value = 0.0, t_source_s = 0.0;
  if (m->f_star == HALO_FSTAR_F_GAMMA) {
    snprintf(f->path, sizeof f->path, "sequence.halos.f_gamma");
    IONF_CALL(config_require(f, f_gamma, "ionizing photons per baryon in halos over the source "
                                         "lifetime"));
    IONF_CALL(config_number(ctx, f->path, f_gamma, "a number", &f_gamma_value));
    if (!(f_gamma_value > 0)) return config_range(ctx, f->path, f_gamma, "must be > 0");
  } else {
    IONF_CALL(config_sequence_unused(f, "f_gamma", "is not used with model.f_star.model: dpl"));
  }
  if (m->accretion == HALO_ACCRETION_CONSTANT) {
    snprintf(f->path, sizeof f->path, "sequence.halos.t_source");
    IONF_CALL(config_require(f, t_source, "the source lifetime, e.g. '10 Myr'; a bare number is "
                                          "in Myr"));
    IONF_CALL(config_quantity(ctx, f->path, t_source, UNIT_TIME, IONF_MYR_S, 0.0, &t_source_s));
    if (!(t_source_s > 0)) return config_range(ctx, f->path, t_source, "must be > 0");
  } else {
    IONF_CALL(config_sequence_unused(f, "t_source", "is not used with model.accretion.model: "
                                                    "exponential (the lifetime is 1 / (alpha_h "
                                                    "(1+z) H(z)))"));
  }
  seq->halo_f_gamma = m->f_gamma = f_gamma_value;
  seq->halo_t_source_s = m->t_source_s = t_source_s;
  IONF_CALL(config_take(f, "f_gamma_low_mass", "0", &n));
  IONF_CALL(config_number(ctx, f->path, n, "a number", &m->f_gamma_low_mass));
  if (!(m->f_gamma_low_mass >= 0.0 && m->f_gamma_low_mass < 1e300))
    return config_range(ctx, f->path, n, "must be >= 0");
  IONF_CHECK(m->f_gamma_low_mass == 0.0 || seq->halo_format == HALO_FORMAT_C2RAY, IONF_ERR_CONFIG,
             "%s: sequence.halos.f_gamma_low_mass = %s needs format: c2ray (only C2-Ray source "
             "lists carry the masses of low-mass haloes)",
             ctx->name, n->scalar ? n->scalar : "");
  char origin[IONF_PATH_MAX + 32];
  snprintf(origin, sizeof origin, "%s: sequence.halos", ctx->name);
  struct cosmology c = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  return halo_model_check(m, &c, origin);
}

/* sequence.halos {pattern, format, f_gamma, t_source, f_gamma_low_mass, position_unit,
   mass_unit, nbody_mesh, cell_index_base, model}. */
static ionf_err config_sequence_halos(struct config_section *s, struct ionf_config *cfg) {
  static const char *const keys[] = {"pattern",         "format",     "f_gamma",
                                     "t_source",        "f_gamma_low_mass", "position_unit",
                                     "mass_unit",       "nbody_mesh", "cell_index_base",
                                     "model"};
  struct sequence_config *seq = &cfg->sequence;
  struct config_section f;
  struct param_node *n, *f_gamma, *t_source;
  int fmt = 0;
  IONF_CALL(config_sequence_part(s, "halos", "sequence.halos", keys, CONFIG_N(keys),
                                 "{pattern: \"halos_z%.3f.h5\", f_gamma: NUMBER, t_source: TIME}",
                                 &f));
  IONF_CALL(config_take(&f, "pattern", NULL, &n));
  IONF_CALL(config_require(&f, n, "the halo files, e.g. \"halos_z%.3f.h5\""));
  IONF_CALL(config_pattern(&f, n, seq->halo_pattern, sizeof seq->halo_pattern));
  IONF_CALL(config_take_enum(&f, "format", "ionfront", config_halo_formats,
                             CONFIG_N(config_halo_formats), &fmt));
  seq->halo_format = (enum halo_format)fmt;
  IONF_CALL(config_take(&f, "f_gamma", NULL, &f_gamma));
  IONF_CALL(config_take(&f, "t_source", NULL, &t_source));
  /* the model decides which of f_gamma and t_source it reads; it is shown last */
  struct param_node *model_eff = NULL;
  IONF_CALL(config_halo_model(&f, &seq->halo_model, &model_eff));
  ionf_err rc = config_halos_efficiency(&f, cfg, f_gamma, t_source);
  if (rc == IONF_OK) rc = config_halos_format_keys(&f, cfg);
  if (rc == IONF_OK && model_eff) {
    rc = params_map_set(f.eff, "model", model_eff);
    model_eff = NULL;
  }
  params_free(model_eff);
  return rc;
}

/* sequence: redshifts, their times and steps, the outputs, t_end, the file patterns. */
ionf_err config_sequence(struct config_ctx *ctx, const struct param_node *root,
                         struct ionf_config *cfg) {
  static const char *const keys[] = {"redshifts", "density", "halos"};
  struct config_section s;
  struct param_node *list = NULL;
  if (!ctx->seq_given) return IONF_OK;
  IONF_CALL(config_open_section(ctx, root, "sequence", keys, CONFIG_N(keys), &s));
  IONF_CHECK(cfg->cosmological, IONF_ERR_CONFIG,
             "%s: sequence: needs cosmology.cosmological: true (a run along a list of redshifts "
             "runs in an expanding universe)",
             ctx->name);
  IONF_CALL(config_sequence_redshifts(&s, &cfg->sequence, &list));
  IONF_CALL(config_sequence_steps(ctx, list, cfg));
  IONF_CALL(config_sequence_end(ctx, list, cfg));
  if (ctx->seq_density) IONF_CALL(config_sequence_density(&s, &cfg->sequence));
  if (ctx->seq_halos) IONF_CALL(config_sequence_halos(&s, cfg));
  return IONF_OK;
}
