/**
 * @file fields.h
 * @brief The state of the gas in a set of cells: the cells of a grid box or the
 *        SPH particles of a run alike.  n_H, the ion fraction of every species
 *        (start of step, time average and end of the current iteration), the
 *        temperature (the same three when it evolves), and the rates the tracers
 *        compute.  The engine, the backends, the tracers and the chemistry all
 *        address a run's state through this one struct.
 *
 * Layout: every array holds `cells` doubles; the per-species ones (x_ion,
 * x_ion_av, x_ion_end, gamma_per_s, heating_erg_per_s) hold one block of `cells`
 * per species, species-major (species s at s * cells, fields_species), so that one
 * pointer, one allocation, one copy or MPI sum carries every species.  The ion
 * fractions are x_HII, and x_HeII, x_HeIII with helium (n_species 3).
 */
#ifndef IONF_FIELDS_H
#define IONF_FIELDS_H

#include <stdint.h>

#include "chem/species_k.h"
#include "core/error.h"
#include "core/ionf_hd.h"

struct fields {
  int64_t cells;              /*!< cells (or particles): the length of a block */
  int n_species;              /*!< blocks of the per-species fields (species_k.h) */
  double abundance_he;        /*!< n_He / n_H, uniform (0: hydrogen alone) */
  double *n_h_cm3;            /*!< hydrogen number density [cm^-3] */
  double *x_ion;              /*!< [species] ion fractions at the start of the step */
  double *x_ion_av;           /*!< [species] time-averaged over the step (the iterate) */
  double *x_ion_end;          /*!< [species] at the end of the step (the iterate) */
  double *temperature_k;      /*!< temperature at the start of the step [K] */
  double *gamma_per_s;        /*!< [species] photoionization rates [1/s] */
  /* only when the temperature evolves (NULL otherwise): */
  double *temperature_av_k;   /*!< time-averaged temperature over the step (iterate) [K] */
  double *temperature_end_k;  /*!< temperature at the end of the step (iterate) [K] */
  double *heating_erg_per_s;  /*!< [species] photo-heating rate per absorber atom [erg/s] */
  /* derived at outputs (NULL unless asked for): */
  double *dtb_mk;             /*!< 21-cm differential brightness temperature [mK] (grids) */
};

/** Allocate the fields of `cells` cells and `n_species` species (zeroed), the thermal
    ones when `thermal`. */
IONF_NODISCARD ionf_err fields_alloc(int64_t cells, int thermal, int n_species, struct fields *f);
void fields_free(struct fields *f);

/** Species s's block of a per-species field of `cells` cells. */
IONF_HD IONF_INLINE double *fields_species(double *field, int64_t cells, int s) {
  return field + (int64_t)s * cells;
}

#endif /* IONF_FIELDS_H */
