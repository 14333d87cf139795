/**
 * @file chem.h
 * @brief One chemistry pass over the grid (every cell's C2-Ray update with
 *        the current Gamma), and the CPU implementation.  CUDA: gpu/chem_cuda.h.
 */
#ifndef IONF_CHEM_H
#define IONF_CHEM_H

#include <stdint.h>

#include "chem/chem_k.h"
#include "chem/species.h"
#include "core/error.h"

/*
 * Per-species arrays are [species][cell] (species_k.h): species s of cell c at
 * s * species_stride + c, the stride being the grid's cell count (these
 * pointers may start at a slab's first cell).
 */
struct chem_input {
  int64_t n_cells;
  double dt_s;
  struct chem_params params;
  const double *n_h_cm3;
  const double *temperature_k;
  const double *gamma_per_s;   /*!< [species] photoionization rates [1/s] */
  const double *x_ion;         /*!< [species] start-of-step ion fractions */
  const double *heating_erg_per_s; /*!< [species] photo-heating per absorber (thermal runs; else NULL) */
  int64_t species_stride;      /*!< distance between species in the arrays above */
};

struct chem_state {
  double *x_ion_av;         /*!< [species] in: current estimate; out: updated time average */
  double *x_ion_end;        /*!< [species] out: end-of-step value */
  double *t_av_k;           /*!< thermal: in: current estimate; out: time average (else NULL) */
  double *t_end_k;          /*!< thermal: out: end-of-step temperature (else NULL) */
};

struct chem_pass_result {
  int64_t unconverged_cells; /*!< cells whose x_av still moved (chem_cell_unconverged) */
  int64_t cells_at_max_iter; /*!< cells whose n_e iteration did not converge */
  double sum_x_end;          /*!< sum over cells of x_end */
  double sum_x_neutral_end;  /*!< sum over cells of 1 - x_end */
  double sum_x_end_mass;     /*!< sum over cells of n_H x_end (mass-weighted mean) */
  double sum_t_end;          /*!< sum over cells of the end-of-step temperature */
};

/**
 * The chemistry parameters from the species table (recombination, collisional
 * ionization) and the run's switches: `collisional` ionization on, the electron
 * floor `abu_c`, `thermal` (the temperature evolves).  t_cmb_k and hubble_per_s
 * are 0 (cosmological runs set them per step).
 */
struct chem_params chem_params_make(const struct species_data species[IONF_N_SPECIES],
                                    int collisional, double abu_c, int thermal);

/** Update every cell (OpenMP). */
IONF_NODISCARD ionf_err chem_cpu_pass(const struct chem_input *in, struct chem_state *state,
                                      struct chem_pass_result *result);

#endif
