/**
 * @file test_sequence.c
 * @brief Production runs (config sequence:): the section's rules, and a small run
 *        along five redshifts whose density files and halo catalogues change:
 *  (a) the density switches exactly: each snapshot's n_H is the file of its
 *      interval's redshift diluted as (1+z)^3 from that redshift to the
 *      snapshot's density_redshift (the middle of the last step);
 *  (b) the sources change with the catalogues: Gamma is zero where an interval
 *      has no halos and not elsewhere; n_sources and the total Ndot in log.csv
 *      and the snapshots equal the catalogue's (Eq. 20, halos merged per cell);
 *  (c) intervals without halos run (chemistry goes on), also after halos were there;
 *  (d) bad inputs fail in engine_create, before any step, naming key, redshift, file.
 */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "io/io_density.h"
#include "io/io_halos.h"
#include "core/params.h"
#include "engine/sequence.h"
#include "sequence_inputs.h"
#include "test_util.h"

#define N_CELLS 16
#define N_Z 5
static const double case_z[N_Z] = {9.0, 8.9, 8.8, 8.7, 8.6};
static const int case_halos[N_Z] = {0, 4, 7, 0, 3}; /* the last catalogue is never read */

static char tmp_dir[] = "/tmp/ionf_sequence_XXXXXX";

/* ---- helpers ----------------------------------------------------------------- */

static ionf_err load_yaml(const char *text, const char *name, struct ionf_config *cfg) {
  struct param_node *root = NULL;
  ionf_err rc = params_load_string(text, name, &root);
  if (rc == IONF_OK) rc = config_from_params(root, name, cfg);
  params_free(root);
  return rc;
}

