/**
 * @file sph_neighbours.h
 * @brief Neighbours of SPH particles through the BVH (CPU, OpenMP): smoothing
 *        lengths from a real neighbour count, SPH densities from the kernel
 *        sum, neighbour counts.  Periodic boxes use the nearest image, which
 *        needs every search radius below half the box.
 */
#ifndef IONF_SPH_NEIGHBOURS_H
#define IONF_SPH_NEIGHBOURS_H

#include <stdint.h>

#include "core/error.h"
#include "particles/particles.h"

/**
 * h_cm[i] := the radius at which the sphere about particle i holds n_ngb
 * particles, itself included: midway between the n_ngb-th and (n_ngb+1)-th
 * nearest centres.  Needs count > n_ngb (and, when periodic, those
 * neighbours within half the box).
 */
IONF_NODISCARD ionf_err sph_neighbours_smoothing_lengths(struct particle_set *p, int n_ngb);

/**
 * density_g_cm3 (allocated when NULL) := sum_j m_j W(|r_i - r_j|, h_i), self
 * included: gadget-2's gather form with the kernel of sph_k.h.
 */
IONF_NODISCARD ionf_err sph_neighbours_densities(struct particle_set *p);

/** counts[i] := particles closer than h_i to particle i, itself included. */
IONF_NODISCARD ionf_err sph_neighbours_counts(const struct particle_set *p, int32_t *counts);

/**
 * Push the particles apart, `iterations` times: each moves (all at once) by
 * step_cm * sum_j (1 - d_ij / r_cut)^2 (r_i - r_j) / d_ij over the others
 * closer than r_cut_cm, at most step_cm per iteration, and stays in the box
 * (wrapped when periodic, clamped otherwise).  From a random start this makes
 * a glass-like set: no lattice directions, much smaller density noise.
 */
IONF_NODISCARD ionf_err sph_neighbours_repel(struct particle_set *p, double r_cut_cm,
                                             double step_cm, int iterations);

#endif /* IONF_SPH_NEIGHBOURS_H */
