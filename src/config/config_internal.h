/**
 * @file config_internal.h
 * @brief Internal to the config reader (src/config/config*.c): the reading
 *        context, one section being validated, the typed readers and the
 *        readers of the sections.  Not for use outside src/config.
 *
 * While validating, an "effective" tree is built next to the user's: every
 * known key in a fixed order, the user's value where given and the default
 * otherwise, input paths resolved (config.c).  Each section reader opens its
 * section (config_open_section), takes its keys in the order the effective
 * config shows them (config_take) and checks them with the typed readers;
 * config_build calls the readers in the order of the effective config.
 */
#ifndef IONF_CONFIG_INTERNAL_H
#define IONF_CONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "core/error.h"
#include "core/params.h"
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
#define CONFIG_N(array) (sizeof(array) / sizeof((array)[0]))

struct config_ctx {
  const char *name;        /* where the value read last came from, for messages: the config's
                              name, or the "--set KEY=VALUE" that gave it (config_blame) */
  const char *config_name; /* the config's name (file, "built-in NAME") */
  char dir[IONF_PATH_MAX]; /* directory of the config file with '/', "" = cwd */
  struct param_node *eff;  /* the effective tree */
  /* sequence: (production runs) decides what other sections must hold */
  int seq_given, seq_density, seq_halos;
  struct param_node *time_eff, *cosmo_eff; /* effective sections the sequence completes */
  struct param_node *outputs_node;         /* time.outputs as given (NULL: none) */
  struct param_node *t_end_node;           /* time.t_end as given (NULL: none) */
  int z_initial_given;
  int clumping_z_given;                    /* chemistry.clumping.z was given */
  const char *clumping_where, *mfp_where;  /* where chemistry.clumping and
                                              raytracing.mean_free_path came from */
};

/* One mapping being validated: the user's keys and their effective copy. */
struct config_section {
  struct config_ctx *ctx;
  const char *name;              /* "grid", "sources[2]", "material.n_H" */
  const struct param_node *user; /* NULL when absent */
  struct param_node *eff;
  char path[CONFIG_TEXT_MAX];    /* "grid.N": the key taken last */
};

/* ---- describing values in messages (config.c) ---------------------------------------- */

/* "a single value", "a list", "a mapping", "a quoted string", "nothing". */
const char *config_kind(const struct param_node *n);
/* The value as the user wrote it: "5 Myr", "\"64\"", "[0, 0, 200]", or its kind. */
const char *config_text(const struct param_node *n, char *buf, size_t cap);

/* Every key of the mapping `map` is one of known[n_known]: else IONF_ERR_CONFIG "unknown key
   'PREFIX.KEY'" (prefix NULL: "unknown section 'KEY'") with the likeliest meant. */
/** The effective YAML of a loaded config (ctx->eff) with its header line, into *out
    (malloc'ed; the caller frees). */
IONF_NODISCARD ionf_err config_effective_yaml(const struct config_ctx *ctx, char **out);

IONF_NODISCARD ionf_err config_check_keys(const struct config_ctx *ctx,
                                          const struct param_node *map, const char *prefix,
                                          const char *const *known, size_t n_known);

/* ---- typed values (config.c): each names ctx->name, the key `path` and the value ------- */

IONF_NODISCARD ionf_err config_number(const struct config_ctx *ctx, const char *path,
                                      const struct param_node *n, const char *expected,
                                      double *out);
/* The error "PATH = VALUE is out of range (RULE)". */
IONF_NODISCARD ionf_err config_range(const struct config_ctx *ctx, const char *path,
                                     const struct param_node *n, const char *rule);
IONF_NODISCARD ionf_err config_int(const struct config_ctx *ctx, const char *path,
                                   const struct param_node *n, int64_t lo, int64_t hi,
                                   int64_t *out);
IONF_NODISCARD ionf_err config_bool(const struct config_ctx *ctx, const char *path,
                                    const struct param_node *n, int *out);
IONF_NODISCARD ionf_err config_string(const struct config_ctx *ctx, const char *path,
                                      const struct param_node *n, const char *what, char *out,
                                      size_t cap);
/* Index of the value in `names` (case-insensitive). */
IONF_NODISCARD ionf_err config_enum(const struct config_ctx *ctx, const char *path,
                                    const struct param_node *n, const char *const *names,
                                    size_t n_names, int *out);
/* A length or time: a bare number in `default_unit` or "6.6 kpc". */
IONF_NODISCARD ionf_err config_quantity(const struct config_ctx *ctx, const char *path,
                                        const struct param_node *n, enum unit_dim dim,
                                        double default_unit, double cell_cm, double *out);
