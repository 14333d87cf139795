/**
 * @file sph_trace_prep.h
 * @brief What both tracer paths (CPU, CUDA) prepare on the host before a
 *        pass: the checked input, the ray directions, the kernel column table,
 *        and the particles gathered into the tree's sorted order.
 */
#ifndef IONF_SPH_TRACE_PREP_H
#define IONF_SPH_TRACE_PREP_H

#include <stdint.h>

#include "core/error.h"
#include "particles/sph_k.h"
#include "particles/sph_trace.h"
#include "particles/sph_trace_k.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sph_trace_prep {
  int64_t nside;
  int64_t n_rays;            /*!< this pass's rays per source (its share: sph_trace_input) */
  int64_t n_rays_source;     /*!< every ray of a source (in->n_rays): each carries Ndot / it */
  int64_t ray_first, ray_stride; /*!< the share (stride >= 1) */
  int64_t n_particles;
  double *dirs;              /*!< n_rays x 3 unit vectors: the share's HEALPix NESTED directions,
                                  in order; SPH_PREP_DIRECTIONS */
  double column_table[SPH_COLUMN_INTERVALS + 1];
  double *xyzh;              /*!< per sorted slot: x, y, z, h [cm]; SPH_PREP_PARTICLES */
  double *n_hi;              /*!< per sorted slot: neutral hydrogen atoms N_H (1 - x); idem
                                  (hydrogen alone) */
  struct sph_absorbers *absorbers; /*!< with helium (n_species 3), instead of n_hi: per sorted
                                  slot, the absorber atoms and x_e (sph_trace_k.h); idem */
  double h_max_cm;           /*!< largest h (the slab tests' reach past r_max) */
  int periodic;              /*!< rays wrap: every image of the box (src/sph_periodic_k.h) */
  double box_cm[3];          /*!< the periodic box's sides [cm] */
};

/**
 * What sph_trace_prepare does beyond the other checks, the table and nside:
 * the ray directions (the CUDA path keeps its device copy while nside stays),
 * the particles gathered into sorted order (the CUDA path keeps its own), the
 * scans over every particle: x_HII in [0, 1] and h_max (the CUDA path checks
 * x_HII while it stages it for the upload and keeps h_max with its resident
 * particles).
 */
enum { SPH_PREP_DIRECTIONS = 1, SPH_PREP_PARTICLES = 2, SPH_PREP_SCANS = 4 };

/** IONF_ERR_INPUT: particle i's ionized fraction x is outside [0, 1] (the scan's message). */
IONF_NODISCARD ionf_err sph_trace_bad_x_hii(int64_t i, double x);

/** IONF_ERR_INPUT: with helium, value k (species k / stride, particle k % stride) of the
    ion fractions is outside [0, 1] (the scan's message, naming the species). */
IONF_NODISCARD ionf_err sph_trace_bad_x_ion(int64_t k, int64_t stride, double x);

/** The pass's species: 1 (hydrogen alone) or 3 (in->n_species 3, helium). */
static inline int sph_trace_species(const struct sph_trace_input *in) {
  return in->n_species == 3 ? 3 : 1;
}

/** The pass's share of every source's rays (sph_trace_input: ray_first, ray_stride):
    *first, *stride (>= 1) and *count, the rays per source it traces. */
IONF_NODISCARD ionf_err sph_trace_ray_share(const struct sph_trace_input *in, int64_t *first,
                                            int64_t *stride, int64_t *count);

/** The largest smoothing length of the set [cm] (0 for none). */
double sph_trace_h_max(const struct particle_set *p);

/**
 * Check `in`/`out` (IONF_ERR_INPUT naming the bad value; a periodic set needs a
 * box, 0 < r_max <= SPH_PERIODIC_MAX_R_BOXES smallest sides, and its particles
 * and sources in the box [0, L]) and fill `prep` (free with
 * sph_trace_prep_free); `what`: SPH_PREP_* flags.
 */
IONF_NODISCARD ionf_err sph_trace_prepare(const struct sph_trace_input *in,
                                          const struct sph_trace_output *out, unsigned what,
                                          struct sph_trace_prep *prep);
void sph_trace_prep_free(struct sph_trace_prep *prep);

#ifdef __cplusplus
}
#endif

#endif /* IONF_SPH_TRACE_PREP_H */
