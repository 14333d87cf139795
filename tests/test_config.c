/**
 * @file test_config.c
 * @brief Config loading: units, YAML tree and overrides, built-in problems,
 *        the effective YAML round trip, the error messages users see, and the
 *        debug: section (test hooks, off and absent unless given).
 */
#define _XOPEN_SOURCE 700 /* getcwd; mkdtemp, nftw: test_tmpdir.h */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/constants.h"
#include "core/params.h"
#include "config/problems.h"
#include "test_tmpdir.h"
#include "test_util.h"
#include "core/units.h"

#define MYR IONF_MYR_S

/* ---- helpers ------------------------------------------------------------ */

static int tree_equal(const struct param_node *a, const struct param_node *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->n_items != b->n_items) return 0;
  if (a->kind == PARAM_SCALAR && (strcmp(a->scalar, b->scalar) != 0 || a->quoted != b->quoted))
    return 0;
  for (size_t i = 0; i < a->n_items; ++i) {
    if (a->kind == PARAM_MAPPING && strcmp(a->keys[i], b->keys[i]) != 0) return 0;
    if (!tree_equal(a->items[i], b->items[i])) return 0;
  }
  return 1;
}

/* Every field but the provenance ones. */
static int config_equal(const struct ionf_config *a, const struct ionf_config *b) {
  int same = a->n_cells_1d == b->n_cells_1d && a->box_size_cm == b->box_size_cm &&
             a->periodic == b->periodic && a->n_h_cm3.from_file == b->n_h_cm3.from_file &&
             a->n_h_cm3.value == b->n_h_cm3.value &&
             strcmp(a->n_h_cm3.file, b->n_h_cm3.file) == 0 &&
             strcmp(a->n_h_cm3.dataset, b->n_h_cm3.dataset) == 0 &&
             a->temperature_k == b->temperature_k && a->x_hii_initial == b->x_hii_initial &&
             a->alpha_b_1e4_cm3_s == b->alpha_b_1e4_cm3_s && a->alpha_b_power == b->alpha_b_power &&
             a->collisional_ionization == b->collisional_ionization && a->abu_c == b->abu_c &&
             a->n_sources_inline == b->n_sources_inline &&
             strcmp(a->source_file, b->source_file) == 0 && a->source_format == b->source_format &&
             a->spectrum == b->spectrum && a->t_eff_k == b->t_eff_k &&
             a->sigma0_cm2 == b->sigma0_cm2 &&
             a->sigma_power_law_index == b->sigma_power_law_index && a->num_tau == b->num_tau &&
             a->min_log_tau == b->min_log_tau && a->max_log_tau == b->max_log_tau &&
             a->dt_s == b->dt_s && a->t_end_s == b->t_end_s && a->n_outputs == b->n_outputs &&
             a->r_max_cells == b->r_max_cells &&
             a->convergence_fraction == b->convergence_fraction &&
             a->max_iterations == b->max_iterations && a->backend == b->backend &&
             strcmp(a->output_dir, b->output_dir) == 0 && a->progress == b->progress;
  for (int64_t i = 0; same && i < a->n_sources_inline; ++i)
    same = a->source_ndot_per_s[i] == b->source_ndot_per_s[i] &&
           a->source_ijk[3 * i] == b->source_ijk[3 * i] &&
           a->source_ijk[3 * i + 1] == b->source_ijk[3 * i + 1] &&
           a->source_ijk[3 * i + 2] == b->source_ijk[3 * i + 2];
  for (int i = 0; same && i < a->n_outputs; ++i)
    same = a->output_times_s[i] == b->output_times_s[i];
  same = same && a->n_planes == b->n_planes && a->n_clumps == b->n_clumps &&
         a->debug.signal_after_step == b->debug.signal_after_step &&
         a->debug.fail_trace_rank == b->debug.fail_trace_rank &&
         a->debug.fail_load_rank == b->debug.fail_load_rank;
  for (int i = 0; same && i < a->n_planes; ++i)
    same = a->planes[i].face == b->planes[i].face &&
           a->planes[i].flux_per_cm2_s == b->planes[i].flux_per_cm2_s;
  for (int i = 0; same && i < a->n_clumps; ++i)
    same = memcmp(&a->clumps[i], &b->clumps[i], sizeof a->clumps[i]) == 0;
  return same;
}

static ionf_err load_text(const char *text, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  ionf_err rc = params_load_string(text, "run.yaml", &root);
  if (rc == IONF_OK) rc = config_from_params(root, "run.yaml", cfg);
  params_free(root);
  return rc;
}

/* Parse the config's effective YAML again; it must give the same config. */
static void check_round_trip(const struct ionf_config *cfg, const char *what) {
  struct ionf_config again;
  struct param_node *root = NULL;
  ionf_err rc = params_load_string(cfg->effective_yaml, "effective", &root);
  EXPECT(rc == IONF_OK, "%s: effective YAML does not parse: %s\n%s", what, ionf_error_message(),
         cfg->effective_yaml);
  rc = config_from_params(root, "effective", &again);
  EXPECT(rc == IONF_OK, "%s: effective YAML is not a valid config: %s", what,
         ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(config_equal(cfg, &again), "%s: effective YAML gives a different config:\n%s", what,
           cfg->effective_yaml);
    EXPECT(strcmp(cfg->effective_yaml + strcspn(cfg->effective_yaml, "\n"),
                  again.effective_yaml + strcspn(again.effective_yaml, "\n")) == 0,
           "%s: effective YAML is not a fixed point", what);
  }
  config_free(&again);
  params_free(root);
  ionf_error_clear();
}

/* The case must fail with `code` and a message holding `want1` and `want2`. */
static void expect_error(ionf_err rc, ionf_err code, const char *want1, const char *want2,
                         const char *what) {
  const char *msg = ionf_error_message();
  EXPECT(rc == code, "%s: got code %d, expected %d (message: %s)", what, (int)rc, (int)code, msg);
  EXPECT(strstr(msg, want1) != NULL, "%s: message lacks '%s': %s", what, want1, msg);
  if (want2) EXPECT(strstr(msg, want2) != NULL, "%s: message lacks '%s': %s", what, want2, msg);
  ionf_error_clear();
}

