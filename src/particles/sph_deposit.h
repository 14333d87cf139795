/**
 * @file sph_deposit.h
 * @brief Particle values onto an N^3 grid: per cell, the average of a
 *        per-particle value weighted by the particle's hydrogen atoms times
 *        its kernel at the cell centre (a mass-weighted SPH average).  In a
 *        periodic box (the set's periodic and has_box) kernels wrap across
 *        the faces.
 */
#ifndef IONF_SPH_DEPOSIT_H
#define IONF_SPH_DEPOSIT_H

#include <stdint.h>

#include "core/error.h"
#include "particles/particles.h"

/**
 * out[(i n + j) n + k] for cells of side box/n over the particles' box
 * (particles_scene); cells no kernel reaches get NaN.
 * box_cm_out (may be NULL) gets the side of each of the grid's three axes.
 */
IONF_NODISCARD ionf_err sph_deposit(const struct particle_set *p, const double *value, int64_t n,
                                    double *out, double box_cm_out[3]);

#endif /* IONF_SPH_DEPOSIT_H */
