/**
 * @file species_k.h
 * @brief The list of absorbing species and what a cell's state says about
 *        each (shared host/device maths).
 *
 * Species s is an absorber (HI; later HeI, HeII) and, at the same index, the
 * ion its photoionization makes: x_ion[s] is the fraction of s's element in
 * that ion (HI -> x_HII; HeI -> x_HeII; HeII -> x_HeIII).  Per-species fields
 * are species-major, [species][cell].  IONF_N_SPECIES is a compile-time
 * constant so that GPU kernels keep fixed-size arrays in registers; loops over
 * it compile to the single-species code today.
 */
#ifndef IONF_SPECIES_K_H
#define IONF_SPECIES_K_H

#include "core/ionf_hd.h"

/** Absorbing species.  Helium would add SPECIES_HEI, SPECIES_HEII here. */
enum species_id {
  SPECIES_HI = 0, /*!< neutral hydrogen; its ion fraction is x_HII */
  /* SPECIES_HEI,    neutral helium; x_HeII  */
  /* SPECIES_HEII,   singly ionized helium; x_HeIII */
  IONF_N_SPECIES  /*!< number of species */
};

/**
 * Number density [cm^-3] of species s's absorbers in one cell, from n_H and
 * the cell's ion fractions x_ion[0..IONF_N_SPECIES-1].
 * (HeI: n_H abu_He (1 - x_HeII - x_HeIII); HeII: n_H abu_He x_HeII.)
 */
IONF_HD IONF_INLINE double species_absorber_density(int s, double n_h_cm3, const double *x_ion) {
  switch (s) {
    case SPECIES_HI:
    default:
      return n_h_cm3 * (1.0 - x_ion[SPECIES_HI]);
  }
}

/**
 * Free electrons per hydrogen nucleus from the ions of the list: x_HII today
 * (helium would add abu_He (x_HeII + 2 x_HeIII)).
 */
IONF_HD IONF_INLINE double species_electrons_per_h(const double *x_ion) {
  double e = 0.0;
  for (int s = 0; s < IONF_N_SPECIES; ++s) {
    switch (s) {
      case SPECIES_HI:
      default:
        e += x_ion[s];
        break;
    }
  }
  return e;
}

#endif /* IONF_SPECIES_K_H */
