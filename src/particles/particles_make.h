/**
 * @file particles_make.h
 * @brief Test particle sets: a jittered lattice (or a glass-like relaxed
 *        set) with spherical clumps of equal-mass particles, smoothing
 *        lengths from a real neighbour count and SPH densities from the
 *        kernel sum; and large random sets (uniform or clustered) with
 *        smoothing lengths from their known density, for benchmarks.
 */
#ifndef IONF_PARTICLES_MAKE_H
#define IONF_PARTICLES_MAKE_H

#include <stdint.h>

#include "core/error.h"
#include "particles/particles.h"

/** A sphere of `contrast` times the background density (contrast > 0). */
struct particle_clump {
  double center_cm[3];
  double radius_cm;
  double contrast;
};

struct particles_make_params {
  int64_t n_side;          /*!< background lattice of n_side^3 sites, spacing a = box / n_side */
  double box_cm;           /*!< cube side */
  int periodic;
  double jitter;           /*!< [0, 1]: each coordinate moves by a uniform +-jitter/2 spacings */
  int relax_iterations;    /*!< > 0: random start relaxed by this many repulsion steps instead
                                of a lattice (a glass-like set; uniform sets only) */
  double density_g_cm3;    /*!< background density; particle mass = density a^3 */
  const double *cell_density_g_cm3; /*!< NULL, or n_side^3 cell densities (C order, index
                                     (i n + j) n + k, i along x): one particle per cell at
                                     its centre (plus jitter), mass = the cell's density a^3
                                     (unequal masses); density_g_cm3 is then unused, and
                                     clumps and relaxation are refused */
  const struct particle_clump *clumps; /*!< inside: a lattice of spacing a / contrast^(1/3) */
  int n_clumps;
  int n_ngb;               /*!< particles in each kernel sphere, itself included */
  double hydrogen_mass_fraction;
  uint64_t seed;
};

/**
 * Defaults: 32^3 in a periodic 1 kpc box at 1e-24 g/cm^3, jitter 0.1, no
 * clumps, 48 neighbours, hydrogen only, seed 1.
 */
void particles_make_default_params(struct particles_make_params *prm);

/**
 * Make the set: positions (the same for the same parameters on any thread
 * count), equal masses (or each cell's mass with cell_density_g_cm3), h with exactly n_ngb centres inside (ties apart),
 * densities from the kernel sum, hydrogen atoms.  Bad parameters:
 * IONF_ERR_INPUT naming the parameter and value.
 */
IONF_NODISCARD ionf_err particles_make_lattice(const struct particles_make_params *prm,
                                               struct particle_set *out);

enum particles_random_kind {
  PARTICLES_RANDOM_UNIFORM,
  PARTICLES_RANDOM_CLUSTERED /*!< 70% in 16 Gaussian blobs of widths 0.005 - 0.05 box */
};

struct particles_random_params {
  int64_t count;
  double box_cm;           /*!< periodic cube */
  enum particles_random_kind kind;
  int n_ngb;               /*!< h from the model's number density n: 4/3 pi h^3 n = n_ngb - 1 */
  double density_g_cm3;    /*!< mean density */
  uint64_t seed;
};

/**
 * Random equal-mass particles drawn from a known density (uniform, or the
 * clustered model), without a neighbour search: h and the density come from
 * the model at each particle, so millions of particles take a second.  Where
 * the density changes little across h (uniform sets, blob cores) the kernel
 * spheres hold about n_ngb particles; background particles near blobs, whose
 * large spheres reach into them, hold more (twice as many on average): fine
 * for timing tree builds, not a substitute for particles_make_lattice.
 */
IONF_NODISCARD ionf_err particles_make_random(const struct particles_random_params *prm,
                                              struct particle_set *out);

#endif /* IONF_PARTICLES_MAKE_H */
