/**
 * @file mc_k.h
 * @brief Monte Carlo photon packets (shared host/device maths): the counter-based
 *        random numbers, isotropic directions, frequency sampling, exact cell
 *        traversal (3D DDA, Amanatides & Woo 1987) and the per-cell absorption of
 *        one packet.  The CPU tracer (mc_cpu.c) and the CUDA kernel (gpu/mc_trace.cu)
 *        both call mc_trace_packet; nothing else walks a packet.
 *
 * Random numbers: Philox4x32-10 (Salmon et al. 2011; core/philox_k.h), a pure function
 * of (key, counter): cuRAND's on the device, Random123's on the host, the same bits
 * (tests/test_mc_gpu.cu).  The key is
 * (seed, emitter cell index) and the counter (packet, step, kind, draw), so a packet's
 * numbers do not depend on which rank, thread or GPU traces it, nor on the order of
 * the source list (which the partition among ranks reorders): sources are merged per
 * cell, so their cell identifies them.
 *
 * Units inside a walk: positions and lengths in cells; ds_cm = ds * cell_cm.
 */
#ifndef IONF_MC_K_H
#define IONF_MC_K_H

#include <math.h>
#include <stdint.h>

#include "core/ionf_hd.h"
#include "core/philox_k.h"
#include "rt/photo_k.h"

/** Emitter kinds (part of the counter: packets of a source and of a cell's recombinations
    in the same cell draw different numbers). */
#define MC_KIND_SOURCE 0u
#define MC_KIND_RECOMBINATION 1u
/** A packet is dropped once this optical depth lies behind it (e^-40 ~ 4e-18 of its photons). */
#define MC_TAU_STOP 40.0

/** One Philox4x32-10 block: out = philox(counter, key) (core/philox_k.h's). */
IONF_HD IONF_INLINE void mc_philox4x32_10(const uint32_t counter[4], const uint32_t key[2],
                                          uint32_t out[4]) {
  philox_4x32_10(counter, key, out);
}

/** 32 random bits -> a uniform number in (0, 1) (never 0 or 1: safe for logs). */
IONF_HD IONF_INLINE double mc_uniform(uint32_t bits) { return philox_uniform(bits); }

/**
 * Four uniforms for draw `draw` of packet `packet` of an emitter (a source's or a
 * recombining cell's index in the grid) in time step `step`.
 */
IONF_HD IONF_INLINE void mc_random4(uint32_t seed, uint64_t emitter_cell, uint32_t kind,
                                    uint64_t step, uint32_t packet, uint32_t draw, double u[4]) {
  uint32_t key[2], ctr[4], bits[4];
  key[0] = seed;
  key[1] = (uint32_t)(emitter_cell & 0xffffffffu);
  ctr[0] = packet;
  ctr[1] = (uint32_t)(step & 0xffffffffu);
  ctr[2] = kind | ((uint32_t)(emitter_cell >> 32) << 4); /* cells past 2^32 (2048^3 grids) */
  ctr[3] = draw;
  mc_philox4x32_10(ctr, key, bits);
  for (int i = 0; i < 4; ++i) u[i] = mc_uniform(bits[i]);
}

/** Isotropic unit vector from two uniforms: cos(theta) = 2 u0 - 1, phi = 2 pi u1. */
IONF_HD IONF_INLINE void mc_direction(double u0, double u1, double dir[3]) {
  double mu = 2.0 * u0 - 1.0;
  double s = sqrt(fmax(0.0, 1.0 - mu * mu));
  double phi = 6.283185307179586476925 * u1;
  dir[0] = s * cos(phi);
  dir[1] = s * sin(phi);
  dir[2] = mu;
}

/**
 * Photon energy in units of the threshold, h nu / 13.6 eV, from the inverse CDF of
 * the photon spectrum: table[i] is the energy below which a fraction i/(points-1)
 * of the photons lie (mc_spectrum.c builds it with GSL).  NULL: grey, 1.
 */
IONF_HD IONF_INLINE double mc_sample_energy(const double *table, int points, double u) {
  if (!table || points < 2) return 1.0;
  double r = u * (double)(points - 1);
  int i = (int)r;
  if (i >= points - 1) i = points - 2;
  double f = r - (double)i;
  return table[i] + f * (table[i + 1] - table[i]);
}

/** The state of a walk through the grid (3D DDA). */
struct mc_dda {
  int64_t cell[3];    /*!< current cell (unwrapped: periodic runs wrap on use) */
  int step[3];        /*!< +1 / -1 per axis */
  double t_next[3];   /*!< path length [cells] at which the walk crosses the next face per axis */
  double t_delta[3];  /*!< path length between faces per axis [cells] */
  double t;           /*!< path length walked so far [cells] */
};

