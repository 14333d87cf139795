/**
 * @file config_sources.c
 * @brief sources: (point and plane-parallel sources, or a source file) and spectrum:.
 */
#include "config/config_internal.h"

#include <math.h>
#include <stdio.h>

#include "core/units.h"
#include "rt/planar/planar.h"

/* A plane-parallel source {plane: FACE, flux: F}, the list's entry `name` ("sources[2]"). */
static ionf_err config_plane_entry(struct config_ctx *ctx, const struct param_node *entry,
                                   const char *name, struct param_node *eff_list,
                                   struct ionf_config *cfg) {
  static const char *const keys[] = {"plane", "flux"};
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

/* Coordinate `d` of a point source's position `n` as a cell index: a bare integer is a
   0-based cell index; a length ('3.3 kpc', also quoted; lengths as grid.box_size) is the
   position from the box corner, in the cell that holds it. */
static ionf_err config_source_coordinate(struct config_ctx *ctx, const char *path,
                                         const struct param_node *n, int d,
                                         const struct ionf_config *cfg, int32_t *index) {
  const struct param_node *c = n->items[d];
  char t[CONFIG_TEXT_MAX], item[CONFIG_TEXT_MAX + 8];
  int64_t last = cfg->n_cells_1d - 1;
  double v = 0.0, box = cfg->box_size_cm;
  snprintf(item, sizeof item, "%s[%d]", path, d);
  if (c->kind == PARAM_SCALAR && !c->quoted && units_parse_number(c->scalar, &v)) {
    IONF_CHECK(v == floor(v), IONF_ERR_CONFIG,
               "%s: %s = %s: cell indices must be integers (0-based, each in 0..%lld); a "
               "position in between takes a unit, like '3.3 kpc'",
               ctx->name, path, config_text(n, t, sizeof t), (long long)last);
    IONF_CHECK(v >= 0 && v <= (double)last, IONF_ERR_CONFIG,
               "%s: %s = %s is outside the %lld^3 grid (0-based cell indices, each in 0..%lld)",
               ctx->name, path, config_text(n, t, sizeof t), (long long)cfg->n_cells_1d,
               (long long)last);
    *index = (int32_t)v;
    return IONF_OK;
  }
  IONF_CALL(config_quantity(ctx, item, c, UNIT_LENGTH, IONF_MPC_CM, 0.0, &v));
  IONF_CHECK(v >= 0.0 && v <= box, IONF_ERR_CONFIG,
             "%s: %s = %s is outside the box (each length must be in 0..%g kpc from the box "
             "corner, grid.box_size)",
             ctx->name, path, config_text(n, t, sizeof t), box / IONF_KPC_CM);
  /* a position on a face between two cells goes to the upper one, whatever the rounding */
  double cell = floor(v / (box / (double)cfg->n_cells_1d) + 1e-9);
  *index = (int32_t)(cell < (double)last ? cell : (double)last); /* the far face: the last cell */
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
  if (is_plane) return config_plane_entry(ctx, entry, name, eff_list, cfg);
  size_t point = (size_t)cfg->n_sources_inline;
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open(ctx, entry, name, keys, CONFIG_N(keys), &s));
  IONF_CALL(params_seq_append(eff_list, s.eff));

  IONF_CALL(config_take(&s, "position", NULL, &n));
  IONF_CALL(config_require(&s, n, "0-based cell indices [i, j, k], or lengths from the box "
                                  "corner like [3.3 kpc, 3.3 kpc, 3.3 kpc]"));
  char t[CONFIG_TEXT_MAX];
  int64_t last = cfg->n_cells_1d - 1;
  IONF_CHECK(n->kind == PARAM_SEQUENCE && n->n_items == 3, IONF_ERR_CONFIG,
             "%s: %s = %s: expected a list of 3 cell indices [i, j, k] (0-based, each in "
             "0..%lld) or lengths from the box corner like [3.3 kpc, 3.3 kpc, 3.3 kpc]",
             ctx->name, s.path, config_text(n, t, sizeof t), (long long)last);
  for (int d = 0; d < 3; ++d)
    IONF_CALL(config_source_coordinate(ctx, s.path, n, d, cfg,
                                       &cfg->source_ijk[3 * point + (size_t)d]));
  IONF_CALL(config_positive(&s, "Ndot", NULL, "ionizing photons per second",
                            &cfg->source_ndot_per_s[point]));
  cfg->n_sources_inline++;
  return IONF_OK;
}

