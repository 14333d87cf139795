/**
 * @file bands_k.h
 * @brief Multi-frequency photoionization and photo-heating of hydrogen and helium
 *        from pre-integrated band tables (shared host/device maths), as C2-Ray's
 *        helium version does it (Friedrich et al. 2012).
 *
 * The spectrum above 13.598 eV is cut into three bands at the thresholds of HI,
 * HeI (24.587 eV) and HeII (54.416 eV), and each band into sub-bins b.  In a
 * sub-bin every absorber's cross-section is sigma_s(E) = sigma_s(E_b) (E/E_b)^-p_b,
 * pinned at the sub-bin's geometric middle E_b with one power law p_b (the band's
 * own absorber's), so the optical depth of a column is
 * tau_b = sum_s sigma_s(E_b) N_s and one table per sub-bin in tau_b carries the
 * fraction of a source's photons that survive it, thick_b(tau) (and thin_b =
 * -d thick_b / d tau; e_thick_b, e_thin_b the same weighted by the photon energy).
 *
 * A cell takes Ndot [thick_b(tau_in) - thick_b(tau_out)] photons of sub-bin b and
 * shares them among the absorbers in proportion to their optical depths through the
 * cell, sigma_s(E_b) dN_s / dtau_b: photon-conserving in every sub-bin.  Per absorber
 * atom of s (dN_s = n_s ds), with A_b = [thick_b(tau_in) - thick_b(tau_out)] / dtau_b
 * (-thick_b'(tau_out) when dtau_b is tiny, which keeps the rate finite as n_s -> 0):
 *
 *   Gamma_s = Ndot ds / V  sum_b sigma_s(E_b) A_b
 *   heat_s  = Ndot ds / V  sum_b sigma_s(E_b) (A^E_b - E_s A_b)    [erg/s]
 *
 * where A^E_b is A_b from the energy tables and E_s the threshold of s.
 *
 * The tables are small enough to stay in the GPU's caches (every sub-bin of every
 * cell reads two of their nodes): nodes at tau = 0 and BANDS_PER_OCTAVE per octave
 * from 2^-8 to 2^10 (578 nodes), each with its value and slope (thick and thin, 16
 * bytes; the energy's e_thick and e_thin in a table of their own, read only where the
 * electrons' energy is wanted): 0.43 MB for 47 sub-bins.  Between two nodes the cubic
 * Hermite interpolant of their values and slopes; the interval is found from tau's
 * binary exponent and mantissa bits: no logarithm, and the host and the GPU find the
 * same interval and fraction to the last bit.  Beyond tau = 1024 nothing survives (the
 * last node is 0; a sub-bin's photons there are below 1e-190 of the source's).
 * Against direct integration with Verner's cross-sections (tests/test_bands.c) the
 * photons each absorber takes are within 0.4% with 1 + 26 + 20 sub-bins (C2-Ray's
 * numbers), 1.5% with 1 + 8 + 8; photons are conserved to rounding in every case.
 */
#ifndef IONF_BANDS_K_H
#define IONF_BANDS_K_H

#include <stdint.h>
#include <string.h>

#include "chem/secondary_k.h"
#include "core/constants.h"
#include "core/ionf_hd.h"
#include "rt/bands_whole_k.h"
#include "rt/photo_k.h"

#define BANDS_N_ABSORBERS 3 /* HI, HeI, HeII (atomic_k.h's order) */
#define BANDS_MAX_BINS 64

/* The tables' optical-depth nodes: tau = 0, then BANDS_PER_OCTAVE nodes per octave
   from 2^BANDS_TAU_MIN_LOG2 over BANDS_OCTAVES octaves, the last at BANDS_TAU_MAX. */
#define BANDS_TAU_MIN_LOG2 (-8)
#define BANDS_OCTAVES 18
#define BANDS_OCTAVE_BITS 5 /* BANDS_PER_OCTAVE = 32 */
#define BANDS_PER_OCTAVE (1 << BANDS_OCTAVE_BITS)
#define BANDS_NODES (2 + BANDS_OCTAVES * BANDS_PER_OCTAVE)
#define BANDS_TAU_MIN (1.0 / 256.0)  /* 2^BANDS_TAU_MIN_LOG2 */
#define BANDS_TAU_MAX 1024.0         /* 2^(BANDS_TAU_MIN_LOG2 + BANDS_OCTAVES) */
#define BANDS_NODE_VALUES 2 /* per node: the value and minus its slope in tau */