/* The case's YAML with `extra` appended and the overrides applied. */
static ionf_err load_case(const struct seq_case *c, const char *extra, char **overrides,
                          int n_overrides, struct ionf_config *cfg) {
  char text[4096], path[512];
  seq_case_yaml(c, extra, text, sizeof text);
  snprintf(path, sizeof path, "%s/run.yaml", c->dir);
  FILE *f = fopen(path, "w");
  if (!f) return ionf_error_set(IONF_ERR_IO, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
  return config_load(path, NULL, overrides, n_overrides, cfg);
}

static void expect_fail(ionf_err rc, ionf_err code, const char *want1, const char *want2,
                        const char *what) {
  const char *msg = ionf_error_message();
  EXPECT(rc == code, "%s: code %d, expected %d (%s)", what, (int)rc, (int)code, msg);
  EXPECT(!want1 || strstr(msg, want1), "%s: message lacks '%s': %s", what, want1, msg);
  EXPECT(!want2 || strstr(msg, want2), "%s: message lacks '%s': %s", what, want2, msg);
  printf("  %s -> %s\n", what, msg);
  ionf_error_clear();
}

static void expect_config_fail(const struct seq_case *c, const char *extra, char *override,
                               const char *want1, const char *want2, const char *what) {
  struct ionf_config cfg;
  char *ov[1] = {override};
  ionf_err rc = load_case(c, extra, ov, override ? 1 : 0, &cfg);
  expect_fail(rc, IONF_ERR_CONFIG, want1, want2, what);
  if (rc == IONF_OK) config_free(&cfg);
}

static double attr_double(const char *path, const char *name) {
  double v = NAN;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return v;
  if (H5Aexists(f, name) > 0) {
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (H5Aread(a, H5T_NATIVE_DOUBLE, &v) < 0) v = NAN;
    H5Aclose(a);
  }
  H5Fclose(f);
  return v;
}

static void attr_string(const char *path, const char *name, char *out, size_t size) {
  out[0] = '\0';
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return;
  if (H5Aexists(f, name) > 0) {
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t type = H5Aget_type(a);
    char *value = NULL;
    if (H5Tis_variable_str(type) > 0 && H5Aread(a, type, &value) >= 0 && value) {
      snprintf(out, size, "%s", value);
      H5free_memory(value);
    }
    H5Tclose(type);
    H5Aclose(a);
  }
  H5Fclose(f);
}

/* Eq. 20 summed over a catalogue (what the run must log as its total Ndot). */
static double catalogue_ndot(const struct seq_case *c, int k, const struct ionf_config *cfg) {
  struct cosmology cosmo = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  double sum = 0.0;
  for (int h = 0; h < c->n_halos[k]; ++h)
    sum += io_halos_ndot_per_s(c->mass_msun[k][h], 20.0, 10.0 * IONF_MYR_S, &cosmo);
  return sum;
}

/* ---- the config section ------------------------------------------------------------ */

/* sequence.halos.format 21cmfast with `setting`: refused, the message naming both. */
static void expect_21cmfast_refuses(const struct seq_case *c, char *setting, const char *want1,
                                    const char *want2) {
  char *ov[] = {"sequence.halos.format=21cmfast", setting};
  struct ionf_config cfg;
  ionf_err rc = load_case(c, NULL, ov, 2, &cfg);
  expect_fail(rc, IONF_ERR_CONFIG, want1, want2, setting);
  if (rc == IONF_OK) config_free(&cfg);
}

/* sequence.density.format and sequence.halos.format: their keys and refusals. */
static void test_config_formats(const struct seq_case *c) {
  char *cube[] = {"sequence.density={format: cubep3m, pattern: \"%.3fn_all.dat\", fine_mesh: 8000}",
                  "sequence.halos.format=21cmfast"};
  struct ionf_config cfg;
  ionf_err rc = load_case(c, NULL, cube, 2, &cfg);
  EXPECT(rc == IONF_OK, "cubep3m density, 21cmfast halos: %s", ionf_error_message());
  if (rc == IONF_OK) {
    const struct sequence_config *seq = &cfg.sequence;
    EXPECT(seq->density_format == SEQUENCE_DENSITY_CUBEP3M && seq->density_fine_mesh == 8000 &&
               seq->density_x_h == 0.76 && seq->halo_format == HALO_FORMAT_21CMFAST &&
               strstr(cfg.effective_yaml, "hydrogen_mass_fraction: 0.76") &&
               strstr(cfg.effective_yaml, "format: 21cmfast") &&
               !strstr(cfg.effective_yaml, "position_unit"),
           "cubep3m: fine_mesh 8000, X_H 0.76 by default; 21cmfast halos without position_unit");
    config_free(&cfg);
  }
  ionf_error_clear();
  char *unit[] = {"sequence.halos.format=21cmfast", "sequence.halos.position_unit=1 Mpc"};
  expect_fail(load_case(c, NULL, unit, 2, &cfg), IONF_ERR_CONFIG,
              "sequence.halos.position_unit is not read with sequence.halos.format: 21cmfast",
              "comoving Mpc", "position_unit with 21cmFAST halos");
  /* 21cmfast halos read none of the other formats' keys (the halo model applies as for any) */
  expect_21cmfast_refuses(c, "sequence.halos.mass_unit=1",
                          "sequence.halos.mass_unit is not read with sequence.halos.format: "
                          "21cmfast",
                          "C2-Ray source lists only");
  expect_21cmfast_refuses(c, "sequence.halos.nbody_mesh=6144",
                          "sequence.halos.nbody_mesh is not read", "format: 21cmfast");
  expect_21cmfast_refuses(c, "sequence.halos.cell_index_base=1",
                          "sequence.halos.cell_index_base is not read", "format: 21cmfast");
  expect_21cmfast_refuses(c, "sequence.halos.f_gamma_low_mass=5",
                          "sequence.halos.f_gamma_low_mass = 5", "needs format: c2ray");
  expect_config_fail(c, NULL, "sequence.halos.format=hdf5", "sequence.halos.format = hdf5",
                     "ionfront, c2ray, pyc2ray_hdf5, 21cmfast", "hdf5 is no halo format");
  expect_config_fail(c, "synthetic: {kind: eor}\n", "sequence.halos.format=21cmfast",
                     "synthetic.kind = eor writes", "sequence.halos.format is not ionfront",
                     "synthetic eor with 21cmFAST halos");
  expect_config_fail(c, NULL, "sequence.density.format=21cmFAST5", "sequence.density.format",
                     "hdf5, cubep3m, 21cmfast", "an unknown density format");
  expect_config_fail(c, NULL, "sequence.density.format=cubep3m", "sequence.density.dataset is not read",
                     "format: cubep3m", "dataset with cubep3m");
  expect_config_fail(c, NULL, "sequence.density.fine_mesh=8000", "sequence.density.fine_mesh is not read",
                     "CubeP3M files only", "fine_mesh with hdf5");
  expect_config_fail(c, "synthetic: {kind: eor}\n", cube[0], "synthetic.kind = eor writes",
                     "sequence.density.format is not hdf5", "synthetic eor with CubeP3M files");
}

static void test_config(const struct seq_case *c) {
  printf("config:\n");
  struct ionf_config cfg;
  ionf_err rc = load_case(c, NULL, NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "valid sequence: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  const struct sequence_config *seq = &cfg.sequence;
  struct cosmology cosmo = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  double age0 = cosmology_age_s(&cosmo, case_z[0]);
  EXPECT(seq->n_redshifts == N_Z, "n_redshifts %d", seq->n_redshifts);
  EXPECT(cfg.z_initial == case_z[0], "z_initial %.17g defaults to the first redshift", cfg.z_initial);
  EXPECT_REL(cfg.t_end_s, cosmology_age_s(&cosmo, case_z[N_Z - 1]) - age0, 1e-12,
             "t_end implied by the redshifts");
  EXPECT(cfg.n_sources_inline == 0 && !cfg.source_file[0] && !cfg.n_h_cm3.from_file,
         "no sources: and no material.n_H needed");
  for (int i = 0; i + 1 < N_Z; ++i) {
    double span = cosmology_age_s(&cosmo, case_z[i + 1]) - cosmology_age_s(&cosmo, case_z[i]);
    EXPECT_REL(seq->times_s[i + 1] - seq->times_s[i], span, 1e-12, "interval length");
    /* ceil(span / dt) equal steps: no more than dt, and one fewer would be too long */
    double dt = cfg.dt_s;
    EXPECT(seq->steps[i] >= 1 && span / (double)seq->steps[i] <= dt * (1 + 1e-12) &&
               (seq->steps[i] == 1 || span / (double)(seq->steps[i] - 1) > dt),
           "interval %d: %lld steps of %.4g Myr for %.4g Myr with dt %.4g Myr", i,
           (long long)seq->steps[i], span / (double)seq->steps[i] / IONF_MYR_S, span / IONF_MYR_S,
           dt / IONF_MYR_S);
  }
  EXPECT(cfg.n_outputs == N_Z - 1, "%d outputs, expected one per redshift after the first",
         cfg.n_outputs);
  for (int k = 1; k < N_Z && cfg.n_outputs == N_Z - 1; ++k)
    EXPECT(cfg.output_times_s[k - 1] == seq->times_s[k], "output %d at the time of z = %g", k,
           case_z[k]);
  EXPECT(strstr(seq->density_pattern, "density_z%.3f.h5") && seq->density_pattern[0] == '/',
         "density pattern resolved: %s", seq->density_pattern);
  EXPECT(seq->halo_f_gamma == 20.0 && seq->halo_t_source_s == 10.0 * IONF_MYR_S &&
             fabs(seq->halo_position_unit_cm / IONF_MPC_CM - 1.0) < 1e-15,
         "halo parameters");

  /* the formats: hdf5 and ionfront unless given, and shown in the effective YAML */
  EXPECT(seq->density_format == SEQUENCE_DENSITY_HDF5 && seq->halo_format == HALO_FORMAT_IONFRONT &&
             strstr(cfg.effective_yaml, "format: hdf5") &&
             strstr(cfg.effective_yaml, "format: ionfront"),
         "density format hdf5 and halo format ionfront by default, in the effective YAML");

  /* the effective YAML runs the same sequence (t_end and z_initial written out) */
  struct ionf_config again;
  rc = load_yaml(cfg.effective_yaml, "effective.yaml", &again);
  EXPECT(rc == IONF_OK, "effective YAML: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(again.t_end_s == cfg.t_end_s && again.z_initial == cfg.z_initial &&
               again.n_outputs == cfg.n_outputs && again.sequence.n_redshifts == N_Z,
           "effective YAML round trip");
    for (int i = 0; i + 1 < N_Z; ++i)
      EXPECT(again.sequence.steps[i] == seq->steps[i], "round trip: steps of interval %d", i);
    config_free(&again);
  }

  /* an explicit t_end that matches is accepted; time.outputs adds snapshots */
  char t_end_ok[96], *ov[2];
  snprintf(t_end_ok, sizeof t_end_ok, "time.t_end=%.10f Myr", cfg.t_end_s / IONF_MYR_S);
  ov[0] = t_end_ok;
  ov[1] = "time.outputs=[1 Myr]";
  struct ionf_config with_outputs;
  rc = load_case(c, NULL, ov, 2, &with_outputs);
  EXPECT(rc == IONF_OK, "matching t_end and time.outputs: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(with_outputs.n_outputs == N_Z && with_outputs.output_times_s[0] == IONF_MYR_S &&
               with_outputs.output_times_s[1] == seq->times_s[1],
           "time.outputs adds a snapshot at 1 Myr to the redshifts' (%d outputs)",
           with_outputs.n_outputs);
    config_free(&with_outputs);
  }
  /* the test hook of a failing later read (debug:) applies to sequences */
  char *fail_load[] = {"debug.fail_load_rank=1"};
  struct ionf_config with_hook;
  rc = load_case(c, NULL, fail_load, 1, &with_hook);
  EXPECT(rc == IONF_OK && with_hook.debug.fail_load_rank == 1,
         "debug.fail_load_rank with a sequence: %s", ionf_error_message());
  if (rc == IONF_OK) config_free(&with_hook);
  config_free(&cfg);

  /* patterns relative to the config file's directory */
  char text[4096], name[512];
  snprintf(text, sizeof text,
           "grid: {N: 8, box_size: 2 Mpc}\nmaterial: {temperature: 1e4, x_HII_initial: 1e-3}\n"
           "time: {dt: 5 Myr}\ncosmology: {cosmological: true}\n"
           "sequence:\n  redshifts: [9, 8]\n  density: {pattern: in/d_%%.2f.h5, dataset: rho}\n"
           "  halos: {pattern: \"h_%%g.h5\", f_gamma: 5, t_source: 3}\n");
  snprintf(name, sizeof name, "%s/sub/run.yaml", c->dir);
  rc = load_yaml(text, name, &cfg);
  EXPECT(rc == IONF_OK, "relative patterns: %s", ionf_error_message());
  if (rc == IONF_OK) {
    char want[600];
    snprintf(want, sizeof want, "%s/sub/in/d_%%.2f.h5", c->dir);
    EXPECT(strcmp(cfg.sequence.density_pattern, want) == 0, "pattern %s, expected %s",
           cfg.sequence.density_pattern, want);
    char file[700];
    config_sequence_file_name(cfg.sequence.halo_pattern, 8.5, file, sizeof file);
    snprintf(want, sizeof want, "%s/sub/h_8.5.h5", c->dir);
    EXPECT(strcmp(file, want) == 0, "halo file %s, expected %s", file, want);
    EXPECT(cfg.sequence.steps[0] >= 1, "one interval");
    config_free(&cfg);
  }

  /* the rules */
  expect_config_fail(c, NULL, "sequence.redshifts=[9, 8.8, 8.9, 8.7]", "sequence.redshifts[2] = 8.9",
                     "strictly descending", "redshifts not descending");
  expect_config_fail(c, NULL, "sequence.redshifts=[9, 9]", "sequence.redshifts[1] = 9",
                     "strictly descending", "a repeated redshift");
  expect_config_fail(c, NULL, "sequence.redshifts=[9]", "sequence.redshifts",
                     "at least two redshifts", "one redshift");
  expect_config_fail(c, NULL, "cosmology.cosmological=false", "sequence:",
                     "cosmology.cosmological: true", "sequence without cosmology");
  expect_config_fail(c, NULL, "time.t_end=50 Myr", "time.t_end = 50 Myr",
                     "leave time.t_end out", "t_end that does not match");
  expect_config_fail(c, NULL, "cosmology.z_initial=10", "cosmology.z_initial",
                     "first of sequence.redshifts", "z_initial not the first redshift");
  expect_config_fail(c, NULL, "material.n_H=1e-4", "material.n_H and sequence.density",
                     "leave material.n_H out", "density given twice");
  expect_config_fail(c, NULL, "sources=[{position: [1, 1, 1], Ndot: 1e50}]",
                     "sources: and sequence.halos", NULL, "sources given twice");
  expect_config_fail(c, NULL, "sequence.density.pattern=density.h5",
                     "sequence.density.pattern = 'density.h5'", "one number conversion",
                     "pattern without the redshift");
  expect_config_fail(c, NULL, "sequence.halos.pattern=h_%.3f_%.3f.h5", "sequence.halos.pattern",
                     "one number conversion", "pattern with two conversions");
  expect_config_fail(c, NULL, "sequence.halos.t_source=-1", "sequence.halos.t_source", "> 0",
                     "negative source lifetime");
  expect_config_fail(c, NULL, "sequence.halo={pattern: x}", "unknown key 'sequence.halo'",
                     "did you mean 'halos'", "key typo");
  expect_config_fail(c, NULL, "sequence.density={pattern: \"d%.1f.h5\"}", "sequence.density.dataset",
                     "dataset", "density without a dataset");
  test_config_formats(c);
}

