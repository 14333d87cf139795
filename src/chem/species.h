/**
 * @file species.h
 * @brief The physical data of every absorbing species of species_k.h, in one
 *        table built from a few adjustable values (struct species_params).
 *
 * Hydrogen's entry takes the adjustable values (from the config keys
 * spectrum.sigma_0, spectrum.power_law_index, chemistry.alpha_B,
 * chemistry.alpha_B_power: config/config_views.h) and the constants of
 * constants.h; the rate tables (photo_tables.c) and the chemistry parameters
 * (chem_cpu.c) are built from this table.
 */
#ifndef IONF_SPECIES_H
#define IONF_SPECIES_H

#include "chem/species_k.h"

enum species_element {
  ELEMENT_H = 0,
  ELEMENT_HE = 1
};

/** The names of a species, fixed (snapshot datasets /Grid/x_<ion>, /Grid/Gamma_<name>). */
struct species_names {
  const char *name;              /*!< absorber: "HI" */
  const char *ion_name;          /*!< the ion it becomes: "HII" */
  const char *element_name;      /*!< "hydrogen" */
  const char *element_symbol;    /*!< "H" */
  const char *c2ray_xfrac_stem;  /*!< C2-Ray binary of the ion fraction: "xfrac3D" */
  const char *c2ray_rates_stem;  /*!< ... of the photoionization rate: "IonRates3D" */
};

struct species_data {
  const char *name;              /*!< absorber: "HI" */
  const char *ion_name;          /*!< the ion it becomes: "HII" (dataset x_HII) */
  enum species_element element;
  double abundance;              /*!< element's number abundance relative to H (H: 1) */
  double threshold_ev;           /*!< ionization threshold [eV] */
  double threshold_hz;           /*!< ionization threshold frequency [Hz] */
  double sigma0_cm2;             /*!< photoionization cross-section at threshold [cm^2] */
  double sigma_power_law_index;  /*!< sigma(nu) = sigma0 (nu / nu_threshold)^-index */
  double alpha_b_1e4_cm3_s;      /*!< case-B recombination coefficient at 1e4 K [cm^3/s] */
  double alpha_b_power;          /*!< alpha_B(T) = alpha_B(1e4 K) (T / 1e4 K)^power */
  double col_prefactor;          /*!< collisional ionization prefactor [cm^3 s^-1 K^-1/2] */
  double col_t_k;                /*!< collisional ionization temperature E_threshold / k [K] */
};

/** The adjustable part of the table: hydrogen's cross-section and recombination. */
struct species_params {
  double sigma0_cm2;             /*!< HI cross-section at threshold [cm^2] */
  double sigma_power_law_index;  /*!< sigma(nu) = sigma0 (nu / nu_threshold)^-index */
  double alpha_b_1e4_cm3_s;      /*!< case-B recombination coefficient at 1e4 K [cm^3/s] */
  double alpha_b_power;          /*!< alpha_B(T) = alpha_B(1e4 K) (T / 1e4 K)^power */
};

/** The names of species s (0 <= s < IONF_MAX_SPECIES). */
const struct species_names *species_names_of(int s);

/** The table of all IONF_MAX_SPECIES species with the values `p` (index: enum species_id). */
void species_table(const struct species_params *p, struct species_data table[IONF_MAX_SPECIES]);

#endif /* IONF_SPECIES_H */
