/**
 * @file photo_tables.h
 * @brief Building the gamma(tau) rate tables for a source spectrum.
 */
#ifndef IONF_PHOTO_TABLES_H
#define IONF_PHOTO_TABLES_H

#include "core/error.h"
#include "rt/photo_k.h"
#include "chem/species.h"

/** The species the tables are built for: hydrogen (runs with helium take the band
    tables of bands.h). */
#define PHOTO_TABLE_SPECIES 1

/** The sources' spectrum (spectrum.type). */
enum spectrum_type {
  SPECTRUM_GREY,
  SPECTRUM_BLACKBODY,
  SPECTRUM_POWERLAW, /*!< helium's band tables only (bands.h) */
  SPECTRUM_TABLE     /*!< a tabulated spectrum: helium's band tables only */
};

/** The spectrum the tables are built for and their sampling in optical depth. */
struct photo_spectrum {
  enum spectrum_type type;
  double t_eff_k;                  /*!< black-body temperature [K] (blackbody only) */
  int num_tau;                     /*!< table intervals: num_tau + 1 points */
  double min_log_tau, max_log_tau; /*!< log10 of the optical depths the tables span */
};

/** One species' tables (host). */
struct photo_species_tables {
  double *thick;   /*!< num_tau + 1 (host) */
  double *thin;    /*!< num_tau + 1 (host) */
  double *heat_thick; /*!< num_tau + 1 (host), when heating [erg per source photon] */
  double *heat_thin;
  double sigma0_cm2; /*!< the species' threshold cross-section [cm^2] */
  double opaque_cm2; /*!< no rate behind a larger column [cm^-2] (photo_species_view) */
};

struct photo_tables {
  int num_tau;
  double min_log_tau, dlog_tau;
  double *inv_tau; /*!< num_tau + 1 (host): 1 / tau_i (0 at i = 0), for locating tau without
                        log10 (photo_table_locate_fast); NULL where that does not apply */
  int heating;     /*!< temperature evolves and the spectrum heats */
  int grey;
  struct photo_species_tables sp[IONF_MAX_SPECIES]; /*!< indexed by enum species_id */
};

/**
 * Build the tables of every species of `species` (species_table) for `spectrum`,
 * one after the other; with heating tables when `thermal` (the temperature
 * evolves) and the spectrum is not grey.  Black body: photon spectrum
 * ~ nu^2 / (exp(h nu / k T) - 1) from the species' threshold (13.598 eV for HI)
 * to 10 x 54.416 eV, normalised to one photon per second; sigma(nu) =
 * sigma0 (nu/nu0)^-index; integrals by GSL adaptive quadrature (QAG, relative
 * tolerance 1e-10).
 */
IONF_NODISCARD ionf_err photo_tables_build(const struct photo_spectrum *spectrum,
                                           const struct species_data species[IONF_MAX_SPECIES],
                                           int thermal, struct photo_tables *t);
void photo_tables_free(struct photo_tables *t);
/**
 * raytracing.transmission_cutoff: for each species with tables, the smallest column [cm^-2]
 * from which on every table (thick, thin and, when heating, both heat tables) stays at or
 * below `cutoff` times its value at tau = 0; behind it a cell takes at most that fraction
 * of what it would take unattenuated, and the tracer adds no rate.  Grey: tau = -ln
 * cutoff, exactly.  cutoff 0 (or a table that never falls so low): PHOTO_MAX_COLUMN_CM2,
 * what photo_tables_build sets.  Every other species keeps PHOTO_MAX_COLUMN_CM2.
 */
void photo_tables_cut(struct photo_tables *t, double cutoff);
/** View for photo_rates (host pointers). */
struct photo_table_view photo_tables_view(const struct photo_tables *t);

#endif
