/**
 * @file bands_whole.h
 * @brief Building the whole-band tables of bands_whole_k.h for a source spectrum (host).
 */
#ifndef IONF_BANDS_WHOLE_H
#define IONF_BANDS_WHOLE_H

#include "core/error.h"
#include "rt/bands_whole_k.h"

struct bands_setup;

struct bands_whole {
  int n_bands;
  int axes[BANDS_WHOLE_MAX];
  double e_lo_ev[BANDS_WHOLE_MAX], e_hi_ev[BANDS_WHOLE_MAX];
  double k[BANDS_WHOLE_MAX][2][BANDS_WHOLE_ABSORBERS]; /*!< [cm^2] */
  double photons[BANDS_WHOLE_MAX], energy_erg[BANDS_WHOLE_MAX]; /*!< per source photon */
  double heii_fit_error[BANDS_WHOLE_MAX]; /*!< HeII's cross-section from the two shapes:
                                               the worst relative error in the band (0: exact) */
  long long offset[BANDS_WHOLE_MAX];
  size_t doubles;                       /*!< in table (and e_table) */
  double *table, *e_table;              /*!< e_table NULL without heating */
};

/**
 * The bands (split at 100 eV when the spectrum goes beyond 100.1 eV), their shapes and
 * tables for `setup`'s spectrum, normalised by norm_photons (its photons from 13.598 eV
 * to setup->e_max_ev, in bands_photons_at's units); the energy tables when `heating`.
 * Errors: IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err bands_whole_build(const struct bands_setup *setup, double norm_photons,
                                          int heating, struct bands_whole *w);
void bands_whole_free(struct bands_whole *w);
/** View with host pointers (n_bands 0 when w holds no tables). */
struct bands_whole_view bands_whole_view_of(const struct bands_whole *w);

#endif /* IONF_BANDS_WHOLE_H */