/** Start a walk at pos (cells, inside cell floor(pos)) along the unit vector dir. */
IONF_HD IONF_INLINE void mc_dda_start(const double pos[3], const double dir[3], struct mc_dda *d) {
  for (int a = 0; a < 3; ++a) {
    double c = floor(pos[a]);
    d->cell[a] = (int64_t)c;
    if (dir[a] > 0.0) {
      d->step[a] = 1;
      d->t_delta[a] = 1.0 / dir[a];
      d->t_next[a] = (c + 1.0 - pos[a]) * d->t_delta[a];
    } else if (dir[a] < 0.0) {
      d->step[a] = -1;
      d->t_delta[a] = -1.0 / dir[a];
      d->t_next[a] = (pos[a] - c) * d->t_delta[a];
    } else {
      d->step[a] = 0;
      d->t_delta[a] = HUGE_VAL;
      d->t_next[a] = HUGE_VAL;
    }
  }
  d->t = 0.0;
}

/**
 * Advance to the next face: returns the path length [cells] spent in the current
 * cell (d->cell before the call) and moves d->cell across the face crossed first.
 */
IONF_HD IONF_INLINE double mc_dda_advance(struct mc_dda *d) {
  int a = 0;
  if (d->t_next[1] < d->t_next[a]) a = 1;
  if (d->t_next[2] < d->t_next[a]) a = 2;
  double ds = d->t_next[a] - d->t;
  d->t = d->t_next[a];
  d->t_next[a] += d->t_delta[a];
  d->cell[a] += d->step[a];
  return ds;
}

/**
 * Photoionization rate one packet gives the cell it crosses: the photons absorbed,
 * photons_per_s (1 - e^{-dtau}), per HI atom in the cell, written as
 * photons sigma ds (1 - e^{-dtau}) / (dtau V) so that it stays finite when n_HI -> 0
 * (the optically thin limit, photons sigma ds / V).
 */
IONF_HD IONF_INLINE double mc_cell_gamma(double photons_per_s, double sigma_cm2, double ds_cm,
                                         double dtau, double volume_cm3) {
  double f = dtau > 1e-7 ? photo_one_minus_exp(dtau) / dtau : 1.0 - 0.5 * dtau;
  return photons_per_s * sigma_cm2 * ds_cm * f / volume_cm3;
}

/** fp64 add that many threads may do to one cell at once. */
IONF_HD IONF_INLINE void mc_atomic_add(double *p, double v) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, v);
#else
#pragma omp atomic
  *p += v;
#endif
}

/** The medium a packet crosses and where its tallies go (host or device pointers). */
struct mc_medium {
  int64_t n;                 /*!< cells per side */
  int periodic;
  double cell_cm;
  double r_max_cells;        /*!< the walk ends after this path length [cells] */
  const double *n_h_cm3;     /*!< n^3 */
  const double *x_hii_av;    /*!< n^3 */
  double sigma0_cm2;         /*!< HI cross-section at threshold */
  double sigma_index;        /*!< sigma = sigma0 e^-index, e = h nu / 13.6 eV */
  double *gamma;             /*!< n^3 tallies: sum of w, the packets' rates [1/s] */
  double *gamma_sq;          /*!< n^3: sum of w^2 (relative error estimate); may be NULL */
  double *heat;              /*!< n^3: photo-heating per HI atom [erg/s]; NULL: none */
};

/** One packet at its start. */
struct mc_packet {
  double pos[3];          /*!< start [cells] */
  double dir[3];          /*!< unit vector */
  double photons_per_s;   /*!< photons per second the packet carries */
  double energy;          /*!< h nu / 13.6 eV */
};

/**
 * Walk one packet until it leaves the box (non-periodic), has walked r_max_cells,
 * or has MC_TAU_STOP behind it; each cell crossed receives the rate of the photons
 * it absorbs (and their heat above threshold).  Returns the cells crossed.
 */
