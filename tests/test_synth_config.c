/**
 * @file test_synth_config.c
 * @brief The synthetic: section: its keys, defaults and errors (clear messages
 *        naming the key and value), and the engine making the missing input files
 *        once (then reusing them, refusing files made with other parameters, and
 *        using files not made by ionfront as they are).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "core/params.h"
#include "test_util.h"

static char tmp_root[64];

static ionf_err load_text(const char *text, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  ionf_err rc = params_load_string(text, "run.yaml", &root);
  if (rc == IONF_OK) rc = config_from_params(root, "run.yaml", cfg);
  params_free(root);
  return rc;
}

#define BASE_GRID "grid: {N: 16, box_size: 71.4285714 kpc}\n"
#define BASE_FILES                                                          \
  "material: {n_H: {file: ic/d.h5, dataset: n_H}, temperature: 100, x_HII_initial: 1.2e-3,\n" \
  "           isothermal: false}\n"                                         \
  "sources: {file: ic/s.txt}\n"
#define BASE_TIME "time: {dt: 0.01 Myr, t_end: 0.02 Myr}\n"
#define BASE BASE_GRID BASE_FILES BASE_TIME

static void expect_config_error(const char *text, const char *want1, const char *want2,
                                const char *what) {
  struct ionf_config cfg;
  ionf_err rc = load_text(text, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_CONFIG, "%s: code %d, expected a config error (%s)", what, (int)rc, msg);
  EXPECT(strstr(msg, want1) != NULL, "%s: message lacks '%s': %s", what, want1, msg);
  if (want2) EXPECT(strstr(msg, want2) != NULL, "%s: message lacks '%s': %s", what, want2, msg);
  printf("  %-28s -> %s\n", what, msg);
  if (rc == IONF_OK) config_free(&cfg);
  ionf_error_clear();
}

static void test_keys(void) {
  struct ionf_config cfg;
  /* defaults */
  EXPECT(load_text(BASE "synthetic: {kind: iliev4}\n", &cfg) == IONF_OK, "defaults: %s",
         ionf_error_message());
  const struct synthetic_config *s = &cfg.synthetic;
  EXPECT(s->kind == SYNTHETIC_ILIEV4 && s->seed == 4 && s->sigma_8 == 0.8 && s->n_s == 1.0 &&
             s->redshift == 9.0 && s->peaks == 16 && s->min_separation_cells == 4 &&
             s->f_gamma == 250.0 && fabs(s->t_source_s / IONF_MYR_S - 3.0) < 1e-12,
         "defaults wrong");
  EXPECT(strstr(cfg.effective_yaml, "synthetic:") && strstr(cfg.effective_yaml, "t_source"),
         "effective YAML lacks the section:\n%s", cfg.effective_yaml);
  config_free(&cfg);
  /* no section: nothing made, nothing in the effective YAML */
  EXPECT(load_text(BASE, &cfg) == IONF_OK, "no section: %s", ionf_error_message());
  EXPECT(cfg.synthetic.kind == SYNTHETIC_NONE && !strstr(cfg.effective_yaml, "synthetic"),
         "absent section shows up");
  config_free(&cfg);
  /* every key */
  EXPECT(load_text(BASE "synthetic: {kind: iliev4, seed: 4294967295, sigma_8: 0.9, n_s: 0.96,\n"
                        "  redshift: 8, peaks: 3, min_separation: 2, f_gamma: 100, t_source: 2e6 yr}\n",
                   &cfg) == IONF_OK,
         "all keys: %s", ionf_error_message());
  EXPECT(cfg.synthetic.seed == 4294967295u && cfg.synthetic.sigma_8 == 0.9 &&
             cfg.synthetic.n_s == 0.96 && cfg.synthetic.redshift == 8.0 &&
             cfg.synthetic.peaks == 3 && cfg.synthetic.min_separation_cells == 2 &&
             cfg.synthetic.f_gamma == 100.0 &&
             fabs(cfg.synthetic.t_source_s / IONF_MYR_S - 2.0) < 1e-12,
         "keys not taken");
  config_free(&cfg);
  /* a cosmological run: the redshift is z_initial */
  EXPECT(load_text(BASE "cosmology: {cosmological: true, z_initial: 8.5}\n"
                        "synthetic: {kind: iliev4}\n",
                   &cfg) == IONF_OK,
         "cosmological: %s", ionf_error_message());
  EXPECT(cfg.synthetic.redshift == 8.5, "redshift %g, want z_initial", cfg.synthetic.redshift);
  config_free(&cfg);

  expect_config_error(BASE "synthetic: {kind: iliev4, sead: 3}\n", "synthetic.sead",
                      "did you mean 'seed'", "misspelt key");
  expect_config_error(BASE "synthetc: {kind: iliev4}\n", "unknown section 'synthetc'",
                      "did you mean 'synthetic'", "misspelt section");
  expect_config_error(BASE "synthetic: {kind: iliev5}\n", "synthetic.kind = iliev5",
                      "did you mean 'iliev4'", "unknown kind");
  expect_config_error(BASE "synthetic: {seed: 3}\n", "missing required key 'synthetic.kind'",
                      NULL, "no kind");
  expect_config_error(BASE "synthetic: iliev4\n", "synthetic: expected a mapping", NULL,
                      "not a mapping");
  expect_config_error(BASE "synthetic: {kind: iliev4, seed: 1.5}\n", "synthetic.seed = 1.5",
                      "not an integer", "fractional seed");
  expect_config_error(BASE "synthetic: {kind: iliev4, seed: -1}\n", "synthetic.seed = -1",
                      "out of range", "negative seed");
  expect_config_error(BASE "synthetic: {kind: iliev4, sigma_8: -0.8}\n", "synthetic.sigma_8",
                      "must be > 0", "negative sigma_8");
  expect_config_error(BASE "synthetic: {kind: iliev4, sigma_8: 80}\n", "synthetic.sigma_8 = 80",
                      "(0, 10)", "huge sigma_8");
  expect_config_error(BASE "synthetic: {kind: iliev4, n_s: 3}\n", "synthetic.n_s = 3", "(0, 2)",
                      "n_s");
  expect_config_error(BASE "synthetic: {kind: iliev4, redshift: -2}\n", "synthetic.redshift = -2",
                      "out of range", "negative redshift");
  expect_config_error(BASE "synthetic: {kind: iliev4, peaks: 0}\n", "synthetic.peaks = 0",
                      "1..100000", "no peaks");
  expect_config_error(BASE "synthetic: {kind: iliev4, min_separation: 17}\n",
                      "synthetic.min_separation = 17", "0..16", "separation above N");
  expect_config_error(BASE "synthetic: {kind: iliev4, t_source: 3 kpc}\n", "synthetic.t_source",
                      "kpc", "t_source a length");
  expect_config_error(BASE "synthetic: {kind: iliev4, f_gamma: abc}\n", "synthetic.f_gamma = abc",
                      NULL, "f_gamma text");
  expect_config_error(BASE "cosmology: {cosmological: true, z_initial: 9}\n"
                           "synthetic: {kind: iliev4, redshift: 8}\n",
                      "synthetic.redshift = 8 differs from cosmology.z_initial", NULL,
                      "redshift vs z_initial");
  expect_config_error(BASE_GRID "material: {n_H: 1e-3, temperature: 100, x_HII_initial: 1e-3}\n"
                                "sources: {file: ic/s.txt}\n" BASE_TIME
                                "synthetic: {kind: iliev4}\n",
                      "material.n_H must be {file: PATH", NULL, "uniform density");
  expect_config_error(BASE_GRID "material: {n_H: {file: d.h5, dataset: n_H}, temperature: 100, "
                                "x_HII_initial: 1e-3}\n"
                                "sources: [{position: [1, 1, 1], Ndot: 1e50}]\n" BASE_TIME
                                "synthetic: {kind: iliev4}\n",
                      "sources must be {file: PATH}", NULL, "inline sources");
  expect_config_error(BASE "cosmology: {Omega_b: 0}\nsynthetic: {kind: iliev4}\n",
                      "cosmology.Omega_b", NULL, "no baryons");
}

