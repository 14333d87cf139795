/**
 * @file config_species.c
 * @brief Which species a grid run follows, and what a run with helium can do
 *        (config_internal.h: config_species_check).
 *
 * Three species (HI, HeI, HeII, with the band tables of rt/bands.h and the H + He
 * chemistry of chem/chem_he_k.h) when material.abundance_He > 0 or the spectrum is a
 * power law or a table (those spectra exist only as band tables); else hydrogen alone.
 */
#include "config/config_internal.h"
#include "config/config_views.h"

int config_views_species_count(const struct ionf_config *cfg) {
  return cfg->abundance_he > 0.0 || cfg->spectrum == SPECTRUM_POWERLAW ||
                 cfg->spectrum == SPECTRUM_TABLE
             ? IONF_MAX_SPECIES
             : 1;
}

ionf_err config_species_check(const struct config_ctx *ctx, const struct ionf_config *cfg) {
  const int helium = config_views_species_count(cfg) > 1;
  IONF_CHECK(helium || cfg->recombination_case_b, IONF_ERR_CONFIG,
             "%s: chemistry.case = A is for runs with helium (material.abundance_He > 0); "
             "a hydrogen run's recombination is chemistry.alpha_B", ctx->name);
  if (!helium) return IONF_OK;
  IONF_CHECK(cfg->spectrum != SPECTRUM_GREY, IONF_ERR_CONFIG,
             "%s: material.abundance_He = %g needs a spectrum with photons above 24.6 eV: "
             "spectrum.type blackbody, powerlaw or table (grey is hydrogen's threshold alone)",
             ctx->name, cfg->abundance_he);
  IONF_CHECK(cfg->method != RT_METHOD_MONTECARLO, IONF_ERR_CONFIG,
             "%s: raytracing.method = montecarlo carries hydrogen alone; with helium "
             "(material.abundance_He = %g, spectrum.type %s) use raytracing.method: asora",
             ctx->name, cfg->abundance_he,
             cfg->spectrum == SPECTRUM_BLACKBODY ? "blackbody" : "powerlaw/table");
  IONF_CHECK(cfg->n_planes == 0, IONF_ERR_CONFIG,
             "%s: plane-parallel sources carry hydrogen alone; with helium (material.abundance_He "
             "= %g or a powerlaw/table spectrum) use point sources", ctx->name, cfg->abundance_he);
  IONF_CHECK(cfg->transmission_cutoff == 0.0, IONF_ERR_CONFIG,
             "%s: raytracing.transmission_cutoff = %g is for hydrogen-only runs (helium's band "
             "tables have no cutoff yet); with material.abundance_He = %g leave it out",
             ctx->name, cfg->transmission_cutoff, cfg->abundance_he);
  return IONF_OK;
}
