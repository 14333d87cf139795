/**
 * @file particles.h
 * @brief A set of SPH gas particles in memory (CGS, physical units).
 *
 * Smoothing lengths follow gadget-2: h is the compact support radius of the
 * cubic-spline kernel, W(r, h) = 0 for r >= h (src/sph_k.h).  Readers convert
 * other conventions to this one (SWIFT: h = gamma_K * h_SWIFT).
 *
 * The box is [0, box_size_cm[a]) along each axis a; when the file gives none
 * (Gadget's BoxSize = 0 for open runs), has_box = 0 and the particles'
 * extent stands in for it.
 */
#ifndef IONF_PARTICLES_H
#define IONF_PARTICLES_H

#include <stdint.h>

#include "particles/bvh.h"
#include "core/error.h"

struct particle_set {
  int64_t count;
  double *pos_cm;          /*!< count x 3: x, y, z of each particle [cm] */
  double *h_cm;            /*!< compact support radius of the kernel [cm] */
  double *mass_g;          /*!< [g] */
  double *density_g_cm3;   /*!< SPH density [g cm^-3]; NULL until read or computed */
  double *n_h_atoms;       /*!< hydrogen atoms in the particle, X_H m / m_p */
  double hydrogen_mass_fraction; /*!< X_H used for n_h_atoms */
  int has_box;
  double box_size_cm[3];   /*!< the box [0, L) per axis (has_box) */
  int periodic;
  double redshift;         /*!< of the snapshot (0 when not cosmological) */
  double scale_factor;     /*!< a = 1 / (1 + z); 1 when not cosmological */
  double hubble_param;     /*!< H0 / (100 km/s/Mpc) as the file gives it (1 when absent) */
};

/**
 * Allocate count particles (positions, h, masses, n_h_atoms; density only when
 * with_density), zeroed; box and metadata set to neutral values.
 */
IONF_NODISCARD ionf_err particles_alloc(int64_t count, int with_density, struct particle_set *p);
void particles_free(struct particle_set *p);

/** n_h_atoms := x_h * mass / m_p for every particle. */
void particles_set_hydrogen(struct particle_set *p, double x_h);

/**
 * Values every consumer relies on: finite positions inside the box (closed,
 * [0, L]) when there is one, finite h > 0 and mass > 0, finite density >= 0
 * when present.  IONF_ERR_INPUT naming `origin` (a file name, "generator"),
 * the particle index, the quantity and its value.
 */
IONF_NODISCARD ionf_err particles_validate(const struct particle_set *p, const char *origin);

/** The box the BVH keys quantise: the box, or the centres' bounding box. */
void particles_scene(const struct particle_set *p, struct bvh_scene *scene);

/** Total mass [g]. */
double particles_total_mass_g(const struct particle_set *p);

#endif /* IONF_PARTICLES_H */
