/**
 * @file bands_whole_k.h
 * @brief Whole-band tables: helium runs' photoionization and photo-heating with one
 *        table per band instead of one per sub-bin (shared host/device maths;
 *        `spectrum.quadrature: whole_bands`).
 *
 * Each band (13.598-24.587 eV: HI; 24.587-54.416 eV: HI and HeI; above 54.416 eV, cut at
 * 100 eV when the spectrum goes further: HI, HeI and HeII) is one table in at most two
 * effective optical depths tau_a = sum_s k_as N_s of the absorbers' columns N_s.  In a
 * band every absorber's cross-section is sigma_s(E) = sum_a k_as beta_a(E) with two
 * shapes beta_a, HI's and HeI's own: exact below 54.416 eV; above it HeII's is their
 * least-squares mix weighted by the spectrum's photons (bands_whole.c; within 0.7% of
 * Verner's to 100 eV, 14% above).  The fraction of the band's photons that survive a column is
 * exp(-Lambda(tau_0, tau_1)); the tables hold Lambda and its derivatives dLambda/dtau_a
 * (the mean cross-section of the surviving photons in tau_a's units) and
 * d2Lambda/dtau_0 dtau_1 at nodes tau = 0 and BANDS_WHOLE_PER_OCTAVE per octave from
 * 2^BANDS_WHOLE_TAU_MIN_LOG2 to 2^(BANDS_WHOLE_TAU_MIN_LOG2 + BANDS_WHOLE_OCTAVES), the
 * frequency integrals done when the tables are built; between nodes the bicubic Hermite
 * interpolant of those values, so Lambda and its gradient come from one interpolant.
 * Columns beyond the last node (tau_a = 2^24: 8.6e26 cm^-2 of HI at 100 eV) pass none
 * of the band's photons, as the sub-bins' beyond theirs.  A band is skipped where it is
 * dark (Lambda_in above BANDS_WHOLE_DARK_LAMBDA along either axis: exp(-Lambda) is 0 in
 * double precision there), which changes no result: in neutral gas the soft bands go dark
 * within a few cells of a source and only the hard ones are traced on.
 *
 * A cell takes the band's photons Ndot T_b [exp(-Lambda_in) - exp(-Lambda_out)]
 * (photon-conserving per band) and shares them among the absorbers in proportion to
 * dN_s w_s with w_s = (1 - rho) sigma_s,in + rho sigma_s,out, the mean cross-sections
 * sigma_s = sum_a k_as dLambda/dtau_a of the photons entering and leaving, and rho the
 * weight of the far end for photons that decay as exp(-Delta Lambda t) across the cell:
 * exact where the cell does not harden the spectrum, second order where it does.  A thin
 * cell (estimated Delta Lambda <= PHOTO_TAU_THIN_LIMIT) takes the first-order form
 * exp(-Lambda_out) sigma_s,out, finite as n_s -> 0.  The energy (heating) is the same
 * with tables of the surviving energy.
 *
 * Per cell and band one or two interpolations of four nodes of 32 bytes, against two of
 * two 16-byte nodes for each of C2-Ray's 47 sub-bins (bands_k.h).
 */
#ifndef IONF_BANDS_WHOLE_K_H
#define IONF_BANDS_WHOLE_K_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/ionf_hd.h"
#include "rt/photo_k.h"

#define BANDS_WHOLE_MAX 4          /* bands: HI, HI + HeI, HeII below and above 100 eV */
#define BANDS_WHOLE_ABSORBERS 3    /* HI, HeI, HeII (atomic_k.h's order) */
#define BANDS_WHOLE_TAU_MIN_LOG2 (-10)
#define BANDS_WHOLE_OCTAVE_BITS 0  /* BANDS_WHOLE_PER_OCTAVE = 1 */
#define BANDS_WHOLE_PER_OCTAVE (1 << BANDS_WHOLE_OCTAVE_BITS)
#define BANDS_WHOLE_OCTAVES 34
#define BANDS_WHOLE_NODES (2 + BANDS_WHOLE_OCTAVES * BANDS_WHOLE_PER_OCTAVE)
#define BANDS_WHOLE_TAU_MAX 16777216.0 /* 2^(BANDS_WHOLE_TAU_MIN_LOG2 + BANDS_WHOLE_OCTAVES) */
#define BANDS_WHOLE_VALUES 4       /* per node: Lambda, its two slopes, the cross slope */

/* Each table starts with a header of BANDS_WHOLE_HEADER doubles per band (read by every
   thread alike: broadcast loads, not a view the GPU would keep in local memory): */
