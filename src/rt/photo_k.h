/**
 * @file photo_k.h
 * @brief Photon-conserving photoionization rate of one cell from one source
 *        (shared host/device maths; pyC2Ray Eqs. 6-8, the thin/thick split).
 *
 * Tables are normalised per source photon: thick(tau) is the fraction of a
 * source's photons that survive a column of threshold optical depth tau,
 * thin(tau) = -d thick/d tau.  For a grey spectrum thick = thin = exp(-tau)
 * and the exact expressions are used instead of tables.
 *
 * Invariant (photon conservation per ray): the photons a cell absorbs,
 * Gamma * n_HI * V_shell, equal Ndot * [thick(tau_in) - thick(tau_out)], so
 * what one cell takes the next cell along the ray does not see.
 */
#ifndef IONF_PHOTO_K_H
#define IONF_PHOTO_K_H

#include <math.h>

#include "core/ionf_hd.h"
#include "chem/species_k.h"

/** Below this optical depth through a cell the first-order (thin) form is used. */
#define PHOTO_TAU_THIN_LIMIT 1e-7
/** Columns above this [cm^-2] are treated as opaque (no rate added). */
#define PHOTO_MAX_COLUMN_CM2 2e30

/** One species' tables (host or device pointers), in its own threshold optical depth. */
struct photo_species_view {
  const double *thick;  /*!< num_tau + 1 values, thick[0] at tau = 0 */
  const double *thin;   /*!< num_tau + 1 values */
  const double *heat_thick; /*!< energy above threshold carried per source photon [erg] */
  const double *heat_thin;  /*!< ... weighted by sigma/sigma0 (the thin-cell form) [erg] */
  double sigma0_cm2;    /*!< the species' threshold cross-section [cm^2] */
  double opaque_cm2;    /*!< the ASORA tracer adds no rate behind a column above this
                             [cm^-2]: PHOTO_MAX_COLUMN_CM2, or less with
                             raytracing.transmission_cutoff (photo_tables_cut) */
};

/** Terms of photo_table_locate_fast's series of ln(1 + x) (to x^9). */
#define PHOTO_LN1P_TERMS 9

/** A read-only view of the rate tables of every species (host or device pointers). */
struct photo_table_view {
  int heating;          /*!< 1: compute photo-heating (heat tables valid) */
  int num_tau;          /*!< table points after tau = 0 (same tau grid for every species) */
  double min_log_tau;   /*!< log10 tau of point 1 */
  double dlog_tau;      /*!< spacing in log10 tau */
  int grey;             /*!< 1: exact exp(-tau) forms, tables unused */
  struct photo_species_view sp[IONF_MAX_SPECIES]; /*!< indexed by enum species_id */
  /* Locating tau without log10 (photo_table_locate_fast; photo_tables_view sets them): */
  const double *inv_tau;  /*!< 1 / tau_i for i = 0..num_tau (0 at i = 0); NULL: log10 always */
  double fast_tau_lo, fast_tau_hi; /*!< the fast path's range [tau_2, tau_{num_tau - 1}) */
  double guess_scale, guess_offset;/*!< table position ~ log2(tau) guess_scale + guess_offset */
  double inv_ln10_dlog;   /*!< 1 / (ln 10 dlog_tau) */
  double ln1p_series[PHOTO_LN1P_TERMS]; /*!< photo_table_locate_fast's series of ln(1 + x):
                                 1 / (k + 1).  Here, not literals, so the GPU takes them as
                                 operands from its constant bank rather than building each
                                 from two immediates at every use (photo_tables_view) */
};

/** Whether any species' opaque_cm2 is below PHOTO_MAX_COLUMN_CM2 (a transmission cutoff). */
IONF_HD IONF_INLINE int photo_tables_cut_any(const struct photo_table_view *t) {
  int cut = 0;
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) cut = cut || t->sp[s].opaque_cm2 < PHOTO_MAX_COLUMN_CM2;
  return cut;
}

/** The largest table spacing for which photo_table_locate_fast's series (ln(1 + x) to x^9,
    |x| <= 10^dlog_tau - 1) is exact to double precision: 10^dlog_tau - 1 <= 0.01. */
#define PHOTO_FAST_DLOG_TAU_MAX 0.0043

/**
 * 1 - exp(-x) for x >= 0, accurate also for small x.  A short series below
 * 1e-2 (error < x^6/720, under 1e-15 relative) avoids libm's slow expm1.
 */
IONF_HD IONF_INLINE double photo_one_minus_exp(double x) {
  if (x < 1e-2) return x * (1.0 - x * (0.5 - x * (1.0 / 6.0 - x * (1.0 / 24.0 - x * (1.0 / 120.0)))));
  return 1.0 - exp(-x);
}

/** Table layout: tau[0] = 0, tau[i] = 10^(min_log_tau + (i-1) dlog_tau), i = 1..num_tau. */
IONF_HD IONF_INLINE double photo_table_tau(int i, double min_log_tau, double dlog_tau) {
  return i == 0 ? 0.0 : pow(10.0, min_log_tau + (double)(i - 1) * dlog_tau);
}

/** Where tau falls in the tables: entries i0, i1 and the fraction between them. */
struct photo_table_pos {
  int i0, i1;
  double f;
};

/** Linear interpolation in log10(tau); tau below the first point clamps to it. */
IONF_HD IONF_INLINE struct photo_table_pos photo_table_locate(int num_tau, double min_log_tau,
                                                              double dlog_tau, double tau) {
  double lt = log10(tau > 1e-20 ? tau : 1e-20);
  double r = 1.0 + (lt - min_log_tau) / dlog_tau;
  if (r < 0.0) r = 0.0;
  if (r > (double)num_tau) r = (double)num_tau;
  struct photo_table_pos p;
  p.i0 = (int)r;
  p.i1 = p.i0 + 1 < num_tau ? p.i0 + 1 : num_tau;
  p.f = r - (double)p.i0;
  return p;
}

