/**
 * @file bands.h
 * @brief Building the band tables of bands_k.h for a source spectrum (host).
 */
#ifndef IONF_BANDS_H
#define IONF_BANDS_H

#include "core/error.h"
#include "rt/bands_k.h"
#include "rt/bands_whole.h"
#include "rt/sed.h"

/** The sources' spectrum for helium runs. */
enum bands_spectrum_type { BANDS_BLACKBODY, BANDS_POWERLAW, BANDS_TABLE };

struct bands_setup {
  enum bands_spectrum_type type;
  double t_eff_k;        /*!< black body: temperature [K] */
  double powerlaw_index; /*!< power law: L_nu ~ nu^-index (photons ~ nu^-(index+1)) */
  const struct sed *table; /*!< BANDS_TABLE: the tabulated spectrum (rt/sed.h) */
  double e_max_ev;       /*!< the spectrum ends here [eV] (> 54.416) */
  int n_sub[3];          /*!< sub-bins of the bands HI-HeI, HeI-HeII, above HeII (>= 1 each) */
  int heating;           /*!< build the energy tables */
  int secondary;         /*!< X-ray photoelectrons: secondary ionization and heating (needs
                              the energy tables, built then even without heating) */
  int whole;             /*!< whole-band tables (bands_whole_k.h) instead of sub-bins;
                              n_sub is then not used */
};

struct bands {
  int n_bins;
  int heating;           /*!< the energy tables exist (heating or secondary) */
  int secondary;
  double e_lo_ev[BANDS_MAX_BINS], e_hi_ev[BANDS_MAX_BINS]; /*!< sub-bin edges [eV] */
  double index[BANDS_MAX_BINS];  /*!< the sub-bin's cross-section power law */
  double *sigma_cm2;             /*!< [bin][absorber] */
  double *table;                 /*!< [bin][BANDS_NODES][BANDS_NODE_VALUES]: thick, thin */
  double *e_table;               /*!< the same: e_thick, e_thin (NULL without heating) */
  struct bands_whole whole;      /*!< with setup.whole (n_bins is then 0) */
};

/** Photons per unit energy of the setup's spectrum at e_ev [eV], unnormalised. */
double bands_photons_at(const struct bands_setup *s, double e_ev);

/**
 * Sub-bin edges log-spaced in each band; in each sub-bin the power law of the band's
 * own absorber (HI, HeI, HeII: Verner et al. 1996, atomic_k.h) between its edges;
 * tables at bands_k.h's nodes by GSL adaptive quadrature (relative 1e-10) of the spectrum normalised to one
 * photon per second from 13.598 eV to e_max_ev; with setup->whole the whole-band tables
 * (bands_whole.h) instead.  Errors: IONF_ERR_CONFIG naming the
 * bad value (sub-bins, e_max, T_eff, index), IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err bands_build(const struct bands_setup *setup, struct bands *b);
/** Whether b holds tables (sub-bins or whole bands): a helium run's. */
static inline int bands_built(const struct bands *b) { return b->n_bins > 0 || b->whole.n_bands > 0; }
/** Doubles in b->table (and in b->e_table when it exists). */
size_t bands_table_doubles(const struct bands *b);
void bands_free(struct bands *b);
/** View for bands_rates (host pointers). */
struct bands_view bands_view_of(const struct bands *b);

#endif /* IONF_BANDS_H */
