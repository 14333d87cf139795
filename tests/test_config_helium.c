/**
 * @file test_config_helium.c
 * @brief Helium's config keys: a run with material.abundance_He and a spectrum above
 *        24.6 eV follows three species (power-law and tabulated spectra too), a
 *        hydrogen run's effective config holds none of the new keys, and what helium
 *        cannot do yet is refused naming the key: a grey spectrum, Monte Carlo, plane
 *        sources, a transmission cutoff, case A without helium, out-of-range values; particle runs take the
 *        same keys with the same refusals; the eor_helium built-in is eor with helium,
 *        temperature and 1e5 K black bodies.
 */
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/config_views.h"
#include "config/sph_config.h"
#include "test_util.h"

static const char *const he[] = {"material.abundance_He=0.08",
                                 "spectrum={type: blackbody, T_eff: 1e5}"};

/* config_load of built-in `name` with sets; want IONF_OK or a message holding `needle`. */
static void expect_load(const char *what, const char *name, const char *const *sets, int n,
                        ionf_err want, const char *needle, int species) {
  struct ionf_config cfg;
  ionf_error_clear();
  ionf_err rc = config_load(NULL, name, (char *const *)sets, n, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == want && (!needle || strstr(msg, needle)), "%s: got %d '%s', want %d with '%s'",
         what, rc, msg, want, needle ? needle : "");
  if (rc == IONF_OK) {
    EXPECT(config_views_species_count(&cfg) == species, "%s: %d species, want %d", what,
           config_views_species_count(&cfg), species);
    config_free(&cfg);
  } else {
    printf("refused as it should: %s: %s\n", what, msg);
  }
  ionf_error_clear();
}

/* The eor_helium built-in: eor's box, sequence, synthetic inputs, steps and cosmology (the
   same files and photons), with helium, an evolving temperature and 1e5 K black bodies. */
static void test_eor_helium_builtin(void) {
  struct ionf_config e, h;
  EXPECT(config_load(NULL, "eor", NULL, 0, &e) == IONF_OK, "eor: %s", ionf_error_message());
  EXPECT(config_load(NULL, "eor_helium", NULL, 0, &h) == IONF_OK, "eor_helium: %s",
         ionf_error_message());
  ionf_error_clear();
  EXPECT(config_views_species_count(&e) == 1 && config_views_species_count(&h) == 3,
         "species: eor %d, eor_helium %d", config_views_species_count(&e),
         config_views_species_count(&h));
  EXPECT(h.abundance_he == 0.08 && !h.isothermal && h.temperature_k == 9.0 &&
             h.spectrum == SPECTRUM_BLACKBODY && h.t_eff_k == 1e5 && h.band_sub_bins[0] == 1 &&
             h.band_sub_bins[1] == 8 && h.band_sub_bins[2] == 8 && h.recombination_case_b &&
             h.collisional_ionization && h.x_hii_initial == e.x_hii_initial,
         "eor_helium's helium, temperature and spectrum");
  int same = h.n_cells_1d == e.n_cells_1d && h.box_size_cm == e.box_size_cm &&
             h.periodic == e.periodic && h.dt_s == e.dt_s && h.r_max_cells == e.r_max_cells &&
             h.cosmological == e.cosmological && h.hubble_h == e.hubble_h &&
             h.omega_m == e.omega_m && h.omega_b == e.omega_b &&
             h.sequence.n_redshifts == e.sequence.n_redshifts &&
             !strcmp(h.sequence.density_pattern, e.sequence.density_pattern) &&
             !strcmp(h.sequence.halo_pattern, e.sequence.halo_pattern) &&
             h.sequence.halo_f_gamma == e.sequence.halo_f_gamma &&
             h.sequence.halo_t_source_s == e.sequence.halo_t_source_s &&
             h.synthetic.kind == SYNTHETIC_EOR && h.synthetic.kind == e.synthetic.kind &&
             h.synthetic.seed == e.synthetic.seed && h.synthetic.sigma_8 == e.synthetic.sigma_8 &&
             h.synthetic.n_s == e.synthetic.n_s &&
             h.synthetic.min_halo_mass_msun == e.synthetic.min_halo_mass_msun &&
             h.synthetic.min_source_mass_msun == e.synthetic.min_source_mass_msun;
  for (int i = 0; same && i < e.sequence.n_redshifts; ++i)
    same = h.sequence.redshifts[i] == e.sequence.redshifts[i];
  EXPECT(same, "eor_helium's box, sequence, synthetic inputs, steps or cosmology differ from eor's");
  config_free(&e);
  config_free(&h);
}

