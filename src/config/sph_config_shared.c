/**
 * @file sph_config_shared.c
 * @brief The physics sections of a particle run (material, chemistry, spectrum, time,
 *        raytracing, output, mpi, debug), read in the particle run's own terms.
 *
 * What a particle run cannot do is refused first, each by its key (grid:, cosmology:,
 * sequence:, synthetic:, montecarlo:, material.n_H and clumps, raytracing.method other
 * than the ray tracer, source_batch_size, transmission_cutoff, output.c2ray_binary and
 * dTb).  raytracing.R_max
 * is read here, as a length only (a particle run has no cells).  The other shared keys go
 * through the grid config's reader (same messages and defaults) with a placeholder grid,
 * n_H and source, which then leave the effective config.
 */
#include "config/sph_config_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

/* A copy of mapping `map` without the keys in `drop` (an empty mapping for NULL). */
static struct param_node *sph_config_copy_without(const struct param_node *map,
                                                  const char *const *drop, size_t n_drop) {
  struct param_node *out = params_new(PARAM_MAPPING, NULL);
  if (!out || !map || map->kind != PARAM_MAPPING) return out;
  for (size_t i = 0; i < map->n_items; ++i) {
    int skip = 0;
    for (size_t k = 0; k < n_drop && !skip; ++k) skip = !strcmp(map->keys[i], drop[k]);
    if (skip) continue;
    struct param_node *v = params_copy(map->items[i]);
    if (!v || params_map_set(out, map->keys[i], v) != IONF_OK) {
      params_free(out);
      return NULL;
    }
  }
  return out;
}

/* The value of `key` in `section` of `root` when given (not null), else NULL. */
static const struct param_node *sph_config_given(const struct param_node *root,
                                                 const char *section, const char *key) {
  const struct param_node *s = params_get(root, section);
  const struct param_node *n = key ? params_get(s, key) : s;
  return n && n->kind != PARAM_NULL ? n : NULL;
}

static int sph_config_is(const struct param_node *n, const char *text) {
  return n && n->kind == PARAM_SCALAR && !strcmp(n->scalar, text);
}

/* The sub-grid models a particle run can take: a constant clumping factor, or the redshift
   model at a given z (a particle run has no redshift) with its coefficients or the fits of a
   given cell size (it has no cells); not the density model, nor raytracing.mean_free_path. */
static ionf_err sph_config_refuse_subgrid(struct sph_ctx *c, const struct param_node *root) {
  const struct param_node *n = sph_config_given(root, "raytracing", "mean_free_path");
  IONF_CHECK(!n, IONF_ERR_CONFIG,
             "%s: raytracing.mean_free_path: does not apply to a particle run (its R(z) needs a "
             "cosmological run; give raytracing.R_max as a length)",
             sph_config_where(c, n));
  n = sph_config_given(root, "chemistry", "clumping");
  if (!n || n->kind != PARAM_MAPPING) return IONF_OK; /* a number: the grid's reader checks it */
  const struct param_node *model = params_get(n, "model");
  IONF_CHECK(!sph_config_is(model, "density"), IONF_ERR_CONFIG,
             "%s: chemistry.clumping: model density does not apply to a particle run (its fits "
             "are for grid cells against the grid's mean density); use model constant or "
             "redshift",
             sph_config_where(c, n));
  if (!sph_config_is(model, "redshift")) return IONF_OK;
  IONF_CHECK(params_get(n, "z"), IONF_ERR_CONFIG,
             "%s: chemistry.clumping: model redshift in a particle run needs z, the redshift to "
             "evaluate C(z) at (a particle run is static: it has no redshift of its own)",
             sph_config_where(c, n));
  IONF_CHECK(params_get(n, "C0") || params_get(n, "c1") || params_get(n, "c2") ||
                 params_get(n, "fits_cell_size"),
             IONF_ERR_CONFIG,
             "%s: chemistry.clumping: model redshift in a particle run needs C0, c1 and c2, or "
             "fits_cell_size (the built-in fits are chosen by a grid's cell size; a particle "
             "run has no cells)",
             sph_config_where(c, n));
  return IONF_OK;
}

