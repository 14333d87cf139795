/**
 * @file test_config_subgrid.c
 * @brief The sub-grid models' config keys (config_subgrid.c): chemistry.clumping as a
 *        number and in each model's mapping (the built-in fits chosen by the cell size,
 *        a table file, x, z), raytracing.mean_free_path with the photon radius planned
 *        for the largest R(z) of the run and capped by a given R_max; a run without the
 *        keys keeps its effective config; every refusal names the key (unknown model,
 *        missing table file, negative and out-of-range values, a key of another model,
 *        mean_free_path in a static run, z in a cosmological run, Monte Carlo's
 *        recombination emission); particle runs take the constant and the redshift
 *        models and refuse the rest by name.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config_subgrid.h"
#include "config/sph_config.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "test_util.h"

/* config_load of built-in `name` with sets: IONF_OK (cfg kept, to be freed) or a
   config error whose message holds every needle. */
static int load(const char *name, const char *const *sets, int n, struct ionf_config *cfg) {
  ionf_error_clear();
  ionf_err rc = config_load(NULL, name, (char *const *)sets, n, cfg);
  EXPECT(rc == IONF_OK, "%s with %s: %s", name, n ? sets[n - 1] : "", ionf_error_message());
  return rc == IONF_OK;
}

static void refused(const char *name, const char *const *sets, int n, const char *needle1,
                    const char *needle2) {
  struct ionf_config cfg;
  ionf_error_clear();
  ionf_err rc = config_load(NULL, name, (char *const *)sets, n, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc != IONF_OK && strstr(msg, needle1) && (!needle2 || strstr(msg, needle2)),
         "%s: want a refusal naming '%s' and '%s', got %d '%s'", sets[n - 1], needle1,
         needle2 ? needle2 : "", rc, msg);
  if (rc == IONF_OK) config_free(&cfg);
  else printf("refused as it should: %s\n", msg);
  ionf_error_clear();
}

