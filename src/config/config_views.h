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
struct photo_spectrum config_views_spectrum(const struct ionf_config *cfg);

#endif /* IONF_CONFIG_VIEWS_H */
