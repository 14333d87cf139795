/**
 * @file config_views.h
 * @brief The parameters of the concept modules, read off a run configuration:
 *        what chem/, rt/ and rt/mc/ take as arguments, built from the config's
 *        sections here so that those modules do not depend on the config.
 */
#ifndef IONF_CONFIG_VIEWS_H
#define IONF_CONFIG_VIEWS_H

#include "chem/chem.h"
#include "chem/species.h"
#include "config/config.h"
#include "rt/bands.h"
#include "rt/photo_tables.h"

/** The adjustable species values: spectrum.sigma_0, spectrum.power_law_index,
    chemistry.alpha_B, chemistry.alpha_B_power. */
struct species_params config_views_species_params(const struct ionf_config *cfg);

/** The species table of cfg (species_table with config_views_species_params). */
void config_views_species(const struct ionf_config *cfg,
                          struct species_data table[IONF_MAX_SPECIES]);

/** The chemistry parameters of cfg: the species table's, chemistry.collisional_ionization,
    chemistry.abu_c, and thermal = !material.isothermal. */
struct chem_params config_views_chem(const struct ionf_config *cfg);

/** The spectrum: section (type, T_eff, num_tau, min_log_tau, max_log_tau). */
/** The species of a grid run: 3 (HI, HeI, HeII) with helium or a powerlaw/table spectrum,
    else 1 (config_species.c). */
int config_views_species_count(const struct ionf_config *cfg);

/** The H + He chemistry's parameters (chem_he_k.h); the per-step T_CMB and H are 0. */
struct chem_he_params config_views_chem_he(const struct ionf_config *cfg);

/** The band tables' set-up for the run's spectrum (a table spectrum: `table`, read by the
    caller from spectrum.file). */
struct bands_setup config_views_bands(const struct ionf_config *cfg, const struct sed *table);

struct photo_spectrum config_views_spectrum(const struct ionf_config *cfg);

#endif /* IONF_CONFIG_VIEWS_H */