/**
 * The same position as photo_table_locate (to ~1e-14 in the fraction, where log10's own
 * rounding leaves ~1e-12 at 20000 points) without a double-precision log10, for the tables
 * of a view that has inv_tau: a single-precision log2 guesses the interval i0 (to within
 * 0.01 of it), x = tau / tau_i0 - 1 (|x| <= 0.01) gives the fraction ln(1 + x) /
 * (ln 10 dlog_tau) by its series, and a fraction outside [0, 1) moves i0 by one.  Outside
 * [tau_2, tau_{num_tau - 1}) (and where the view has no inv_tau) photo_table_locate.
 */
IONF_HD IONF_INLINE struct photo_table_pos photo_table_locate_fast(const struct photo_table_view *t,
                                                                   double tau) {
  if (!t->inv_tau || !(tau >= t->fast_tau_lo && tau < t->fast_tau_hi))
    return photo_table_locate(t->num_tau, t->min_log_tau, t->dlog_tau, tau);
#ifdef __CUDA_ARCH__
  const float log2_tau = __log2f((float)tau); /* the guess only: its error moves nothing */
#else
  const float log2_tau = log2f((float)tau);
#endif
  int i0 = (int)((double)log2_tau * t->guess_scale + t->guess_offset);
  const double x = tau * t->inv_tau[i0] - 1.0;
  const double *c = t->ln1p_series; /* 1 / (k + 1) */
  double f = x * (c[0] - x * (c[1] - x * (c[2] - x * (c[3] - x * (c[4] - x * (c[5] -
             x * (c[6] - x * (c[7] - x * c[8])))))))) * t->inv_ln10_dlog;
  if (f < 0.0) {
    i0 -= 1;
    f += 1.0;
  } else if (f >= 1.0) {
    i0 += 1;
    f -= 1.0;
  }
  struct photo_table_pos p;
  p.i0 = i0;
  p.i1 = i0 + 1;
  p.f = f;
  return p;
}

IONF_HD IONF_INLINE double photo_table_at(const double *table, struct photo_table_pos p) {
  return table[p.i0] + p.f * (table[p.i1] - table[p.i0]);
}

IONF_HD IONF_INLINE double photo_table_lookup(const double *table, int num_tau,
                                             double min_log_tau, double dlog_tau, double tau) {
  return photo_table_at(table, photo_table_locate(num_tau, min_log_tau, dlog_tau, tau));
}

/**
 * Photoionization rate [1/s] of species s that one source gives one cell, and
 * (when the tables carry heating and heat_out is not NULL) the photo-heating
 * rate per absorber atom [erg/s] from the same photon-conserving split: the
 * energy above threshold the cell absorbs, Ndot [E(tau_in) - E(tau_out)], per
 * atom.  Each species is attenuated by its own optical depth (one species
 * today; with helium the tables would take every species' tau, see
 * docs/design.md "Species").
 * @param s           species (enum species_id)
 * @param ndot_per_s  source photon rate [1/s]
 * @param tau_in      s's threshold optical depth from the source to the cell entry
 * @param tau_out     ... to the cell exit (tau_in + sigma0 n_abs ds)
 * @param n_abs_cm3   density of s's absorbers in the cell (HI: n_HI) [cm^-3]
 * @param ds_cm       path length through the cell [cm]
 * @param volume_cm3  shell volume 4 pi r^2 ds (cell volume for the source cell)
 */
IONF_HD IONF_INLINE double photo_rates(const struct photo_table_view *t, int s,
                                       double ndot_per_s, double tau_in, double tau_out, double n_abs_cm3,
                                       double ds_cm, double volume_cm3, double *heat_out) {
  const struct photo_species_view *sp = &t->sp[s];
  double dtau = tau_out - tau_in;
  int heat = t->heating && heat_out;
  if (heat) *heat_out = 0.0;
  if (dtau > PHOTO_TAU_THIN_LIMIT) {
    double absorbed;
    double per_atom = ndot_per_s / (n_abs_cm3 * volume_cm3);
    if (t->grey) {
      absorbed = exp(-tau_in) * photo_one_minus_exp(dtau);
    } else {
      struct photo_table_pos pin = photo_table_locate_fast(t, tau_in);
      struct photo_table_pos pout = photo_table_locate_fast(t, tau_out);
      absorbed = photo_table_at(sp->thick, pin) - photo_table_at(sp->thick, pout);
      if (heat)
        *heat_out = per_atom * (photo_table_at(sp->heat_thick, pin) - photo_table_at(sp->heat_thick, pout));
    }
    return per_atom * absorbed;
  }
  /* Thin cell: Gamma = Ndot thin(tau) sigma0 ds / V, which stays finite as n_abs -> 0. */
  double per_column = ndot_per_s * sp->sigma0_cm2 * ds_cm / volume_cm3;
  if (t->grey) return per_column * exp(-tau_out);
  struct photo_table_pos pout = photo_table_locate_fast(t, tau_out);
  if (heat) *heat_out = per_column * photo_table_at(sp->heat_thin, pout);
  return per_column * photo_table_at(sp->thin, pout);
}

/** The photoionization rate alone (see photo_rates). */
IONF_HD IONF_INLINE double photo_gamma(const struct photo_table_view *t, int s,
                                       double ndot_per_s, double tau_in, double tau_out, double n_abs_cm3,
                                       double ds_cm, double volume_cm3) {
  return photo_rates(t, s, ndot_per_s, tau_in, tau_out, n_abs_cm3, ds_cm, volume_cm3, (double *)0);
}

#endif /* IONF_PHOTO_K_H */
