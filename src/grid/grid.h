/**
 * @file grid.h
 * @brief The uniform Cartesian grid and the cell fields the engine evolves.
 *
 * Layout: C order, cell (i, j, k) at index (i*N + j)*N + k, i the x index.
 * All index arithmetic is int64_t (2048^3 is 2^33 cells).
 */
#ifndef IONF_GRID_H
#define IONF_GRID_H

#include <stdint.h>

#include "core/error.h"
#include "core/ionf_hd.h"
#include "chem/species_k.h"

struct grid {
  int64_t n;          /*!< cells per side */
  double cell_cm;     /*!< cell side [cm] */
  int periodic;       /*!< periodic boundaries */
};

IONF_HD IONF_INLINE int64_t grid_index(int64_t n, int64_t i, int64_t j, int64_t k) {
  return (i * n + j) * n + k;
}

/**
 * The fields of one grid.  Every array holds n^3 doubles, the per-species ones
 * [species] (species_k.h) n^3 doubles each, species-major: species s at
 * s * n^3 (grid_species), so one pointer, one allocation, one copy or MPI sum
 * carries every species, and with one species the layout is that of a scalar
 * field.  The ion fractions x_ion are x_HII (then x_HeII, x_HeIII).
 */
struct grid_fields {
  double *n_h_cm3;        /*!< hydrogen number density [cm^-3] */
  double *x_ion;          /*!< [species] ion fractions at the start of the step */
  double *x_ion_av;       /*!< [species] time-averaged ion fractions over the step (iterate) */
  double *x_ion_end;      /*!< [species] ion fractions at the end of the step (iterate) */
  double *temperature_k;  /*!< temperature at the start of the step [K] */
  double *gamma_per_s;    /*!< [species] photoionization rates [1/s] */
  /* only when the temperature evolves (NULL otherwise): */
  double *temperature_av_k;   /*!< time-averaged temperature over the step (iterate) [K] */
  double *temperature_end_k;  /*!< temperature at the end of the step (iterate) [K] */
  double *heating_erg_per_s;  /*!< [species] photo-heating rate per absorber atom [erg/s] */
  /* only for cosmological runs with output.dTb (NULL otherwise), filled at outputs: */
  double *dtb_mk;             /*!< 21-cm differential brightness temperature [mK] */
};

/** Allocate the fields of an n^3 grid (zeroed), the thermal ones when `thermal`. */
IONF_NODISCARD ionf_err grid_fields_alloc(int64_t n, int thermal, struct grid_fields *f);
void grid_fields_free(struct grid_fields *f);
/** Number of cells, n^3. */
IONF_HD IONF_INLINE int64_t grid_cells(int64_t n) { return n * n * n; }
/** Species s's n^3 values in a per-species field of an n^3 grid. */
IONF_HD IONF_INLINE double *grid_species(double *field, int64_t n, int s) {
  return field + (int64_t)s * grid_cells(n);
}

#endif /* IONF_GRID_H */