ionf_err sph_config_refuse_grid_keys(struct sph_ctx *c, const struct param_node *root) {
  static const struct {
    const char *section, *why;
  } sections[] = {
      {"grid", "the particles: section gives the particles and their box"},
      {"cosmology", "particle runs are static, in proper units"},
      {"sequence", "a particle run has one particle set; it reads no density or halo files "
                   "per redshift"},
      {"synthetic", "its fields are grids: 'ionfront generate particles' or "
                    "particles.generate make particles"},
      {"montecarlo", "particle runs trace rays with the SPH ray tracer, not Monte Carlo "
                     "packets"}};
  for (size_t k = 0; k < SPH_N(sections); ++k) {
    const struct param_node *n = params_get(root, sections[k].section);
    IONF_CHECK(!n, IONF_ERR_CONFIG, "%s: %s: does not apply to a particle run (%s)",
               sph_config_where(c, n), sections[k].section, sections[k].why);
  }
  const struct param_node *n = sph_config_given(root, "material", "n_H");
  IONF_CHECK(!n, IONF_ERR_CONFIG,
             "%s: material.n_H: does not apply to a particle run (n_H comes from each "
             "particle's SPH density, or particles.generate.n_H)",
             sph_config_where(c, n));
  n = sph_config_given(root, "material", "clumps");
  IONF_CHECK(!n, IONF_ERR_CONFIG,
             "%s: material.clumps: does not apply to a particle run (clumps change grid cells; "
             "give the particles their densities instead)",
             sph_config_where(c, n));
  n = sph_config_given(root, "raytracing", "method");
  IONF_CHECK(!n || sph_config_is(n, "asora"), IONF_ERR_CONFIG,
             "%s: raytracing.method = %s: particle runs trace rays with the SPH ray tracer only "
             "(leave raytracing.method out)",
             sph_config_where(c, n), n && n->kind == PARAM_SCALAR ? n->scalar : "(not a name)");
  n = sph_config_given(root, "raytracing", "source_batch_size");
  IONF_CHECK(!n || sph_config_is(n, "0"), IONF_ERR_CONFIG,
             "%s: raytracing.source_batch_size = %s: does not apply to a particle run (its "
             "tracer takes every source at once; leave it out)",
             sph_config_where(c, n), n && n->kind == PARAM_SCALAR ? n->scalar : "(not a number)");
  n = sph_config_given(root, "raytracing", "transmission_cutoff");
  IONF_CHECK(!n || sph_config_is(n, "0"), IONF_ERR_CONFIG,
             "%s: raytracing.transmission_cutoff = %s: does not apply to a particle run (a "
             "setting of the grid's ASORA tracer; leave it out)",
             sph_config_where(c, n), n && n->kind == PARAM_SCALAR ? n->scalar : "(not a number)");
  IONF_CALL(sph_config_refuse_subgrid(c, root));
  /* helium (material.abundance_He, x_HeII_initial, x_HeIII_initial, chemistry.case,
     spectrum.type powerlaw | table, sub_bins, secondary_ionization) goes through the
     grid's reader and config_species_check: the same keys, values and refusals */
  static const char *const grid_outputs[] = {"c2ray_binary", "dTb"};
  static const char *const why[] = {"C2-Ray's files are grids; particle runs write particles "
                                    "(and /Grid with particles.output_grid)",
                                    "the 21-cm brightness is written on grids only"};
  for (size_t k = 0; k < SPH_N(grid_outputs); ++k) {
    n = sph_config_given(root, "output", grid_outputs[k]);
    IONF_CHECK(!n || sph_config_is(n, "false") || sph_config_is(n, "no") ||
                   sph_config_is(n, "off"),
               IONF_ERR_CONFIG, "%s: output.%s = %s: does not apply to a particle run (%s)",
               sph_config_where(c, n), grid_outputs[k],
               n && n->kind == PARAM_SCALAR ? n->scalar : "(not a bool)", why[k]);
  }
  return IONF_OK;
}

/* raytracing.R_max of a particle run: a length ('3 kpc'), or 0 (no limit); a number
   without a unit or in cells is refused (a particle run has no cells). */
