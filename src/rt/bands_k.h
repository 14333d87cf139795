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
 * (thin_b(tau_out) when dtau_b is tiny, which keeps the rate finite as n_s -> 0):
 *
 *   Gamma_s = Ndot ds / V  sum_b sigma_s(E_b) A_b
 *   heat_s  = Ndot ds / V  sum_b sigma_s(E_b) (A^E_b - E_s A_b)    [erg/s]
 *
 * where A^E_b is A_b from the energy tables and E_s the threshold of s.
 * Against direct integration with Verner's cross-sections (tests/test_bands.c) the
 * photons each absorber takes are within 0.6% with 1 + 26 + 20 sub-bins (C2-Ray's
 * numbers), 2% with 1 + 8 + 8; photons are conserved to rounding in every case.
 */
#ifndef IONF_BANDS_K_H
#define IONF_BANDS_K_H

#include "chem/secondary_k.h"
#include "core/constants.h"
#include "core/ionf_hd.h"
#include "rt/photo_k.h"

#define BANDS_N_ABSORBERS 3 /* HI, HeI, HeII (atomic_k.h's order) */
#define BANDS_MAX_BINS 64

/** Read-only view of the band tables (host or device pointers). */
struct bands_view {
  int n_bins;
  int num_tau;                 /*!< table points after tau = 0 (photo_k.h's tau grid) */
  double min_log_tau, dlog_tau;
  int heating;                 /*!< the energy tables are valid */
  const double *sigma_cm2;     /*!< [bin][absorber]: sigma_s(E_b) */
  const double *thick, *thin;  /*!< [bin][num_tau + 1] photons per source photon */
  const double *e_thick, *e_thin; /*!< [bin][num_tau + 1] energy per source photon [erg] */
  int first_xray_bin;          /*!< sub-bins from here have their middle above 100 eV */
  int secondary;               /*!< split the X-ray sub-bins' electrons (bands_secondary) */
  double threshold_erg[BANDS_N_ABSORBERS];
};

/**
 * Photoionization rates gamma[s] [1/s] and (when v->heating and heat is not NULL)
 * photo-heating per absorber atom heat[s] [erg/s] that one source of ndot_per_s
 * photons/s gives a cell entered after the columns col_in_cm2[s] and crossed over
 * ds_cm with columns dcol_cm2[s] (= n_s ds) of each absorber, in a shell of
 * volume_cm3.  Adds to gamma[] and heat[] (the caller sums over sources).  When xray
 * is not NULL, the photoelectron energy of the X-ray sub-bins (first_xray_bin on) goes
 * to xray[s] [erg/s per absorber atom] instead of heat[s], for secondary_k.h's split.
 */
IONF_HD IONF_INLINE void bands_rates(const struct bands_view *v, double ndot_per_s,
                                     const double col_in_cm2[BANDS_N_ABSORBERS],
                                     const double dcol_cm2[BANDS_N_ABSORBERS], double ds_cm,
                                     double volume_cm3, double gamma[BANDS_N_ABSORBERS],
                                     double heat[BANDS_N_ABSORBERS],
                                     double xray[BANDS_N_ABSORBERS]) {
  const double scale = ndot_per_s * ds_cm / volume_cm3;
  /* the electrons' energy: for heat, or for the X-ray split (then heat may be NULL) */
  const int heating = v->heating && (heat || xray);
  const int stride = v->num_tau + 1;
  for (int b = 0; b < v->n_bins; ++b) {
    const double *sig = v->sigma_cm2 + BANDS_N_ABSORBERS * b;
    double tau_in = 0.0, dtau = 0.0;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      tau_in += sig[s] * col_in_cm2[s];
      dtau += sig[s] * dcol_cm2[s];
    }
    const double tau_out = tau_in + dtau;
    struct photo_table_pos pout = photo_table_locate(v->num_tau, v->min_log_tau, v->dlog_tau, tau_out);
    double a, a_e = 0.0;
    if (dtau > PHOTO_TAU_THIN_LIMIT) {
      struct photo_table_pos pin = photo_table_locate(v->num_tau, v->min_log_tau, v->dlog_tau, tau_in);
      a = (photo_table_at(v->thick + b * stride, pin) - photo_table_at(v->thick + b * stride, pout)) / dtau;
      if (heating)
        a_e = (photo_table_at(v->e_thick + b * stride, pin) -
               photo_table_at(v->e_thick + b * stride, pout)) / dtau;
    } else {
      a = photo_table_at(v->thin + b * stride, pout);
      if (heating) a_e = photo_table_at(v->e_thin + b * stride, pout);
    }
    double *excess = xray && b >= v->first_xray_bin ? xray : heat;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      gamma[s] += scale * sig[s] * a;
      if (heating && excess) excess[s] += scale * sig[s] * (a_e - v->threshold_erg[s] * a);
    }
  }
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
  double deposit = 0.0; /* erg s^-1 cm^-3 */
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) deposit += n_abs[s] * xray[s];
  if (!(deposit > 0.0)) return;
  struct secondary_split f = secondary_split_at(x_e);
  if (heat)
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) heat[s] += f.heat * xray[s];
  if (n_abs[0] > 0.0) gamma[0] += f.ion_hi * deposit / (IONF_E_HI_EV * IONF_EV_ERG * n_abs[0]);
  if (n_abs[1] > 0.0) gamma[1] += f.ion_hei * deposit / (IONF_E_HEI_EV * IONF_EV_ERG * n_abs[1]);
}

#endif /* IONF_BANDS_K_H */