int main(void) {
  test_eor_helium_builtin();

  /* hydrogen alone: one species, and no helium key in the effective config */
  struct ionf_config cfg;
  EXPECT(config_load(NULL, "iliev1", NULL, 0, &cfg) == IONF_OK, "iliev1: %s", ionf_error_message());
  EXPECT(config_views_species_count(&cfg) == 1, "hydrogen run with helium's species");
  EXPECT(!strstr(cfg.effective_yaml, "abundance_He") && !strstr(cfg.effective_yaml, "sub_bins") &&
             !strstr(cfg.effective_yaml, "case:"),
         "a hydrogen run's effective config changed:\n%s", cfg.effective_yaml);
  config_free(&cfg);

  /* with helium: three species, the keys kept in the effective config */
  EXPECT(config_load(NULL, "iliev1", (char *const *)he, 2, &cfg) == IONF_OK, "helium: %s",
         ionf_error_message());
  EXPECT(config_views_species_count(&cfg) == 3 && cfg.abundance_he == 0.08 &&
             cfg.x_heii_initial == cfg.x_hii_initial && cfg.x_heiii_initial == 0.0 &&
             cfg.recombination_case_b && cfg.band_sub_bins[1] == 26,
         "helium's values");
  EXPECT(strstr(cfg.effective_yaml, "abundance_He: 0.08") != NULL, "abundance kept:\n%s",
         cfg.effective_yaml);
  struct chem_he_params p = config_views_chem_he(&cfg);
  EXPECT(p.abundance_he == 0.08 && p.case_b == 1 && p.alpha_hii_b_1e4_cm3_s == cfg.alpha_b_1e4_cm3_s,
         "the H + He chemistry's parameters");
  config_free(&cfg);
  const char *pl[] = {"spectrum={type: powerlaw, index: 1.5, E_max: 2000, sub_bins: [1, 8, 8]}"};
  expect_load("power law, no helium", "iliev1", pl, 1, IONF_OK, NULL, 3);
  const char *caseA[] = {he[0], he[1], "chemistry.case=A"};
  expect_load("case A with helium", "iliev1", caseA, 3, IONF_OK, NULL, 3);

  /* refused, naming the key */
  const char *grey[] = {"material.abundance_He=0.08"};
  expect_load("helium with a grey spectrum", "iliev1", grey, 1, IONF_ERR_CONFIG, "spectrum.type", 0);
  const char *mc[] = {he[0], he[1], "raytracing.method=montecarlo"};
  expect_load("helium with Monte Carlo", "iliev1", mc, 3, IONF_ERR_CONFIG, "montecarlo", 0);
  const char *cut[] = {he[0], he[1], "raytracing.transmission_cutoff=1e-8"};
  expect_load("helium with a transmission cutoff", "iliev1", cut, 3, IONF_ERR_CONFIG,
              "raytracing.transmission_cutoff", 0);
  const char *a_only[] = {"chemistry.case=A"};
  expect_load("case A without helium", "iliev1", a_only, 1, IONF_ERR_CONFIG, "chemistry.case", 0);
  const char *c_case[] = {he[0], he[1], "chemistry.case=C"};
  expect_load("case C", "iliev1", c_case, 3, IONF_ERR_CONFIG, "A or B", 0);
  const char *big[] = {"material.abundance_He=1.5", he[1]};
  expect_load("abundance 1.5", "iliev1", big, 2, IONF_ERR_CONFIG, "abundance_He", 0);
  const char *sum[] = {he[0], he[1], "material.x_HeII_initial=0.7", "material.x_HeIII_initial=0.6"};
  expect_load("x_HeII + x_HeIII > 1", "iliev1", sum, 4, IONF_ERR_CONFIG, "exceeds 1", 0);
  const char *no_index[] = {"spectrum={type: powerlaw}"};
  expect_load("power law without index", "iliev1", no_index, 1, IONF_ERR_CONFIG, "index", 0);
  const char *no_file[] = {"spectrum={type: table}"};
  expect_load("table without file", "iliev1", no_file, 1, IONF_ERR_CONFIG, "file", 0);
  const char *bins[] = {he[0], "spectrum={type: blackbody, T_eff: 1e5, sub_bins: [1, 2]}"};
  expect_load("two sub-bin counts", "iliev1", bins, 2, IONF_ERR_CONFIG, "sub_bins", 0);
  const char *quad[] = {he[0], "spectrum={type: blackbody, T_eff: 1e5, quadrature: whole_band}"};
  expect_load("quadrature whole_band", "iliev1", quad, 2, IONF_ERR_CONFIG, "quadrature", 0);
  const char *whole[] = {he[0], "spectrum={type: blackbody, T_eff: 1e5, quadrature: whole_bands}"};
  EXPECT(config_load(NULL, "iliev1", (char *const *)whole, 2, &cfg) == IONF_OK && cfg.band_whole == 1 &&
             config_views_bands(&cfg, NULL).whole == 1 &&
             strstr(cfg.effective_yaml, "quadrature: whole_bands") != NULL,
         "quadrature: whole_bands: %s", ionf_error_message());
  config_free(&cfg);
  const char *low[] = {he[0], "spectrum={type: blackbody, T_eff: 1e5, E_max: 40}"};
  expect_load("E_max below He II", "iliev1", low, 2, IONF_ERR_CONFIG, "E_max", 0);
  const char *planes[] = {he[0], he[1], "sources=[{plane: x_low, flux: 1e5}]"};
  expect_load("helium with a plane source", "iliev1", planes, 3, IONF_ERR_CONFIG, "plane", 0);

  /* particle runs take helium with the same keys, values and refusals */
  struct sph_config sph;
  ionf_error_clear();
  ionf_err rc = sph_config_load(NULL, "iliev1_particles", (char *const *)he, 2, &sph);
  EXPECT(rc == IONF_OK, "particles with helium: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(config_views_species_count(&sph.base) == 3 && sph.base.abundance_he == 0.08,
           "particles with helium: %d species, abundance %g",
           config_views_species_count(&sph.base), sph.base.abundance_he);
    EXPECT(strstr(sph.base.effective_yaml, "abundance_He: 0.08") != NULL,
           "particles: abundance kept:\n%s", sph.base.effective_yaml);
    sph_config_free(&sph);
  }
  ionf_error_clear();
  EXPECT(sph_config_load(NULL, "iliev1_particles", (char *const *)grey, 1, &sph) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "spectrum.type"),
         "particles with helium and a grey spectrum: %s", ionf_error_message());
  ionf_error_clear();
  const char *p_big[] = {"material.abundance_He=1.5", he[1]};
  EXPECT(sph_config_load(NULL, "iliev1_particles", (char *const *)p_big, 2, &sph) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "abundance_He"),
         "particles with abundance 1.5: %s", ionf_error_message());
  ionf_error_clear();
  const char *p_a[] = {"chemistry.case=A"};
  EXPECT(sph_config_load(NULL, "iliev1_particles", (char *const *)p_a, 1, &sph) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "chemistry.case"),
         "particles with case A and no helium: %s", ionf_error_message());
  ionf_error_clear();
  TEST_RETURN();
}
