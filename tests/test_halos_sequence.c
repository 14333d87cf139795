/**
 * @file test_halos_sequence.c
 * @brief sequence.halos with the source models and the halo-list formats, through the
 *        config and the engine (16^3 cells, files written here):
 *  (a) the config: the grammar, its effective YAML (defaults shown, round trip), the
 *      C2-Ray mass unit from nbody_mesh, and the refusals, each naming key and value
 *      (pyC2Ray's stochastic models, keys a model or format does not read, missing ones);
 *  (b) per-source Ndot of the first interval against values written out by hand: c2ray
 *      lists with both mass classes; a pyC2Ray halo list (Mpc/h, Msun/h) with dpl f_star,
 *      power f_esc, N_ion and exponential accretion; a pyC2Ray source list; an ionfront
 *      catalogue with power_obs; each 2-redshift sequence then runs to its end;
 *  (c) C2-Ray's suppression: over three redshifts the low-mass haloes of the cell a bright
 *      source ionized are left out of the second interval, those of a neutral cell kept,
 *      and the suppressed cell recorded in the last snapshot.
 */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/constants.h"
#include "core/error.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "grid/grid.h"
#include "io/io_halos_c2ray.h"
#include "mpi/comm.h"
#include "test_util.h"

#define N 16
static char dir[] = "/tmp/ionf_halos_seq_XXXXXX";
static const double om = 0.27, ob = 0.043, hubble = 0.7;

/* ---- inputs ------------------------------------------------------------------------ */

static void write_file(const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  EXPECT(f != NULL, "cannot write %s", path);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void write_h5(const char *name, const char *pos_name, const double *pos, int pos_int,
                     const char *mass_name, const double *mass, hsize_t n, double h) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[2] = {n, 3};
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t space = H5Screate_simple(2, dims, NULL);
  hid_t type = pos_int ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
  hid_t d = H5Dcreate2(f, pos_name, type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  int32_t ints[3 * 8];
  for (hsize_t q = 0; q < 3 * n && q < 24; ++q) ints[q] = (int32_t)pos[q];
  H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pos_int ? (const void *)ints : pos);
  H5Dclose(d);
  H5Sclose(space);
  space = H5Screate_simple(1, dims, NULL);
  d = H5Dcreate2(f, mass_name, H5T_NATIVE_DOUBLE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, mass);
  H5Dclose(d);
  H5Sclose(space);
  H5Pclose(lcpl);
  if (h > 0.0) {
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "h", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &h);
    H5Aclose(a);
    H5Sclose(s);
  }
  H5Fclose(f);
}