#define BANDS_WHOLE_HEADER 16
#define BANDS_WHOLE_H_K 0        /* k[a][s] at 3 a + s: tau_a = sum_s k_as N_s [cm^2] */
#define BANDS_WHOLE_H_PHOTONS 6  /* the band's photons per source photon */
#define BANDS_WHOLE_H_ENERGY 7   /* its energy per source photon [erg] */
#define BANDS_WHOLE_H_AXES 8     /* 1 (the first band) or 2 */
#define BANDS_WHOLE_H_OFFSET 9   /* the band's first node (doubles from the table's start) */
#define BANDS_WHOLE_H_DARK 10    /* dark_a at 10 + a: from tau_a = dark_a on, whatever the
                                    other tau, the band is dark (bands_whole_dark) */
/* Lambda from which a band is dark: exp(-Lambda) (and so all the band gives a cell) is 0 in
   double precision from Lambda = 745.2 on; the tables' nodes are exact to quadrature error
   and the interpolant between two nodes above this stays far above 745.2 */
#define BANDS_WHOLE_DARK_LAMBDA 800.0

/** Read-only view of the whole-band tables (host or device pointers). */
struct bands_whole_view {
  int n_bands;                   /*!< 0: not in use (sub-bins, bands_k.h) */
  long long doubles;             /*!< in table (and in e_table) */
  const double *table;           /*!< the headers, then [band][i][j][BANDS_WHOLE_VALUES]
                                      (j only 0 on one axis) */
  const double *e_table;         /*!< the same for the energy (the same headers); NULL
                                      without heating */
};

/* Where tau falls among the nodes tau = 0, (1 + j 2^-bits) 2^(min_log2 + octave): the
   interval's first node i0, its width h and the fraction f (bands_k.h's struct bands_pos),
   from tau's exponent and mantissa bits, exactly on host and device.  tau beyond the last
   node: the last interval at f = 1.  A NaN lands in the first interval at f = 0. */
struct bands_grid_pos {
  int i0;
  double h, f, inv_h; /* inv_h = 1 / h exactly (a power of two) */
};
IONF_HD IONF_INLINE struct bands_grid_pos bands_grid_locate(double tau, int min_log2, int bits,
                                                            int octaves) {
  struct bands_grid_pos p;
  /* powers of two: the products below are exact */
  const double tau_min = ldexp(1.0, min_log2), inv_tau_min = ldexp(1.0, -min_log2),
               tau_max = ldexp(1.0, min_log2 + octaves);
  if (!(tau >= tau_min)) {
    p.i0 = 0;
    p.h = tau_min;
    p.inv_h = inv_tau_min;
    p.f = tau > 0.0 ? tau * inv_tau_min : 0.0;
    return p;
  }
  if (tau >= tau_max) {
    p.i0 = 2 + octaves * (1 << bits) - 2;
    p.h = ldexp(1.0, min_log2 + octaves - 1 - bits);
    p.inv_h = ldexp(1.0, bits + 1 - min_log2 - octaves);
    p.f = 1.0;
    return p;
  }
  double x = tau * inv_tau_min; /* in [1, 2^octaves) */
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  const int frac_bits = 52 - bits;
  const int octave = (int)(b >> 52) - 1023;
  const uint64_t mantissa = b & ((1ULL << 52) - 1);
  p.i0 = 1 + (octave << bits) + (int)(mantissa >> frac_bits);
  uint64_t one_f = 0x3FF0000000000000ULL | ((mantissa << bits) & ((1ULL << 52) - 1));
  double one_plus_f;
  memcpy(&one_plus_f, &one_f, sizeof one_plus_f);
  p.f = one_plus_f - 1.0;
  uint64_t h_bits = (uint64_t)(octave + 1023 + min_log2 - bits) << 52;
  memcpy(&p.h, &h_bits, sizeof p.h);
  h_bits = (uint64_t)(1023 - octave - min_log2 + bits) << 52;
  memcpy(&p.inv_h, &h_bits, sizeof p.inv_h);
  return p;
}

IONF_HD IONF_INLINE struct bands_grid_pos bands_whole_locate(double tau) {
  return bands_grid_locate(tau, BANDS_WHOLE_TAU_MIN_LOG2, BANDS_WHOLE_OCTAVE_BITS,
                           BANDS_WHOLE_OCTAVES);
}

/** Optical depth of node i of the whole-band tables. */
IONF_HD IONF_INLINE double bands_whole_node_tau(int i) {
  if (i == 0) return 0.0;
  int octave = (i - 1) >> BANDS_WHOLE_OCTAVE_BITS, j = (i - 1) & (BANDS_WHOLE_PER_OCTAVE - 1);
  return ldexp(1.0 + (double)j / BANDS_WHOLE_PER_OCTAVE, BANDS_WHOLE_TAU_MIN_LOG2 + octave);
}

/* The cubic Hermite basis at p: values a (of the two nodes' values), b (of their slopes,
   times the width) and the derivatives of both in tau. */