static void expect_config_error(const char *text, const char *want1, const char *want2,
                                const char *what) {
  struct ionf_config cfg;
  ionf_err rc = load_text(text, &cfg);
  expect_error(rc, IONF_ERR_CONFIG, want1, want2, what);
  config_free(&cfg);
}

/* A valid config with every required key and nothing else; %s slots let a
 * case replace one section. */
#define MINIMAL_GRID "grid:\n  N: 16\n  box_size: 1 kpc\n"
#define MINIMAL_MATERIAL "material:\n  n_H: 1e-3\n  temperature: 1e4\n  x_HII_initial: 1e-3\n"
#define MINIMAL_SOURCES "sources:\n  - {position: [1, 2, 3], Ndot: 1e50}\n"
#define MINIMAL_TIME "time:\n  dt: 1\n  t_end: 10 Myr\n"
#define MINIMAL MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_SOURCES MINIMAL_TIME

/* ---- units ---------------------------------------------------------------- */

static void test_units(void) {
  double v = 0.0;
  const double cell = 1.0e20;
  EXPECT(units_parse("6.6 kpc", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v) == IONF_OK,
         "6.6 kpc: %s", ionf_error_message());
  EXPECT_REL(v, 6.6 * IONF_KPC_CM, 1e-14, "6.6 kpc");
  EXPECT(units_parse("6.6kpc", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v) == IONF_OK,
         "6.6kpc: %s", ionf_error_message());
  EXPECT_REL(v, 6.6 * IONF_KPC_CM, 1e-14, "6.6kpc");
  EXPECT(units_parse(" 1e3 pc ", UNIT_LENGTH, IONF_MPC_CM, 0, "k", &v) == IONF_OK, "1e3 pc");
  EXPECT_REL(v, 1e3 * IONF_PC_CM, 1e-14, "1e3 pc");
  EXPECT(units_parse("2", UNIT_LENGTH, IONF_MPC_CM, 0, "k", &v) == IONF_OK, "bare 2");
  EXPECT_REL(v, 2 * IONF_MPC_CM, 1e-14, "bare number in the default unit (Mpc)");
  EXPECT(units_parse("1 ly", UNIT_LENGTH, 1, 0, "k", &v) == IONF_OK, "1 ly");
  EXPECT_REL(v, 9.4607304725808e17, 1e-12, "1 ly");
  EXPECT(units_parse("500 Myr", UNIT_TIME, IONF_MYR_S, 0, "time.t_end", &v) == IONF_OK, "500 Myr");
  EXPECT_REL(v, 500 * MYR, 1e-14, "500 Myr");
  EXPECT(units_parse("-3 Myr", UNIT_TIME, IONF_MYR_S, 0, "k", &v) == IONF_OK, "-3 Myr parses");
  EXPECT_REL(v, -3 * MYR, 1e-14, "-3 Myr");
  EXPECT(units_parse("2.5", UNIT_TIME, IONF_MYR_S, 0, "k", &v) == IONF_OK, "bare time");
  EXPECT_REL(v, 2.5 * MYR, 1e-14, "bare time in Myr");
  EXPECT(units_parse("1 Gyr", UNIT_TIME, IONF_MYR_S, 0, "k", &v) == IONF_OK, "1 Gyr");
  EXPECT_REL(v, 1e3 * MYR, 1e-14, "1 Gyr");
  EXPECT(units_parse("10 kyr", UNIT_TIME, IONF_MYR_S, 0, "k", &v) == IONF_OK, "10 kyr");
  EXPECT_REL(v, 1e4 * IONF_YR_S, 1e-14, "10 kyr");
  EXPECT(units_parse("3 cells", UNIT_LENGTH, cell, cell, "raytracing.R_max", &v) == IONF_OK,
         "3 cells");
  EXPECT_REL(v, 3 * cell, 1e-14, "3 cells");
  EXPECT(units_parse("1 cell", UNIT_LENGTH, cell, cell, "raytracing.R_max", &v) == IONF_OK,
         "1 cell");
  EXPECT_REL(v, cell, 1e-14, "1 cell");
  ionf_error_clear();

  expect_error(units_parse("6.6 kcp", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size: unknown length unit 'kcp' in '6.6 kcp'",
               "(use cm, m, km, au, ly, pc, kpc, Mpc, Gpc)", "unknown unit");
  expect_error(units_parse("3 cells", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "cells", "cells where not allowed");
  expect_error(units_parse("5 Myrs", UNIT_TIME, IONF_MYR_S, 0, "time.dt", &v), IONF_ERR_CONFIG,
               "time.dt: unknown time unit 'Myrs'", "Gyr", "unknown time unit");
  expect_error(units_parse("6.6 kpc x", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "6.6 kpc x", "trailing garbage");
  expect_error(units_parse("kpc", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "cannot read", "no number");
  expect_error(units_parse("nan", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "nan", "nan");
  expect_error(units_parse("inf Myr", UNIT_TIME, IONF_MYR_S, 0, "time.dt", &v), IONF_ERR_CONFIG,
               "time.dt", "inf", "inf");
  expect_error(units_parse("1e999 kpc", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "finite", "overflow");
  expect_error(units_parse("0x10", UNIT_LENGTH, IONF_MPC_CM, 0, "grid.box_size", &v),
               IONF_ERR_CONFIG, "grid.box_size", "0x10", "hex");
  expect_error(units_parse("", UNIT_TIME, IONF_MYR_S, 0, "time.dt", &v), IONF_ERR_CONFIG,
               "time.dt", "cannot read", "empty");

  EXPECT(units_parse_number("5e48", &v) && v == 5e48, "number 5e48");
  EXPECT(units_parse_number("1.0e-3", &v) && v == 1.0e-3, "number 1.0e-3");
  EXPECT(units_parse_number("-.5", &v) && v == -0.5, "number -.5");
  EXPECT(!units_parse_number(".inf", &v), ".inf is not a finite number");
  EXPECT(!units_parse_number("12 Myr", &v), "a unit is not part of a number");
  EXPECT(!units_parse_number("", &v), "empty is not a number");
}

/* ---- YAML tree, overrides, emitting --------------------------------------------- */

static void test_params(void) {
  const char *text =
      "a: 'x: y'\n"
      "b: \"123\"\n"
      "c: [p, 'q, r', 7]\n"
      "d: ~\n"
      "e: ''\n"
      "f: {g: [1, {h: true}]}\n"
      "i: |\n  two\n  lines\n"
      "base: &b {k: 1}\n"
      "copy: *b\n"
      "j: [a:b, '#x', -1e-3, 5 Myr]\n";
  struct param_node *root = NULL;
  EXPECT(params_load_string(text, "t.yaml", &root) == IONF_OK, "tree parses: %s",
         ionf_error_message());
  if (!root) return;
  const struct param_node *a = params_get(root, "a"), *b = params_get(root, "b");
  EXPECT(a && a->kind == PARAM_SCALAR && a->quoted && strcmp(a->scalar, "x: y") == 0,
         "quoted scalar kept");
  EXPECT(b && b->quoted && strcmp(b->scalar, "123") == 0, "quoted number stays a string");
  EXPECT(params_get(root, "d") && params_get(root, "d")->kind == PARAM_NULL, "~ is null");
  const struct param_node *c = params_get(root, "c");
  EXPECT(c && c->kind == PARAM_SEQUENCE && c->n_items == 3 && !c->items[0]->quoted &&
             c->items[1]->quoted && c->line == 3,
         "flow list with line number");
  const struct param_node *copy = params_get(root, "copy");
  EXPECT(copy && copy->kind == PARAM_MAPPING && params_get(copy, "k"), "alias expanded");

  char *out = params_emit_yaml(root);
  EXPECT(out != NULL, "emit: %s", ionf_error_message());
  struct param_node *again = NULL;
  if (out)
    EXPECT(params_load_string(out, "emitted", &again) == IONF_OK, "emitted YAML parses: %s\n%s",
           ionf_error_message(), out);
  EXPECT(tree_equal(root, again), "emitted YAML re-parses to the same tree:\n%s", out ? out : "");
  free(out);
  params_free(again);

  /* Overrides: VALUE is YAML; missing mappings are created; values replaced. */
  EXPECT(params_set_override(root, "x.y.z=[1, 2]") == IONF_OK, "deep override: %s",
         ionf_error_message());
  const struct param_node *z = params_get(params_get(params_get(root, "x"), "y"), "z");
  EXPECT(z && z->kind == PARAM_SEQUENCE && z->n_items == 2 && z->line == 0, "list value created");
  EXPECT(params_set_override(root, "a={m: 1}") == IONF_OK, "mapping value");
  EXPECT(params_get(root, "a")->kind == PARAM_MAPPING, "value replaced by a mapping");
  EXPECT(params_set_override(root, " d . e = 5 Myr") == IONF_OK, "override through null");
  const struct param_node *de = params_get(params_get(root, "d"), "e");
  EXPECT(de && de->kind == PARAM_SCALAR && strcmp(de->scalar, "5 Myr") == 0 && !de->quoted,
         "string value '5 Myr'");
  EXPECT(params_set_override(root, "flag=true") == IONF_OK, "bool value");
  ionf_error_clear();
  expect_error(params_set_override(root, "time.dt"), IONF_ERR_USAGE, "time.dt", "KEY=VALUE",
               "override without '='");
  expect_error(params_set_override(root, "=5"), IONF_ERR_USAGE, "'=5'", "empty key",
               "override with empty key");
  expect_error(params_set_override(root, "a..b=5"), IONF_ERR_USAGE, "a..b=5", "empty key",
               "override with empty component");
  expect_error(params_set_override(root, "b.x=5"), IONF_ERR_USAGE, "b.x=5", "'b'",
               "override through a scalar");
  expect_error(params_set_override(root, "c.x=5"), IONF_ERR_USAGE, "c.x=5", "a list",
               "override through a list");
  expect_error(params_set_override(root, "a.m=[1, 2"), IONF_ERR_USAGE, "a.m=[1, 2", NULL,
               "override with bad YAML");
  params_free(root);

  /* Parse errors: FILE:LINE:COL and the libyaml problem. */
  root = NULL;
  expect_error(params_load_string("grid:\n  N: 64\n  box_size: 6.6 kpc: 2\n", "run.yaml", &root),
               IONF_ERR_CONFIG, "run.yaml:3:", "mapping values are not allowed", "syntax error");
  EXPECT(root == NULL, "no tree after a syntax error");
  expect_error(params_load_string("grid:\n  N: 64\n  N: 32\n", "run.yaml", &root),
               IONF_ERR_CONFIG, "duplicate key 'N'", "line 2", "duplicate key");
  expect_error(params_load_string("a: 1\n---\nb: 2\n", "run.yaml", &root), IONF_ERR_CONFIG,
               "run.yaml", "one YAML document", "two documents");
  expect_error(params_load_string("a: *nope\n", "run.yaml", &root), IONF_ERR_CONFIG, "run.yaml:1",
               "nope", "unknown alias");
  expect_error(params_load_file("no/such/config.yaml", &root), IONF_ERR_IO,
               "cannot open config file 'no/such/config.yaml'", "No such file", "missing file");
  EXPECT(params_load_string("", "empty", &root) == IONF_OK && root && root->kind == PARAM_NULL,
         "empty text is a null document");
  params_free(root);
}

/* ---- built-in problems ------------------------------------------------------ */

static void test_builtins(void) {
  struct ionf_config cfg;
  EXPECT(problems_count() >= 2, "at least two problems");
  for (int i = 0; i < problems_count(); ++i)
    EXPECT(problems_name(i) && problems_description(i) && problems_yaml(problems_name(i)),
           "problem %d complete", i);
  EXPECT(problems_yaml(PROBLEMS_DEFAULT) != NULL, "the default problem exists");
  EXPECT(problems_yaml("nope") == NULL, "unknown problem");
  EXPECT(strstr(problems_yaml("iliev1"), "5.39 kpc") && strstr(problems_yaml("iliev1"), "122.4 Myr"),
         "iliev1 header states the analytic result");

  ionf_err rc = config_load(NULL, "iliev1", NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "iliev1 loads: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_cells_1d == 128, "iliev1 N = %lld", (long long)cfg.n_cells_1d);
    EXPECT_REL(cfg.box_size_cm, 2.0365e22, 1e-4, "iliev1 box 6.6 kpc in cm");
    EXPECT(!cfg.periodic, "iliev1 not periodic");
    EXPECT_REL(cfg.dt_s, 5 * MYR, 1e-12, "iliev1 dt");
    EXPECT_REL(cfg.t_end_s, 500 * MYR, 1e-12, "iliev1 t_end");
    EXPECT(cfg.n_outputs == 5, "iliev1 outputs: %d", cfg.n_outputs);
    if (cfg.n_outputs == 5) {
      EXPECT_REL(cfg.output_times_s[0], 10 * MYR, 1e-12, "first output");
      EXPECT_REL(cfg.output_times_s[4], 500 * MYR, 1e-12, "last output");
    }
    EXPECT(cfg.n_sources_inline == 1, "iliev1 sources: %lld", (long long)cfg.n_sources_inline);
    if (cfg.n_sources_inline == 1) {
      EXPECT(cfg.source_ijk[0] == 0 && cfg.source_ijk[1] == 0 && cfg.source_ijk[2] == 0,
             "source at (0,0,0)");
      EXPECT_REL(cfg.source_ndot_per_s[0], 5e48, 1e-14, "source Ndot");
    }
    EXPECT(!cfg.n_h_cm3.from_file, "uniform density");
    EXPECT_REL(cfg.n_h_cm3.value, 1e-3, 1e-14, "n_H");
    EXPECT_REL(cfg.temperature_k, 1e4, 1e-14, "temperature");
    EXPECT_REL(cfg.x_hii_initial, 1.2e-3, 1e-14, "x_HII_initial");
    EXPECT_REL(cfg.alpha_b_1e4_cm3_s, 2.59e-13, 1e-14, "alpha_B");
    EXPECT(cfg.collisional_ionization, "collisional ionization on");
    EXPECT(cfg.spectrum == SPECTRUM_GREY && cfg.num_tau == 20000, "grey spectrum, 20000 points");
    EXPECT(cfg.r_max_cells == 0 && cfg.max_iterations == 100 && cfg.backend == BACKEND_AUTO,
           "raytracing");
    EXPECT(strcmp(cfg.output_dir, "out/iliev1") == 0, "output dir %s", cfg.output_dir);
    EXPECT(strcmp(cfg.config_name, "built-in iliev1") == 0, "config name %s", cfg.config_name);
    check_round_trip(&cfg, "iliev1");
  }
  config_free(&cfg);

  rc = config_load(NULL, NULL, NULL, 0, &cfg); /* NULL name: the default problem */
  EXPECT(rc == IONF_OK, "default loads: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_cells_1d == 64, "default N = %lld", (long long)cfg.n_cells_1d);
    EXPECT_REL(cfg.box_size_cm, 2.0365e22, 1e-4, "default box");
    EXPECT_REL(cfg.dt_s, 10 * MYR, 1e-12, "default dt");
    EXPECT(cfg.n_outputs == 5, "default outputs");
    EXPECT(cfg.n_sources_inline == 1 && cfg.source_ndot_per_s[0] == 5e48, "default source");
    EXPECT(strcmp(cfg.output_dir, "out/default") == 0, "output dir %s", cfg.output_dir);
    check_round_trip(&cfg, "default");
  }
  config_free(&cfg);

  rc = config_load(NULL, "ilev1", NULL, 0, &cfg);
  expect_error(rc, IONF_ERR_USAGE, "ilev1", "iliev1", "unknown problem lists the known ones");
  config_free(&cfg);
}

/* ---- plane-parallel sources and clumps ------------------------------------------ */

static void test_planes_and_clumps(void) {
  struct ionf_config cfg;
  ionf_err rc = config_load(NULL, "iliev3", NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "iliev3 loads: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_cells_1d == 128 && !cfg.periodic && !cfg.isothermal, "iliev3 grid and thermal");
    EXPECT(cfg.n_sources_inline == 0 && cfg.n_planes == 1, "iliev3: one plane, no point source");
    if (cfg.n_planes == 1) {
      EXPECT(cfg.planes[0].face == 0, "plane through x_low (face %d)", cfg.planes[0].face);
      EXPECT_REL(cfg.planes[0].flux_per_cm2_s, 1e6, 1e-14, "plane flux");
    }
    EXPECT_REL(cfg.n_h_cm3.value, 2e-4, 1e-14, "outside density");
    EXPECT_REL(cfg.temperature_k, 8000, 1e-14, "outside temperature");
    EXPECT(cfg.n_clumps == 1, "one clump: %d", cfg.n_clumps);
    if (cfg.n_clumps == 1) {
      const struct clump *c = &cfg.clumps[0];
      EXPECT_REL(c->center_cm[0], 5 * IONF_KPC_CM, 1e-14, "clump x");
      EXPECT_REL(c->center_cm[1], 3.3 * IONF_KPC_CM, 1e-14, "clump y");
      EXPECT_REL(c->center_cm[2], 3.3 * IONF_KPC_CM, 1e-14, "clump z");
      EXPECT_REL(c->radius_cm, 0.8 * IONF_KPC_CM, 1e-14, "clump radius");
      EXPECT_REL(c->n_h_cm3, 0.04, 1e-14, "clump density");
      EXPECT_REL(c->temperature_k, 40, 1e-14, "clump temperature");
    }
    EXPECT(cfg.spectrum == SPECTRUM_BLACKBODY && cfg.t_eff_k == 1e5, "iliev3 black body");
    EXPECT_REL(cfg.t_end_s, 15 * MYR, 1e-12, "iliev3 t_end");
    check_round_trip(&cfg, "iliev3");
  }
  config_free(&cfg);

  /* mixed point and plane sources in one list, every face, a clump temperature default */
  rc = load_text(MINIMAL_GRID MINIMAL_TIME
                 "material:\n  n_H: 1e-3\n  temperature: 1e4\n  x_HII_initial: 1e-3\n"
                 "  clumps:\n    - {center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.2 kpc, n_H: 1}\n"
                 "    - {center: [0.0001, 1 kpc, 0], radius: 100 pc, n_H: 0, temperature: 50}\n"
                 "sources:\n  - {plane: x_high, flux: 2e5}\n  - {position: [1, 2, 3], Ndot: 1e50}\n"
                 "  - {plane: Z_LOW, flux: 3e5}\n  - {position: [4, 5, 6], Ndot: 2e50}\n"
                 "  - {plane: y_low, flux: 1}\n  - {plane: y_high, flux: 1}\n"
                 "  - {plane: z_high, flux: 1}\n  - {plane: x_low, flux: 1}\n",
                 &cfg);
  EXPECT(rc == IONF_OK, "mixed sources: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_sources_inline == 2 && cfg.n_planes == 6, "2 points, 6 planes: %lld, %d",
           (long long)cfg.n_sources_inline, cfg.n_planes);
    if (cfg.n_sources_inline == 2)
      EXPECT(cfg.source_ijk[3] == 4 && cfg.source_ijk[5] == 6 && cfg.source_ndot_per_s[1] == 2e50,
             "the second point source keeps its place among the points");
    if (cfg.n_planes == 6) {
      const int faces[6] = {1, 4, 2, 3, 5, 0};
      for (int i = 0; i < 6; ++i)
        EXPECT(cfg.planes[i].face == faces[i], "plane %d face %d, want %d", i,
               cfg.planes[i].face, faces[i]);
      EXPECT(cfg.planes[0].flux_per_cm2_s == 2e5 && cfg.planes[1].flux_per_cm2_s == 3e5,
             "plane fluxes");
    }
    EXPECT(cfg.n_clumps == 2, "two clumps");
    if (cfg.n_clumps == 2) {
      EXPECT(cfg.clumps[0].temperature_k == 1e4, "clump temperature defaults to material's");
      EXPECT(cfg.clumps[1].temperature_k == 50 && cfg.clumps[1].n_h_cm3 == 0, "clump 2");
      EXPECT_REL(cfg.clumps[1].center_cm[0], 1e-4 * IONF_MPC_CM, 1e-14,
                 "a bare clump coordinate is in Mpc, like box_size");
    }
    EXPECT(strstr(cfg.effective_yaml, "temperature: 1e4") != NULL,
           "effective YAML shows the clump's default temperature");
    check_round_trip(&cfg, "mixed sources and clumps");
  }
  config_free(&cfg);

#define CLUMP_MATERIAL(CLUMPS)                                                        \
  MINIMAL_GRID MINIMAL_SOURCES MINIMAL_TIME                                           \
      "material:\n  n_H: 1e-3\n  temperature: 1e4\n  x_HII_initial: 1e-3\n  clumps: " CLUMPS
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 1.5 kpc], radius: 0.1 kpc, "
                                     "n_H: 1}]\n"),
                      "material.clumps[0].center = [0.5 kpc, 0.5 kpc, 1.5 kpc] is outside the box",
                      "0..1 kpc", "clump centre outside the box");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, -0.1 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: 1}]\n"),
                      "material.clumps[0].center", "outside the box", "negative coordinate");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc], radius: 0.1 kpc, n_H: 1}]\n"),
                      "material.clumps[0].center = [0.5 kpc, 0.5 kpc]", "3 lengths",
                      "two coordinates");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kcp], radius: 0.1 kpc, "
                                     "n_H: 1}]\n"),
                      "material.clumps[0].center[2]", "kcp", "bad unit in a coordinate");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0, n_H: 1}]\n"),
                      "material.clumps[0].radius = 0", "> 0", "zero radius");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: -1 pc, "
                                     "n_H: 1}]\n"),
                      "material.clumps[0].radius = -1 pc", "> 0", "negative radius");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: -1}]\n"),
                      "material.clumps[0].n_H = -1", ">= 0", "negative clump density");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: .nan}]\n"),
                      "material.clumps[0].n_H = .nan", NULL, "NaN clump density");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: 1, temperature: 0}]\n"),
                      "material.clumps[0].temperature = 0", "> 0", "zero clump temperature");
  expect_config_error(CLUMP_MATERIAL("[{centre: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: 1}]\n"),
                      "unknown key 'material.clumps[0].centre'", "did you mean 'center'",
                      "clump key typo");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], n_H: 1}]\n"),
                      "missing required key 'material.clumps[0].radius'", NULL, "no radius");
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc}]\n"),
                      "missing required key 'material.clumps[0].n_H'", NULL, "no clump density");
  /* 16 cells of 62.5 pc: centres at (i + 1/2) 62.5 pc; a clump on a cell corner of
     radius 10 pc reaches none */
  expect_config_error(CLUMP_MATERIAL("[{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 10 pc, "
                                     "n_H: 1}]\n"),
                      "material.clumps[0]: no cell centre lies inside", "radius", "clump between "
                      "cell centres");
  expect_config_error(CLUMP_MATERIAL("{center: [0.5 kpc, 0.5 kpc, 0.5 kpc], radius: 0.1 kpc, "
                                     "n_H: 1}\n"),
                      "material.clumps: expected a list", "got a mapping", "clumps not a list");
  expect_config_error(CLUMP_MATERIAL("[5]\n"), "material.clumps[0]: expected a mapping", NULL,
                      "clump entry not a mapping");
