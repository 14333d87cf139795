/**
 * @file species_k.h
 * @brief The list of absorbing species and what a cell's state says about
 *        each (shared host/device maths).
 *
 * Species s is an absorber (HI, HeI, HeII) and, at the same index, the ion its
 * photoionization makes: x_ion[s] is the fraction of s's element in that ion
 * (HI -> x_HII; HeI -> x_HeII; HeII -> x_HeIII).  Per-species fields are
 * species-major, [species][cell], with the run's number of species (fields.h
 * n_species: 1 for hydrogen alone, so that its arrays, work and results are
 * those of a hydrogen-only code; 3 with helium).  IONF_MAX_SPECIES sizes the
 * fixed arrays GPU kernels keep in registers.
 */
#ifndef IONF_SPECIES_K_H
#define IONF_SPECIES_K_H

#include "core/ionf_hd.h"

/** Absorbing species, in the order of atomic_k.h's ions. */
enum species_id {
  SPECIES_HI = 0,   /*!< neutral hydrogen; its ion fraction is x_HII */
  SPECIES_HEI = 1,  /*!< neutral helium; x_HeII */
  SPECIES_HEII = 2, /*!< singly ionized helium; x_HeIII */
  IONF_MAX_SPECIES  /*!< the most species a run has (array sizes) */
};

/** Species of a run: hydrogen alone (1) or hydrogen and helium (3). */
IONF_HD IONF_INLINE int species_count(double abundance_he) { return abundance_he > 0.0 ? 3 : 1; }

/**
 * Number density [cm^-3] of species s's absorbers in one cell, from n_H, the
 * helium abundance n_He/n_H and the cell's ion fractions x_ion[species]:
 * HI n_H (1 - x_HII); HeI n_H A_He (1 - x_HeII - x_HeIII); HeII n_H A_He x_HeII.
 */
IONF_HD IONF_INLINE double species_absorber_density(int s, double n_h_cm3, const double *x_ion,
                                                    double abundance_he) {
  switch (s) {
    case SPECIES_HEI:
      return n_h_cm3 * abundance_he * (1.0 - x_ion[SPECIES_HEI] - x_ion[SPECIES_HEII]);
    case SPECIES_HEII:
      return n_h_cm3 * abundance_he * x_ion[SPECIES_HEI];
    case SPECIES_HI:
    default:
      return n_h_cm3 * (1.0 - x_ion[SPECIES_HI]);
  }
}

/**
 * Free electrons per hydrogen nucleus from the ions of the run's n_species:
 * x_HII, plus A_He (x_HeII + 2 x_HeIII) with helium.
 */
IONF_HD IONF_INLINE double species_electrons_per_h(const double *x_ion, int n_species,
                                                   double abundance_he) {
  double e = x_ion[SPECIES_HI];
  if (n_species > 1) e += abundance_he * (x_ion[SPECIES_HEI] + 2.0 * x_ion[SPECIES_HEII]);
  return e;
}

#endif /* IONF_SPECIES_K_H */