/** Read-only view of the band tables (host or device pointers). */
struct bands_view {
  int n_bins;
  int heating;                 /*!< the energy tables are valid */
  const double *sigma_cm2;     /*!< [bin][absorber]: sigma_s(E_b) */
  const double *table;         /*!< [bin][BANDS_NODES][BANDS_NODE_VALUES]: thick, thin
                                    (photons per source photon) */
  const double *e_table;       /*!< the same for e_thick, e_thin (energy per source photon
                                    [erg]); NULL without heating */
  int first_xray_bin;          /*!< sub-bins from here have their middle above 100 eV */
  int secondary;               /*!< split the X-ray sub-bins' electrons (bands_secondary) */
  double threshold_erg[BANDS_N_ABSORBERS];
  struct bands_whole_view whole; /*!< whole-band tables instead of sub-bins (n_bands > 0;
                                      first_xray_bin then counts bands) */
};

/** Whether the view holds tables (sub-bins or whole bands). */
IONF_HD IONF_INLINE int bands_view_built(const struct bands_view *v) {
  return (v->n_bins > 0 && v->sigma_cm2) || (v->whole.n_bands > 0 && v->whole.table);
}

/** Optical depth of table node i (0 <= i < BANDS_NODES). */
IONF_HD IONF_INLINE double bands_node_tau(int i) {
  if (i == 0) return 0.0;
  int octave = (i - 1) >> BANDS_OCTAVE_BITS, j = (i - 1) & (BANDS_PER_OCTAVE - 1);
  return ldexp(BANDS_TAU_MIN * (1.0 + (double)j / BANDS_PER_OCTAVE), octave);
}

/** Where tau falls among the nodes: the interval's first node, its width, the fraction. */
struct bands_pos {
  int i0;
  double h, f;
};

/* From tau's bits: tau 2^8 = (1 + m) 2^e with e the octave, the mantissa's top
   BANDS_OCTAVE_BITS bits the node in it and the rest the fraction (all exact). */
IONF_HD IONF_INLINE struct bands_pos bands_locate(double tau) {
  struct bands_pos p;
  if (!(tau >= BANDS_TAU_MIN)) { /* [0, tau_min): the first interval (a NaN lands here too) */
    p.i0 = 0;
    p.h = BANDS_TAU_MIN;
    p.f = tau > 0.0 ? tau * (1.0 / BANDS_TAU_MIN) : 0.0;
    return p;
  }
  if (tau >= BANDS_TAU_MAX) { /* the last node */
    p.i0 = BANDS_NODES - 2;
    p.h = BANDS_TAU_MAX / (2 * BANDS_PER_OCTAVE);
    p.f = 1.0;
    return p;
  }
  double x = tau * (1.0 / BANDS_TAU_MIN); /* in [1, 2^BANDS_OCTAVES) */
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  const int frac_bits = 52 - BANDS_OCTAVE_BITS;
  int octave = (int)(bits >> 52) - 1023;
  uint64_t mantissa = bits & ((1ULL << 52) - 1);
  p.i0 = 1 + (octave << BANDS_OCTAVE_BITS) + (int)(mantissa >> frac_bits);
  /* the fraction: the remaining bits as the mantissa of 1 + f */
  uint64_t one_f = 0x3FF0000000000000ULL | ((mantissa << BANDS_OCTAVE_BITS) & ((1ULL << 52) - 1));
  double one_plus_f;
  memcpy(&one_plus_f, &one_f, sizeof one_plus_f);
  p.f = one_plus_f - 1.0;
  /* the node spacing 2^(octave + BANDS_TAU_MIN_LOG2 - BANDS_OCTAVE_BITS), from its bits */
  uint64_t h_bits = (uint64_t)(octave + 1023 + BANDS_TAU_MIN_LOG2 - BANDS_OCTAVE_BITS) << 52;
  memcpy(&p.h, &h_bits, sizeof p.h);
  return p;
}