#undef CLUMP_MATERIAL

  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {plane: x_lo, flux: 1e6}\n",
                      "sources[0].plane = x_lo", "did you mean 'x_low'", "face typo");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {plane: top, flux: 1e6}\n",
                      "sources[0].plane = top", "x_low, x_high, y_low, y_high, z_low, z_high",
                      "unknown face");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {position: [0, 0, 0], Ndot: 1}\n  - {plane: x_low, flux: 0}\n",
                      "sources[1].flux = 0", "> 0", "zero flux");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {plane: x_low, flux: -1e6}\n",
                      "sources[0].flux = -1e6", "> 0", "negative flux");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME "sources:\n  - {plane: x_low}\n",
                      "missing required key 'sources[0].flux'", NULL, "plane without flux");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME "sources:\n  - {flux: 1e6}\n",
                      "missing required key 'sources[0].plane'", "x_low", "flux without plane");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {plane: x_low, flux: 1e6, fluxx: 1}\n",
                      "unknown key 'sources[0].fluxx'", "did you mean 'flux'", "plane key typo");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources:\n  - {position: [0, 0, 0], flux: 1e6}\n",
                      "sources[0]: give either {position, Ndot}", "not keys of both",
                      "point and plane keys mixed");
  expect_config_error("grid:\n  N: 16\n  box_size: 1 kpc\n  periodic: true\n" MINIMAL_MATERIAL
                      MINIMAL_TIME "sources:\n  - {plane: y_high, flux: 1e6}\n",
                      "sources[0].plane = y_high: plane-parallel sources need a non-periodic box",
                      "grid.periodic: false", "plane in a periodic box");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME
                      "sources: {plane: x_low, flux: 1e6}\n",
                      "sources: one source is still a list", "'- {...}'", "source not in a list");
}

