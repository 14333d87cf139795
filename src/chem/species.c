/**
 * @file species.c
 * @brief The species table (hydrogen only today).
 */
#include "chem/species.h"

#include "core/constants.h"

static const struct species_names names[IONF_N_SPECIES] = {
    {"HI", "HII", "hydrogen", "H", "xfrac3D", "IonRates3D"},
    /* {"HeI", "HeII", "helium", "He", "xfrac3DHe1", "IonRates3DHe1"}, ... */
};

const struct species_names *species_names_of(int s) { return &names[s]; }

void species_table(const struct species_params *p, struct species_data table[IONF_N_SPECIES]) {
  struct species_data *h = &table[SPECIES_HI];
  h->name = names[SPECIES_HI].name;
  h->ion_name = names[SPECIES_HI].ion_name;
  h->element = ELEMENT_H;
  h->abundance = 1.0;
  h->threshold_ev = IONF_E_HI_EV;
  h->threshold_hz = IONF_E_HI_EV * IONF_EV_ERG / IONF_H_PLANCK_ERG_S;
  h->sigma0_cm2 = p->sigma0_cm2;
  h->sigma_power_law_index = p->sigma_power_law_index;
  h->alpha_b_1e4_cm3_s = p->alpha_b_1e4_cm3_s;
  h->alpha_b_power = p->alpha_b_power;
  /* C2-Ray: colh0 = 1.3e-8 * f_H0 * xi_H0 / E_H0^2 with f = 0.83, xi = 1, E in eV. */
  h->col_prefactor = 1.3e-8 * 0.83 * 1.0 / (IONF_E_HI_EV * IONF_E_HI_EV);
  h->col_t_k = IONF_E_HI_EV / IONF_K_B_EV_PER_K;
  /* Helium (HeI 24.587 eV, HeII 54.416 eV, abundance ~0.08) would be filled here. */
}