/* The config NAME.yaml of a run over `redshifts` with sequence.halos = `halos`. */
static ionf_err load(const char *name, const char *redshifts, const char *halos,
                     struct ionf_config *cfg) {
  char text[4096], path[512];
  snprintf(text, sizeof text,
           "grid: {N: %d, box_size: 2 Mpc, periodic: false}\n"
           "material: {n_H: 1.9e-4, temperature: 1.0e4, x_HII_initial: 1.2e-3}\n"
           "spectrum: {type: grey}\n"
           "time: {dt: 2.5 Myr}\n"
           "cosmology: {cosmological: true, h: %g, Omega_m: %g, Omega_b: %g}\n"
           "output: {directory: out_%s, progress: false}\n"
           "sequence:\n  redshifts: %s\n  halos: %s\n",
           N, hubble, om, ob, name, redshifts, halos);
  snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return ionf_error_set(IONF_ERR_IO, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
  return config_load(path, NULL, NULL, 0, cfg);
}

/* ---- hand values ---------------------------------------------------------------------- */

static double hubble_per_s(double z) {
  double h0 = hubble * 100.0 * 1.0e5 / 3.0856775814913673e24;
  return h0 * sqrt(om * pow(1.0 + z, 3.0) + 1.0 - om);
}

/* Ndot = N_ion f_esc f_star M / (m_p t_s) */
static double ndot(double n_ion, double f_esc, double f_star, double m_msun, double t_s) {
  return n_ion * f_esc * f_star * m_msun * 1.98847e33 / (1.67262192369e-24 * t_s);
}

static double f_gamma_ndot(double f_gamma, double m_msun, double t_s) {
  return ndot(1.0, 1.0, f_gamma * ob / om, m_msun, t_s);
}

/* dpl with g3 = g4 = 0: 2 f_b f0 / ((M/M_p)^g1 + (M/M_p)^g2) */
static double dpl(double f0, double m_p, double g1, double g2, double m) {
  return 2.0 * ob / om * f0 / (pow(m / m_p, g1) + pow(m / m_p, g2));
}

static void expect_source(const struct engine *e, int64_t s, int i, int j, int k, double want,
                          const char *what) {
  const int32_t *c = e->sources.ijk + 3 * s;
  EXPECT(s < e->sources.n && c[0] == i && c[1] == j && c[2] == k,
         "%s: source %lld in (%d,%d,%d), expected (%d,%d,%d)", what, (long long)s, c[0], c[1], c[2],
         i, j, k);
  EXPECT_REL(e->sources.ndot_per_s[s], want, 1e-13, what);
  printf("  %s: (%d,%d,%d) Ndot %.6e, expected %.6e\n", what, c[0], c[1], c[2],
         e->sources.ndot_per_s[s], want);
}

/* Create the engine (its first interval loaded), check it, run to the end. */
static struct engine *start(const char *name, const char *redshifts, const char *halos,
                            struct ionf_config *cfg) {
  struct engine *e = NULL;
  ionf_err rc = load(name, redshifts, halos, cfg);
  if (rc == IONF_OK) rc = engine_create(cfg, &e);
  EXPECT(rc == IONF_OK, "%s: %s", name, ionf_error_message());
  if (rc != IONF_OK) ionf_error_clear();
  return e;
}

static void finish(const char *name, struct engine *e, struct ionf_config *cfg) {
  if (!e) return;
  struct engine_report rep;
  ionf_err rc = engine_run(e, &rep);
  EXPECT(rc == IONF_OK && rep.steps > 0, "%s: the run: %s", name, ionf_error_message());
  engine_destroy(e);
  config_free(cfg);
}

/* ---- (b) formats and models ---------------------------------------------------------------- */

static void test_c2ray(void) {
  printf("c2ray:\n");
  /* masses in Msun (mass_unit 1); C2-Ray's names: i j k M_HMACH M_LMACH */
  const char *list = "3 0.0\n8 8 8 1e9 2e8\n1 1 1 0 1e2\n16 16 16 3e9 0\n";
  write_file("9.000-coarsest_wsubgrid_sources.dat", list);
  struct ionf_config cfg;
  struct engine *e = start("c2ray", "[9.0, 8.9]",
                           "{pattern: \"%.3f-coarsest_wsubgrid_sources.dat\", format: c2ray, "
                           "mass_unit: 1, f_gamma: 10, t_source: 10 Myr, f_gamma_low_mass: 150}",
                           &cfg);
  if (!e) return;
  double t_s = 10.0 * IONF_MYR_S;
  EXPECT(e->sources.n == 3, "c2ray: %lld sources", (long long)e->sources.n);
  expect_source(e, 0, 0, 0, 0, f_gamma_ndot(150, 1e2, t_s), "c2ray (1,1,1): low-mass haloes");
  expect_source(e, 1, 7, 7, 7, f_gamma_ndot(10, 1e9, t_s) + f_gamma_ndot(150, 2e8, t_s),
                "c2ray (8,8,8): both classes");
  expect_source(e, 2, 15, 15, 15, f_gamma_ndot(10, 3e9, t_s), "c2ray (16,16,16): high-mass");
  EXPECT(e->seq_n_suppressed == 0, "c2ray: %lld cells suppressed at the start (x = 1.2e-3)",
         (long long)e->seq_n_suppressed);
  finish("c2ray", e, &cfg);
}

static void test_pyc2ray_halo_list(void) {
  printf("pyc2ray_hdf5 halo list, dpl, power f_esc, exponential accretion:\n");
  /* positions [Mpc/h] and masses [Msun/h] at h = 0.7: 1e10 and 2e9 Msun */
  const double pos[] = {0.1, 1.3, 0.0, 0.7, 0.7, 0.7};
  const double mass[] = {7e9, 1.4e9};
  write_h5("halos_z9.000.hdf5", "pos", pos, 0, "mass", mass, 2, 0.7);
  struct ionf_config cfg;
  struct engine *e = start(
      "pyc2ray_dpl", "[9.0, 8.9]",
      "{pattern: \"halos_z%.3f.hdf5\", format: pyc2ray_hdf5, model: {f_star: {model: dpl, f0: 0.1, "
      "M_t: 1e8, M_p: 1e10, g1: -0.3, g2: -0.3, g3: 0, g4: 0}, f_esc: {model: power, f0: 0.02, "
      "M_p: 1e10, alpha: -0.25}, N_ion: 2000, accretion: {model: exponential, alpha_h: 0.79}}}",
      &cfg);
  if (!e) return;
  double t_s = 1.0 / (0.79 * 10.0 * hubble_per_s(9.0));
  /* cells of 0.0875 Mpc/h: (0.1, 1.3, 0) -> (1, 14, 0); (0.7, 0.7, 0.7) -> (8, 8, 8) */
  EXPECT(e->sources.n == 2, "pyc2ray halo list: %lld sources", (long long)e->sources.n);
  expect_source(e, 0, 1, 14, 0, ndot(2000, 0.02, 0.1 * ob / om, 1e10, t_s),
                "1e10 Msun at M_p: f_star = 0.1 f_b, f_esc 0.02");
  expect_source(e, 1, 8, 8, 8,
                ndot(2000, 0.02 * pow(0.2, -0.25), dpl(0.1, 1e10, -0.3, -0.3, 2e9), 2e9, t_s),
                "2e9 Msun");
  finish("pyc2ray_dpl", e, &cfg);
}

static void test_pyc2ray_source_list(void) {
  printf("pyc2ray_hdf5 source list:\n");
  const double cells[] = {0, 1, 15, 0, 1, 15};
  const double mass[] = {1e9, 2e9};
  write_h5("sources_z9.000.hdf5", "sources_positions", cells, 1, "sources_mass", mass, 2, 0.0);
  struct ionf_config cfg;
  struct engine *e = start("pyc2ray_cells", "[9.0, 8.9]",
                           "{pattern: \"sources_z%.3f.hdf5\", format: pyc2ray_hdf5, f_gamma: 20, "
                           "t_source: 10 Myr}",
                           &cfg);
  if (!e) return;
  EXPECT(e->sources.n == 1, "pyc2ray source list: %lld sources", (long long)e->sources.n);
  expect_source(e, 0, 0, 1, 15, f_gamma_ndot(20, 3e9, 10.0 * IONF_MYR_S),
                "two halos merged in cell (0,1,15) (0-based)");
  finish("pyc2ray_cells", e, &cfg);
}

static void test_ionfront_power_obs(void) {
  printf("ionfront catalogue, power_obs f_esc:\n");
  const double pos[] = {1.0, 1.0, 1.0};
  const double mass[] = {4e10};
  write_h5("cat_z9.000.h5", "/halos/position", pos, 0, "/halos/mass", mass, 1, 0.0);
  struct ionf_config cfg;
  struct engine *e = start("ionfront_obs", "[9.0, 8.9]",
                           "{pattern: \"cat_z%.3f.h5\", t_source: 5 Myr, model: {f_star: {model: "
                           "dpl, f0: 0.05, M_t: 1e8, M_p: 1e11, g1: -0.5, g2: 0.5, g3: 0, g4: 0}, "
                           "f_esc: {model: power_obs, f0: 0.1, M_p: 1e8, alpha: -0.5}, N_ion: 4000}}",
                           &cfg);
  if (!e) return;
  double f_star = dpl(0.05, 1e11, -0.5, 0.5, 4e10);
  double f_esc = fmin(1.0, 0.1 * pow(f_star * 4e10 / 1e8, -0.5));
  EXPECT(e->sources.n == 1, "ionfront catalogue: %lld sources", (long long)e->sources.n);
  expect_source(e, 0, 8, 8, 8, ndot(4000, f_esc, f_star, 4e10, 5.0 * IONF_MYR_S),
                "4e10 Msun, f_esc at the stellar mass");
  finish("ionfront_obs", e, &cfg);
}

/* ---- (c) suppression ------------------------------------------------------------------- */

static void test_suppression(void) {
  printf("suppression over three redshifts:\n");
  const char *list = "2\n8 8 8 1e9 2e8\n1 1 1 0 1e2\n";
  write_file("9.000-lm.dat", list);
  write_file("8.900-lm.dat", list);
  struct ionf_config cfg;
  struct engine *e = start("lm", "[9.0, 8.9, 8.8]",
                           "{pattern: \"%.3f-lm.dat\", format: c2ray, mass_unit: 1, f_gamma: 10, "
                           "t_source: 10 Myr, f_gamma_low_mass: 150}",
                           &cfg);
  if (!e) return;
  struct engine_report rep;
  ionf_err rc = engine_run(e, &rep);
  EXPECT(rc == IONF_OK, "lm run: %s", ionf_error_message());
  double t_s = 10.0 * IONF_MYR_S;
  /* the bright cell (8,8,8) is ionized by z = 8.9, the faint (1,1,1) is not */
  EXPECT(e->seq_interval == 1 && e->seq_n_suppressed == 1 && e->seq_suppressed_cells &&
             e->seq_suppressed_cells[0] == grid_index(N, 7, 7, 7),
         "interval %d: %lld cells suppressed, expected (7,7,7) alone", e->seq_interval,
         (long long)e->seq_n_suppressed);
  EXPECT(e->sources.n == 2, "lm: %lld sources", (long long)e->sources.n);
  if (e->sources.n == 2) {
    expect_source(e, 0, 0, 0, 0, f_gamma_ndot(150, 1e2, t_s), "(1,1,1): neutral, kept");
    expect_source(e, 1, 7, 7, 7, f_gamma_ndot(10, 1e9, t_s), "(8,8,8): ionized, high-mass only");
  }
  char snap[600];
  snprintf(snap, sizeof snap, "%s/out_lm/snapshot_0002.h5", dir);
  hid_t f = H5Fopen(snap, H5F_ACC_RDONLY, H5P_DEFAULT);
  int64_t cell = -1;
  hid_t d = f >= 0 ? H5Dopen2(f, "/low_mass_suppressed_cells", H5P_DEFAULT) : -1;
  EXPECT(d >= 0 && H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &cell) >= 0 &&
             cell == grid_index(N, 7, 7, 7),
         "the last snapshot records the suppressed cell (%lld)", (long long)cell);
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
  engine_destroy(e);
  config_free(&cfg);
}