/* ---- a run along the redshifts ----------------------------------------------------- */

struct log_row {
  double time_s, redshift, ndot;
  long long step, n_sources;
  int iterations;
};

static int read_log(const char *path, struct log_row *rows, int cap) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[1024];
  int n = 0;
  if (!fgets(line, sizeof line, f)) n = -1;
  while (n >= 0 && n < cap && fgets(line, sizeof line, f)) {
    struct log_row *r = &rows[n];
    double tm, xv, xm, wall;
    if (sscanf(line, "%lld,%lf,%lf,%d,%lf,%lf,%lf,%lf,%lld,%lf", &r->step, &r->time_s, &tm,
               &r->iterations, &xv, &xm, &wall, &r->redshift, &r->n_sources, &r->ndot) == 10)
      ++n;
  }
  fclose(f);
  return n;
}

static void test_run(const struct seq_case *c) {
  printf("run:\n");
  struct ionf_config cfg;
  struct engine *e = NULL;
  ionf_err rc = load_case(c, NULL, NULL, 0, &cfg);
  if (rc == IONF_OK) rc = engine_create(&cfg, &e);
  EXPECT(rc == IONF_OK, "engine: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  struct engine_report rep;
  rc = engine_run(e, &rep);
  EXPECT(rc == IONF_OK, "run: %s", ionf_error_message());
  const struct sequence_config *seq = &cfg.sequence;
  int64_t total_steps = 0;
  for (int i = 0; i + 1 < N_Z; ++i) total_steps += seq->steps[i];
  EXPECT(rep.steps == total_steps && rep.n_snapshots == N_Z, "%lld steps (expected %lld), %d snapshots",
         (long long)rep.steps, (long long)total_steps, rep.n_snapshots);
  engine_destroy(e);
  if (rc != IONF_OK) {
    config_free(&cfg);
    return;
  }

  struct cosmology cosmo = cosmology_flat(cfg.hubble_h, cfg.omega_m, cfg.omega_b, cfg.t_cmb0_k);
  double age0 = cosmology_age_s(&cosmo, case_z[0]);
  int64_t cells = (int64_t)N_CELLS * N_CELLS * N_CELLS;
  double *snap_nh = malloc(sizeof(double) * (size_t)cells);
  double *file_nh = malloc(sizeof(double) * (size_t)cells);
  double *other_nh = malloc(sizeof(double) * (size_t)cells);
  double *gamma = malloc(sizeof(double) * (size_t)cells);
  double *x = malloc(sizeof(double) * (size_t)cells);
  double *x_prev = malloc(sizeof(double) * (size_t)cells);
  for (int k = 0; k < N_Z; ++k) {
    char snap[600], file[600], want[600], text[1024];
    snprintf(snap, sizeof snap, "%s/out/snapshot_%04d.h5", c->dir, k);
    int interval = k == 0 ? 0 : k - 1; /* the inputs the state was evolved with */
    double z_i = case_z[interval];
    EXPECT(attr_double(snap, "redshift") == case_z[k], "snapshot %d at z = %.17g, expected %g", k,
           attr_double(snap, "redshift"), case_z[k]);
    EXPECT(attr_double(snap, "inputs_redshift") == z_i, "snapshot %d: inputs of z = %g", k, z_i);
    snprintf(file, sizeof file, "%s/density_z%.3f.h5", c->dir, z_i);
    attr_string(snap, "density_file", text, sizeof text);
    EXPECT(strcmp(text, file) == 0, "snapshot %d: density_file '%s', expected '%s'", k, text, file);
    snprintf(want, sizeof want, "%s/halos_z%.3f.h5", c->dir, z_i);
    attr_string(snap, "halo_file", text, sizeof text);
    EXPECT(strcmp(text, want) == 0, "snapshot %d: halo_file '%s', expected '%s'", k, text, want);

    /* (a) n_H: the interval's file diluted from z_i to the last step's middle */
    double z_h = case_z[0];
    if (k > 0) {
      double step_s = (seq->times_s[k] - seq->times_s[k - 1]) / (double)seq->steps[k - 1];
      z_h = cosmology_redshift_at_age(&cosmo, age0 + seq->times_s[k] - 0.5 * step_s);
    }
    double z_dens = attr_double(snap, "density_redshift");
    EXPECT(fabs(z_dens - z_h) <= 1e-10, "snapshot %d: n_H stands at z = %.12g, expected %.12g", k,
           z_dens, z_h);
    int read_ok = io_field_read(snap, "/Grid/n_H", N_CELLS, "n_H", "n_H", snap_nh) == IONF_OK &&
                  io_density_read(file, "n_H", N_CELLS, file_nh) == IONF_OK;
    snprintf(file, sizeof file, "%s/density_z%.3f.h5", c->dir, case_z[(interval + 1) % N_Z]);
    read_ok = read_ok && io_density_read(file, "n_H", N_CELLS, other_nh) == IONF_OK &&
              io_field_read(snap, "/Grid/Gamma_HI", N_CELLS, "Gamma", "rates", gamma) == IONF_OK &&
              io_field_read(snap, "/Grid/x_HII", N_CELLS, "x", "fractions", x) == IONF_OK;
    EXPECT(read_ok, "snapshot %d: reading fields: %s", k, ionf_error_message());
    if (!read_ok) break;
    double ratio = (1.0 + z_dens) / (1.0 + z_i), factor = ratio * ratio * ratio;
    double worst = 0.0, other_best = INFINITY, gamma_max = 0.0;
    for (int64_t q = 0; q < cells; ++q) {
      double d = fabs(snap_nh[q] - file_nh[q] * factor) / (file_nh[q] * factor);
      if (!(d <= worst)) worst = d;
      double o = fabs(snap_nh[q] - other_nh[q] * factor) / (other_nh[q] * factor);
      if (o < other_best) other_best = o;
      if (gamma[q] > gamma_max) gamma_max = gamma[q];
    }
    printf("  snapshot %d (z = %g): n_H = file of z = %g x %.6f to %.2g; Gamma max %.3g\n", k,
           case_z[k], z_i, factor, worst, gamma_max);
    EXPECT(worst <= 1e-13, "snapshot %d: n_H differs from the file of z = %g diluted by %.3g",
           k, z_i, worst);
    EXPECT(worst < 1e-3 * other_best, "snapshot %d: the check cannot tell the files apart", k);

    /* (b), (c): Gamma follows the catalogues; chemistry runs without sources */
    int n_src = k == 0 ? 0 : seq_case_sources(c, interval);
    if (k > 0) {
      EXPECT(attr_double(snap, "n_sources") == n_src, "snapshot %d: %g sources, expected %d", k,
             attr_double(snap, "n_sources"), n_src);
      EXPECT_REL(attr_double(snap, "Ndot_total_per_s"), catalogue_ndot(c, interval, &cfg), 1e-12,
                 "snapshot Ndot_total_per_s");
      if (n_src == 0)
        EXPECT(gamma_max == 0.0, "snapshot %d: no halos, yet Gamma up to %g", k, gamma_max);
      else
        EXPECT(gamma_max > 0.0, "snapshot %d: %d sources and no Gamma", k, n_src);
      double changed = 0.0;
      for (int64_t q = 0; q < cells; ++q) changed = test_worst(changed, test_abs_diff(x[q], x_prev[q]));
      EXPECT(changed > 1e-9 && isfinite(changed), "snapshot %d: x_HII did not change over interval %d (%d sources)", k,
             interval, n_src);
    }
    memcpy(x_prev, x, sizeof(double) * (size_t)cells);
  }
  free(snap_nh); free(file_nh); free(other_nh); free(gamma); free(x); free(x_prev);

  /* log.csv: one row per step with the interval's sources and photon rate */
  char log_path[600];
  snprintf(log_path, sizeof log_path, "%s/out/log.csv", c->dir);
  struct log_row rows[256];
  int n_rows = read_log(log_path, rows, 256);
  EXPECT(n_rows == total_steps, "log.csv has %d rows, expected %lld", n_rows, (long long)total_steps);
  for (int r = 0; r < n_rows; ++r) {
    int i = sequence_interval_ending_at(seq, rows[r].time_s, 1e-9 * cfg.dt_s);
    EXPECT(rows[r].n_sources == seq_case_sources(c, i), "log step %lld: %lld sources, expected %d",
           rows[r].step, rows[r].n_sources, seq_case_sources(c, i));
    double want = catalogue_ndot(c, i, &cfg);
    EXPECT(want == 0.0 ? rows[r].ndot == 0.0 : fabs(rows[r].ndot - want) <= 1e-9 * want,
           "log step %lld: Ndot %.10g, the catalogue of z = %g gives %.10g", rows[r].step,
           rows[r].ndot, case_z[i], want);
    EXPECT(rows[r].iterations >= 1 && rows[r].redshift < case_z[i] &&
               rows[r].redshift >= case_z[i + 1],
           "log step %lld: z = %g in interval %d", rows[r].step, rows[r].redshift, i);
  }
  config_free(&cfg);
}

/* ---- only the density, or only the halos, from the sequence -------------------------- */

/* Run the YAML `text` (named in c's directory) to its end; 0 on failure. */
static int run_text(const struct seq_case *c, const char *text, const char *out,
                    struct ionf_config *cfg) {
  char name[512], out_override[600];
  snprintf(name, sizeof name, "%s/partial.yaml", c->dir);
  FILE *f = fopen(name, "w");
  if (!f) return 0;
  fputs(text, f);
  fclose(f);
  snprintf(out_override, sizeof out_override, "output.directory=%s/%s", c->dir, out);
  char *ov[1] = {out_override};
  struct engine *e = NULL;
  struct engine_report rep;
  ionf_err rc = config_load(name, NULL, ov, 1, cfg);
  if (rc == IONF_OK) rc = engine_create(cfg, &e);
  if (rc == IONF_OK) rc = engine_run(e, &rep);
  EXPECT(rc == IONF_OK, "%s: %s", out, ionf_error_message());
  engine_destroy(e);
  return rc == IONF_OK;
}

static void test_partial(const struct seq_case *c) {
  printf("density only, halos only:\n");
  char text[4096], snap[600], log_path[600];
  struct ionf_config cfg;
  struct log_row rows[64];
  /* the density files with constant inline sources */
  snprintf(text, sizeof text,
           "grid: {N: %d, box_size: 2 Mpc}\nmaterial: {temperature: 1e4, x_HII_initial: 1.2e-3}\n"
           "sources:\n  - {position: [3, 4, 5], Ndot: 1e52}\n  - {position: [3, 4, 5], Ndot: 2e52}\n"
           "time: {dt: 2.5 Myr}\ncosmology: {cosmological: true}\noutput: {progress: false}\n"
           "sequence:\n  redshifts: [9.0, 8.9, 8.8]\n"
           "  density: {pattern: \"density_z%%.3f.h5\", dataset: n_H}\n",
           c->n);
  if (run_text(c, text, "density_only", &cfg)) {
    snprintf(log_path, sizeof log_path, "%s/density_only/log.csv", c->dir);
    int n = read_log(log_path, rows, 64);
    EXPECT(n > 2, "density only: %d log rows", n);
    for (int r = 0; r < n; ++r)
      EXPECT(rows[r].n_sources == 1 && rows[r].ndot == 3e52, "density only: sources constant "
             "(row %d: %lld, %g)", r, rows[r].n_sources, rows[r].ndot);
    snprintf(snap, sizeof snap, "%s/density_only/snapshot_0002.h5", c->dir);
    char file[600];
    attr_string(snap, "density_file", file, sizeof file);
    EXPECT(strstr(file, "density_z8.900.h5") != NULL, "density only: density_file '%s'", file);
    attr_string(snap, "halo_file", file, sizeof file);
    EXPECT(file[0] == '\0', "density only: no halo_file attribute, got '%s'", file);
    config_free(&cfg);
  }
  /* the halo catalogues in a uniform gas diluted from the first redshift */
  snprintf(text, sizeof text,
           "grid: {N: %d, box_size: 2 Mpc}\n"
           "material: {n_H: 2.0e-4, temperature: 1e4, x_HII_initial: 1.2e-3}\n"
           "time: {dt: 2.5 Myr}\ncosmology: {cosmological: true}\noutput: {progress: false}\n"
           "sequence:\n  redshifts: [9.0, 8.9, 8.8]\n"
           "  halos: {pattern: \"halos_z%%.3f.h5\", f_gamma: 20, t_source: 10 Myr}\n",
           c->n);
  if (run_text(c, text, "halos_only", &cfg)) {
    snprintf(snap, sizeof snap, "%s/halos_only/snapshot_0002.h5", c->dir);
    int64_t cells = (int64_t)c->n * c->n * c->n;
    double *nh = malloc(sizeof(double) * (size_t)cells);
    double z_dens = attr_double(snap, "density_redshift");
    double ratio = (1.0 + z_dens) / 10.0, want = 2.0e-4 * ratio * ratio * ratio, worst = 0.0;
    if (io_field_read(snap, "/Grid/n_H", c->n, "n_H", "n_H", nh) == IONF_OK)
      for (int64_t q = 0; q < cells; ++q) worst = test_worst(worst, test_rel_diff(nh[q], want, 0.0));
    else
      worst = INFINITY;
    EXPECT(worst <= 1e-13 && z_dens < 8.9, "halos only: n_H = 2e-4 diluted from z = 9 to %g, "
           "off by %.3g", z_dens, worst);
    EXPECT(attr_double(snap, "n_sources") == seq_case_sources(c, 1),
           "halos only: %g sources in interval 2", attr_double(snap, "n_sources"));
    free(nh);
    config_free(&cfg);
  }
}

/* ---- bad inputs: engine_create fails before any step ---------------------------------- */

static void test_bad_inputs(const struct seq_case *good) {
  printf("bad inputs:\n");
  struct seq_case c = *good;
  char path[600], moved[620];
  struct ionf_config cfg;
  struct engine *e = NULL;

  /* the last redshift only ends the run: its files are not needed */
  snprintf(path, sizeof path, "%s/density_z%.3f.h5", c.dir, case_z[N_Z - 1]);
  snprintf(moved, sizeof moved, "%s.away", path);
  EXPECT(rename(path, moved) == 0, "rename");
  ionf_err rc = load_case(&c, NULL, NULL, 0, &cfg);
  if (rc == IONF_OK) rc = engine_create(&cfg, &e);
  EXPECT(rc == IONF_OK, "without the last redshift's density file: %s", ionf_error_message());
  engine_destroy(e);
  e = NULL;
  config_free(&cfg);
  EXPECT(rename(moved, path) == 0, "rename back");

  /* a density file missing in the middle of the list */
  snprintf(path, sizeof path, "%s/density_z%.3f.h5", c.dir, case_z[2]);
  snprintf(moved, sizeof moved, "%s.away", path);
  EXPECT(rename(path, moved) == 0, "rename");
  rc = load_case(&c, NULL, NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "config");
  rc = engine_create(&cfg, &e);
  expect_fail(rc, IONF_ERR_IO, "sequence.density at z = 8.8", "density_z8.800.h5",
              "missing density file");
  EXPECT(e == NULL, "no engine after a failure");

  /* ... and a halo outside the box in an earlier catalogue: both counted, the first shown */
  char halos_path[600], halos_moved[620];
  snprintf(halos_path, sizeof halos_path, "%s/halos_z%.3f.h5", c.dir, case_z[1]);
  snprintf(halos_moved, sizeof halos_moved, "%s.away", halos_path);
  EXPECT(rename(halos_path, halos_moved) == 0, "rename");
  c.pos_mpc[1][3][1] = SEQ_BOX_MPC * 1.25;
  EXPECT(seq_write_halos(&c, 1), "write halos");
  rc = engine_create(&cfg, &e);
  expect_fail(rc, IONF_ERR_INPUT, "sequence.halos at z = 8.9", "outside the box",
              "halo outside the box");
  rc = engine_create(&cfg, &e);
  expect_fail(rc, IONF_ERR_INPUT, "halos_z8.900.h5", "2 of the 4 redshifts",
              "two bad redshifts");
  EXPECT(rename(moved, path) == 0 && rename(halos_moved, halos_path) == 0, "rename back");

  /* a density file of another grid */
  snprintf(path, sizeof path, "%s/density_z%.3f.h5", c.dir, case_z[3]);
  snprintf(moved, sizeof moved, "%s.away", path);
  EXPECT(rename(path, moved) == 0, "rename");
  struct seq_case small = *good;
  small.n = 8;
  EXPECT(seq_write_density(&small, 3, 5u), "write a small density file");
  rc = engine_create(&cfg, &e);
  expect_fail(rc, IONF_ERR_INPUT, "sequence.density at z = 8.7", "(16, 16, 16)",
              "density file of another grid");
  EXPECT(rename(moved, path) == 0, "rename back");
  config_free(&cfg);
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  if (!mkdtemp(tmp_dir)) {
    perror("mkdtemp");
    return 1;
  }
  struct seq_case c;
  EXPECT(seq_case_write(&c, tmp_dir, N_CELLS, N_Z, case_z, case_halos, 11u), "writing the inputs");
  test_config(&c);
  test_run(&c);
  test_partial(&c);
  test_bad_inputs(&c);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmp_dir);
  if (!test_failures && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_dir);
  comm_finalize();
  TEST_RETURN();
}
