/**
 * @file secondary_k.h
 * @brief Secondary ionization and heating by fast photoelectrons (X-rays): how the
 *        energy of an electron freed well above threshold is shared between heat and
 *        further ionizations of HI and HeI (shared host/device maths).
 *
 * Fits of Shull & van Steenberg 1985 (ApJ 298, 268) in the form of Ricotti, Gnedin &
 * Shull 2002 (ApJ 575, 33, Eq. A3-A5), for electrons of E >~ 100 eV, as functions of
 * the electron fraction x_e = n_e / n_H (taken as x_HII, floored at 1e-4 where the fits
 * start):
 *   f_heat   = 0.9971 [1 - (1 - x^0.2663)^1.3163]
 *   f_ion,HI = 0.3908 (1 - x^0.4092)^1.7592
 *   f_ion,HeI= 0.0554 (1 - x^0.4614)^1.6660
 * A photoelectron of energy E brings f_heat E of heat and f_ion,s E / E_s secondary
 * ionizations of s; the rest goes into excitation (lines that escape).  Below
 * SECONDARY_MIN_EV the electrons heat only (the usual photo-heating).
 */
#ifndef IONF_SECONDARY_K_H
#define IONF_SECONDARY_K_H

#include <math.h>

#include "core/constants.h"
#include "core/ionf_hd.h"

#define SECONDARY_MIN_EV 100.0 /* photons above this count as X-rays */
#define SECONDARY_MIN_X 1e-4   /* the fits' lowest electron fraction */

/** How a fast electron's energy is shared (fractions of its energy). */
struct secondary_split {
  double heat;    /*!< into heat */
  double ion_hi;  /*!< into ionizations of HI (13.598 eV each) */
  double ion_hei; /*!< into ionizations of HeI (24.587 eV each) */
};

IONF_HD IONF_INLINE struct secondary_split secondary_split_at(double x_e) {
  double x = x_e < SECONDARY_MIN_X ? SECONDARY_MIN_X : x_e > 1.0 ? 1.0 : x_e;
  struct secondary_split f;
  f.heat = 0.9971 * (1.0 - pow(1.0 - pow(x, 0.2663), 1.3163));
  f.ion_hi = 0.3908 * pow(1.0 - pow(x, 0.4092), 1.7592);
  f.ion_hei = 0.0554 * pow(1.0 - pow(x, 0.4614), 1.6660);
  return f;
}

/**
 * Apply the split to an X-ray energy deposit: `excess_erg_s` [erg s^-1 cm^-3] is the
 * energy of the fast photoelectrons; adds the heat [erg s^-1 cm^-3] to *heat and the
 * secondary ionizations [s^-1 cm^-3] to *ion_hi, *ion_hei.
 */
IONF_HD IONF_INLINE void secondary_deposit(double x_e, double excess_erg_s, double *heat,
                                           double *ion_hi, double *ion_hei) {
  struct secondary_split f = secondary_split_at(x_e);
  *heat += f.heat * excess_erg_s;
  *ion_hi += f.ion_hi * excess_erg_s / (IONF_E_HI_EV * IONF_EV_ERG);
  *ion_hei += f.ion_hei * excess_erg_s / (IONF_E_HEI_EV * IONF_EV_ERG);
}

#endif /* IONF_SECONDARY_K_H */
