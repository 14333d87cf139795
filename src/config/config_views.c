/**
 * @file config_views.c
 * @brief Config -> the concept modules' parameters (config_views.h).
 */
#include "config/config_views.h"

struct species_params config_views_species_params(const struct ionf_config *cfg) {
  struct species_params p = {.sigma0_cm2 = cfg->sigma0_cm2,
                             .sigma_power_law_index = cfg->sigma_power_law_index,
                             .alpha_b_1e4_cm3_s = cfg->alpha_b_1e4_cm3_s,
                             .alpha_b_power = cfg->alpha_b_power};
  return p;
}

void config_views_species(const struct ionf_config *cfg,
                          struct species_data table[IONF_MAX_SPECIES]) {
  struct species_params p = config_views_species_params(cfg);
  species_table(&p, table);
}

struct chem_params config_views_chem(const struct ionf_config *cfg) {
  struct species_data species[IONF_MAX_SPECIES];
  config_views_species(cfg, species);
  return chem_params_make(species, cfg->collisional_ionization, cfg->abu_c, !cfg->isothermal);
}

struct photo_spectrum config_views_spectrum(const struct ionf_config *cfg) {
  struct photo_spectrum s = {.type = cfg->spectrum, .t_eff_k = cfg->t_eff_k,
                            .num_tau = cfg->num_tau, .min_log_tau = cfg->min_log_tau,
                            .max_log_tau = cfg->max_log_tau};
  return s;
}

struct chem_he_params config_views_chem_he(const struct ionf_config *cfg) {
  struct chem_he_params p = {.abundance_he = cfg->abundance_he,
                             .abu_c = cfg->abu_c,
                             .case_b = cfg->recombination_case_b,
                             .collisional = cfg->collisional_ionization,
                             .alpha_hii_b_1e4_cm3_s = cfg->alpha_b_1e4_cm3_s,
                             .alpha_hii_b_power = cfg->alpha_b_power,
                             .t_cmb_k = 0.0,
                             .hubble_per_s = 0.0};
  return p;
}

struct bands_setup config_views_bands(const struct ionf_config *cfg, const struct sed *table) {
  struct bands_setup b = {.type = cfg->spectrum == SPECTRUM_POWERLAW ? BANDS_POWERLAW
                                  : cfg->spectrum == SPECTRUM_TABLE  ? BANDS_TABLE
                                                                     : BANDS_BLACKBODY,
                          .t_eff_k = cfg->t_eff_k,
                          .powerlaw_index = cfg->spectrum_index,
                          .table = table,
                          .e_max_ev = cfg->spectrum_e_max_ev,
                          .n_sub = {cfg->band_sub_bins[0], cfg->band_sub_bins[1],
                                    cfg->band_sub_bins[2]},
                          .heating = !cfg->isothermal,
                          .secondary = cfg->secondary_ionization,
                          .whole = cfg->band_whole};
  /* a table ends where it ends */
  if (table && table->n > 0 && cfg->spectrum == SPECTRUM_TABLE)
    b.e_max_ev = table->energy_ev[table->n - 1];
  return b;
}