/* The two nodes of interval i0 of a table `t`: values y0, y1 and minus their slopes m0, m1.
   On the GPU as two 16-byte loads (a node is 16 bytes and every table starts on a
   cudaMalloc boundary), not four of 8; the same values. */
#if BANDS_NODE_VALUES != 2
#error "bands_nodes_at reads a node as one 16-byte pair"
#endif
struct bands_nodes {
  double y0, m0, y1, m1;
};
IONF_HD IONF_INLINE struct bands_nodes bands_nodes_at(const double *t, int i0) {
  const double *n0 = t + BANDS_NODE_VALUES * i0;
  struct bands_nodes n;
#ifdef __CUDA_ARCH__
  const double2 a = ((const double2 *)n0)[0], b = ((const double2 *)n0)[1];
  n.y0 = a.x;
  n.m0 = a.y;
  n.y1 = b.x;
  n.m1 = b.y;
#else
  n.y0 = n0[0];
  n.m0 = n0[1];
  n.y1 = n0[BANDS_NODE_VALUES];
  n.m1 = n0[BANDS_NODE_VALUES + 1];
#endif
  return n;
}

/* The cubic Hermite interpolant at p of one sub-bin's table `t` (values and minus their
   slopes at the nodes). */
IONF_HD IONF_INLINE double bands_hermite(const double *t, struct bands_pos p) {
  const struct bands_nodes n = bands_nodes_at(t, p.i0);
  double y0 = n.y0, s0 = -p.h * n.m0, s1 = -p.h * n.m1;
  double dy = n.y1 - y0;
  double c2 = 3.0 * dy - 2.0 * s0 - s1, c3 = s0 + s1 - 2.0 * dy;
  return y0 + p.f * (s0 + p.f * (c2 + p.f * c3));
}

/* Minus that interpolant's slope in tau at p (the thin-cell form: thin at the nodes). */
IONF_HD IONF_INLINE double bands_hermite_thin(const double *t, struct bands_pos p) {
  const struct bands_nodes n = bands_nodes_at(t, p.i0);
  double s0 = -p.h * n.m0, s1 = -p.h * n.m1;
  double dy = n.y1 - n.y0;
  double c2 = 3.0 * dy - 2.0 * s0 - s1, c3 = s0 + s1 - 2.0 * dy;
  return -(s0 + p.f * (2.0 * c2 + 3.0 * p.f * c3)) / p.h;
}

/** Photons of sub-bin b per source photon that survive the optical depth tau (thick_b). */
IONF_HD IONF_INLINE double bands_thick(const struct bands_view *v, int b, double tau) {
  if (!(tau < BANDS_TAU_MAX)) return 0.0;
  return bands_hermite(v->table + (long long)b * (BANDS_NODES * BANDS_NODE_VALUES), bands_locate(tau));
}

/** Minus the slope of bands_thick in tau (thin_b: the thin-cell form). */
IONF_HD IONF_INLINE double bands_thin(const struct bands_view *v, int b, double tau) {
  if (!(tau < BANDS_TAU_MAX)) return 0.0;
  return bands_hermite_thin(v->table + (long long)b * (BANDS_NODES * BANDS_NODE_VALUES),
                            bands_locate(tau));
}

/** The fraction of a source's photons that survive the columns col_cm2 of HI, HeI and HeII:
    the sub-bins' thick_b summed, or with whole bands their photons times exp(-Lambda). */
IONF_HD IONF_INLINE double bands_surviving(const struct bands_view *v,
                                           const double col_cm2[BANDS_N_ABSORBERS]) {
  double surv = 0.0;
  for (int b = 0; b < v->whole.n_bands; ++b) {
    const double *h = v->whole.table + BANDS_WHOLE_HEADER * b, *k = h + BANDS_WHOLE_H_K;
    double tau[2] = {0.0, 0.0};
    for (int a = 0; a < 2; ++a)
      for (int s = 0; s < BANDS_N_ABSORBERS; ++s) tau[a] += k[3 * a + s] * col_cm2[s];
    const double *t = v->whole.table + (long long)h[BANDS_WHOLE_H_OFFSET];
    const struct bands_whole_value at = bands_whole_eval(t, (int)h[BANDS_WHOLE_H_AXES], tau);
    surv += h[BANDS_WHOLE_H_PHOTONS] * exp(-at.lambda);
  }
  for (int b = 0; b < v->n_bins; ++b) {
    double tau = 0.0;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s)
      tau += v->sigma_cm2[BANDS_N_ABSORBERS * b + s] * col_cm2[s];
    surv += bands_thick(v, b, tau);
  }
  return surv;
}

