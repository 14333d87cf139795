/**
 * @file particles.c
 * @brief A set of SPH gas particles in memory: allocation, checks, hydrogen.
 */
#include "particles/particles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"

ionf_err particles_alloc(int64_t count, int with_density, struct particle_set *p) {
  IONF_CHECK(p, IONF_ERR_INTERNAL, "particles_alloc: NULL argument");
  memset(p, 0, sizeof *p);
  IONF_CHECK(count >= 0 && count <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "%lld particles; ionfront holds 0 to %lld per set", (long long)count,
             (long long)BVH_MAX_PARTICLES);
  p->count = count;
  p->hydrogen_mass_fraction = 1.0;
  p->scale_factor = 1.0;
  p->hubble_param = 1.0;
  size_t n = (size_t)count;
  p->pos_cm = ionf_calloc(3 * n, sizeof(double), "particle positions");
  p->h_cm = ionf_calloc(n, sizeof(double), "smoothing lengths");
  p->mass_g = ionf_calloc(n, sizeof(double), "particle masses");
  p->n_h_atoms = ionf_calloc(n, sizeof(double), "hydrogen atoms per particle");
  if (with_density) p->density_g_cm3 = ionf_calloc(n, sizeof(double), "particle densities");
  if (!p->pos_cm || !p->h_cm || !p->mass_g || !p->n_h_atoms ||
      (with_density && !p->density_g_cm3)) {
    particles_free(p);
    return IONF_ERR_MEM;
  }
  return IONF_OK;
}

void particles_free(struct particle_set *p) {
  if (!p) return;
  free(p->pos_cm);
  free(p->h_cm);
  free(p->mass_g);
  free(p->density_g_cm3);
  free(p->n_h_atoms);
  memset(p, 0, sizeof *p);
}

void particles_set_hydrogen(struct particle_set *p, double x_h) {
  p->hydrogen_mass_fraction = x_h;
  const double per_g = x_h / IONF_PROTON_MASS_G;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < p->count; ++i) p->n_h_atoms[i] = per_g * p->mass_g[i];
}

ionf_err particles_validate(const struct particle_set *p, const char *origin) {
  IONF_CHECK(p && origin, IONF_ERR_INTERNAL, "particles_validate: NULL argument");
  static const char axis[3] = {'x', 'y', 'z'};
  /* the first bad particle in index order: the message points at one place */
  for (int64_t i = 0; i < p->count; ++i) {
    const double *r = p->pos_cm + 3 * i;
    IONF_CHECK(isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]), IONF_ERR_INPUT,
               "%s: particle %lld has position (%g, %g, %g) cm; positions must be finite",
               origin, (long long)i, r[0], r[1], r[2]);
    if (p->has_box)
      for (int a = 0; a < 3; ++a)
        IONF_CHECK(r[a] >= 0.0 && r[a] <= p->box_size_cm[a], IONF_ERR_INPUT,
                   "%s: particle %lld at %c = %.17g cm lies outside the box [0, %.17g] cm",
                   origin, (long long)i, axis[a], r[a], p->box_size_cm[a]);
    IONF_CHECK(isfinite(p->h_cm[i]) && p->h_cm[i] > 0.0, IONF_ERR_INPUT,
               "%s: particle %lld has smoothing length %g cm; it must be finite and > 0",
               origin, (long long)i, p->h_cm[i]);
    IONF_CHECK(isfinite(p->mass_g[i]) && p->mass_g[i] > 0.0, IONF_ERR_INPUT,
               "%s: particle %lld has mass %g g; it must be finite and > 0", origin,
               (long long)i, p->mass_g[i]);
    IONF_CHECK(!p->density_g_cm3 || (isfinite(p->density_g_cm3[i]) && p->density_g_cm3[i] >= 0.0),
               IONF_ERR_INPUT,
               "%s: particle %lld has density %g g/cm^3; it must be finite and >= 0", origin,
               (long long)i, p->density_g_cm3[i]);
  }
  return IONF_OK;
}

void particles_scene(const struct particle_set *p, struct bvh_scene *scene) {
  if (p->has_box) {
    for (int a = 0; a < 3; ++a) {
      scene->lo[a] = 0.0;
      scene->hi[a] = p->box_size_cm[a];
    }
  } else {
    bvh_scene_of_points(p->pos_cm, p->count, scene);
  }
}

double particles_total_mass_g(const struct particle_set *p) {
  double sum = 0.0;
  for (int64_t i = 0; i < p->count; ++i) sum += p->mass_g[i];
  return sum;
}