/* A config file in tmp_root (input paths are relative to it). */
static const char *write_config(const char *name, const char *extra) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", tmp_root, name);
  FILE *f = fopen(path, "w");
  fprintf(f, "%s" "output: {progress: false, directory: %s/out}\n"
             "raytracing: {backend: cpu}\n%s",
          BASE, tmp_root, extra);
  fclose(f);
  return path;
}

static ionf_err create(const char *path, struct engine **e, struct ionf_config *cfg) {
  ionf_err rc = config_load(path, NULL, NULL, 0, cfg);
  if (rc != IONF_OK) return rc;
  rc = engine_create(cfg, e);
  if (rc != IONF_OK) config_free(cfg);
  return rc;
}

static void test_engine(void) {
  char d_path[256], s_path[256];
  snprintf(d_path, sizeof d_path, "%s/ic/d.h5", tmp_root);
  snprintf(s_path, sizeof s_path, "%s/ic/s.txt", tmp_root);
  const char *path = write_config("run.yaml", "synthetic: {kind: iliev4, peaks: 5}\n");
  struct ionf_config cfg;
  struct engine *e = NULL;
  /* first run: both files are made */
  EXPECT(create(path, &e, &cfg) == IONF_OK, "first run: %s", ionf_error_message());
  struct stat st;
  EXPECT(stat(d_path, &st) == 0 && stat(s_path, &st) == 0, "files not made");
  if (e) {
    EXPECT(e->sources.n == 5, "%lld sources, want 5", (long long)e->sources.n);
    double mean = 0.0;
    for (int q = 0; q < 16 * 16 * 16; ++q) mean += e->fields.n_h_cm3[q];
    mean /= 16 * 16 * 16;
    struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
    EXPECT_REL(mean, cosmology_mean_hydrogen_cm3(&c, 9.0, 0.76), 1e-12, "mean n_H at z = 9");
    struct engine_step_info info;
    EXPECT(engine_step(e, 0.01 * IONF_MYR_S, &info) == IONF_OK, "a step: %s",
           ionf_error_message());
    EXPECT(info.x_mean_volume > 1.2e-3, "nothing ionized: %g", info.x_mean_volume);
    engine_destroy(e);
    e = NULL;
    config_free(&cfg);
  }
  /* second run: reused (same parameters) */
  struct stat before;
  stat(d_path, &before);
  EXPECT(create(path, &e, &cfg) == IONF_OK, "second run: %s", ionf_error_message());
  stat(d_path, &st);
  EXPECT(st.st_mtime == before.st_mtime && st.st_ino == before.st_ino, "density made again");
  if (e) {
    engine_destroy(e);
    config_free(&cfg);
    e = NULL;
  }
  /* the sources file deleted: made again from the same field, same bits */
  FILE *f = fopen(s_path, "r");
  char first[4096] = "";
  size_t got = fread(first, 1, sizeof first - 1, f);
  first[got] = '\0';
  fclose(f);
  unlink(s_path);
  EXPECT(create(path, &e, &cfg) == IONF_OK, "sources made again: %s", ionf_error_message());
  f = fopen(s_path, "r");
  char again[4096] = "";
  got = f ? fread(again, 1, sizeof again - 1, f) : 0;
  again[got] = '\0';
  if (f) fclose(f);
  EXPECT(!strcmp(first, again), "sources made again differ:\n%s\n---\n%s", first, again);
  if (e) {
    engine_destroy(e);
    config_free(&cfg);
    e = NULL;
  }
  /* other parameters: refused with both signatures shown */
  path = write_config("seed5.yaml", "synthetic: {kind: iliev4, peaks: 5, seed: 5}\n");
  ionf_err rc = create(path, &e, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_INPUT && strstr(msg, "made with other parameters") &&
             strstr(msg, "seed=4") && strstr(msg, "seed=5") && strstr(msg, "ic/d.h5"),
         "other seed: code %d: %s", (int)rc, msg);
  printf("  other parameters -> %s\n", msg);
  ionf_error_clear();
  /* sources not made by ionfront and no density: refused (ours would not match them) */
  unlink(s_path);
  unlink(d_path);
  path = write_config("foreign.yaml", "synthetic: {kind: iliev4, peaks: 5}\n");
  f = fopen(s_path, "w");
  fputs("1\n3 3 3 1e50 1\n", f);
  fclose(f);
  rc = create(path, &e, &cfg);
  msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_INPUT && strstr(msg, "not made by ionfront") && strstr(msg, "missing"),
         "foreign sources, no density: code %d: %s", (int)rc, msg);
  printf("  foreign + missing  -> %s\n", msg);
  ionf_error_clear();
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  snprintf(tmp_root, sizeof tmp_root, "/tmp/ionf_syncfg_XXXXXX");
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 1;
  }
  test_keys();
  test_engine();
  if (test_failures == 0) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_root);
  } else {
    fprintf(stderr, "files kept in %s\n", tmp_root);
  }
  int code = test_failures ? 1 : 0;
  if (!code) printf("all checks passed\n");
  else fprintf(stderr, "%d check(s) failed\n", test_failures);
  comm_finalize();
  return code;
}