IONF_HD IONF_INLINE int64_t mc_trace_packet(const struct mc_medium *m, const struct mc_packet *p,
                                            double e_threshold_erg) {
  struct mc_dda d;
  mc_dda_start(p->pos, p->dir, &d);
  const double sigma = m->sigma0_cm2 * pow(p->energy, -m->sigma_index);
  const double volume = m->cell_cm * m->cell_cm * m->cell_cm;
  const double heat_per_photon = (p->energy - 1.0) * e_threshold_erg;
  const int64_t n = m->n;
  double photons = p->photons_per_s, tau = 0.0;
  int64_t crossed = 0;
  for (;;) {
    int64_t c[3];
    for (int a = 0; a < 3; ++a) {
      c[a] = d.cell[a];
      if (m->periodic) {
        c[a] %= n;
        if (c[a] < 0) c[a] += n;
      } else if (c[a] < 0 || c[a] >= n) {
        return crossed;
      }
    }
    double t0 = d.t;
    double ds = mc_dda_advance(&d);
    int last = 0;
    if (d.t >= m->r_max_cells) { /* the photon radius cuts the last segment */
      ds = m->r_max_cells - t0;
      last = 1;
    }
    if (ds > 0.0) {
      int64_t idx = (c[0] * n + c[1]) * n + c[2];
      double n_hi = m->n_h_cm3[idx] * (1.0 - m->x_hii_av[idx]);
      double ds_cm = ds * m->cell_cm;
      double dtau = sigma * n_hi * ds_cm;
      double w = mc_cell_gamma(photons, sigma, ds_cm, dtau, volume);
      mc_atomic_add(m->gamma + idx, w);
      if (m->gamma_sq) mc_atomic_add(m->gamma_sq + idx, w * w);
      if (m->heat && heat_per_photon > 0.0) mc_atomic_add(m->heat + idx, w * heat_per_photon);
      photons *= exp(-dtau);
      tau += dtau;
      ++crossed;
    }
    if (last || tau > MC_TAU_STOP) return crossed;
  }
}

/**
 * Packet `packet` of a point source in cell (i, j, k) with ndot_per_s photons per
 * second shared by `packets` packets: from the cell centre, isotropic, energy from
 * the spectrum table.
 */
IONF_HD IONF_INLINE void mc_source_packet(uint32_t seed, int64_t n, const int32_t ijk[3],
                                          double ndot_per_s, uint64_t step, uint32_t packet,
                                          uint32_t packets, const double *spectrum,
                                          int spectrum_points, struct mc_packet *p) {
  double u[4];
  uint64_t cell = (uint64_t)(((int64_t)ijk[0] * n + ijk[1]) * n + ijk[2]);
  mc_random4(seed, cell, MC_KIND_SOURCE, step, packet, 0u, u);
  for (int a = 0; a < 3; ++a) p->pos[a] = (double)ijk[a] + 0.5;
  mc_direction(u[0], u[1], p->dir);
  p->energy = mc_sample_energy(spectrum, spectrum_points, u[2]);
  p->photons_per_s = ndot_per_s / (double)packets;
}

/* ---- the diffuse field: ground-state recombination photons (case A, re-emitted) ---- */

/** Recombination coefficient at T from its value at 1e4 K and a power law. */
IONF_HD IONF_INLINE double mc_alpha(double alpha_1e4_cm3_s, double power, double t_k) {
  return alpha_1e4_cm3_s * pow(t_k / 1.0e4, power);
}

/**
 * Ground-state recombination photons a cell emits per second, (alpha_A - alpha_B)
 * n_e n_HII V: the recombinations case B leaves out (on the spot).
 */
IONF_HD IONF_INLINE double mc_recombination_photons(double n_h_cm3, double x_hii, double abu_c,
                                                    double alpha_a_cm3_s, double alpha_b_cm3_s,
                                                    double volume_cm3) {
  double d = alpha_a_cm3_s - alpha_b_cm3_s;
  return d > 0.0 ? d * n_h_cm3 * (x_hii + abu_c) * n_h_cm3 * x_hii * volume_cm3 : 0.0;
}

/**
 * Packets a cell emits: its expected share M R_c / R_total of the pass's budget M,
 * rounded down or up at random (a keyed uniform), so every packet carries R_total / M
 * photons per second and the emission is right on average in every cell.
 */
IONF_HD IONF_INLINE uint32_t mc_recombination_count(double expected, uint32_t seed, uint64_t cell,
                                                    uint64_t step) {
  double u[4];
  mc_random4(seed, cell, MC_KIND_RECOMBINATION, step, 0xffffffffu, 0u, u);
  double k = floor(expected + u[0]);
  return k > 4294967295.0 ? 0xffffffffu : (uint32_t)k;
}

/** Packet `packet` of cell (i, j, k)'s recombinations: uniform in the cell, isotropic,
    at the threshold frequency. */
IONF_HD IONF_INLINE void mc_recombination_packet(uint32_t seed, int64_t n, int64_t cell,
                                                 uint64_t step, uint32_t packet,
                                                 double photons_per_s, struct mc_packet *p) {
  double u[4], v[4];
  mc_random4(seed, (uint64_t)cell, MC_KIND_RECOMBINATION, step, packet, 0u, u);
  mc_random4(seed, (uint64_t)cell, MC_KIND_RECOMBINATION, step, packet, 1u, v);
  p->pos[0] = (double)(cell / (n * n)) + v[0];
  p->pos[1] = (double)((cell / n) % n) + v[1];
  p->pos[2] = (double)(cell % n) + v[2];
  mc_direction(u[0], u[1], p->dir);
  p->energy = 1.0;
  p->photons_per_s = photons_per_s;
}

#endif /* IONF_MC_K_H */