static ionf_err sph_config_read_r_max(struct sph_ctx *c, const struct param_node *root,
                                      struct sph_config *cfg) {
  const struct param_node *n = sph_config_given(root, "raytracing", "R_max");
  cfg->r_max_cm = 0.0;
  if (!n) return IONF_OK;
  sph_config_blame(c, n);
  IONF_CHECK(n->kind == PARAM_SCALAR, IONF_ERR_CONFIG,
             "%s: raytracing.R_max: expected a length like '3 kpc' (or 0), got a %s", c->name,
             n->kind == PARAM_SEQUENCE ? "list" : "mapping");
  double v;
  if (units_parse_number(n->scalar, &v)) {
    IONF_CHECK(v == 0.0, IONF_ERR_CONFIG,
               "%s: raytracing.R_max = %s: particle runs take a length with a unit ('3 kpc') "
               "or 0 (no limit): a particle run has no cells",
               c->name, n->scalar);
    return IONF_OK;
  }
  char key[2 * SPH_TEXT_MAX];
  snprintf(key, sizeof key, "%s: raytracing.R_max (a particle run has no cells)", c->name);
  IONF_CALL(units_parse(n->scalar, UNIT_LENGTH, IONF_MPC_CM, 0.0, key, &cfg->r_max_cm));
  IONF_CHECK(cfg->r_max_cm >= 0.0, IONF_ERR_CONFIG,
             "%s: raytracing.R_max = %s is out of range (must be >= 0; 0 means no limit)",
             c->name, n->scalar);
  return IONF_OK;
}

/* The tree the grid reader sees: the shared sections without the particle run's own keys
   (particles, sources, R_max), with a placeholder grid, n_H and source. */
static ionf_err sph_config_shared_tree(const struct param_node *root, struct param_node **out) {
  static const char *const drop[] = {"particles", "sources", "raytracing"};
  static const char *const rt_drop[] = {"R_max"};
  *out = NULL;
  struct param_node *tree = sph_config_copy_without(root, drop, SPH_N(drop));
  IONF_CHECK(tree, IONF_ERR_MEM, "out of memory");
  const struct param_node *rt = params_get(root, "raytracing");
  ionf_err rc = IONF_OK;
  if (rt && rt->kind == PARAM_MAPPING) {
    struct param_node *rt_copy = sph_config_copy_without(rt, rt_drop, SPH_N(rt_drop));
    rc = rt_copy ? params_map_set(tree, "raytracing", rt_copy) : IONF_ERR_MEM;
  } else if (rt) { /* not a mapping: the grid reader says so */
    struct param_node *rt_copy = params_copy(rt);
    rc = rt_copy ? params_map_set(tree, "raytracing", rt_copy) : IONF_ERR_MEM;
  }
  if (rc == IONF_OK) rc = params_set_override(tree, "grid.N=1");
  if (rc == IONF_OK) rc = params_set_override(tree, "grid.box_size=1 cm");
  if (rc == IONF_OK) rc = params_set_override(tree, "material.n_H=0");
  if (rc == IONF_OK) rc = params_set_override(tree, "sources=[{position: [0, 0, 0], Ndot: 1}]");
  if (rc != IONF_OK) {
    params_free(tree);
    return rc;
  }
  *out = tree;
  return IONF_OK;
}

ionf_err sph_config_read_shared(struct sph_ctx *c, const struct param_node *root,
                                struct sph_config *cfg) {
  IONF_CALL(sph_config_read_r_max(c, root, cfg));
  struct param_node *tree = NULL;
  IONF_CALL(sph_config_shared_tree(root, &tree));
  ionf_err rc = config_from_params_in(tree, c->config_name, c->dir, &cfg->base);
  params_free(tree);
  IONF_CALL(rc);
  c->name = c->config_name;
  IONF_CHECK(cfg->base.reduction == REDUCTION_AUTO || cfg->base.reduction == REDUCTION_SCATTER ||
                 cfg->base.reduction == REDUCTION_NCCL || cfg->base.reduction == REDUCTION_ALLREDUCE,
             IONF_ERR_CONFIG,
             "%s: mpi.reduction: particle runs sum the rates by blocks of particles with the "
             "chemistry split among the ranks (auto: through NCCL on the GPUs when the tracer "
             "runs there, else MPI on the host; nccl: through NCCL; scatter: MPI on the host) or "
             "with an all-reduce and every rank's chemistry over all particles (allreduce)",
             sph_config_where(c, sph_config_given(root, "mpi", "reduction")));
  return IONF_OK;
}

/* raytracing of the effective config: the grid reader's, R_max as given (a length) or 0,
   less the keys a particle run has not (method, source_batch_size, transmission_cutoff). */