/**
 * Photoionization rates gamma[s] [1/s] and (when v->heating and want_heat)
 * photo-heating per absorber atom heat[s] [erg/s] that one source of ndot_per_s
 * photons/s gives a cell entered after the columns col_in_cm2[s] and crossed over
 * ds_cm with columns dcol_cm2[s] (= n_s ds) of each absorber, in a shell of
 * volume_cm3.  Adds to gamma[] and heat[] (the caller sums over sources).  With
 * want_xray, the photoelectron energy of the X-ray sub-bins (first_xray_bin on) goes
 * to xray[s] [erg/s per absorber atom] instead of heat[s], for secondary_k.h's split.
 * heat and xray are written only when wanted, and flags (not NULL pointers chosen at run
 * time) say so: the GPU then keeps the caller's arrays in registers.
 */
IONF_HD IONF_INLINE void bands_rates_into(const struct bands_view *v, double ndot_per_s,
                                          const double col_in_cm2[BANDS_N_ABSORBERS],
                                          const double dcol_cm2[BANDS_N_ABSORBERS], double ds_cm,
                                          double volume_cm3, double gamma[BANDS_N_ABSORBERS],
                                          double heat[BANDS_N_ABSORBERS],
                                          double xray[BANDS_N_ABSORBERS], int want_heat,
                                          int want_xray) {
  const double scale = ndot_per_s * ds_cm / volume_cm3;
  if (v->whole.n_bands > 0) {
    bands_whole_rates(&v->whole, scale, col_in_cm2, dcol_cm2, v->first_xray_bin,
                      v->threshold_erg, gamma, heat, xray, want_heat, want_xray);
    return;
  }
  /* the electrons' energy: for heat, or for the X-ray split (then heat may be unwanted) */
  const int heating = v->heating && (want_heat || want_xray);
  for (int b = 0; b < v->n_bins; ++b) {
    const double *sig = v->sigma_cm2 + BANDS_N_ABSORBERS * b;
    double tau_in = 0.0, dtau = 0.0;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      tau_in += sig[s] * col_in_cm2[s];
      dtau += sig[s] * dcol_cm2[s];
    }
    if (!(tau_in < BANDS_TAU_MAX)) continue; /* nothing of this sub-bin arrives */
    const double tau_out = tau_in + dtau;
    /* where this sub-bin's electron energy goes: xray[] or heat[] (nowhere: not looked
       up); chosen per entry, not by a pointer chosen at run time, which would put both
       (the caller's register arrays) in local memory on the GPU */
    const int to_xray = want_xray && b >= v->first_xray_bin;
    const int energy = heating && (to_xray || want_heat);
    const long long at = (long long)b * (BANDS_NODES * BANDS_NODE_VALUES);
    const double *t = v->table + at, *te = energy ? v->e_table + at : t;
    struct bands_pos pout = bands_locate(tau_out);
    double a, a_e = 0.0;
    if (dtau > PHOTO_TAU_THIN_LIMIT) {
      struct bands_pos pin = bands_locate(tau_in);
      a = (bands_hermite(t, pin) - bands_hermite(t, pout)) / dtau;
      if (energy) a_e = (bands_hermite(te, pin) - bands_hermite(te, pout)) / dtau;
    } else {
      a = bands_hermite_thin(t, pout);
      if (energy) a_e = bands_hermite_thin(te, pout);
    }
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      gamma[s] += scale * sig[s] * a;
      if (energy) {
        const double add = scale * sig[s] * (a_e - v->threshold_erg[s] * a);
        if (to_xray)
          xray[s] += add;
        else
          heat[s] += add;
      }
    }
  }
}

