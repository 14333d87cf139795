/**
 * @file sph_rays.h
 * @brief Ray directions of the particle tracer: HEALPix pixel centres
 *        (libchealpix, NESTED order, so that consecutive rays are neighbours
 *        on the sphere), n_rays = 12 nside^2 per source, the same for every
 *        source (deterministic, no random rotation).
 */
#ifndef IONF_SPH_RAYS_H
#define IONF_SPH_RAYS_H

#include <stdint.h>

#include "core/error.h"

/** Largest nside accepted (12 nside^2 = 1.2e7 rays per source). */
#define SPH_RAYS_MAX_NSIDE 1024

/**
 * nside of n_rays = 12 nside^2 with nside a power of two in
 * [1, SPH_RAYS_MAX_NSIDE]; else IONF_ERR_INPUT naming the value.
 */
IONF_NODISCARD ionf_err sph_rays_nside(int64_t n_rays, int64_t *nside);

/**
 * The default nside for n_particles particles: rays enough that a sphere of
 * radius L (the box side, the typical source-particle distance) gets about one
 * ray per particle cross-section pi dx^2, dx = L N^(-1/3) the mean spacing:
 * 4 pi L^2 / (pi dx^2) = 4 N^(2/3) rays (the thesis' convergence argument,
 * section 5.5), i.e. the smallest power of two nside >= N^(1/3) / sqrt(3),
 * at most SPH_RAYS_MAX_NSIDE.  N = 2^21: nside 128 (196608 rays).
 */
int64_t sph_rays_default_nside(int64_t n_particles);

/** Unit vectors of the 12 nside^2 pixel centres (n x 3, NESTED); free() it. */
IONF_NODISCARD ionf_err sph_rays_directions(int64_t nside, double **dirs);

#endif /* IONF_SPH_RAYS_H */