/* ---- overrides through config_load ---------------------------------------------- */

static void test_overrides(void) {
  struct ionf_config cfg;
  char *sets[] = {"time.dt=2 Myr", "grid.N=32"};
  ionf_err rc = config_load(NULL, "iliev1", sets, 2, &cfg);
  EXPECT(rc == IONF_OK, "overrides: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT_REL(cfg.dt_s, 2 * MYR, 1e-12, "time.dt=2 Myr");
    EXPECT(cfg.n_cells_1d == 32, "grid.N=32 gives %lld", (long long)cfg.n_cells_1d);
    EXPECT(strstr(cfg.effective_yaml, "2 Myr") != NULL, "effective YAML shows the override");
    check_round_trip(&cfg, "overridden iliev1");
  }
  config_free(&cfg);

  char *list[] = {"time.outputs=[2 Myr, 1 Myr, 2 Myr]", "raytracing.R_max=0.66 kpc"};
  rc = config_load(NULL, "iliev1", list, 2, &cfg);
  EXPECT(rc == IONF_OK, "list override: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_outputs == 2, "outputs sorted and de-duplicated: %d", cfg.n_outputs);
    if (cfg.n_outputs == 2) {
      EXPECT_REL(cfg.output_times_s[0], 1 * MYR, 1e-12, "outputs[0]");
      EXPECT_REL(cfg.output_times_s[1], 2 * MYR, 1e-12, "outputs[1]");
    }
    EXPECT_REL(cfg.r_max_cells, 12.8, 1e-12, "R_max 0.66 kpc = 12.8 cells of 6.6 kpc / 128");
    check_round_trip(&cfg, "list override");
  }
  config_free(&cfg);

  char *one[] = {"time.outputs=250", "raytracing.R_max=20", "spectrum.type=blackbody",
                 "spectrum.T_eff=1e5", "output.progress=off", "raytracing.backend=CPU"};
  rc = config_load(NULL, "default", one, 6, &cfg);
  EXPECT(rc == IONF_OK, "scalar overrides: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.n_outputs == 1 && cfg.output_times_s[0] == 250 * MYR, "single output, bare Myr");
    EXPECT(cfg.r_max_cells == 20, "R_max bare number in cells");
    EXPECT(cfg.spectrum == SPECTRUM_BLACKBODY && cfg.t_eff_k == 1e5, "blackbody");
    EXPECT(!cfg.progress && cfg.backend == BACKEND_CPU, "bool off, backend case-insensitive");
    check_round_trip(&cfg, "scalar overrides");
  }
  config_free(&cfg);

  char *bb[] = {"spectrum.type=blackbody"};
  rc = config_load(NULL, "default", bb, 1, &cfg);
  expect_error(rc, IONF_ERR_CONFIG, "spectrum.T_eff", "blackbody", "blackbody without T_eff");
  config_free(&cfg);

  char *bad[] = {"grid.N"};
  rc = config_load(NULL, "default", bad, 1, &cfg);
  expect_error(rc, IONF_ERR_USAGE, "grid.N", "KEY=VALUE", "override without =");
  config_free(&cfg);

  char *typo[] = {"grid.NN=3"};
  rc = config_load(NULL, "default", typo, 1, &cfg);
  expect_error(rc, IONF_ERR_CONFIG, "unknown key 'grid.NN'", "did you mean 'N'", "override typo");
  config_free(&cfg);
}