/** bands_rates_into with heat and xray wanted where they are not NULL. */
IONF_HD IONF_INLINE void bands_rates(const struct bands_view *v, double ndot_per_s,
                                     const double col_in_cm2[BANDS_N_ABSORBERS],
                                     const double dcol_cm2[BANDS_N_ABSORBERS], double ds_cm,
                                     double volume_cm3, double gamma[BANDS_N_ABSORBERS],
                                     double heat[BANDS_N_ABSORBERS],
                                     double xray[BANDS_N_ABSORBERS]) {
  double spare[BANDS_N_ABSORBERS]; /* never written */
  bands_rates_into(v, ndot_per_s, col_in_cm2, dcol_cm2, ds_cm, volume_cm3, gamma,
                   heat ? heat : spare, xray ? xray : spare, heat != 0, xray != 0);
}

/**
 * bands_secondary with the split already known (the heat added when want_heat): `split`
 * (when not NULL) holds
 * secondary_split_at of every cell's x_e as three arrays of `stride` values (heat,
 * ion_hi, ion_hei), this cell's at split[0]; else it is computed from x_e.  The GPU's
 * tracer computes the split once per cell and pass (a fast electron's share depends on
 * the cell alone, not on the source), instead of six pow() per cell and source; the
 * values and the results are the same bits.
 */
IONF_HD IONF_INLINE void bands_secondary_split_into(double x_e, const double *split,
                                                    long long stride,
                                                    const double n_abs[BANDS_N_ABSORBERS],
                                                    const double xray[BANDS_N_ABSORBERS],
                                                    double gamma[BANDS_N_ABSORBERS],
                                                    double heat[BANDS_N_ABSORBERS], int want_heat) {
  double deposit = 0.0; /* erg s^-1 cm^-3 */
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) deposit += n_abs[s] * xray[s];
  if (!(deposit > 0.0)) return;
  struct secondary_split f;
  if (split) {
    f.heat = split[0];
    f.ion_hi = split[stride];
    f.ion_hei = split[2 * stride];
  } else {
    f = secondary_split_at(x_e);
  }
  if (want_heat)
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) heat[s] += f.heat * xray[s];
  if (n_abs[0] > 0.0) gamma[0] += f.ion_hi * deposit / (IONF_E_HI_EV * IONF_EV_ERG * n_abs[0]);
  if (n_abs[1] > 0.0) gamma[1] += f.ion_hei * deposit / (IONF_E_HEI_EV * IONF_EV_ERG * n_abs[1]);
}

/** bands_secondary_split_into with the heat wanted where heat is not NULL. */
IONF_HD IONF_INLINE void bands_secondary_split(double x_e, const double *split, long long stride,
                                               const double n_abs[BANDS_N_ABSORBERS],
                                               const double xray[BANDS_N_ABSORBERS],
                                               double gamma[BANDS_N_ABSORBERS],
                                               double heat[BANDS_N_ABSORBERS]) {
  double spare[BANDS_N_ABSORBERS]; /* never written */
  bands_secondary_split_into(x_e, split, stride, n_abs, xray, gamma, heat ? heat : spare,
                             heat != 0);
}

/**
 * Secondary ionization and heating by the fast photoelectrons of the X-ray sub-bins
 * (secondary_k.h): `xray[s]` is their energy per absorber atom of s [erg/s] from
 * bands_rates, n_abs[s] the absorbers' densities [cm^-3], x_e the cell's electron
 * fraction.  Adds the heat share to heat[s] (per absorber atom, when heat is not NULL)
 * and the secondary ionizations of HI and HeI to gamma[HI], gamma[HeI] (per atom).
 */
IONF_HD IONF_INLINE void bands_secondary(double x_e, const double n_abs[BANDS_N_ABSORBERS],
                                         const double xray[BANDS_N_ABSORBERS],
                                         double gamma[BANDS_N_ABSORBERS],
                                         double heat[BANDS_N_ABSORBERS]) {
  bands_secondary_split(x_e, (const double *)0, 0, n_abs, xray, gamma, heat);
}

#endif /* IONF_BANDS_K_H */
