/**
 * @file sph_config_internal.h
 * @brief Internal to the particle-run config reader (sph_config.c, sph_config_shared.c):
 *        the reading context and the shared sections.  Not for use outside src/config.
 */
#ifndef IONF_SPH_CONFIG_INTERNAL_H
#define IONF_SPH_CONFIG_INTERNAL_H

#include "config/sph_config.h"
#include "core/params.h"
#include "core/path.h"

#define SPH_N(a) (sizeof(a) / sizeof((a)[0]))
#define SPH_TEXT_MAX 256

struct sph_ctx {
  const char *name;        /* where the value read last came from, for messages: the
                              config's name or the "--set KEY=VALUE" that gave it */
  const char *config_name; /* the config's name (file, "built-in NAME") */
  char dir[IONF_PATH_MAX]; /* the folder of relative input paths, with '/'; "" = cwd */
};

/* Where `n` came from, for a message: its --set, else the config. */
static inline const char *sph_config_where(const struct sph_ctx *c, const struct param_node *n) {
  const char *set = params_origin(n);
  return set ? set : c->config_name;
}

/* Messages from now on name where `n` came from. */
static inline void sph_config_blame(struct sph_ctx *c, const struct param_node *n) {
  c->name = sph_config_where(c, n);
}

/* The sections and keys of grid runs that a particle run cannot use, refused by name
   (sph_config_shared.c). */
IONF_NODISCARD ionf_err sph_config_refuse_grid_keys(struct sph_ctx *c,
                                                    const struct param_node *root);
/* The physics sections, through the grid config's reader with placeholders for the grid,
   n_H and sources; raytracing.R_max read here, as a length only (sph_config_shared.c). */
IONF_NODISCARD ionf_err sph_config_read_shared(struct sph_ctx *c, const struct param_node *root,
                                               struct sph_config *cfg);
/* The effective config: the shared sections' (placeholders out) and the particle run's. */
IONF_NODISCARD ionf_err sph_config_build_effective(const struct sph_ctx *c,
                                                   const struct param_node *root,
                                                   struct param_node *particles_eff,
                                                   struct param_node *sources_eff,
                                                   struct sph_config *cfg);

#endif /* IONF_SPH_CONFIG_INTERNAL_H */