static void test_clumping_keys(void) {
  struct ionf_config cfg;
  /* absent: none, and the effective config as before */
  if (load("default", NULL, 0, &cfg)) {
    EXPECT(cfg.clumping.kind == CLUMPING_NONE && cfg.mean_free_path.kind == MFP_NONE,
           "defaults: no clumping, no mean free path");
    EXPECT(!strstr(cfg.effective_yaml, "clumping") && !strstr(cfg.effective_yaml, "mean_free_path"),
           "a run without the keys shows them:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  const char *five[] = {"chemistry.clumping=5"};
  if (load("default", five, 1, &cfg)) {
    EXPECT(cfg.clumping.kind == CLUMPING_CONSTANT && cfg.clumping.value == 5.0, "clumping: 5");
    EXPECT(strstr(cfg.effective_yaml, "clumping: 5") != NULL, "kept:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  const char *constant[] = {"chemistry.clumping={model: constant, value: 3.5}"};
  if (load("default", constant, 1, &cfg)) {
    EXPECT(cfg.clumping.kind == CLUMPING_CONSTANT && cfg.clumping.value == 3.5, "constant 3.5");
    config_free(&cfg);
  }
  /* the built-in fit of the cell size: the default's 103 pc cells are nearest 1.012 Mpc; a
     static run evaluates it at cosmology.z_initial (9) or its own z */
  const char *redshift[] = {"chemistry.clumping={model: redshift}"};
  if (load("default", redshift, 1, &cfg)) {
    EXPECT(cfg.clumping.kind == CLUMPING_REDSHIFT && cfg.clumping.c0 == 263.12 &&
               cfg.clumping.c1 == -0.39739 && cfg.clumping.c2 == 0.0052779 &&
               cfg.clumping.fits_cell_mpc == 1.012 && cfg.clumping.z_fixed == cfg.z_initial,
           "redshift: the 1.012 Mpc fit at z_initial: %g %g %g, z %g", cfg.clumping.c0,
           cfg.clumping.c1, cfg.clumping.c2, cfg.clumping.z_fixed);
    EXPECT(strstr(cfg.effective_yaml, "fits_cell_size: 1.012") != NULL,
           "the fit chosen shows in the effective config:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  const char *coeffs[] = {"chemistry.clumping={model: redshift, C0: 100, c1: -0.3, c2: 0.004, z: 7}"};
  if (load("default", coeffs, 1, &cfg)) {
    EXPECT(cfg.clumping.c0 == 100.0 && cfg.clumping.c1 == -0.3 && cfg.clumping.c2 == 0.004 &&
               cfg.clumping.z_fixed == 7.0 && cfg.clumping.fits_cell_mpc == 0.0,
           "redshift with C0, c1, c2, z");
    config_free(&cfg);
  }
  /* the expanding box at N = 12: cells of 22.685 / 12 = 1.89 comoving Mpc, nearest 2.024 */
  const char *density[] = {"grid.N=12", "sources=[{position: [6, 6, 6], Ndot: 1e54}]",
                           "chemistry.clumping={model: density, x: 1+n/mean}"};
  if (load("expanding", density, 3, &cfg)) {
    EXPECT(cfg.clumping.kind == CLUMPING_DENSITY && cfg.clumping.fits_cell_mpc == 2.024 &&
               cfg.clumping.table.n_rows == 60 && cfg.clumping.x_plus_one &&
               cfg.clumping.z_fixed < 0.0,
           "density: the 2.024 Mpc fits, x = 1 + n/mean, the step's z: %g %d %d %g",
           cfg.clumping.fits_cell_mpc, cfg.clumping.table.n_rows, cfg.clumping.x_plus_one,
           cfg.clumping.z_fixed);
    config_free(&cfg);
  }
  /* a table file, pyC2Ray's layout */
  FILE *f = fopen("subgrid_table.txt", "w");
  if (f) {
    fputs("# z a b c err_a err_b err_c\n10.0 1.5 8.0 -2.0 0.1 0.1 0.1\n8.0 3.0 12.0 -3.0 0.1 0.1 0.1\n",
          f);
    fclose(f);
  }
  const char *table[] = {"chemistry.clumping={model: density, table: subgrid_table.txt}"};
  if (load("default", table, 1, &cfg)) {
    const struct clumping_table *t = &cfg.clumping.table;
    EXPECT(t->n_rows == 2 && t->z[0] == 8.0 && t->a[1] == 1.5 && !cfg.clumping.x_plus_one &&
               cfg.clumping.fits_cell_mpc == 0.0,
           "density from the table");
    EXPECT(strstr(cfg.effective_yaml, "x: n/mean") && strstr(cfg.effective_yaml, "subgrid_table.txt"),
           "the table (resolved) and x in the effective config:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  remove("subgrid_table.txt");
}

static void test_clumping_refusals(void) {
  const char *s1[] = {"chemistry.clumping={model: lognormal}"};
  refused("default", s1, 1, "chemistry.clumping.model", "constant, redshift, density");
  const char *s2[] = {"chemistry.clumping={model: density, table: no_such_table.txt}"};
  refused("default", s2, 1, "chemistry.clumping.table", "no_such_table.txt");
  const char *s3[] = {"chemistry.clumping=-2"};
  refused("default", s3, 1, "chemistry.clumping", ">= 1");
  const char *s4[] = {"chemistry.clumping=0.5"};
  refused("default", s4, 1, "chemistry.clumping", ">= 1");
  const char *s5[] = {"chemistry.clumping={model: constant, value: -1}"};
  refused("default", s5, 1, "chemistry.clumping.value", ">= 1");
  const char *s6[] = {"chemistry.clumping={model: constant}"};
  refused("default", s6, 1, "chemistry.clumping.value", NULL);
  const char *s7[] = {"chemistry.clumping={model: redshift, C0: -5, c1: 0, c2: 0}"};
  refused("default", s7, 1, "chemistry.clumping.C0", ">= 0");
  const char *s8[] = {"chemistry.clumping={model: redshift, C0: 5}"};
  refused("default", s8, 1, "chemistry.clumping.c1", NULL);
  const char *s9[] = {"chemistry.clumping={model: redshift, value: 5}"};
  refused("default", s9, 1, "chemistry.clumping.value", "model redshift");
  const char *s10[] = {"chemistry.clumping={model: density, fits_cell_size: 1.3}"};
  refused("default", s10, 1, "chemistry.clumping.fits_cell_size", "1.012");
  const char *s11[] = {"chemistry.clumping={model: density, x: n}"};
  refused("default", s11, 1, "chemistry.clumping.x", "n/mean");
  const char *s12[] = {"chemistry.clumping={model: redshift, z: 8}"};
  refused("expanding", s12, 1, "chemistry.clumping.z", "cosmological");
  const char *s13[] = {"chemistry.clumping={model: redshift, C0: 5, c1: 0, c2: 0, fits_cell_size: 1.012}"};
  refused("default", s13, 1, "chemistry.clumping", "not both");
  const char *s14[] = {"raytracing.method=montecarlo", "montecarlo.recombination_emission=true",
                       "chemistry.clumping=3"};
  refused("default", s14, 3, "chemistry.clumping", "recombination_emission");
  const char *s15[] = {"chemistry.clumping=[1, 2]"};
  refused("default", s15, 1, "chemistry.clumping", "a list");
  const char *s16[] = {"chemistry.clumping={model: redshift, C0: 5, c1: 0, c2: 0, zz: 1}"};
  refused("default", s16, 1, "chemistry.clumping.zz", NULL);
}

/* The photon radius planned: the largest R(z) of the run over its comoving cells. */
static void test_mean_free_path(void) {
  struct ionf_config cfg;
  const char *ch[] = {"grid.N=32", "sources=[{position: [16, 16, 16], Ndot: 1e54}]",
                      "raytracing.mean_free_path={model: Choudhury09, A: 210 Mpc, eta: -9}"};
  if (!load("expanding", ch, 3, &cfg)) return;
  struct cosmology c = cosmology_flat(cfg.hubble_h, cfg.omega_m, cfg.omega_b, cfg.t_cmb0_k);
  const double z0 = cfg.z_initial;
  const double z1 = cosmology_redshift_at_age(&c, cosmology_age_s(&c, z0) + cfg.t_end_s);
  const double cell_cm = cfg.box_size_cm / 32.0;
  /* R falls with z (eta < 0): largest at the run's end */
  const double r_end = 210.0 * IONF_MPC_CM * pow((1.0 + z1) / 5.0, -9.0) / cell_cm;
  EXPECT(cfg.mean_free_path.kind == MFP_CHOUDHURY09, "Choudhury09");
  EXPECT_REL(cfg.r_max_cells, r_end, 1e-12, "planned R_max: R at the run's last redshift");
  const double z = 0.5 * (z0 + z1);
  const double r_mid = 210.0 * IONF_MPC_CM * pow((1.0 + z) / 5.0, -9.0) / cell_cm;
  EXPECT_REL(config_subgrid_r_max_cells(&cfg, z), r_mid, 1e-12, "a step's R_max at z");
  EXPECT(config_subgrid_r_max_cells(&cfg, z0 - 1e-9) < cfg.r_max_cells + 1e-9,
         "no step beyond the plan");
  EXPECT(strstr(cfg.effective_yaml, "mean_free_path:") && strstr(cfg.effective_yaml, "Choudhury09"),
         "in the effective config:\n%s", cfg.effective_yaml);
  char lines[2][CONFIG_SUBGRID_LINE_MAX];
  EXPECT(config_subgrid_describe(&cfg, lines) == 1 && strstr(lines[0], "Choudhury09") &&
             strstr(lines[0], "R_max"),
         "the start-up line: %s", lines[0]);
  config_free(&cfg);
  /* R_max given: a cap */
  const char *cap[] = {ch[0], ch[1], ch[2], "raytracing.R_max=3"};
  if (load("expanding", cap, 4, &cfg)) {
    EXPECT(cfg.r_max_cells == cfg.r_max_cap_cells, "capped plan %g", cfg.r_max_cells);
    EXPECT_REL(cfg.r_max_cap_cells, 3.0, 1e-15, "the cap: raytracing.R_max");
    EXPECT_REL(config_subgrid_r_max_cells(&cfg, z), r_mid < 3.0 ? r_mid : 3.0, 1e-12,
               "capped step");
    EXPECT(r_mid > 3.0, "the cap applies mid-run (R %g cells)", r_mid);
    config_free(&cfg);
  }
  /* Worseck2014: z1, eta1 default to 6 and 9 (pyC2Ray's files) */
  const char *wo[] = {ch[0], ch[1], "raytracing.mean_free_path={model: Worseck2014, A: 210, eta: -9}"};
  if (load("expanding", wo, 3, &cfg)) {
    EXPECT(cfg.mean_free_path.kind == MFP_WORSECK2014 && cfg.mean_free_path.z1 == 6.0 &&
               cfg.mean_free_path.eta1 == 9.0 && cfg.mean_free_path.a_cm == 210.0 * IONF_MPC_CM,
           "Worseck2014 with its defaults");
    EXPECT(strstr(cfg.effective_yaml, "z1: 6") && strstr(cfg.effective_yaml, "eta1: 9"),
           "defaults shown:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  const char *r1[] = {"raytracing.mean_free_path={model: Choudhury09, A: 210, eta: -9}"};
  refused("default", r1, 1, "raytracing.mean_free_path", "cosmological");
  const char *r2[] = {"raytracing.mean_free_path={model: Songaila, A: 210, eta: -9}"};
  refused("expanding", r2, 1, "raytracing.mean_free_path.model", "Worseck2014");
  const char *r3[] = {"raytracing.mean_free_path={model: Choudhury09, A: -210, eta: -9}"};
  refused("expanding", r3, 1, "raytracing.mean_free_path.A", "> 0");
  const char *r4[] = {"raytracing.mean_free_path={model: Choudhury09, A: 210}"};
  refused("expanding", r4, 1, "raytracing.mean_free_path.eta", NULL);
  const char *r5[] = {"raytracing.mean_free_path={model: Choudhury09, A: 210, eta: -9, z1: 5}"};
  refused("expanding", r5, 1, "raytracing.mean_free_path", "z1");
  const char *r6[] = {"raytracing.mean_free_path=210"};
  refused("expanding", r6, 1, "raytracing.mean_free_path", "mapping");
  const char *r7[] = {"raytracing.mean_free_path={model: Worseck2014, A: 210, eta: -9, z1: -2}"};
  refused("expanding", r7, 1, "raytracing.mean_free_path.z1", ">= 0");
}

static void sph_expect(const char *set, int ok, const char *needle) {
  struct sph_config sph;
  const char *sets[] = {set};
  ionf_error_clear();
  ionf_err rc = sph_config_load(NULL, "iliev1_particles", (char *const *)sets, 1, &sph);
  const char *msg = ionf_error_message();
  EXPECT(ok ? rc == IONF_OK : rc != IONF_OK && strstr(msg, needle), "particles with %s: %d '%s'",
         set, rc, msg);
  if (rc == IONF_OK) sph_config_free(&sph);
  else printf("refused as it should: %s\n", msg);
  ionf_error_clear();
}

static void test_particles(void) {
  sph_expect("chemistry.clumping=4", 1, NULL);
  sph_expect("chemistry.clumping={model: redshift, C0: 263.12, c1: -0.39739, c2: 0.0052779, z: 8}", 1,
             NULL);
  sph_expect("chemistry.clumping={model: redshift, fits_cell_size: 1.518, z: 8}", 1, NULL);
  sph_expect("chemistry.clumping={model: redshift, C0: 263.12, c1: -0.39739, c2: 0.0052779}", 0,
             "needs z");
  sph_expect("chemistry.clumping={model: redshift, z: 8}", 0, "fits_cell_size");
  sph_expect("chemistry.clumping={model: density}", 0, "model density");
  sph_expect("raytracing.mean_free_path={model: Choudhury09, A: 210, eta: -9}", 0,
             "raytracing.mean_free_path");
  struct sph_config sph;
  const char *sets[] = {"chemistry.clumping={model: redshift, fits_cell_size: 1.518, z: 8}"};
  if (sph_config_load(NULL, "iliev1_particles", (char *const *)sets, 1, &sph) == IONF_OK) {
    EXPECT(sph.base.clumping.kind == CLUMPING_REDSHIFT && sph.base.clumping.z_fixed == 8.0 &&
               sph.base.clumping.c0 == 338.76,
           "particles: the 1.518 Mpc fit at z = 8 (C0 %g)", sph.base.clumping.c0);
    EXPECT(strstr(sph.base.effective_yaml, "clumping") != NULL, "particles' effective config:\n%s",
           sph.base.effective_yaml);
    sph_config_free(&sph);
  }
  ionf_error_clear();
}

int main(void) {
  test_clumping_keys();
  test_clumping_refusals();
  test_mean_free_path();
  test_particles();
  TEST_RETURN();
}