/* Relative input paths are relative to the config file; the result is made
 * absolute so the effective YAML means the same from any directory. */
IONF_NODISCARD ionf_err config_resolve(const struct config_ctx *ctx, const char *path,
                                       const char *file, char *out, size_t cap);

/* The YAML text of built-in problem `problem`; IONF_ERR_USAGE naming the known ones (and
   the likeliest meant) when there is none such. */
IONF_NODISCARD ionf_err config_builtin(const char *problem, const char **text);

/* ---- sections (config.c) -------------------------------------------------------------- */

/* Messages from now on name where `n` came from: its --set, else the config (n NULL too). */
void config_blame(struct config_ctx *ctx, const struct param_node *n);

/* Open the mapping `user` (NULL or null: absent) as section `name` with its known keys. */
IONF_NODISCARD ionf_err config_open(struct config_ctx *ctx, const struct param_node *user,
                                    const char *name, const char *const *keys, size_t n_keys,
                                    struct config_section *s);
/* Open a top-level section and attach its effective mapping to the tree. */
IONF_NODISCARD ionf_err config_open_section(struct config_ctx *ctx, const struct param_node *root,
                                            const char *name, const char *const *keys,
                                            size_t n_keys, struct config_section *s);
/* The effective value of `key`: a copy of the user's, else the default `def`
 * (else NULL: the caller decides whether the key is required). */
IONF_NODISCARD ionf_err config_take(struct config_section *s, const char *key, const char *def,
                                    struct param_node **out);
IONF_NODISCARD ionf_err config_require(const struct config_section *s,
                                       const struct param_node *n, const char *what);
/* A key with a default that names one of names[n_names] (case-insensitive): *which its index. */
IONF_NODISCARD ionf_err config_take_enum(struct config_section *s, const char *key,
                                         const char *def, const char *const *names,
                                         size_t n_names, int *which);
/* A required positive finite number. */
IONF_NODISCARD ionf_err config_positive(struct config_section *s, const char *key,
                                        const char *def, const char *what, double *out);

/* ---- the sections, in the order of the effective config (config_build) ----------------- */

/* Each reads its section of `root` into cfg and the effective tree ctx->eff. */
typedef ionf_err config_section_fn(struct config_ctx *ctx, const struct param_node *root,
                                   struct ionf_config *cfg);
config_section_fn config_medium_grid, config_medium_material, config_medium_chemistry,
    config_sources, config_sources_spectrum, config_time, config_run_raytracing,
    config_run_montecarlo, config_run_output, config_run_mpi, config_cosmology, config_sequence,
    config_synthetic, config_debug;

/* The output times (config_time.c): time.outputs (`n`, its effective node, NULL when not
 * given) and the `n_more` times `more`, each in (0, t_end], sorted, duplicates dropped;
 * outputs after t_end are dropped from cfg and `n` with a note, and t_end added. */
IONF_NODISCARD ionf_err config_time_outputs(struct config_ctx *ctx, struct param_node *n,
                                            const char *t_end_text, const double *more,
                                            size_t n_more, struct ionf_config *cfg);

/* The sub-grid models (config_subgrid.c): chemistry.clumping read in the chemistry section
   `chem`, raytracing.mean_free_path in the raytracing section `rt` (after R_max); and, after
   every section, their checks against the run (cosmological, Monte Carlo) and the photon
   radius planned (cfg->r_max_cells: the largest R of the run, capped). */
IONF_NODISCARD ionf_err config_subgrid_clumping(struct config_section *chem,
                                                struct ionf_config *cfg);
IONF_NODISCARD ionf_err config_subgrid_mfp(struct config_section *rt, struct ionf_config *cfg);
IONF_NODISCARD ionf_err config_subgrid_check(struct config_ctx *ctx, struct ionf_config *cfg);
/* sequence.halos.model (config_halo_model.c): read from `halos`' user mapping into `m`
 * (absent: f_gamma, N_ion 1, f_esc 1, constant accretion; f_gamma, t_source and
 * f_gamma_low_mass are the caller's to fill); *eff its effective mapping, not attached
 * (NULL when absent): the caller attaches it or frees it. */
IONF_NODISCARD ionf_err config_halo_model(struct config_section *halos, struct halo_model *m,
                                          struct param_node **eff);

/* What a run's species allow (config_species.c): helium needs a spectrum above 24.6 eV,
   ASORA and point sources; case A needs helium. */
IONF_NODISCARD ionf_err config_species_check(const struct config_ctx *ctx,
                                             const struct ionf_config *cfg);

#endif /* IONF_CONFIG_INTERNAL_H */