struct bands_whole_basis {
  double a[2], b[2], da[2], db[2];
};
IONF_HD IONF_INLINE struct bands_whole_basis bands_whole_basis_at(struct bands_grid_pos p) {
  struct bands_whole_basis w;
  const double u = p.f, u2 = u * u, u3 = u2 * u;
  w.a[0] = 1.0 - 3.0 * u2 + 2.0 * u3;
  w.a[1] = 3.0 * u2 - 2.0 * u3;
  w.b[0] = p.h * (u - 2.0 * u2 + u3);
  w.b[1] = p.h * (u3 - u2);
  w.da[0] = 6.0 * (u2 - u) * p.inv_h;
  w.da[1] = -w.da[0];
  w.db[0] = 1.0 - 4.0 * u + 3.0 * u2;
  w.db[1] = 3.0 * u2 - 2.0 * u;
  return w;
}

/* One node's four values: Lambda, dLambda/dtau_0, dLambda/dtau_1, the cross slope.  On the
   GPU as two 16-byte loads (a node is 32 bytes and every table starts on a cudaMalloc
   boundary). */
struct bands_whole_node {
  double v, x, y, xy;
};
IONF_HD IONF_INLINE struct bands_whole_node bands_whole_node_at(const double *n) {
  struct bands_whole_node r;
#ifdef __CUDA_ARCH__
  const double2 a = ((const double2 *)n)[0], b = ((const double2 *)n)[1];
  r.v = a.x;
  r.x = a.y;
  r.y = b.x;
  r.xy = b.y;
#else
  r.v = n[0];
  r.x = n[1];
  r.y = n[2];
  r.xy = n[3];
#endif
  return r;
}

/** Lambda and its gradient in (tau_0, tau_1) from one band's table t. */
struct bands_whole_value {
  double lambda, d[2];
};
IONF_HD IONF_INLINE struct bands_whole_value bands_whole_eval(const double *t, int axes,
                                                              const double tau[2]) {
  const struct bands_grid_pos p = bands_whole_locate(tau[0]);
  const struct bands_whole_basis u = bands_whole_basis_at(p);
  struct bands_whole_value r = {0.0, {0.0, 0.0}};
  if (axes == 1) {
    for (int i = 0; i < 2; ++i) {
      const struct bands_whole_node n = bands_whole_node_at(t + BANDS_WHOLE_VALUES * (p.i0 + i));
      r.lambda += u.a[i] * n.v + u.b[i] * n.x;
      r.d[0] += u.da[i] * n.v + u.db[i] * n.x;
    }
    return r;
  }
  const struct bands_grid_pos q = bands_whole_locate(tau[1]);
  const struct bands_whole_basis v = bands_whole_basis_at(q);
  for (int i = 0; i < 2; ++i) {
    double pv = 0.0, qv = 0.0, pd = 0.0, qd = 0.0; /* along tau_1 at node row p.i0 + i */
    for (int j = 0; j < 2; ++j) {
      const struct bands_whole_node n = bands_whole_node_at(
          t + BANDS_WHOLE_VALUES * ((long long)(p.i0 + i) * BANDS_WHOLE_NODES + q.i0 + j));
      pv += v.a[j] * n.v + v.b[j] * n.y;
      qv += v.a[j] * n.x + v.b[j] * n.xy;
      pd += v.da[j] * n.v + v.db[j] * n.y;
      qd += v.da[j] * n.x + v.db[j] * n.xy;
    }
    r.lambda += u.a[i] * pv + u.b[i] * qv;
    r.d[0] += u.da[i] * pv + u.db[i] * qv;
    r.d[1] += u.a[i] * pd + u.b[i] * qd;
  }
  return r;
}

/* The far end's weight rho = num / den in a cell across which the photons decay as
   exp(-dl t), 0 <= t <= 1: int t e^(-dl t) dt / int e^(-dl t) dt = (1 - (1 + dl) e) /
   (dl (1 - e)) with e = exp(-dl) = 1 + em1 (em1 = expm1(-dl)); 1/2 - dl/12 + O(dl^3) when
   small.  As a fraction, so that the caller divides once. */
IONF_HD IONF_INLINE void bands_whole_rho(double dl, double em1, double *num, double *den) {
  if (dl < 1e-2) {
    *num = 0.5 - dl * (1.0 / 12.0);
    *den = 1.0;
  } else {
    *num = em1 + dl * (1.0 + em1);
    *den = dl * em1;
  }
}

/*
 * What one band (table t, `total` photons or erg per source photon) gives each absorber
 * atom of a cell entered at optical depths tau_in and left at tau_out (dcol_cm2 = n_s ds):
 * take[s] per source photon per unit column, so that sum_s take[s] dcol[s] is what the
 * cell takes of the band (thick cells; the first-order form in thin ones).
 */
