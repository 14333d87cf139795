/**
 * @file test_sph_config_refuse.c
 * @brief Particle configs in their own terms (issue 20): raytracing.R_max is a length (no
 *        stand-in 1 cm grid: '10 cells' and bare numbers are refused, '3 kpc' is 3 kpc),
 *        and every grid-only key or section is refused by name (montecarlo, sequence,
 *        plane sources, C2-Ray binaries, ...); a --set mistake names the --set; the
 *        effective config of a particle run loads again to the same config;
 *        mpi.reduction scatter, nccl and allreduce are taken, reduce refused;
 *        particles.ranks_share rays and sources taken, anything else refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/sph_config.h"
#include "core/constants.h"
#include "core/error.h"
#include "core/params.h"
#include "test_util.h"

static const char *const base_yaml =
    "particles:\n"
    "  generate: {kind: lattice, count_1d: 6, n_H: 1.0e-3, box: 6.6 kpc}\n"
    "material: {temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}\n"
    "sources:\n"
    "  - {position: [3.3 kpc, 3.3 kpc, 3.3 kpc], Ndot: 5e48}\n"
    "time: {dt: 5 Myr, t_end: 100 Myr}\n"
    "raytracing: {backend: cpu, R_max: 3 kpc}\n"
    "output: {progress: false}\n";

static ionf_err load(const char *yaml, const char *set, struct sph_config *cfg) {
  struct param_node *root = NULL;
  IONF_CALL(params_load_string(yaml, "test.yaml", &root));
  ionf_err rc = set ? params_set_override(root, set) : IONF_OK;
  if (rc == IONF_OK) rc = sph_config_from_params(root, "test.yaml", cfg);
  params_free(root);
  return rc;
}

/* `set` on the base config is refused with a config error whose message holds every
   one of the NULL-ended `want` and names the --set. */
static void expect_refused(const char *set, ...) {
  struct sph_config cfg;
  ionf_err rc = load(base_yaml, set, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_CONFIG, "--set %s: code %d, expected a config error (%s)", set, (int)rc,
         msg);
  char origin[256];
  snprintf(origin, sizeof origin, "--set %s: ", set);
  EXPECT(strstr(msg, origin) != NULL, "--set %s: message does not name the --set: %s", set, msg);
  va_list ap;
  va_start(ap, set);
  for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
    EXPECT(strstr(msg, w) != NULL, "--set %s: message lacks '%s': %s", set, w, msg);
  va_end(ap);
  if (rc == IONF_OK) sph_config_free(&cfg);
  ionf_error_clear();
}

static void test_r_max(void) {
  struct sph_config cfg;
  ionf_err rc = load(base_yaml, NULL, &cfg);
  EXPECT(rc == IONF_OK, "the base config: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT_REL(cfg.r_max_cm, 3 * IONF_KPC_CM, 1e-12, "R_max 3 kpc");
    /* the effective config loads again to the same R_max, and has no grid-only keys */
    struct sph_config again;
    struct param_node *root = NULL;
    rc = params_load_string(cfg.base.effective_yaml, "effective", &root);
    if (rc == IONF_OK) rc = sph_config_from_params(root, "effective", &again);
    EXPECT(rc == IONF_OK, "the effective config loads: %s\n%s", ionf_error_message(),
           cfg.base.effective_yaml);
    if (rc == IONF_OK) {
      EXPECT(again.r_max_cm == cfg.r_max_cm, "effective R_max %g cm", again.r_max_cm);
      sph_config_free(&again);
    }
    params_free(root);
    EXPECT(!strstr(cfg.base.effective_yaml, "method") &&
               !strstr(cfg.base.effective_yaml, "source_batch_size") &&
               !strstr(cfg.base.effective_yaml, "c2ray_binary") &&
               !strstr(cfg.base.effective_yaml, "\ngrid:"),
           "the effective config holds grid-only keys:\n%s", cfg.base.effective_yaml);
    sph_config_free(&cfg);
  }
  ionf_error_clear();
  rc = load(base_yaml, "raytracing.R_max=0", &cfg);
  EXPECT(rc == IONF_OK && cfg.r_max_cm == 0.0, "R_max 0 (no limit): %s", ionf_error_message());
  if (rc == IONF_OK) sph_config_free(&cfg);
  ionf_error_clear();
  /* a particle run has no cells: '10 cells' was 10 cm on a stand-in grid */
  expect_refused("raytracing.R_max=10 cells", "raytracing.R_max", "cells", NULL);
  expect_refused("raytracing.R_max=10", "raytracing.R_max", "length with a unit", NULL);
  expect_refused("raytracing.R_max=-1 kpc", "raytracing.R_max", "out of range", NULL);
}

static void test_refusals(void) {
  expect_refused("raytracing.method=montecarlo", "raytracing.method = montecarlo",
                 "particle runs", NULL);
  expect_refused("montecarlo={packets_per_source: 1000}", "montecarlo", "particle run", NULL);
  expect_refused("sequence={redshifts: [9, 8]}", "sequence", "particle run", NULL);
  expect_refused("cosmology={cosmological: true}", "cosmology", "particle run", NULL);
  expect_refused("synthetic={seed: 3}", "synthetic", "particle run", NULL);
  expect_refused("grid.N=8", "grid", "particle run", NULL);
  expect_refused("material.n_H=1e-3", "material.n_H", "particle", NULL);
  expect_refused("material.clumps=[{center: [1 kpc, 1 kpc, 1 kpc], radius: 1 kpc, n_H: 1}]",
                 "material.clumps", "particle run", NULL);
  expect_refused("raytracing.source_batch_size=4", "raytracing.source_batch_size", NULL);
  expect_refused("raytracing.transmission_cutoff=1e-8", "raytracing.transmission_cutoff",
                 "particle run", NULL);
  expect_refused("output.c2ray_binary=true", "output.c2ray_binary", "particle run", NULL);
  expect_refused("output.dTb=true", "output.dTb", "particle run", NULL);
  expect_refused("mpi.reduction=reduce", "mpi.reduction", "scatter", "nccl", "allreduce", NULL);
  expect_refused("particles.ranks_share=cells", "particles.ranks_share", "rays", "sources", NULL);
  /* the split chemistry (scatter, nccl, auto's choice) and the all-reduce are taken */
  const char *const taken[] = {"mpi.reduction=scatter", "mpi.reduction=nccl",
                               "mpi.reduction=allreduce", "particles.ranks_share=sources",
                               "particles.ranks_share=rays"};
  for (int i = 0; i < 5; ++i) {
    struct sph_config cfg;
    ionf_err rc = load(base_yaml, taken[i], &cfg);
    EXPECT(rc == IONF_OK, "--set %s: %s", taken[i], ionf_error_message());
    if (rc == IONF_OK) sph_config_free(&cfg);
    ionf_error_clear();
  }
  expect_refused("sources=[{plane: x_low, flux: 1e5}]", "sources[0]", "plane", NULL);
}

int main(void) {
  test_r_max();
  test_refusals();
  TEST_RETURN();
}