ionf_err config_sources(struct config_ctx *ctx, const struct param_node *root,
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
    int which = 0;
    IONF_CALL(config_take_enum(&s, "format", CONFIG_DEF_SOURCE_FORMAT, formats, CONFIG_N(formats),
                               &which));
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

/* The keys of the multi-frequency band tables (runs with helium, power-law and tabulated
   spectra), optional so that a hydrogen run's effective config stays as it was:
   index (powerlaw, L_nu ~ nu^-index), E_max [eV] (powerlaw, blackbody; default 10 x
   54.416 eV), file (table), sub_bins [n1, n2, n3] (default C2-Ray's 1, 26, 20),
   secondary_ionization (default true: the X-ray photoelectrons' energy split), quadrature
   (sub_bins, the default: C2-Ray's; whole_bands: rt/bands_whole_k.h). */
static ionf_err config_sources_spectrum_bands(struct config_section *s, struct ionf_config *cfg) {
  struct config_ctx *ctx = s->ctx;
  struct param_node *n;
  IONF_CALL(config_take(s, "index", NULL, &n));
  if (cfg->spectrum == SPECTRUM_POWERLAW)
    IONF_CALL(config_require(s, n, "the power-law index (L_nu ~ nu^-index), needed for type: powerlaw"));
  if (n) {
    IONF_CALL(config_number(ctx, s->path, n, "a number", &cfg->spectrum_index));
    if (!(fabs(cfg->spectrum_index) < 20.0)) return config_range(ctx, s->path, n, "must be in (-20, 20)");
  }
  IONF_CALL(config_take(s, "E_max", NULL, &n));
  if (n) {
    IONF_CALL(config_number(ctx, s->path, n, "an energy in eV", &cfg->spectrum_e_max_ev));
    if (!(cfg->spectrum_e_max_ev > 1.001 * IONF_E_HEII_EV && cfg->spectrum_e_max_ev <= 1e5))
      return config_range(ctx, s->path, n, "must be in (54.5, 1e5] eV: above the He II threshold");
  }
  IONF_CALL(config_take(s, "file", NULL, &n));
  if (cfg->spectrum == SPECTRUM_TABLE)
    IONF_CALL(config_require(s, n, "a spectrum file (two columns: eV, photons/s/eV; or HDF5), needed for type: table"));
  if (n) { /* resolved as every input (relative to the config's folder) and stored so */
    IONF_CALL(config_string(ctx, s->path, n, "a file name", cfg->spectrum_file,
                            sizeof cfg->spectrum_file));
    IONF_CALL(config_resolve(ctx, s->path, n->scalar, cfg->spectrum_file, sizeof cfg->spectrum_file));
    struct param_node *resolved = params_new(PARAM_SCALAR, cfg->spectrum_file);
    IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
    resolved->quoted = 1;
    IONF_CALL(params_map_set(s->eff, "file", resolved));
  }
  IONF_CALL(config_take(s, "sub_bins", NULL, &n));
  if (n) {
    IONF_CHECK(n->kind == PARAM_SEQUENCE && n->n_items == 3, IONF_ERR_CONFIG,
               "%s: %s: three numbers of sub-bins, [HI to HeI, HeI to HeII, above HeII]",
               ctx->name, s->path);
    int64_t total = 0;
    for (int b = 0; b < 3; ++b) {
      int64_t v = 0;
      IONF_CALL(config_int(ctx, s->path, n->items[b], 1, 60, &v));
      cfg->band_sub_bins[b] = (int)v;
      total += v;
    }
    IONF_CHECK(total <= 64, IONF_ERR_CONFIG, "%s: %s: %lld sub-bins in all, at most 64", ctx->name,
               s->path, (long long)total);
  }
  IONF_CALL(config_take(s, "secondary_ionization", NULL, &n));
  if (n) IONF_CALL(config_bool(ctx, s->path, n, &cfg->secondary_ionization));
  IONF_CALL(config_take(s, "quadrature", NULL, &n));
  if (n) {
    static const char *const kinds[] = {"sub_bins", "whole_bands"};
    int which = 0;
    IONF_CALL(config_enum(ctx, s->path, n, kinds, CONFIG_N(kinds), &which));
    cfg->band_whole = which == 1;
  }
  return IONF_OK;
}

ionf_err config_sources_spectrum(struct config_ctx *ctx, const struct param_node *root,
                                 struct ionf_config *cfg) {
  static const char *const keys[] = {"type",    "T_eff",       "sigma_0",    "power_law_index",
                                     "num_tau", "min_log_tau", "max_log_tau", "index",
                                     "E_max",   "file",        "sub_bins", "secondary_ionization",
                                     "quadrature"};
  static const char *const types[] = {"grey", "blackbody", "powerlaw", "table"};
  struct config_section s;
  struct param_node *n, *lo, *hi;
  int type = 0;
  int64_t num_tau = 0;
  IONF_CALL(config_open_section(ctx, root, "spectrum", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take_enum(&s, "type", CONFIG_DEF_SPECTRUM, types, CONFIG_N(types), &type));
  static const enum spectrum_type type_of[] = {SPECTRUM_GREY, SPECTRUM_BLACKBODY,
                                               SPECTRUM_POWERLAW, SPECTRUM_TABLE};
  cfg->spectrum = type_of[type];

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
  return config_sources_spectrum_bands(&s, cfg);
}