static ionf_err sph_config_effective_raytracing(const struct param_node *root,
                                                const struct param_node *shared_rt,
                                                struct param_node **out) {
  static const char *const drop[] = {"method", "source_batch_size", "transmission_cutoff"};
  struct param_node *rt = sph_config_copy_without(shared_rt, drop, SPH_N(drop));
  IONF_CHECK(rt, IONF_ERR_MEM, "out of memory");
  const struct param_node *given = sph_config_given(root, "raytracing", "R_max");
  struct param_node *r = given ? params_copy(given) : params_new(PARAM_SCALAR, "0");
  if (r) free(r->set_by), r->set_by = NULL;
  ionf_err rc = r ? params_map_set(rt, "R_max", r) : IONF_ERR_MEM;
  if (rc != IONF_OK) {
    params_free(rt);
    return rc;
  }
  *out = rt;
  return IONF_OK;
}

/* One section of the grid reader's effective config as a particle run has it (NULL: none). */
static ionf_err sph_config_effective_section(const struct param_node *root, const char *key,
                                             const struct param_node *value,
                                             struct param_node **out) {
  static const char *const no_n_h[] = {"n_H", "clumps"};
  static const char *const no_grid_output[] = {"c2ray_binary", "dTb"};
  static const char *const not_here[] = {"grid", "sources", "cosmology", "montecarlo",
                                         "sequence", "synthetic"};
  *out = NULL;
  for (size_t k = 0; k < SPH_N(not_here); ++k)
    if (!strcmp(key, not_here[k])) return IONF_OK;
  if (!strcmp(key, "raytracing")) return sph_config_effective_raytracing(root, value, out);
  *out = !strcmp(key, "material")
             ? sph_config_copy_without(value, no_n_h, SPH_N(no_n_h))
         : !strcmp(key, "output") ? sph_config_copy_without(value, no_grid_output,
                                                            SPH_N(no_grid_output))
                                  : params_copy(value);
  IONF_CHECK(*out, IONF_ERR_MEM, "out of memory");
  return IONF_OK;
}

/* The effective config's text: a header comment and `eff`'s YAML (malloc'd). */
static ionf_err sph_config_effective_text(const struct sph_ctx *c, const struct param_node *eff,
                                          char **text) {
  char *body = params_emit_yaml(eff);
  IONF_CHECK(body, IONF_ERR_MEM, "out of memory");
  char header[IONF_PATH_MAX + 128];
  snprintf(header, sizeof header,
           "# ionfront effective configuration (%s, particle run), overrides applied, every "
           "default filled in\n",
           c->config_name);
  for (char *p = header; *p; ++p) /* a newline in the name would end the comment */
    if ((unsigned char)*p < 0x20 && p[1] != '\0') *p = '?';
  size_t hl = strlen(header), bl = strlen(body);
  *text = ionf_malloc(hl + bl + 1, "the effective config");
  if (*text) {
    memcpy(*text, header, hl);
    memcpy(*text + hl, body, bl + 1);
  }
  free(body);
  IONF_CHECK(*text, IONF_ERR_MEM, "out of memory");
  return IONF_OK;
}

ionf_err sph_config_build_effective(const struct sph_ctx *c, const struct param_node *root,
                                    struct param_node *particles_eff,
                                    struct param_node *sources_eff, struct sph_config *cfg) {
  struct param_node *shared = NULL;
  IONF_CALL(params_load_string(cfg->base.effective_yaml, c->config_name, &shared));
  struct param_node *eff = params_new(PARAM_MAPPING, NULL);
  ionf_err rc = eff ? IONF_OK : IONF_ERR_MEM;
  if (rc == IONF_OK) rc = params_map_set(eff, "particles", params_copy(particles_eff));
  /* a source file: the mapping {file, format}, not a list */
  const struct param_node *src_eff = cfg->source_file[0] ? sources_eff->items[0] : sources_eff;
  if (rc == IONF_OK) rc = params_map_set(eff, "sources", params_copy(src_eff));
  for (size_t i = 0; rc == IONF_OK && i < shared->n_items; ++i) {
    struct param_node *v = NULL;
    rc = sph_config_effective_section(root, shared->keys[i], shared->items[i], &v);
    if (rc == IONF_OK && v) rc = params_map_set(eff, shared->keys[i], v);
  }
  char *text = NULL;
  if (rc == IONF_OK) rc = sph_config_effective_text(c, eff, &text);
  params_free(eff);
  params_free(shared);
  IONF_CALL(rc);
  free(cfg->base.effective_yaml);
  cfg->base.effective_yaml = text;
  return IONF_OK;
}
