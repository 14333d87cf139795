/**
 * @file test_species_table.c
 * @brief The species list (species.h, species_k.h) carries hydrogen as before:
 *
 * 1. The HI entry of the species table holds the config's values (non-default
 *    ones, so nothing is hard-coded) and the physical constants; the chemistry
 *    parameters come from it.
 * 2. The rate tables built per species from the list are, for HI, bit for bit the
 *    single-species black-body tables of before (the old integrand, evaluated
 *    here with the same GSL quadrature), thick, thin and heating; grey: exp(-tau).
 * 3. The electron density summed over the species' ions is n_H (x_HII + abu_c)
 *    and the HI absorber density n_H (1 - x_HII), bit for bit, on random cells.
 * 4. The per-species fields are [species][cell] blocks (fields_species).
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/chem.h"
#include "chem/chem_k.h"
#include "config/config.h"
#include "config/config_views.h"
#include "core/constants.h"
#include "fields/fields.h"
#include "grid/grid.h"
#include "rt/photo_tables.h"
#include "chem/species.h"
#include "test_util.h"

/* ---- the single-species black-body table of before (photo_tables.c at 925ee55) ---- */

struct old_bb {
  double kt_ev, tau, index;
  int weight_sigma, weight_energy;
};

static double old_integrand(double e, void *vp) {
  const struct old_bb *p = vp;
  double x = e * IONF_E_HI_EV / p->kt_ev;
  double photons = x > 700.0 ? 0.0 : e * e / expm1(x);
  double sig = pow(e, -p->index);
  double w = photons * exp(-p->tau * sig);
  if (p->weight_energy) w *= e - 1.0;
  return p->weight_sigma ? w * sig : w;
}

static double old_integral(gsl_integration_workspace *ws, struct old_bb *p) {
  gsl_function f = {old_integrand, p};
  double out = 0.0, err;
  gsl_integration_qag(&f, 1.0, 10.0 * IONF_E_HEII_EV / IONF_E_HI_EV, 0.0, 1e-10, 2000,
                      GSL_INTEG_GAUSS41, ws, &out, &err);
  return out;
}

static struct ionf_config load(const char *problem, char **sets, int n_sets) {
  struct ionf_config cfg;
  if (config_load(NULL, problem, sets, n_sets, &cfg) != IONF_OK) {
    fprintf(stderr, "config: %s\n", ionf_error_message());
    exit(1);
  }
  return cfg;
}

/* The rate tables of a config, as the engine builds them. */
static ionf_err build_tables(const struct ionf_config *cfg, struct photo_tables *t) {
  struct photo_spectrum spectrum = config_views_spectrum(cfg);
  struct species_data species[IONF_MAX_SPECIES];
  config_views_species(cfg, species);
  return photo_tables_build(&spectrum, species, !cfg->isothermal, t);
}

static void check_table_entry(void) {
  char *sets[] = {"spectrum.sigma_0=5.5e-18", "spectrum.power_law_index=3.1",
                  "chemistry.alpha_B=2.3e-13", "chemistry.alpha_B_power=-0.75"};
  struct ionf_config cfg = load("iliev2", sets, 4);
  struct species_data sp[IONF_MAX_SPECIES];
  config_views_species(&cfg, sp);
  const struct species_data *h = &sp[SPECIES_HI];
  EXPECT(h->sigma0_cm2 == 5.5e-18 && h->sigma_power_law_index == 3.1, "HI cross-section %g %g",
         h->sigma0_cm2, h->sigma_power_law_index);
  EXPECT(h->alpha_b_1e4_cm3_s == 2.3e-13 && h->alpha_b_power == -0.75, "HI alpha_B %g %g",
         h->alpha_b_1e4_cm3_s, h->alpha_b_power);
  EXPECT(h->element == ELEMENT_H && h->abundance == 1.0, "HI is hydrogen, abundance 1");
  EXPECT(h->threshold_ev == IONF_E_HI_EV, "HI threshold %g eV", h->threshold_ev);
  EXPECT_REL(h->threshold_hz, 3.2880e15, 1e-4, "HI threshold frequency (13.598 eV / h)");
  EXPECT_REL(h->col_t_k, 157800.0, 1e-3, "HI collisional temperature E_HI / k");
  EXPECT_REL(h->col_prefactor, 1.3e-8 * 0.83 / (13.598 * 13.598), 1e-15,
             "HI collisional prefactor (C2-Ray colh0)");
  EXPECT(strcmp(h->name, "HI") == 0 && strcmp(h->ion_name, "HII") == 0, "names %s %s", h->name,
         h->ion_name);
  EXPECT(strcmp(species_names_of(SPECIES_HI)->c2ray_xfrac_stem, "xfrac3D") == 0 &&
             strcmp(species_names_of(SPECIES_HI)->c2ray_rates_stem, "IonRates3D") == 0,
         "C2-Ray file stems");
  struct chem_params p = config_views_chem(&cfg);
  EXPECT(p.alpha_b_1e4_cm3_s == h->alpha_b_1e4_cm3_s && p.alpha_b_power == h->alpha_b_power &&
             p.col_h0 == h->col_prefactor && p.col_t_h0_k == h->col_t_k,
         "chemistry parameters from the species table");
  config_free(&cfg);
}

