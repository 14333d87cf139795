/**
 * @file sph_trace_test_inputs.h
 * @brief Shared set-ups of the particle-tracer tests: an open (non-periodic)
 *        particle set with its tree, grey tables, one pass.
 */
#ifndef IONF_SPH_TRACE_TEST_INPUTS_H
#define IONF_SPH_TRACE_TEST_INPUTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "bvh_test_inputs.h"
#include "core/constants.h"
#include "core/error.h"
#include "particles/particles.h"
#include "particles/particles_make.h"
#include "rt/photo_tables.h"
#include "particles/sph_trace.h"

struct trace_case {
  struct particle_set p;
  struct bvh tree;
  double *x_hii;
  double *gamma;
  double *heat;
};

/** A jittered lattice of n_side^3 in a 1 kpc box (open), optional clump, its tree. */
/* A lattice set from `prm` (particles_make_lattice), its tree and zeroed arrays. */
static inline int trace_case_from_params(const struct particles_make_params *prm,
                                         struct trace_case *c) {
  memset(c, 0, sizeof *c);
  if (particles_make_lattice(prm, &c->p) != IONF_OK) return 0;
  struct bvh_scene scene;
  particles_scene(&c->p, &scene);
  if (bvh_build_cpu(c->p.pos_cm, c->p.h_cm, c->p.count, &scene, BVH_MAX_LEAF_DEFAULT, &c->tree,
                    NULL) != IONF_OK)
    return 0;
  size_t n = (size_t)c->p.count;
  c->x_hii = calloc(n, sizeof(double));
  c->gamma = calloc(n, sizeof(double));
  c->heat = calloc(n, sizeof(double));
  return c->x_hii && c->gamma && c->heat;
}

static inline int trace_case_lattice(int64_t n_side, double jitter, int with_clump, uint64_t seed,
                              struct trace_case *c) {
  struct particles_make_params prm;
  particles_make_default_params(&prm);
  prm.n_side = n_side;
  prm.periodic = 0;
  prm.jitter = jitter;
  prm.seed = seed;
  struct particle_clump clump = {{0.65 * IONF_KPC_CM, 0.45 * IONF_KPC_CM, 0.5 * IONF_KPC_CM},
                                 0.12 * IONF_KPC_CM, 8.0};
  if (with_clump) {
    prm.clumps = &clump;
    prm.n_clumps = 1;
  }
  return trace_case_from_params(&prm, c);
}

/** A degenerate set from tests/bvh_test_inputs.h (a line: a chain-like deep tree). */
static inline int trace_case_bvh_input(enum bvh_input_kind kind, int64_t n, int max_leaf,
                                struct trace_case *c) {
  memset(c, 0, sizeof *c);
  struct bvh_input bi;
  if (!bvh_input_make(kind, n, 99u, &bi)) return 0;
  if (particles_alloc(n, 0, &c->p) != IONF_OK) return 0;
  memcpy(c->p.pos_cm, bi.pos, (size_t)(3 * n) * sizeof(double));
  memcpy(c->p.h_cm, bi.h, (size_t)n * sizeof(double));
  bvh_input_free(&bi);
  for (int64_t i = 0; i < n; ++i) {
    c->p.mass_g[i] = 1.6726e-24 * 1e62;
    c->p.n_h_atoms[i] = 1e62;
  }
  if (bvh_build_cpu(c->p.pos_cm, c->p.h_cm, n, NULL, max_leaf, &c->tree, NULL) != IONF_OK) return 0;
  c->x_hii = calloc((size_t)n, sizeof(double));
  c->gamma = calloc((size_t)n, sizeof(double));
  c->heat = calloc((size_t)n, sizeof(double));
  return c->x_hii && c->gamma && c->heat;
}

static inline void trace_case_free(struct trace_case *c) {
  particles_free(&c->p);
  bvh_free(&c->tree);
  free(c->x_hii);
  free(c->gamma);
  free(c->heat);
}

/* Black-body (1e5 K) rate tables with heating at cross-section sigma0 (free with
   photo_tables_free); 0 when they cannot be built. */
static inline int blackbody_tables(double sigma0_cm2, struct photo_tables *t) {
  struct photo_spectrum spectrum = {SPECTRUM_BLACKBODY, 1e5, 2000, -20.0, 4.0};
  struct species_params params = {sigma0_cm2, 2.8, 0.0, 0.0};
  struct species_data species[IONF_MAX_SPECIES];
  species_table(&params, species);
  return photo_tables_build(&spectrum, species, 1, t) == IONF_OK;
}

static inline struct photo_table_view grey_tables(double sigma0_cm2) {
  struct photo_table_view t;
  memset(&t, 0, sizeof t);
  t.grey = 1;
  t.sp[SPECIES_HI].sigma0_cm2 = sigma0_cm2;
  return t;
}

static inline struct sph_trace_input trace_input(const struct trace_case *c, struct photo_table_view t,
                                          int64_t n_sources, const double *pos,
                                          const double *ndot, int64_t n_rays, double r_max_cm) {
  struct sph_trace_input in;
  memset(&in, 0, sizeof in);
  in.particles = &c->p;
  in.tree = &c->tree;
  in.x_hii = c->x_hii;
  in.tables = t;
  in.sources.count = n_sources;
  in.sources.pos_cm = pos;
  in.sources.ndot_per_s = ndot;
  in.n_rays = n_rays;
  in.r_max_cm = r_max_cm;
  return in;
}

#endif /* IONF_SPH_TRACE_TEST_INPUTS_H */