/* ---- defaults, paths, the effective YAML ---------------------------------------- */

static void test_defaults_and_paths(void) {
  struct ionf_config cfg, def;
  config_defaults(&def);
  ionf_err rc = load_text(MINIMAL, &cfg);
  EXPECT(rc == IONF_OK, "minimal config: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.alpha_b_1e4_cm3_s == def.alpha_b_1e4_cm3_s && cfg.abu_c == def.abu_c &&
               cfg.num_tau == def.num_tau && cfg.sigma0_cm2 == def.sigma0_cm2 &&
               cfg.convergence_fraction == def.convergence_fraction &&
               cfg.max_iterations == def.max_iterations && cfg.progress == def.progress &&
               strcmp(cfg.output_dir, "out") == 0,
           "omitted keys take the documented defaults");
    EXPECT(cfg.n_outputs == 1 && cfg.output_times_s[0] == cfg.t_end_s, "outputs default [t_end]");
    EXPECT_REL(cfg.dt_s, MYR, 1e-12, "bare dt in Myr");
    EXPECT(cfg.source_ijk[0] == 1 && cfg.source_ijk[1] == 2 && cfg.source_ijk[2] == 3,
           "source position order i, j, k");
    const char *keys[] = {"alpha_B:", "abu_c:", "num_tau:", "convergence_fraction:", "backend:",
                          "directory:", "progress:", "outputs:", "periodic:"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
      EXPECT(strstr(cfg.effective_yaml, keys[i]) != NULL, "effective YAML shows default %s",
             keys[i]);
    check_round_trip(&cfg, "minimal");
  }
  config_free(&cfg);

  /* Input files: relative to the config file's directory, made absolute. */
  char cwd[IONF_PATH_MAX];
  EXPECT(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
  struct param_node *root = NULL;
  EXPECT(params_load_string(MINIMAL_GRID MINIMAL_TIME
                            "material:\n  n_H: {file: dens.h5, dataset: /n_H}\n"
                            "  temperature: 1e4\n  x_HII_initial: 1e-3\n"
                            "sources: {file: /abs/src.txt, format: text}\n",
                            "cfgdir/run.yaml", &root) == IONF_OK,
         "file-input config parses");
  rc = config_from_params(root, "cfgdir/run.yaml", &cfg);
  EXPECT(rc == IONF_OK, "file inputs: %s", ionf_error_message());
  if (rc == IONF_OK) {
    char want[2 * IONF_PATH_MAX];
    snprintf(want, sizeof want, "%s/cfgdir/dens.h5", cwd);
    EXPECT(cfg.n_h_cm3.from_file && strcmp(cfg.n_h_cm3.file, want) == 0, "n_H file %s (want %s)",
           cfg.n_h_cm3.file, want);
    EXPECT(strcmp(cfg.n_h_cm3.dataset, "/n_H") == 0, "dataset");
    EXPECT(cfg.n_sources_inline == 0 && strcmp(cfg.source_file, "/abs/src.txt") == 0 &&
               cfg.source_format == SOURCE_FORMAT_TEXT,
           "source file kept absolute: %s", cfg.source_file);
    check_round_trip(&cfg, "file inputs");
  }
  config_free(&cfg);
  params_free(root);

  /* A real file through config_load, with an override on top. */
  const char *path = "test_config_tmp.yaml";
  FILE *f = fopen(path, "w");
  EXPECT(f != NULL, "cannot write %s", path);
  if (f) {
    fputs(MINIMAL, f);
    fclose(f);
    char *sets[] = {"grid.box_size=2"};
    rc = config_load(path, NULL, sets, 1, &cfg);
    EXPECT(rc == IONF_OK, "config file: %s", ionf_error_message());
    if (rc == IONF_OK) {
      EXPECT(strcmp(cfg.config_name, path) == 0, "config name is the file name");
      EXPECT_REL(cfg.box_size_cm, 2 * IONF_MPC_CM, 1e-14, "bare box_size in Mpc");
    }
    config_free(&cfg);
    f = fopen(path, "w");
    if (f) {
      fputs("grid:\n  N: 16\n    box_size: 1\n", f);
      fclose(f);
    }
    rc = config_load(path, NULL, NULL, 0, &cfg);
    expect_error(rc, IONF_ERR_CONFIG, "test_config_tmp.yaml:3:", NULL, "syntax error in a file");
    config_free(&cfg);
    remove(path);
  }
  rc = config_load("no_such_config.yaml", NULL, NULL, 0, &cfg);
  expect_error(rc, IONF_ERR_IO, "cannot open config file 'no_such_config.yaml'", NULL,
               "missing config file");
  config_free(&cfg);
}

/* ---- validation errors -------------------------------------------------------- */

static void test_errors(void) {
  expect_config_error("grid:\n  N: 16\n  box_sise: 1\n" MINIMAL_MATERIAL MINIMAL_SOURCES
                      MINIMAL_TIME,
                      "unknown key 'grid.box_sise'", "did you mean 'box_size'", "key typo");
  expect_config_error(MINIMAL "tmie: {}\n", "unknown section 'tmie'", "did you mean 'time'",
                      "section typo");
  expect_config_error(MINIMAL "zzzzzzzz: 1\n", "unknown section 'zzzzzzzz'", "sections are",
                      "unknown section without a suggestion");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_SOURCES
                      "time:\n  dt: [1, 2]\n  t_end: 10\n",
                      "time.dt: expected a number or a time like '10 Myr', got a list", NULL,
                      "wrong type");
  expect_config_error(MINIMAL_GRID
                      "material:\n  n_H: -1e-3\n  temperature: 1e4\n  x_HII_initial: 1e-3\n"
                      MINIMAL_SOURCES MINIMAL_TIME,
                      "run.yaml: material.n_H = -1e-3: a density must be >= 0", NULL,
                      "negative density");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL
                      "sources:\n  - {position: [0, 0, 0], Ndot: 1}\n"
                      "  - {position: [0, 0, 16], Ndot: 1}\n" MINIMAL_TIME,
                      "sources[1].position = [0, 0, 16] is outside the 16^3 grid",
                      "0-based cell indices, each in 0..15", "source outside the grid");
  expect_config_error("grid:\n  N: 64.5\n  box_size: 1\n" MINIMAL_MATERIAL MINIMAL_SOURCES
                      MINIMAL_TIME,
                      "grid.N = 64.5 is not an integer", "1..4096", "non-integer N");
  expect_config_error("grid:\n  N: -4\n  box_size: 1\n" MINIMAL_MATERIAL MINIMAL_SOURCES
                      MINIMAL_TIME,
                      "run.yaml: grid.N = -4 is out of range (must be an integer in 1..4096)",
                      NULL, "negative N");
  expect_config_error("grid:\n  N: \"64\"\n  box_size: 1\n" MINIMAL_MATERIAL MINIMAL_SOURCES
                      MINIMAL_TIME,
                      "grid.N", "quoted", "quoted integer");
  expect_config_error("grid:\n  N: 16\n  box_size: 6.6 kcp\n" MINIMAL_MATERIAL MINIMAL_SOURCES
                      MINIMAL_TIME,
                      "run.yaml: grid.box_size: unknown length unit 'kcp'", NULL,
                      "unknown unit in a config");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_TIME, "no sources given", NULL,
                      "no sources");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL "sources: []\n" MINIMAL_TIME,
                      "no sources given", NULL, "empty source list");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL
                      "sources:\n  - {position: [0, 0, 0], ndot: 1}\n" MINIMAL_TIME,
                      "unknown key 'sources[0].ndot'", "did you mean 'Ndot'", "source key typo");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL
                      "sources:\n  - {position: [0, 0, 0], Ndot: 0}\n" MINIMAL_TIME,
                      "sources[0].Ndot = 0", "> 0", "zero Ndot");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL
                      "sources:\n  - {position: [0, 0], Ndot: 1}\n" MINIMAL_TIME,
                      "sources[0].position", "3 cell indices", "two indices");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_SOURCES
                      "time:\n  dt: 20 Myr\n  t_end: 10 Myr\n",
                      "time.dt = 20 Myr", "t_end", "dt > t_end");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_SOURCES
                      "time:\n  dt: 1\n  t_end: 10\n  outputs: [5, 0]\n",
                      "time.outputs[1] = 0", "out of range", "output at 0");
  expect_config_error(MINIMAL_GRID MINIMAL_MATERIAL MINIMAL_SOURCES "time:\n  t_end: 10\n",
                      "missing required key 'time.dt'", NULL, "missing dt");
  expect_config_error(MINIMAL "output:\n  progress: maybe\n", "output.progress = maybe",
                      "true/false", "bad bool");
  expect_config_error(MINIMAL "spectrum:\n  type: gray\n", "spectrum.type = gray",
                      "did you mean 'grey'", "enum typo");
  expect_config_error(MINIMAL "spectrum:\n  num_tau: 50\n", "spectrum.num_tau = 50",
                      "100..1000000", "num_tau range");
  expect_config_error(MINIMAL "spectrum:\n  min_log_tau: 5\n", "spectrum.min_log_tau = 5",
                      "max_log_tau", "tau range order");
  expect_config_error(MINIMAL "raytracing:\n  convergence_fraction: 0.5\n",
                      "raytracing.convergence_fraction = 0.5", "(0, 0.1]", "convergence range");
  expect_config_error(MINIMAL "raytracing:\n  R_max: -2 cells\n", "raytracing.R_max = -2 cells",
                      ">= 0", "negative R_max");
  expect_config_error(MINIMAL "raytracing:\n  transmission_cutoff: 0.01\n",
                      "raytracing.transmission_cutoff = 0.01", "(0, 1e-3]", "cutoff too large");
  expect_config_error(MINIMAL "raytracing:\n  transmission_cutoff: -1e-9\n",
                      "raytracing.transmission_cutoff = -1e-9", "0 (off)", "negative cutoff");
  expect_config_error(MINIMAL "raytracing:\n  transmission_cutoff: .nan\n",
                      "raytracing.transmission_cutoff = .nan", NULL, "NaN cutoff");
  expect_config_error(MINIMAL "raytracing:\n  method: montecarlo\n  transmission_cutoff: 1e-8\n",
                      "raytracing.transmission_cutoff = 1e-08", "asora only", "cutoff with MC");
  expect_config_error(MINIMAL "output:\n  directory: ''\n", "output.directory", "empty",
                      "empty output directory");
  expect_config_error(MINIMAL_GRID
                      "material:\n  n_H: {file: d.h5}\n  temperature: 1e4\n  x_HII_initial: 1e-3\n"
                      MINIMAL_SOURCES MINIMAL_TIME,
                      "material.n_H.dataset", "missing", "density file without dataset");
  expect_config_error(MINIMAL_GRID
                      "material:\n  n_H: .nan\n  temperature: 1e4\n  x_HII_initial: 1e-3\n"
                      MINIMAL_SOURCES MINIMAL_TIME,
                      "material.n_H = .nan", NULL, "NaN density");
  expect_config_error(MINIMAL_GRID
                      "material:\n  n_H: 1e-3\n  temperature: 1e4\n  x_HII_initial: 1.5\n"
                      MINIMAL_SOURCES MINIMAL_TIME,
                      "material.x_HII_initial = 1.5", "(0, 1]", "ionized fraction > 1");
  expect_config_error("grid: [1, 2]\n", "grid", "mapping", "section of the wrong kind");
  expect_config_error("- a\n- b\n", "run.yaml", "mapping of sections", "top level is a list");
}

