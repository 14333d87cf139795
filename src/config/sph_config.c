/**
 * @file sph_config.c
 * @brief YAML tree -> validated struct sph_config (particle runs).
 *
 * The particles: and sources: sections are read here.  The physics sections
 * are the grid config's: the tree is handed to config_from_params with the
 * particle sections taken out and a placeholder one-cell grid and source put
 * in, so every shared key is validated by the one piece of code that
 * validates it for grids (same messages, same defaults).  The effective
 * config is then rebuilt without the placeholders.
 */
#define _POSIX_C_SOURCE 200809L

#include "config/sph_config.h"

#include "config/sph_config_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constants.h"
#include "io/io_density.h"
#include "io/io_sources.h"
#include "core/params.h"
#include "config/problems.h"
#include "particles/sph_rays.h"
#include "core/units.h"

/* ---- small typed readers (messages as in config.c: config name, key, value) ---- */

static const char *kind_text(const struct param_node *n) {
  if (!n || n->kind == PARAM_NULL) return "nothing";
  if (n->kind == PARAM_SEQUENCE) return "a list";
  if (n->kind == PARAM_MAPPING) return "a mapping";
  return n->quoted ? "a quoted string" : "a single value";
}

static ionf_err check_keys(struct sph_ctx *c, const struct param_node *map,
                           const char *prefix, const char *const *known, size_t n_known) {
  if (!map || map->kind != PARAM_MAPPING) return IONF_OK;
  for (size_t i = 0; i < map->n_items; ++i) {
    int found = 0;
    for (size_t k = 0; k < n_known && !found; ++k) found = strcmp(map->keys[i], known[k]) == 0;
    if (found) continue;
    char list[512] = "";
    size_t used = 0;
    for (size_t k = 0; k < n_known && used < sizeof list; ++k)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", known[k]);
    return ionf_error_set(IONF_ERR_CONFIG, "%s: unknown key '%s.%s' (known keys: %s)",
                          sph_config_where(c, map->items[i]), prefix, map->keys[i], list);
  }
  return IONF_OK;
}

static ionf_err read_number(struct sph_ctx *c, const char *path, const struct param_node *n,
                            double *out) {
  IONF_CHECK(n && n->kind == PARAM_SCALAR && !n->quoted, IONF_ERR_CONFIG,
             "%s: %s: expected a number, got %s", c->name, path, kind_text(n));
  IONF_CHECK(units_parse_number(n->scalar, out), IONF_ERR_CONFIG, "%s: %s = %s: expected a number",
             c->name, path, n->scalar);
  return IONF_OK;
}

static ionf_err read_int(struct sph_ctx *c, const char *path, const struct param_node *n,
                         int64_t lo, int64_t hi, int64_t *out) {
  double v;
  IONF_CALL(read_number(c, path, n, &v));
  IONF_CHECK(v == floor(v) && v >= (double)lo && v <= (double)hi, IONF_ERR_CONFIG,
             "%s: %s = %s is out of range (must be an integer in %lld..%lld)", c->name, path,
             n->scalar, (long long)lo, (long long)hi);
  *out = (int64_t)v;
  return IONF_OK;
}

static ionf_err read_length(struct sph_ctx *c, const char *path, const struct param_node *n,
                            double *out_cm) {
  IONF_CHECK(n && n->kind == PARAM_SCALAR, IONF_ERR_CONFIG,
             "%s: %s: expected a length like '6.6 kpc', got %s", c->name, path, kind_text(n));
  char key[2 * SPH_TEXT_MAX];
  snprintf(key, sizeof key, "%s: %s", c->name, path);
  return units_parse(n->scalar, UNIT_LENGTH, IONF_MPC_CM, 0.0, key, out_cm);
}

static ionf_err read_bool(struct sph_ctx *c, const char *path, const struct param_node *n,
                          int *out) {
  static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
  if (n && n->kind == PARAM_SCALAR && !n->quoted)
    for (size_t i = 0; i < SPH_N(yes); ++i) {
      if (!strcmp(n->scalar, yes[i])) return *out = 1, IONF_OK;
      if (!strcmp(n->scalar, no[i])) return *out = 0, IONF_OK;
    }
  return ionf_error_set(IONF_ERR_CONFIG, "%s: %s = %s: expected a bool (true/false)", c->name,
                        path, n && n->kind == PARAM_SCALAR ? n->scalar : kind_text(n));
}

/* The user's value of `key` in `map`, else the default text `def` (else NULL); the
   effective copy goes into `eff`. */
