/**
 * @file species.c
 * @brief The species table: hydrogen, and helium's two absorbers.
 */
#include "chem/species.h"

#include <math.h>

#include "chem/atomic_k.h"
#include "core/constants.h"

/* C2-Ray's helium version names its fraction files xfrac3DHe1 / xfrac3DHe2 */
static const struct species_names names[IONF_MAX_SPECIES] = {
    {"HI", "HII", "hydrogen", "H", "xfrac3D", "IonRates3D"},
    {"HeI", "HeII", "helium", "He", "xfrac3DHe1", "IonRates3DHe1"},
    {"HeII", "HeIII", "helium", "He", "xfrac3DHe2", "IonRates3DHe2"},
};

const struct species_names *species_names_of(int s) { return &names[s]; }

void species_table(const struct species_params *p, struct species_data table[IONF_MAX_SPECIES]) {
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
  /* helium: thresholds (C2-Ray's), Verner et al. 1996 at threshold with the local power
     law of the fit, Hui & Gnedin 1997 case B at 1e4 K (chem_he_k.h evaluates the full
     fits; these describe the species, e.g. for the ASORA interpolation weights) */
  for (int s = SPECIES_HEI; s <= SPECIES_HEII; ++s) {
    struct species_data *he = &table[s];
    int ion = s == SPECIES_HEI ? ATOMIC_HEI : ATOMIC_HEII;
    he->name = names[s].name;
    he->ion_name = names[s].ion_name;
    he->element = ELEMENT_HE;
    he->abundance = 0.0; /* the run's material.abundance_He */
    he->threshold_ev = atomic_threshold_ev(ion);
    he->threshold_hz = he->threshold_ev * IONF_EV_ERG / IONF_H_PLANCK_ERG_S;
    he->sigma0_cm2 = atomic_sigma_cm2(ion, he->threshold_ev);
    he->sigma_power_law_index = -log(atomic_sigma_cm2(ion, 1.1 * he->threshold_ev) / he->sigma0_cm2) /
                                log(1.1);
    he->alpha_b_1e4_cm3_s = s == SPECIES_HEI ? atomic_alpha_heii(1e4, 1) : atomic_alpha_heiii(1e4, 1);
    he->alpha_b_power = 0.0;
    he->col_prefactor = 0.0; /* collisional ionization: atomic_collisional */
    he->col_t_k = he->threshold_ev / IONF_K_B_EV_PER_K;
  }
}