/* ---- debug: the test hooks --------------------------------------------------------- */

static void test_debug(void) {
  struct ionf_config cfg;
  ionf_err rc = load_text(MINIMAL, &cfg);
  EXPECT(rc == IONF_OK, "minimal: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.debug.signal_after_step == -1 && cfg.debug.fail_trace_rank == -1 &&
               cfg.debug.fail_load_rank == -1,
           "every hook is off without debug:");
    EXPECT(strstr(cfg.effective_yaml, "debug") == NULL,
           "no debug: section in the effective config unless given:\n%s", cfg.effective_yaml);
  }
  config_free(&cfg);

  rc = load_text(MINIMAL "debug:\n  fail_trace_rank: 1\n", &cfg);
  EXPECT(rc == IONF_OK, "debug.fail_trace_rank: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.debug.fail_trace_rank == 1 && cfg.debug.signal_after_step == -1 &&
               cfg.debug.fail_load_rank == -1,
           "fail_trace_rank 1, the others off: %d %lld %d", cfg.debug.fail_trace_rank,
           (long long)cfg.debug.signal_after_step, cfg.debug.fail_load_rank);
    EXPECT(strstr(cfg.effective_yaml, "debug:") &&
               strstr(cfg.effective_yaml, "signal_after_step: -1"),
           "the given section shows every key:\n%s", cfg.effective_yaml);
    check_round_trip(&cfg, "debug");
  }
  config_free(&cfg);

  /* as the tests set them: an override on a built-in problem */
  char *sets[] = {"debug.signal_after_step=4"};
  rc = config_load(NULL, "default", sets, 1, &cfg);
  EXPECT(rc == IONF_OK && cfg.debug.signal_after_step == 4 && cfg.debug.fail_trace_rank == -1,
         "--set debug.signal_after_step=4: %s", ionf_error_message());
  config_free(&cfg);
  ionf_error_clear();

  expect_config_error(MINIMAL "debug:\n  fail_trac_rank: 1\n",
                      "unknown key 'debug.fail_trac_rank'", "did you mean 'fail_trace_rank'",
                      "debug key typo");
  expect_config_error(MINIMAL "debug:\n  signal_after_step: 0\n",
                      "debug.signal_after_step = 0 is out of range", "step >= 1, or -1",
                      "signal after step 0");
  expect_config_error(MINIMAL "debug:\n  fail_trace_rank: -2\n",
                      "debug.fail_trace_rank = -2 is out of range", "-1..1000000",
                      "negative rank");
  expect_config_error(MINIMAL "debug:\n  fail_load_rank: 0\n", "debug.fail_load_rank = 0",
                      "sequence:", "fail_load_rank without a sequence");
  expect_config_error(MINIMAL "debug: 3\n", "debug", "mapping", "debug: not a mapping");
}

int main(void) {
  char tmp[4096]; /* the config files written go to a fresh temporary directory */
  if (!test_tmpdir_enter(tmp, sizeof tmp, "ionf_config")) return 1;
  test_units();
  test_params();
  test_builtins();
  test_planes_and_clumps();
  test_overrides();
  test_defaults_and_paths();
  test_errors();
  test_debug();
  EXPECT(test_tmpdir_leave(tmp), "removing %s", tmp);
  TEST_RETURN();
}