static ionf_err take(struct sph_ctx *c, const struct param_node *map, const char *key,
                     const char *def, struct param_node *eff, const struct param_node **out) {
  const struct param_node *u = params_get(map, key);
  struct param_node *n = NULL;
  *out = NULL;
  sph_config_blame(c, u ? u : map);
  if (u && u->kind != PARAM_NULL) n = params_copy(u);
  else if (def) n = params_new(PARAM_SCALAR, def);
  else return IONF_OK;
  IONF_CHECK(n, IONF_ERR_MEM, "out of memory");
  IONF_CALL(params_map_set(eff, key, n));
  *out = n;
  return IONF_OK;
}

/* `text` relative to the config file's directory (absolute stays), into `out`; the
   effective config gets the resolved path under `key` of `eff`. */
static ionf_err resolve_file(struct sph_ctx *c, const char *path, const char *given,
                             const char *key, struct param_node *eff, char *out, size_t cap) {
  char text[IONF_PATH_MAX]; /* `given` may be the node of eff that is replaced below */
  IONF_CHECK(strlen(given) < sizeof text, IONF_ERR_CONFIG, "%s: %s: the path '%s' is too long",
             c->name, path, given);
  snprintf(text, sizeof text, "%s", given);
  const char *dir = text[0] == '/' ? "" : c->dir;
  char cwd[IONF_PATH_MAX] = "";
  if (text[0] != '/' && dir[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
  int len = snprintf(out, cap, "%s%s%s%s", cwd, cwd[0] ? "/" : "", dir, text);
  IONF_CHECK(len > 0 && (size_t)len < cap, IONF_ERR_CONFIG, "%s: %s: the path '%s' is too long",
             c->name, path, text);
  struct param_node *resolved = params_new(PARAM_SCALAR, out);
  IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
  resolved->quoted = 1;
  IONF_CALL(params_map_set(eff, key, resolved));
  IONF_CHECK(access(out, R_OK) == 0, IONF_ERR_INPUT, "%s: %s = %s: cannot read '%s'", c->name,
             path, text, out);
  return IONF_OK;
}

/* ---- particles: ------------------------------------------------------------------ */

/* kind density_file: the grid file and its dataset, checked now (shape count_1d^3). */
static ionf_err read_density_file(struct sph_ctx *c, const struct param_node *u,
                                  struct param_node *eff, struct sph_config *cfg) {
  static const char *const not_here[] = {"n_H", "relax_iterations"};
  for (size_t k = 0; k < SPH_N(not_here); ++k)
    IONF_CHECK(!params_get(u, not_here[k]), IONF_ERR_CONFIG,
               "%s: particles.generate.%s does not apply to kind density_file (%s)", c->name,
               not_here[k], k == 0 ? "n_H comes from the file" : "one particle per cell");
  const struct param_node *n;
  IONF_CALL(take(c, u, "file", NULL, eff, &n));
  IONF_CHECK(n && n->kind == PARAM_SCALAR && n->scalar[0], IONF_ERR_CONFIG,
             "%s: particles.generate.file: kind density_file needs the HDF5 file of proper n_H "
             "[cm^-3] on a grid (e.g. from 'ionfront generate iliev4'), got %s",
             c->name, kind_text(n));
  IONF_CALL(resolve_file(c, "particles.generate.file", n->scalar, "file", eff,
                         cfg->gen_density_file, sizeof cfg->gen_density_file));
  IONF_CALL(take(c, u, "dataset", "n_H", eff, &n));
  IONF_CHECK(n->kind == PARAM_SCALAR && n->scalar[0] &&
                 strlen(n->scalar) < sizeof cfg->gen_density_dataset,
             IONF_ERR_CONFIG, "%s: particles.generate.dataset: expected a dataset name, got %s",
             c->name, kind_text(n));
  snprintf(cfg->gen_density_dataset, sizeof cfg->gen_density_dataset, "%s", n->scalar);
  ionf_err rc = io_density_check(cfg->gen_density_file, cfg->gen_density_dataset, cfg->count_1d);
  if (rc != IONF_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", ionf_error_message());
    ionf_error_clear();
    return ionf_error_set(rc, "%s: particles.generate (kind density_file, count_1d = %lld): %s",
                          c->name, (long long)cfg->count_1d, why);
  }
  return IONF_OK;
}

static ionf_err read_generate(struct sph_ctx *c, const struct param_node *u,
                              struct param_node *eff, struct sph_config *cfg) {
  static const char *const keys[] = {"kind",      "count_1d",   "n_H",  "box",
                                     "jitter",    "relax_iterations", "neighbours", "seed",
                                     "periodic",  "file",       "dataset"};
  IONF_CHECK(u->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: particles.generate: expected a mapping {kind: lattice|glass, count_1d: N, n_H: "
             "DENSITY, box: LENGTH}, got %s",
             c->name, kind_text(u));
  IONF_CALL(check_keys(c, u, "particles.generate", keys, SPH_N(keys)));
  const struct param_node *n;
  int64_t v;
  IONF_CALL(take(c, u, "kind", "lattice", eff, &n));
  IONF_CHECK(n->kind == PARAM_SCALAR &&
                 (!strcmp(n->scalar, "lattice") || !strcmp(n->scalar, "glass") ||
                  !strcmp(n->scalar, "density_file")),
             IONF_ERR_CONFIG,
             "%s: particles.generate.kind = %s: must be lattice, glass or density_file", c->name,
             n->kind == PARAM_SCALAR ? n->scalar : kind_text(n));
  cfg->generate = !strcmp(n->scalar, "glass")          ? SPH_GENERATE_GLASS
                  : !strcmp(n->scalar, "density_file") ? SPH_GENERATE_DENSITY_FILE
                                                       : SPH_GENERATE_LATTICE;
  const int from_file = cfg->generate == SPH_GENERATE_DENSITY_FILE;
  IONF_CALL(take(c, u, "count_1d", NULL, eff, &n));
  IONF_CHECK(n, IONF_ERR_CONFIG, "%s: missing required key 'particles.generate.count_1d' (%s)",
             c->name, from_file ? "cells per side of the density file" : "particles per side");
  IONF_CALL(read_int(c, "particles.generate.count_1d", n, 2, 1024, &cfg->count_1d));
  if (from_file) IONF_CALL(read_density_file(c, u, eff, cfg));
  static const char *const file_only[] = {"file", "dataset"};
  for (size_t k = 0; k < SPH_N(file_only) && !from_file; ++k)
    IONF_CHECK(!params_get(u, file_only[k]), IONF_ERR_CONFIG,
               "%s: particles.generate.%s applies to kind density_file only", c->name,
               file_only[k]);
  if (!from_file) {
    IONF_CALL(take(c, u, "n_H", NULL, eff, &n));
    IONF_CHECK(n, IONF_ERR_CONFIG,
               "%s: missing required key 'particles.generate.n_H' (hydrogen density in cm^-3)",
               c->name);
    IONF_CALL(read_number(c, "particles.generate.n_H", n, &cfg->gen_n_h_cm3));
    IONF_CHECK(cfg->gen_n_h_cm3 > 0 && isfinite(cfg->gen_n_h_cm3), IONF_ERR_CONFIG,
               "%s: particles.generate.n_H = %s is out of range (must be > 0, in cm^-3)",
               c->name, n->scalar);
  }
  IONF_CALL(take(c, u, "box", NULL, eff, &n));
  IONF_CHECK(n, IONF_ERR_CONFIG,
             "%s: missing required key 'particles.generate.box' (side of the cube, e.g. '6.6 kpc')",
             c->name);
  IONF_CALL(read_length(c, "particles.generate.box", n, &cfg->gen_box_cm));
  IONF_CHECK(cfg->gen_box_cm > 0, IONF_ERR_CONFIG,
             "%s: particles.generate.box = %s is out of range (must be > 0)", c->name, n->scalar);
  IONF_CALL(take(c, u, "jitter", "0.1", eff, &n));
  IONF_CALL(read_number(c, "particles.generate.jitter", n, &cfg->gen_jitter));
  IONF_CHECK(cfg->gen_jitter >= 0 && cfg->gen_jitter <= 1, IONF_ERR_CONFIG,
             "%s: particles.generate.jitter = %s is out of range (must be in [0, 1] spacings)",
             c->name, n->scalar);
  if (!from_file) {
    IONF_CALL(take(c, u, "relax_iterations", cfg->generate == SPH_GENERATE_GLASS ? "30" : "0", eff,
                   &n));
    IONF_CALL(read_int(c, "particles.generate.relax_iterations", n, 0, 10000, &v));
    cfg->gen_relax_iterations = (int)v;
    IONF_CHECK(cfg->generate == SPH_GENERATE_GLASS || v == 0, IONF_ERR_CONFIG,
               "%s: particles.generate.relax_iterations = %s applies to kind glass only", c->name,
               n->scalar);
    IONF_CHECK(cfg->generate != SPH_GENERATE_GLASS || v > 0, IONF_ERR_CONFIG,
               "%s: particles.generate.relax_iterations = 0: a glass needs at least one", c->name);
  }
  IONF_CALL(take(c, u, "neighbours", "48", eff, &n));
  IONF_CALL(read_int(c, "particles.generate.neighbours", n, 2, 1000, &v));
  cfg->gen_neighbours = (int)v;
  IONF_CALL(take(c, u, "seed", "1", eff, &n));
  IONF_CALL(read_int(c, "particles.generate.seed", n, 0, 4294967295LL, &v));
  cfg->gen_seed = (uint64_t)v;
  IONF_CALL(take(c, u, "periodic", "false", eff, &n));
  IONF_CALL(read_bool(c, "particles.generate.periodic", n, &cfg->gen_periodic));
  return IONF_OK;
}

/* particles.trace: the GPU tracer's tuning (sph_trace.h), only when given (absent: not in
   the effective config, every knob at its measured default). */
static ionf_err read_trace(struct sph_ctx *c, const struct param_node *u,
                           struct param_node *eff, struct sph_config *cfg) {
  static const char *const keys[] = {"schedule", "window_hits", "min_blocks", "window_aim",
                                     "hit_capacity"};
  IONF_CHECK(u->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: particles.trace: expected a mapping {schedule: warp|thread, window_hits: K, "
             "min_blocks: B, window_aim: A, hit_capacity: H}, got %s",
             c->name, kind_text(u));
  IONF_CALL(check_keys(c, u, "particles.trace", keys, SPH_N(keys)));
  struct sph_trace_tuning *t = &cfg->trace;
  const struct param_node *n;
  char def[32];
  int64_t v;
  IONF_CALL(take(c, u, "schedule", "warp", eff, &n));
  IONF_CHECK(n->kind == PARAM_SCALAR &&
                 (!strcmp(n->scalar, "warp") || !strcmp(n->scalar, "thread")),
             IONF_ERR_CONFIG, "%s: particles.trace.schedule = %s: must be warp or thread", c->name,
             n->kind == PARAM_SCALAR ? n->scalar : kind_text(n));
  t->schedule = !strcmp(n->scalar, "thread") ? SPH_TRACE_SCHEDULE_THREAD : SPH_TRACE_SCHEDULE_WARP;
  snprintf(def, sizeof def, "%d", SPH_TRACE_WINDOW_HITS_DEFAULT);
  IONF_CALL(take(c, u, "window_hits", def, eff, &n));
  IONF_CALL(read_int(c, "particles.trace.window_hits", n, 2, SPH_TRACE_WINDOW_HITS_MAX, &v));
  t->window_hits = (int)v;
  snprintf(def, sizeof def, "%d", SPH_TRACE_MIN_BLOCKS_DEFAULT);
  IONF_CALL(take(c, u, "min_blocks", def, eff, &n));
  IONF_CALL(read_int(c, "particles.trace.min_blocks", n, 1, 8, &v));
  IONF_CHECK(v == 1 || v == 6 || v == 8, IONF_ERR_CONFIG,
             "%s: particles.trace.min_blocks = %s: must be 1, 6 or 8 (the kernel variants)",
             c->name, n->scalar);
  t->min_blocks = (int)v;
  snprintf(def, sizeof def, "%g", SPH_TRACE_WINDOW_AIM_DEFAULT);
  IONF_CALL(take(c, u, "window_aim", def, eff, &n));
  IONF_CALL(read_number(c, "particles.trace.window_aim", n, &t->window_aim));
  IONF_CHECK(t->window_aim >= 0.1 && t->window_aim <= 2.0, IONF_ERR_CONFIG,
             "%s: particles.trace.window_aim = %s is out of range (must be in [0.1, 2])", c->name,
             n->scalar);
  IONF_CALL(take(c, u, "hit_capacity", "0", eff, &n));
  IONF_CALL(
      read_int(c, "particles.trace.hit_capacity", n, 0, (int64_t)1 << 40, &t->hit_capacity));
  return IONF_OK;
}

static ionf_err read_particles(struct sph_ctx *c, const struct param_node *u,
                               struct param_node *eff, struct sph_config *cfg) {
  static const char *const keys[] = {"file",       "generate",        "unit_length",
                                     "unit_mass",  "hydrogen_mass_fraction",
                                     "rays_per_source", "output_grid", "wrap_rays", "trace",
                                     "ranks_share"};
  IONF_CHECK(u && u->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: particles: expected a mapping {file: PATH} or {generate: {...}}, got %s",
             c->name, kind_text(u));
  IONF_CALL(check_keys(c, u, "particles", keys, SPH_N(keys)));
  const struct param_node *file = params_get(u, "file"), *gen = params_get(u, "generate");
  IONF_CHECK(!file != !gen, IONF_ERR_CONFIG,
             "%s: particles: give exactly one of 'file' (an HDF5 snapshot) and 'generate' "
             "(a generated set)%s",
             c->name, file ? ", not both" : "");
  const struct param_node *n;
  if (file) {
    IONF_CHECK(file->kind == PARAM_SCALAR && file->scalar[0], IONF_ERR_CONFIG,
               "%s: particles.file: expected a file name, got %s", c->name, kind_text(file));
    const char *dir = file->scalar[0] == '/' ? "" : c->dir;
    char cwd[IONF_PATH_MAX] = "";
    if (file->scalar[0] != '/' && dir[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
    int len = snprintf(cfg->file, sizeof cfg->file, "%s%s%s%s", cwd, cwd[0] ? "/" : "", dir,
                       file->scalar);
    IONF_CHECK(len > 0 && (size_t)len < sizeof cfg->file, IONF_ERR_CONFIG,
               "%s: particles.file: the path '%s' is too long", c->name, file->scalar);
    struct param_node *resolved = params_new(PARAM_SCALAR, cfg->file);
    IONF_CHECK(resolved, IONF_ERR_MEM, "out of memory");
    resolved->quoted = 1;
    IONF_CALL(params_map_set(eff, "file", resolved));
    IONF_CHECK(access(cfg->file, R_OK) == 0, IONF_ERR_INPUT,
               "%s: particles.file = %s: cannot read '%s'", c->name, file->scalar, cfg->file);
  } else {
    struct param_node *geff = params_new(PARAM_MAPPING, NULL);
    IONF_CHECK(geff, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_map_set(eff, "generate", geff));
    IONF_CALL(read_generate(c, gen, geff, cfg));
  }
  IONF_CALL(take(c, u, "unit_length", "0", eff, &n));
  IONF_CALL(read_length(c, "particles.unit_length", n, &cfg->unit_length_cm));
  IONF_CHECK(cfg->unit_length_cm >= 0, IONF_ERR_CONFIG,
             "%s: particles.unit_length = %s is out of range (must be >= 0)", c->name, n->scalar);
  IONF_CALL(take(c, u, "unit_mass", "0", eff, &n));
  IONF_CALL(read_number(c, "particles.unit_mass", n, &cfg->unit_mass_g));
  IONF_CHECK(cfg->unit_mass_g >= 0, IONF_ERR_CONFIG,
             "%s: particles.unit_mass = %s is out of range (must be >= 0, in g)", c->name,
             n->scalar);
  IONF_CALL(take(c, u, "hydrogen_mass_fraction", "1.0", eff, &n));
  IONF_CALL(read_number(c, "particles.hydrogen_mass_fraction", n, &cfg->hydrogen_mass_fraction));
  IONF_CHECK(cfg->hydrogen_mass_fraction > 0 && cfg->hydrogen_mass_fraction <= 1, IONF_ERR_CONFIG,
             "%s: particles.hydrogen_mass_fraction = %s is out of range (must be in (0, 1])",
             c->name, n->scalar);
  IONF_CALL(take(c, u, "rays_per_source", "0", eff, &n));
  IONF_CALL(read_int(c, "particles.rays_per_source", n, 0, (int64_t)1 << 40, &cfg->rays_per_source));
  int64_t nside;
  if (cfg->rays_per_source > 0 && sph_rays_nside(cfg->rays_per_source, &nside) != IONF_OK) {
    ionf_error_clear(); /* HEALPix NESTED: 12 nside^2, nside a power of two */
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: particles.rays_per_source = %s: must be 12 nside^2 with nside a "
                          "power of two (12, 48, 192, 768, 3072, ...) or 0 (automatic)",
                          c->name, n->scalar);
  }
  IONF_CALL(take(c, u, "output_grid", "0", eff, &n));
  IONF_CALL(read_int(c, "particles.output_grid", n, 0, 1024, &cfg->output_grid));
  IONF_CALL(take(c, u, "wrap_rays", "true", eff, &n));
  IONF_CALL(read_bool(c, "particles.wrap_rays", n, &cfg->wrap_rays));
  IONF_CALL(take(c, u, "ranks_share", "rays", eff, &n));
  IONF_CHECK(n->kind == PARAM_SCALAR && (!strcmp(n->scalar, "rays") || !strcmp(n->scalar, "sources")),
             IONF_ERR_CONFIG, "%s: particles.ranks_share = %s: must be rays (every rank traces a "
             "share of every source's rays) or sources (each rank traces a block of the sources)",
             c->name, n->kind == PARAM_SCALAR ? n->scalar : kind_text(n));
  cfg->share_sources = !strcmp(n->scalar, "sources");
  const struct param_node *trace = params_get(u, "trace");
  if (trace && trace->kind != PARAM_NULL) {
    struct param_node *teff = params_new(PARAM_MAPPING, NULL);
    IONF_CHECK(teff, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_map_set(eff, "trace", teff));
    IONF_CALL(read_trace(c, trace, teff, cfg));
  }
  return IONF_OK;
}

/* ---- sources: --------------------------------------------------------------------- */

/* sources: {file, format} with generate.kind density_file: the grid's source cells,
   each source at its cell's centre (the grid run's sources, same rates). */
static ionf_err read_source_file(struct sph_ctx *c, const struct param_node *u,
                                 struct param_node *eff, struct sph_config *cfg) {
  static const char *const keys[] = {"file", "format"};
  IONF_CALL(check_keys(c, u, "sources", keys, SPH_N(keys)));
  IONF_CHECK(cfg->generate == SPH_GENERATE_DENSITY_FILE, IONF_ERR_CONFIG,
             "%s: sources: a source file names grid cells, so it needs particles.generate.kind "
             "= density_file (its grid); give a list of {position: [x, y, z], Ndot: RATE} "
             "instead",
             c->name);
  const struct param_node *n;
  IONF_CALL(take(c, u, "file", NULL, eff, &n));
  IONF_CHECK(n && n->kind == PARAM_SCALAR && n->scalar[0], IONF_ERR_CONFIG,
             "%s: sources.file: expected a source file name (C2-Ray text or HDF5), got %s",
             c->name, kind_text(n));
  IONF_CALL(resolve_file(c, "sources.file", n->scalar, "file", eff, cfg->source_file,
                         sizeof cfg->source_file));
  IONF_CALL(take(c, u, "format", "auto", eff, &n));
  static const char *const formats[] = {"auto", "hdf5", "text"};
  static const enum source_format format_of[] = {SOURCE_FORMAT_AUTO, SOURCE_FORMAT_HDF5,
                                                 SOURCE_FORMAT_TEXT};
  size_t which = SPH_N(formats);
  for (size_t k = 0; k < SPH_N(formats) && n->kind == PARAM_SCALAR; ++k)
    if (!strcmp(n->scalar, formats[k])) which = k;
  IONF_CHECK(which < SPH_N(formats), IONF_ERR_CONFIG,
             "%s: sources.format = %s: must be auto, hdf5 or text", c->name,
             n->kind == PARAM_SCALAR ? n->scalar : kind_text(n));
  struct source_list list = {0};
  IONF_CALL(io_sources_read_grid(cfg->source_file, format_of[which], cfg->count_1d, &list));
  ionf_err rc = sources_validate(&list, cfg->count_1d, cfg->source_file);
  if (rc == IONF_OK && list.n < 1)
    rc = ionf_error_set(IONF_ERR_INPUT, "%s: sources.file = %s holds no sources", c->name,
                        cfg->source_file);
  const size_t n_src = list.n > 0 ? (size_t)list.n : 1;
  if (rc == IONF_OK) {
    cfg->source_pos_cm = ionf_calloc(3 * n_src, sizeof(double), "source positions");
    cfg->source_ndot_per_s = ionf_calloc(n_src, sizeof(double), "source rates");
    cfg->source_text = ionf_calloc(n_src, sizeof *cfg->source_text, "source positions");
    if (!cfg->source_pos_cm || !cfg->source_ndot_per_s || !cfg->source_text)
      rc = ionf_error_set(IONF_ERR_MEM, "out of memory");
  }
  const double cell_cm = cfg->gen_box_cm / (double)cfg->count_1d;
  for (int64_t i = 0; rc == IONF_OK && i < list.n; ++i) {
    for (int d = 0; d < 3; ++d)
      cfg->source_pos_cm[3 * i + d] = (list.ijk[3 * i + d] + 0.5) * cell_cm;
    cfg->source_ndot_per_s[i] = list.ndot_per_s[i];
    snprintf(cfg->source_text[i], sizeof cfg->source_text[i], "cell (%d, %d, %d) (0-based) of the file",
             list.ijk[3 * i], list.ijk[3 * i + 1], list.ijk[3 * i + 2]);
    cfg->n_sources = i + 1;
  }
  sources_free(&list);
  return rc;
}

static ionf_err read_sources(struct sph_ctx *c, const struct param_node *u,
                             struct param_node *eff, struct sph_config *cfg) {
  sph_config_blame(c, u);
  if (u && u->kind == PARAM_MAPPING && params_get(u, "file")) {
    struct param_node *seff = params_new(PARAM_MAPPING, NULL);
    IONF_CHECK(seff, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_seq_append(eff, seff));
    return read_source_file(c, u, seff, cfg);
  }
  IONF_CHECK(u && u->kind == PARAM_SEQUENCE && u->n_items > 0, IONF_ERR_CONFIG,
             "%s: sources: expected a list of {position: [x, y, z], Ndot: RATE} (lengths from "
             "the box corner), got %s",
             c->name, kind_text(u));
  size_t n_src = u->n_items;
  cfg->source_pos_cm = ionf_calloc(3 * n_src, sizeof(double), "source positions");
  cfg->source_ndot_per_s = ionf_calloc(n_src, sizeof(double), "source rates");
  cfg->source_text = ionf_calloc(n_src, sizeof *cfg->source_text, "source positions");
  IONF_CHECK(cfg->source_pos_cm && cfg->source_ndot_per_s && cfg->source_text, IONF_ERR_MEM,
             "out of memory");
  static const char *const keys[] = {"position", "Ndot"};
  for (size_t i = 0; i < n_src; ++i) {
    const struct param_node *s = u->items[i], *n;
    char path[64];
    snprintf(path, sizeof path, "sources[%zu]", i);
    sph_config_blame(c, s);
    IONF_CHECK(s->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
               "%s: %s: expected a mapping {position: [x, y, z], Ndot: RATE}, got %s", c->name,
               path, kind_text(s));
    IONF_CHECK(!params_get(s, "plane"), IONF_ERR_CONFIG,
               "%s: %s: plane-parallel sources are not supported for particles", c->name, path);
    IONF_CALL(check_keys(c, s, path, keys, SPH_N(keys)));
    struct param_node *seff = params_new(PARAM_MAPPING, NULL);
    IONF_CHECK(seff, IONF_ERR_MEM, "out of memory");
    IONF_CALL(params_seq_append(eff, seff));
    IONF_CALL(take(c, s, "position", NULL, seff, &n));
    IONF_CHECK(n && n->kind == PARAM_SEQUENCE && n->n_items == 3, IONF_ERR_CONFIG,
               "%s: %s.position: expected a list of 3 lengths [x, y, z] from the box corner, "
               "like [0 kpc, 0 kpc, 0 kpc], got %s",
               c->name, path, kind_text(n));
    size_t used = 0;
    for (int d = 0; d < 3; ++d) {
      char p[96];
      snprintf(p, sizeof p, "%s.position[%d]", path, d);
      IONF_CALL(read_length(c, p, n->items[d], &cfg->source_pos_cm[3 * i + (size_t)d]));
      used += (size_t)snprintf(cfg->source_text[i] + used, sizeof cfg->source_text[i] - used,
                               "%s%s", d ? ", " : "[", n->items[d]->scalar);
      if (used >= sizeof cfg->source_text[i]) used = sizeof cfg->source_text[i] - 1;
    }
    snprintf(cfg->source_text[i] + used, sizeof cfg->source_text[i] - used, "]");
    IONF_CALL(take(c, s, "Ndot", NULL, seff, &n));
    IONF_CHECK(n, IONF_ERR_CONFIG, "%s: missing required key '%s.Ndot' (ionizing photons per second)",
               c->name, path);
    char p[96];
    snprintf(p, sizeof p, "%s.Ndot", path);
    IONF_CALL(read_number(c, p, n, &cfg->source_ndot_per_s[i]));
    IONF_CHECK(cfg->source_ndot_per_s[i] > 0, IONF_ERR_CONFIG,
               "%s: %s = %s is out of range (must be > 0: ionizing photons per second)", c->name,
               p, n->scalar);
    cfg->n_sources = (int64_t)i + 1;
  }
  if (cfg->generate != SPH_GENERATE_NONE) /* the box is known now; files: at set-up */
    for (int64_t i = 0; i < cfg->n_sources; ++i)
      for (int d = 0; d < 3; ++d) {
        double x = cfg->source_pos_cm[3 * i + d];
        IONF_CHECK(x >= 0 && x <= cfg->gen_box_cm, IONF_ERR_CONFIG,
                   "%s: sources[%lld].position = %s is outside the particles' box (each "
                   "coordinate must be in 0..%g kpc, particles.generate.box)",
                   c->name, (long long)i, cfg->source_text[i], cfg->gen_box_cm / IONF_KPC_CM);
      }
  return IONF_OK;
}

/* ---- public ------------------------------------------------------------------------ */

void sph_config_free(struct sph_config *cfg) {
  if (!cfg) return;
  config_free(&cfg->base);
  free(cfg->source_pos_cm);
  free(cfg->source_ndot_per_s);
  free(cfg->source_text);
  cfg->source_pos_cm = NULL;
  cfg->source_ndot_per_s = NULL;
  cfg->source_text = NULL;
  cfg->n_sources = 0;
}

ionf_err sph_config_from_params(const struct param_node *root, const char *name,
                                struct sph_config *cfg) {
  char dir[IONF_PATH_MAX] = "";
  const char *slash = name ? strrchr(name, '/') : NULL;
  if (slash && strncmp(name, "built-in ", 9) != 0 && (size_t)(slash - name) + 2 < sizeof dir) {
    memcpy(dir, name, (size_t)(slash - name) + 1);
    dir[slash - name + 1] = '\0';
  }
  return sph_config_from_params_in(root, name, dir, cfg);
}

ionf_err sph_config_from_params_in(const struct param_node *root, const char *name,
                                   const char *dir, struct sph_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  config_defaults(&cfg->base);
  struct sph_ctx c = {.name = name ? name : "config", .config_name = name ? name : "config"};
  snprintf(c.dir, sizeof c.dir, "%s", dir ? dir : "");
  IONF_CHECK(root && root->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: expected a mapping of sections at the top level", c.name);
  struct param_node *particles_eff = params_new(PARAM_MAPPING, NULL);
  struct param_node *sources_eff = params_new(PARAM_SEQUENCE, NULL);
  ionf_err rc = particles_eff && sources_eff ? IONF_OK : IONF_ERR_MEM;
  /* what a particle run cannot do is refused first, by its key */
  if (rc == IONF_OK) rc = sph_config_refuse_grid_keys(&c, root);
  if (rc == IONF_OK) rc = read_particles(&c, params_get(root, "particles"), particles_eff, cfg);
  if (rc == IONF_OK) rc = read_sources(&c, params_get(root, "sources"), sources_eff, cfg);
  if (rc == IONF_OK) rc = sph_config_read_shared(&c, root, cfg);
  if (rc == IONF_OK) rc = sph_config_build_effective(&c, root, particles_eff, sources_eff, cfg);
  params_free(particles_eff);
  params_free(sources_eff);
  if (rc != IONF_OK) {
    sph_config_free(cfg);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

ionf_err sph_config_load_file(const struct config_file *f, char *const *overrides,
                              int n_overrides, struct sph_config *cfg) {
  struct param_node *root = NULL;
  memset(cfg, 0, sizeof *cfg);
  IONF_CALL(config_file_tree(f, overrides, n_overrides, &root));
  ionf_err rc = sph_config_from_params_in(root, f->name, f->dir, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

static ionf_err load_tree(const char *path, const char *builtin_name, char *name, size_t cap,
                          struct param_node **root) {
  if (path) {
    snprintf(name, cap, "%s", path);
    return params_load_file(path, root);
  }
  const char *text = problems_yaml(builtin_name);
  IONF_CHECK(text, IONF_ERR_USAGE, "unknown built-in problem '%s'", builtin_name ? builtin_name : "");
  snprintf(name, cap, "built-in %s", builtin_name);
  return params_load_string(text, name, root);
}

ionf_err sph_config_load(const char *path, const char *builtin_name, char *const *overrides,
                         int n_overrides, struct sph_config *cfg) {
  struct param_node *root = NULL;
  char name[IONF_PATH_MAX];
  memset(cfg, 0, sizeof *cfg);
  IONF_CALL(load_tree(path, builtin_name, name, sizeof name, &root));
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_overrides && rc == IONF_OK; ++i) rc = params_set_override(root, overrides[i]);
  if (rc == IONF_OK) rc = sph_config_from_params(root, name, cfg);
  params_free(root);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}