static void check_tables(void) {
  char *sets[] = {"spectrum.num_tau=300", "spectrum.power_law_index=3.1"};
  struct ionf_config cfg = load("iliev2", sets, 2); /* black body, evolving temperature */
  EXPECT(cfg.spectrum == SPECTRUM_BLACKBODY && !cfg.isothermal, "iliev2 is a heating black body");
  struct photo_tables t;
  if (build_tables(&cfg, &t) != IONF_OK) {
    EXPECT(0, "photo_tables_build: %s", ionf_error_message());
    return;
  }
  struct photo_table_view v = photo_tables_view(&t);
  EXPECT(t.heating && v.heating && v.sp[SPECIES_HI].sigma0_cm2 == cfg.sigma0_cm2,
         "view of the HI tables");
  gsl_set_error_handler_off();
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(2000);
  struct old_bb p = {IONF_K_B_EV_PER_K * cfg.t_eff_k, 0.0, cfg.sigma_power_law_index, 0, 0};
  double norm = old_integral(ws, &p);
  const double e0_erg = IONF_E_HI_EV * IONF_EV_ERG;
  int differ = 0;
  for (int i = 0; i <= t.num_tau; ++i) {
    p.tau = photo_table_tau(i, t.min_log_tau, t.dlog_tau);
    p.weight_energy = 0;
    p.weight_sigma = 0;
    double thick = old_integral(ws, &p) / norm;
    p.weight_sigma = 1;
    double thin = old_integral(ws, &p) / norm;
    p.weight_energy = 1;
    p.weight_sigma = 0;
    double heat_thick = e0_erg * old_integral(ws, &p) / norm;
    p.weight_sigma = 1;
    double heat_thin = e0_erg * old_integral(ws, &p) / norm;
    const struct photo_species_tables *h = &t.sp[SPECIES_HI];
    if (h->thick[i] != thick || h->thin[i] != thin || h->heat_thick[i] != heat_thick ||
        h->heat_thin[i] != heat_thin) {
      if (!differ)
        fprintf(stderr, "tau %g: thick %.17g / %.17g, thin %.17g / %.17g\n", p.tau, h->thick[i],
                thick, h->thin[i], thin);
      ++differ;
    }
  }
  EXPECT(differ == 0, "%d of %d HI table points differ from the single-species tables", differ,
         t.num_tau + 1);
  gsl_integration_workspace_free(ws);
  photo_tables_free(&t);
  config_free(&cfg);

  struct ionf_config grey = load("default", NULL, 0);
  if (build_tables(&grey, &t) == IONF_OK) {
    int wrong = 0;
    for (int i = 0; i <= t.num_tau; ++i) {
      double e = exp(-photo_table_tau(i, t.min_log_tau, t.dlog_tau));
      wrong += t.sp[SPECIES_HI].thick[i] != e || t.sp[SPECIES_HI].thin[i] != e;
    }
    EXPECT(wrong == 0 && t.grey && !t.heating, "grey HI tables: %d points are not exp(-tau)",
           wrong);
    photo_tables_free(&t);
  } else {
    EXPECT(0, "grey tables: %s", ionf_error_message());
  }
  config_free(&grey);
}

static void check_densities(void) {
  struct chem_params p;
  memset(&p, 0, sizeof p);
  p.abu_c = 7.1e-7;
  srand(5);
  int wrong = 0;
  for (int i = 0; i < 100000; ++i) {
    double n_h = pow(10.0, -6.0 + 6.0 * rand() / (double)RAND_MAX);
    double x_ion[IONF_MAX_SPECIES];
    for (int s = 0; s < IONF_MAX_SPECIES; ++s) x_ion[s] = rand() / (double)RAND_MAX;
    double x = x_ion[SPECIES_HI];
    wrong += chem_electron_density(&p, n_h, x_ion) != n_h * (x + p.abu_c);
    wrong += species_absorber_density(SPECIES_HI, n_h, x_ion, 0.08) != n_h * (1.0 - x);
    /* helium's absorbers: HeI n_H A (1 - x_HeII - x_HeIII), HeII n_H A x_HeII */
    double y1 = 0.4 * x_ion[SPECIES_HEI], y2 = 0.5 * x_ion[SPECIES_HEII], y[3] = {x, y1, y2};
    wrong += species_absorber_density(SPECIES_HEI, n_h, y, 0.08) != n_h * 0.08 * (1.0 - y1 - y2);
    wrong += species_absorber_density(SPECIES_HEII, n_h, y, 0.08) != n_h * 0.08 * y1;
    wrong += species_electrons_per_h(y, 1, 0.08) != x;
    wrong += species_electrons_per_h(y, 3, 0.08) != x + 0.08 * (y1 + 2.0 * y2);
  }
  EXPECT(wrong == 0, "%d electron / absorber densities differ from n_H (x + abu_c), n_H (1 - x), ...",
         wrong);
}

static void check_fields(int n_species) {
  struct fields f;
  const int64_t cells = grid_cells(6);
  if (fields_alloc(cells, 1, n_species, &f) != IONF_OK) {
    EXPECT(0, "fields_alloc");
    return;
  }
  EXPECT(f.n_species == n_species, "fields of %d species", f.n_species);
  /* every species' block is written and read back whole (ASan/valgrind see overruns) */
  double *per_species[] = {f.x_ion, f.x_ion_av, f.x_ion_end, f.gamma_per_s, f.heating_erg_per_s};
  int wrong = 0;
  for (size_t q = 0; q < sizeof per_species / sizeof per_species[0]; ++q) {
    for (int s = 0; s < n_species; ++s)
      for (int64_t c = 0; c < cells; ++c) fields_species(per_species[q], cells, s)[c] = s * 1e3 + c;
    for (int64_t k = 0; k < cells * n_species; ++k)
      wrong += per_species[q][k] != (double)(k / cells) * 1e3 + (double)(k % cells);
  }
  EXPECT(wrong == 0, "%d values out of place in the [species][cell] fields", wrong);
  EXPECT(fields_species(f.x_ion, cells, SPECIES_HI) == f.x_ion, "HI is the first block");
  fields_free(&f);
}

int main(void) {
  check_table_entry();
  check_tables();
  check_densities();
  check_fields(1);
  check_fields(3);
  TEST_RETURN();
}