/* ---- (a) the config ------------------------------------------------------------------------ */

static void expect_refused(const char *halos, ionf_err code, const char *frag1, const char *frag2,
                           const char *what) {
  struct ionf_config cfg;
  ionf_err rc = load("refused", "[9.0, 8.9]", halos, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == code, "%s: code %d, expected %d (%s)", what, (int)rc, (int)code, msg);
  EXPECT(!frag1 || strstr(msg, frag1), "%s: message lacks '%s': %s", what, frag1, msg);
  EXPECT(!frag2 || strstr(msg, frag2), "%s: message lacks '%s': %s", what, frag2, msg);
  printf("  %s -> %s\n", what, msg);
  ionf_error_clear();
  if (rc == IONF_OK) config_free(&cfg);
}

static void test_config(void) {
  printf("config:\n");
  struct ionf_config cfg, again;
  ionf_err rc = load("plain", "[9.0, 8.9]", "{pattern: \"h%.3f.h5\", f_gamma: 20, t_source: 10}",
                     &cfg);
  EXPECT(rc == IONF_OK, "plain: %s", ionf_error_message());
  if (rc == IONF_OK) {
    const struct halo_model *m = &cfg.sequence.halo_model;
    EXPECT(cfg.sequence.halo_format == HALO_FORMAT_IONFRONT && m->f_star == HALO_FSTAR_F_GAMMA &&
               m->f_gamma == 20.0 && m->n_ion == 1.0 && m->f_esc == HALO_FESC_CONSTANT &&
               m->fesc_f0 == 1.0 && m->t_source_s == 10.0 * IONF_MYR_S &&
               m->f_gamma_low_mass == 0.0,
           "no model: today's f_gamma model");
    EXPECT(strstr(cfg.effective_yaml, "format: ionfront") &&
               strstr(cfg.effective_yaml, "f_gamma_low_mass: 0") &&
               !strstr(cfg.effective_yaml, "model:"),
           "effective YAML shows format and f_gamma_low_mass, no model:\n%s", cfg.effective_yaml);
    config_free(&cfg);
  }
  const char *full = "{pattern: \"%.3f.dat\", format: c2ray, nbody_mesh: 6144, f_gamma_low_mass: "
                     "150, model: {f_star: {model: dpl, f0: 0.1, M_t: 1e8, M_p: 1e10, g1: -0.3, "
                     "g2: -0.3, g3: 0, g4: 0}, f_esc: {model: constant, f0: 0.1}, N_ion: 2000, "
                     "accretion: {model: exponential, alpha_h: 0.79}}}";
  rc = load("full", "[9.0, 8.9]", full, &cfg);
  EXPECT(rc == IONF_OK, "full: %s", ionf_error_message());
  if (rc == IONF_OK) {
    struct cosmology c = cosmology_flat(hubble, om, ob, 2.725);
    EXPECT(cfg.sequence.halo_mass_unit_msun ==
               io_halos_c2ray_mass_unit_msun(&c, 2.0 * IONF_MPC_CM, 6144),
           "nbody_mesh 6144: mass unit %g Msun", cfg.sequence.halo_mass_unit_msun);
    EXPECT(strstr(cfg.effective_yaml, "bursty: none") && strstr(cfg.effective_yaml, "alpha_h: 0.79"),
           "effective YAML has the model:\n%s", cfg.effective_yaml);
    char path[512];
    snprintf(path, sizeof path, "%s/effective.yaml", dir);
    FILE *f = fopen(path, "w");
    if (f) {
      fputs(cfg.effective_yaml, f);
      fclose(f);
    }
    rc = config_load(path, NULL, NULL, 0, &again);
    EXPECT(rc == IONF_OK && memcmp(&again.sequence.halo_model, &cfg.sequence.halo_model,
                                   sizeof cfg.sequence.halo_model) == 0 &&
               again.sequence.halo_mass_unit_msun == cfg.sequence.halo_mass_unit_msun,
           "effective YAML round trip: %s", ionf_error_message());
    if (rc == IONF_OK) config_free(&again);
    config_free(&cfg);
  }
  printf("refusals:\n");
  const ionf_err C = IONF_ERR_CONFIG, U = IONF_ERR_UNSUPPORTED;
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: {model: lognorm}}}",
                 U, "sequence.halos.model.f_star.model = lognorm", "not supported", "lognorm");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: {model: Muv}}}", U,
                 "f_star.model = Muv", "not supported", "Muv");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: {model: spice_bu}}}",
                 U, "f_star.model = spice_bu", "not supported", "SPICE");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_esc: {model: Gelli2024}}}",
                 U, "f_esc.model = Gelli2024", "not supported", "Gelli2024");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_esc: {model: thesan}}}", U,
                 "f_esc.model = thesan", "not supported", "thesan");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {bursty: instant}}", U,
                 "sequence.halos.model.bursty = instant", "not supported", "bursty");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: {model: dpl, f0: "
                 "0.1, M_t: 1e8, M_p: 1e10, g1: 0, g2: 0, g3: 0, g4: 0}, N_ion: 1}}",
                 C, "sequence.halos.f_gamma is not used", "dpl", "f_gamma with dpl");
  expect_refused("{pattern: \"h%.3f\", t_source: 1, model: {f_star: {model: dpl, f0: 0.1, M_t: 1e8, "
                 "M_p: 1e10, g1: 0, g2: 0, g3: 0, g4: 0}}}",
                 C, "sequence.halos.model.N_ion", "missing required key", "dpl without N_ion");
  expect_refused("{pattern: \"h%.3f\", t_source: 1, model: {f_star: {model: dpl, f0: 0.1, M_p: 1e10, "
                 "g1: 0, g2: 0, g3: 0, g4: 0}, N_ion: 1}}",
                 C, "sequence.halos.model.f_star.M_t", "missing required key", "dpl without M_t");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {accretion: {model: "
                 "exponential, alpha_h: 0.8}}}",
                 C, "sequence.halos.t_source is not used", "exponential", "t_source, exponential");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: {model: f_gamma, "
                 "f0: 0.1}}}",
                 C, "f_star.f0 is not a parameter of model f_gamma", NULL, "f0 with f_gamma");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_esc: {f0: 1.5}}}", C,
                 "sequence.halos.model.f_esc.f0 = 1.5", "<= 1", "f_esc above 1");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_esc: {model: power, f0: "
                 "0.1, M_p: 1e10}}}",
                 C, "sequence.halos.model.f_esc.alpha", "missing", "power without alpha");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, f_gamma_low_mass: 5}", C,
                 "f_gamma_low_mass = 5", "format: c2ray", "low mass with ionfront files");
  expect_refused("{pattern: \"h%.3f\", format: c2ray, f_gamma: 1, t_source: 1}", C,
                 "mass_unit or nbody_mesh", "N-body", "c2ray without its mass unit");
  expect_refused("{pattern: \"h%.3f\", format: c2ray, mass_unit: 1, nbody_mesh: 6144, f_gamma: 1, "
                 "t_source: 1}",
                 C, "only one of mass_unit and nbody_mesh", NULL, "c2ray with both mass units");
  expect_refused("{pattern: \"h%.3f\", format: c2ray, mass_unit: 1, f_gamma: 1, t_source: 1, "
                 "position_unit: 1 Mpc}",
                 C, "sequence.halos.position_unit is not read with sequence.halos.format: c2ray",
                 "cells", "position_unit with c2ray");
  expect_refused("{pattern: \"h%.3f\", format: pyc2ray_hdf5, f_gamma: 1, t_source: 1, "
                 "cell_index_base: 2}",
                 C, "sequence.halos.cell_index_base", "2", "cell_index_base 2");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, cell_index_base: 1}", C,
                 "cell_index_base is not read with sequence.halos.format: ionfront",
                 "pyC2Ray's source lists only",
                 "cell_index_base, ionfront");
  expect_refused("{pattern: \"h%.3f\", format: hdf5, f_gamma: 1, t_source: 1}", C,
                 "sequence.halos.format = hdf5", "ionfront, c2ray, pyc2ray_hdf5, 21cmfast",
                 "unknown format");
  expect_refused("{pattern: \"h%.3f\", f_gamma: 1, t_source: 1, model: {f_star: dpl}}", C,
                 "sequence.halos.model.f_star = dpl", "expected a mapping", "f_star not a mapping");
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  if (chdir(dir) != 0) return 1;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  test_config();
  test_c2ray();
  test_pyc2ray_halo_list();
  test_pyc2ray_source_list();
  test_ionfront_power_obs();
  test_suppression();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (!test_failures && system(cmd) != 0) printf("could not remove %s\n", dir);
  comm_finalize();
  TEST_RETURN();
}