IONF_HD IONF_INLINE void bands_whole_take(const double *k, int axes, const double *t, double total,
                                          const double tau_in[2], const double tau_out[2],
                                          const double dcol_cm2[BANDS_WHOLE_ABSORBERS],
                                          double take[BANDS_WHOLE_ABSORBERS]) {
  const struct bands_whole_value out = bands_whole_eval(t, axes, tau_out);
  double sig_out[BANDS_WHOLE_ABSORBERS], est = 0.0;
  for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) {
    sig_out[s] = k[s] * out.d[0] + k[3 + s] * out.d[1];
    est += sig_out[s] * dcol_cm2[s];
    take[s] = sig_out[s]; /* the thin form's weights */
  }
  double lambda = out.lambda, a = total; /* the thin form: total exp(-Lambda_out) sigma_out */
  if (est > PHOTO_TAU_THIN_LIMIT) {
    const struct bands_whole_value in = bands_whole_eval(t, axes, tau_in);
    const double dl = out.lambda - in.lambda;
    if (dl > 0.0) { /* the cell's share of the photons lost between in and out */
      const double em1 = expm1(-dl);
      double num, den; /* rho */
      bands_whole_rho(dl, em1, &num, &den);
      double wsum = 0.0, ws[BANDS_WHOLE_ABSORBERS]; /* w_s times den */
      for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) {
        const double sig_in = k[s] * in.d[0] + k[3 + s] * in.d[1];
        ws[s] = sig_in * den + num * (sig_out[s] - sig_in);
        wsum += ws[s] * dcol_cm2[s];
      }
      if (wsum * den > 0.0) {
        lambda = in.lambda;
        a = total * -em1 / wsum;
        for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) take[s] = ws[s];
      }
    }
  }
  a *= exp(-lambda);
  for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) take[s] *= a;
}

/**
 * bands_rates_into (bands_k.h) with the whole-band tables: adds the photoionization rates
 * gamma[s] [1/s] and, when want_heat or want_xray and w->e_table exists, the electrons'
 * energy per absorber atom [erg/s] to heat[s] (or, with want_xray for bands from
 * first_xray on, to xray[s]), with scale = Ndot ds / V and threshold_erg[s] the
 * absorbers' thresholds.
 */
IONF_HD IONF_INLINE void bands_whole_rates(const struct bands_whole_view *w, double scale,
                                           const double col_in_cm2[BANDS_WHOLE_ABSORBERS],
                                           const double dcol_cm2[BANDS_WHOLE_ABSORBERS],
                                           int first_xray, const double *threshold_erg,
                                           double gamma[BANDS_WHOLE_ABSORBERS],
                                           double heat[BANDS_WHOLE_ABSORBERS],
                                           double xray[BANDS_WHOLE_ABSORBERS], int want_heat,
                                           int want_xray) {
  const int heating = w->e_table && (want_heat || want_xray);
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
  for (int b = 0; b < w->n_bands; ++b) {
    const double *h = w->table + BANDS_WHOLE_HEADER * b, *k = h + BANDS_WHOLE_H_K;
    const int axes = (int)h[BANDS_WHOLE_H_AXES];
    const long long offset = (long long)h[BANDS_WHOLE_H_OFFSET];
    double tau_in[2], tau_out[2];
    for (int a = 0; a < 2; ++a) {
      double ti = 0.0, dt = 0.0;
      for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) {
        ti += k[3 * a + s] * col_in_cm2[s];
        dt += k[3 * a + s] * dcol_cm2[s];
      }
      tau_in[a] = ti;
      tau_out[a] = ti + dt;
    }
    if (!(tau_in[0] < h[BANDS_WHOLE_H_DARK] && tau_in[1] < h[BANDS_WHOLE_H_DARK + 1]))
      continue; /* nothing of this band arrives: every result as if it were traced */
    double take[BANDS_WHOLE_ABSORBERS];
    bands_whole_take(k, axes, w->table + offset, h[BANDS_WHOLE_H_PHOTONS], tau_in, tau_out,
                     dcol_cm2, take);
    for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) gamma[s] += scale * take[s];
    const int to_xray = want_xray && b >= first_xray;
    if (!heating || !(to_xray || want_heat)) continue;
    double take_e[BANDS_WHOLE_ABSORBERS];
    bands_whole_take(k, axes, w->e_table + offset, h[BANDS_WHOLE_H_ENERGY], tau_in, tau_out,
                     dcol_cm2, take_e);
    for (int s = 0; s < BANDS_WHOLE_ABSORBERS; ++s) {
      const double add = scale * (take_e[s] - threshold_erg[s] * take[s]);
      if (to_xray)
        xray[s] += add;
      else
        heat[s] += add;
    }
  }
}

#endif /* IONF_BANDS_WHOLE_K_H */
