/**
 * @file test_sph_engine.c
 * @brief The particle engine with injected tracers (no ray tracer needed):
 *  - optically thin: a fixed Gamma per particle; every particle's x(t) must
 *    follow the analytic solution of dx/dt = Gamma (1 - x) - alpha n_H x^2
 *    (n_e = n_H x), and the error must shrink with the step (the time-averaged
 *    implicit update converges);
 *  - the tracer sees the time-averaged x and this rank's sources;
 *  - config errors name the key and value; periodic sets need raytracing.R_max
 *    (a length of at most 8 box sides), or particles.wrap_rays: false, and the
 *    CPU tracer; a snapshot reads back exactly;
 *    deposition of a uniform value is that value.
 * With arguments "ranks DIR": a multi-source run with an x-dependent tracer
 * whose snapshot tests/sph_mpi_ranks.sh compares across rank counts.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw: test_tmpdir.h */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "core/constants.h"
#include "core/params.h"
#include "config/sph_config.h"
#include "particles/sph_deposit.h"
#include "engine/engine.h"
#include "particles/sph_trace_prep.h"
#include "io/output_dir.h"
#include "io/snapshot.h"
#include "io/sph_snapshot.h"
#include "test_tmpdir.h"
#include "test_util.h"

#define MYR IONF_MYR_S

static const char *const base_yaml =
    "particles:\n"
    "  generate: {kind: lattice, count_1d: 6, n_H: 1.0e-3, box: 6.6 kpc, periodic: true}\n"
    "material: {temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}\n"
    "chemistry: {collisional_ionization: false, abu_c: 0}\n"
    "sources:\n"
    "  - {position: [0 kpc, 0 kpc, 0 kpc], Ndot: 5e48}\n"
    "time: {dt: 5 Myr, t_end: 100 Myr}\n"
    "raytracing: {backend: cpu, R_max: 3 kpc}\n"
    "output: {progress: false}\n";

static ionf_err load(const char *yaml, const char *const *sets, int n_sets, struct sph_config *cfg) {
  struct param_node *root = NULL;
  IONF_CALL(params_load_string(yaml, "test.yaml", &root));
  ionf_err rc = IONF_OK;
  for (int i = 0; i < n_sets && rc == IONF_OK; ++i) rc = params_set_override(root, sets[i]);
  if (rc == IONF_OK) rc = sph_config_from_params(root, "test.yaml", cfg);
  params_free(root);
  return rc;
}

/* ---- optically thin: a fixed rate per particle, set from its position ---------------- */

static double thin_gamma(const double *pos) {
  double r2 = pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2];
  double r0 = 1.0 * IONF_KPC_CM;
  return 3e-14 * r0 * r0 / (r0 * r0 + r2); /* 3e-14 .. ~3e-16 per s */
}

static int thin_calls = 0, thin_saw_x_av = 1;
static const double *thin_expect_x_av = NULL;

static ionf_err thin_trace(const struct sph_trace_input *in, struct sph_trace_output *out,
                           struct sph_trace_stats *stats) {
  ++thin_calls;
  if (thin_expect_x_av && in->x_hii != thin_expect_x_av) thin_saw_x_av = 0;
  for (int64_t i = 0; i < in->particles->count; ++i)
    out->gamma_hi_per_s[i] = thin_gamma(in->particles->pos_cm + 3 * i);
  stats->rays = in->n_rays;
  return IONF_OK;
}

/* dx/dt = G (1 - x) - a x^2 with a = alpha n_H: x = (r1 - q r2) / (1 - q),
   q = (x0 - r1)/(x0 - r2) exp(-a (r1 - r2) t), r1,2 the roots of a x^2 + G x - G. */
static double riccati_x(double x0, double g, double a, double t) {
  double disc = sqrt(g * g + 4.0 * a * g);
  double r1 = (-g + disc) / (2.0 * a), r2 = (-g - disc) / (2.0 * a);
  double q = (x0 - r1) / (x0 - r2) * exp(-a * (r1 - r2) * t);
  return (r1 - q * r2) / (1.0 - q);
}

/* Largest |x - x_analytic| over particles after t_end with steps of dt. */
static double thin_error(double dt_myr) {
  struct sph_config cfg;
  char dt_set[64];
  snprintf(dt_set, sizeof dt_set, "time.dt=%g Myr", dt_myr);
  const char *sets[] = {dt_set};
  ionf_err rc = load(base_yaml, sets, 1, &cfg);
  EXPECT(rc == IONF_OK, "config loads: %s", ionf_error_message());
  if (rc != IONF_OK) return INFINITY;
  struct engine *e = NULL;
  rc = engine_create_particles(&cfg, thin_trace, &e);
  EXPECT(rc == IONF_OK, "engine: %s", ionf_error_message());
  if (rc != IONF_OK) {
    sph_config_free(&cfg);
    return INFINITY;
  }
  thin_expect_x_av = e->fields.x_ion_av;
  double t_end = cfg.base.t_end_s, worst = 0.0;
  int steps = 0;
  while (e->time_s < t_end * (1 - 1e-12) && rc == IONF_OK) {
    struct engine_step_info info;
    rc = engine_step(e, cfg.base.dt_s, &info);
    EXPECT(rc == IONF_OK && info.converged, "step %d converged", steps);
    ++steps;
  }
  double alpha = cfg.base.alpha_b_1e4_cm3_s; /* T = 1e4 K */
  for (int64_t i = 0; i < e->particles->set.count; ++i) {
    double g = thin_gamma(e->particles->set.pos_cm + 3 * i);
    double want = riccati_x(cfg.base.x_hii_initial, g, alpha * e->fields.n_h_cm3[i], e->time_s);
    worst = test_worst(worst, test_abs_diff(e->fields.x_ion[i], want));
  }
  engine_destroy(e);
  sph_config_free(&cfg);
  return worst;
}

static void test_thin_chemistry(void) {
  double err_5 = thin_error(5.0), err_2 = thin_error(2.5), err_1 = thin_error(1.25);
  printf("optically thin: max |x - x_analytic| = %.3g (dt 5 Myr), %.3g (2.5), %.3g (1.25)\n",
         err_5, err_2, err_1);
  EXPECT(thin_calls > 0 && thin_saw_x_av, "the tracer is given the time-averaged x");
  /* the time-averaged update with n_e iterated is second order in dt: within 1e-4 of
     x everywhere at t_rec/25 steps, and the error falls ~4x per halving */
  EXPECT(err_5 < 1e-4, "error %.3g at dt = 5 Myr", err_5);
  EXPECT(err_2 < 0.3 * err_5 && err_1 < 0.3 * err_2, "error shrinks as dt^2: %.3g %.3g %.3g",
         err_5, err_2, err_1);
}

/* ---- config errors -------------------------------------------------------------- */

static void expect_error(const char *what, const char *set, const char *needle1,
                         const char *needle2) {
  struct sph_config cfg;
  const char *sets[] = {set};
  ionf_error_clear();
  ionf_err rc = load(base_yaml, sets, 1, &cfg);
  EXPECT(rc != IONF_OK, "%s: refused", what);
  if (rc == IONF_OK) {
    sph_config_free(&cfg);
    return;
  }
  const char *m = ionf_error_message();
  EXPECT(strstr(m, needle1) && (!needle2 || strstr(m, needle2)), "%s: message names '%s'%s%s: %s",
         what, needle1, needle2 ? " and " : "", needle2 ? needle2 : "", m);
}

/* particles.trace: the GPU tracer's tuning; absent, every knob 0 (the defaults) and no
   trace: in the effective config; given, the defaults filled in. */
static void test_trace_config(void) {
  struct sph_config cfg;
  ionf_err rc = load(base_yaml, NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "base config: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.trace.schedule == SPH_TRACE_SCHEDULE_WARP && cfg.trace.window_hits == 0 &&
               cfg.trace.min_blocks == 0 && cfg.trace.window_aim == 0.0 &&
               cfg.trace.hit_capacity == 0,
           "no particles.trace: the tracer's defaults");
    EXPECT(!strstr(cfg.base.effective_yaml, "trace:"), "no trace: in the effective config");
    sph_config_free(&cfg);
  }
  const char *thread[] = {"particles.trace={schedule: thread, hit_capacity: 5000}"};
  rc = load(base_yaml, thread, 1, &cfg);
  EXPECT(rc == IONF_OK, "particles.trace: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.trace.schedule == SPH_TRACE_SCHEDULE_THREAD && cfg.trace.hit_capacity == 5000 &&
               cfg.trace.window_hits == SPH_TRACE_WINDOW_HITS_DEFAULT &&
               cfg.trace.min_blocks == SPH_TRACE_MIN_BLOCKS_DEFAULT &&
               cfg.trace.window_aim == SPH_TRACE_WINDOW_AIM_DEFAULT,
           "thread schedule, 5000 hits, the warp's knobs at their defaults");
    EXPECT(strstr(cfg.base.effective_yaml, "window_hits: 512") &&
               strstr(cfg.base.effective_yaml, "window_aim: 0.85"),
           "the effective config shows the defaults:\n%s", cfg.base.effective_yaml);
    sph_config_free(&cfg);
  }
  const char *warp[] = {"particles.trace={window_hits: 24, min_blocks: 6, window_aim: 1.2}"};
  rc = load(base_yaml, warp, 1, &cfg);
  EXPECT(rc == IONF_OK && cfg.trace.window_hits == 24 && cfg.trace.min_blocks == 6 &&
             cfg.trace.window_aim == 1.2 && cfg.trace.schedule == SPH_TRACE_SCHEDULE_WARP,
         "warp knobs: %s", ionf_error_message());
  if (rc == IONF_OK) sph_config_free(&cfg);
  expect_error("trace schedule", "particles.trace.schedule=block", "particles.trace.schedule",
               "warp or thread");
  expect_error("trace window hits", "particles.trace.window_hits=1024.5",
               "particles.trace.window_hits", "2..1024");
  expect_error("trace window hits", "particles.trace.window_hits=1", "window_hits", "2..1024");
  expect_error("trace launch bound", "particles.trace.min_blocks=7", "particles.trace.min_blocks",
               "1, 6 or 8");
  expect_error("trace aim", "particles.trace.window_aim=3", "particles.trace.window_aim", "0.1");
  expect_error("trace capacity", "particles.trace.hit_capacity=-1", "hit_capacity", NULL);
  expect_error("trace key", "particles.trace.window=4", "particles.trace.window", "known keys");
  expect_error("trace not a mapping", "particles.trace=warp", "particles.trace", "mapping");
}

static void test_config(void) {
  struct sph_config cfg;
  ionf_err rc = load(base_yaml, NULL, 0, &cfg);
  EXPECT(rc == IONF_OK, "base config: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(cfg.generate == SPH_GENERATE_LATTICE && cfg.count_1d == 6, "generate read");
    EXPECT_REL(cfg.gen_box_cm, 6.6 * IONF_KPC_CM, 1e-12, "box");
    EXPECT(cfg.n_sources == 1 && cfg.source_ndot_per_s[0] == 5e48, "source read");
    EXPECT_REL(cfg.base.dt_s, 5 * MYR, 1e-12, "dt from the shared sections");
    EXPECT(cfg.base.effective_yaml && strstr(cfg.base.effective_yaml, "particles:") &&
               !strstr(cfg.base.effective_yaml, "\ngrid:"),
           "effective config has particles:, no placeholder grid:");
    sph_config_free(&cfg);
  }
  expect_error("unknown key", "particles.generate.count1d=4", "particles.generate.count1d", NULL);
  expect_error("missing file", "particles={file: no_such_snapshot.h5}", "particles.file",
               "no_such_snapshot.h5");
  expect_error("source outside", "sources=[{position: [7 kpc, 0 kpc, 1 kpc], Ndot: 1e48}]",
               "sources[0].position", "7 kpc");
  expect_error("n_H given", "material.n_H=1e-3", "material.n_H", NULL);
  expect_error("grid given", "grid.N=8", "grid", "particle run");
  expect_error("both file and generate", "particles.file=x.h5", "exactly one", NULL);
  expect_error("rays not HEALPix", "particles.rays_per_source=100", "rays_per_source", "100");
  expect_error("bad shared key", "time.dt=-1", "time.dt", NULL);
  expect_error("R_max in cells", "raytracing.R_max=3", "raytracing.R_max", "length");
  expect_error("negative rate", "sources=[{position: [0, 0, 0], Ndot: -1}]", "sources[0].Ndot",
               "-1");
  expect_error("rays: nside not a power of two", "particles.rays_per_source=108",
               "rays_per_source", "108");
  const char *every5[] = {"output.checkpoint_every=5"};
  rc = load(base_yaml, every5, 1, &cfg);
  EXPECT(rc == IONF_OK && cfg.base.checkpoint_every == 5, "output.checkpoint_every accepted: %s",
         rc == IONF_OK ? "" : ionf_error_message());
  if (rc == IONF_OK) sph_config_free(&cfg);
  const char *rays192[] = {"particles.rays_per_source=192"};
  rc = load(base_yaml, rays192, 1, &cfg);
  EXPECT(rc == IONF_OK && cfg.rays_per_source == 192, "rays_per_source 192 (nside 4) accepted");
  if (rc == IONF_OK) sph_config_free(&cfg);
  test_trace_config();
}

/* ---- periodic sets: R_max required and bounded, wrap_rays, no CUDA tracer yet -------- */

static ionf_err create_with(const char *const *sets, int n_sets, sph_trace_fn trace,
                            struct sph_config *cfg, struct engine **e) {
  *e = NULL;
  ionf_error_clear();
  ionf_err rc = load(base_yaml, sets, n_sets, cfg);
  if (rc != IONF_OK) return rc;
  rc = engine_create_particles(cfg, trace, e);
  if (rc != IONF_OK) sph_config_free(cfg);
  return rc;
}

static void test_periodic_config(void) {
  struct sph_config cfg;
  struct engine *e;
  const char *no_rmax[] = {"raytracing.R_max=0"};
  ionf_err rc = create_with(no_rmax, 1, thin_trace, &cfg, &e);
  EXPECT(rc == IONF_ERR_CONFIG && strstr(ionf_error_message(), "raytracing.R_max") &&
             strstr(ionf_error_message(), "periodic") &&
             strstr(ionf_error_message(), "particles.generate.periodic") &&
             strstr(ionf_error_message(), "wrap_rays"),
         "periodic without R_max: rc %d, %s", rc, ionf_error_message());
  const char *far[] = {"raytracing.R_max=60 kpc"}; /* > 8 x 6.6 kpc */
  rc = create_with(far, 1, thin_trace, &cfg, &e);
  EXPECT(rc == IONF_ERR_CONFIG && strstr(ionf_error_message(), "raytracing.R_max = 60 kpc"),
         "R_max beyond 8 boxes: rc %d, %s", rc, ionf_error_message());
  /* accepted: R_max of 4 box sides (warned), and an open run of the periodic set */
  const char *long_r[] = {"raytracing.R_max=26.4 kpc"};
  rc = create_with(long_r, 1, NULL, &cfg, &e);
  EXPECT(rc == IONF_OK && e->particles->set.periodic &&
             (!strcmp(e->particles->tracer_name, "cpu") || !strcmp(e->particles->tracer_name, "cuda")),
         "R_max of 4 boxes: %s", ionf_error_message());
  if (rc == IONF_OK) {
    engine_destroy(e);
    sph_config_free(&cfg);
  }
  const char *open_box[] = {"raytracing.R_max=0", "particles.wrap_rays=false"};
  rc = create_with(open_box, 2, thin_trace, &cfg, &e);
  EXPECT(rc == IONF_OK && !e->particles->set.periodic, "wrap_rays false: %s", ionf_error_message());
  if (rc == IONF_OK) {
    engine_destroy(e);
    sph_config_free(&cfg);
  }
  const char *not_bool[] = {"particles.wrap_rays=sometimes"};
  rc = create_with(not_bool, 1, thin_trace, &cfg, &e);
  EXPECT(rc == IONF_ERR_CONFIG && strstr(ionf_error_message(), "particles.wrap_rays"),
         "wrap_rays not a bool: rc %d, %s", rc, ionf_error_message());
}

/* ---- snapshots and deposition -------------------------------------------------------- */

static void test_snapshot(void) {
  struct sph_config cfg;
  const char *sets[] = {"output.directory=test_sph_engine_out", "particles.output_grid=4"};
  ionf_err rc = load(base_yaml, sets, 2, &cfg);
  EXPECT(rc == IONF_OK, "config: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  struct engine *e = NULL;
  rc = engine_create_particles(&cfg, thin_trace, &e);
  EXPECT(rc == IONF_OK, "engine: %s", ionf_error_message());
  if (rc != IONF_OK) {
    sph_config_free(&cfg);
    return;
  }
  struct engine_step_info info;
  EXPECT(engine_step(e, 3 * MYR, &info) == IONF_OK, "a step");
  EXPECT(output_dir_prepare(cfg.base.output_dir) == IONF_OK, "output directory");
  char path[IONF_PATH_MAX + 64];
  rc = engine_write_snapshot(e, 7, path, sizeof path);
  EXPECT(rc == IONF_OK && strstr(path, "snapshot_0007.h5"), "written: %s", ionf_error_message());
  struct sph_snapshot_data d;
  rc = sph_snapshot_read(path, &d);
  EXPECT(rc == IONF_OK, "read back: %s", ionf_error_message());
  if (rc == IONF_OK) {
    int64_t n = e->particles->set.count;
    EXPECT(d.particles.count == n, "count");
    EXPECT(d.step == 1 && d.time_s == 3 * MYR, "step %lld time %g", (long long)d.step, d.time_s);
    int same = memcmp(d.particles.pos_cm, e->particles->set.pos_cm, 3 * sizeof(double) * (size_t)n) == 0 &&
               memcmp(d.particles.h_cm, e->particles->set.h_cm, sizeof(double) * (size_t)n) == 0 &&
               memcmp(d.particles.mass_g, e->particles->set.mass_g, sizeof(double) * (size_t)n) == 0 &&
               memcmp(d.particles.density_g_cm3, e->particles->set.density_g_cm3,
                      sizeof(double) * (size_t)n) == 0;
    EXPECT(same, "coordinates, h, masses, densities round-trip exactly");
    same = memcmp(d.x_hii, e->fields.x_ion, sizeof(double) * (size_t)n) == 0 &&
           memcmp(d.gamma_hi_per_s, e->fields.gamma_per_s, sizeof(double) * (size_t)n) == 0 &&
           memcmp(d.temperature_k, e->fields.temperature_k, sizeof(double) * (size_t)n) == 0 &&
           memcmp(d.n_h_cm3, e->fields.n_h_cm3, sizeof(double) * (size_t)n) == 0;
    EXPECT(same, "x_HII, Gamma, T, n_H round-trip exactly");
    sph_snapshot_free(&d);
  }
  /* a uniform value deposits to itself wherever a kernel reaches (all cells here) */
  int64_t n = e->particles->set.count, g = 5;
  double *ones = malloc(sizeof(double) * (size_t)n), *grid = malloc(sizeof(double) * 125);
  for (int64_t i = 0; i < n; ++i) ones[i] = 0.25;
  double box[3];
  EXPECT(sph_deposit(&e->particles->set, ones, g, grid, box) == IONF_OK, "deposit");
  int uniform = 1;
  for (int c = 0; c < 125; ++c) uniform &= fabs(grid[c] - 0.25) < 1e-14;
  EXPECT(uniform, "uniform value deposits to itself");
  EXPECT_REL(box[0], 6.6 * IONF_KPC_CM, 1e-12, "deposition box");
  /* a linear value: the mass-weighted kernel average of a lattice stays near it */
  for (int64_t i = 0; i < n; ++i) ones[i] = e->particles->set.pos_cm[3 * i] / box[0];
  EXPECT(sph_deposit(&e->particles->set, ones, g, grid, NULL) == IONF_OK, "deposit x");
  double centre = grid[(2 * g + 2) * g + 2];
  EXPECT(fabs(centre - 0.5) < 0.05, "deposited x/L at the centre cell = %g", centre);
  free(ones);
  free(grid);
  engine_destroy(e);
  sph_config_free(&cfg);
}

/* ---- several ranks: an x-dependent tracer summed over this rank's sources ------------ */

static ionf_err screened_trace(const struct sph_trace_input *in, struct sph_trace_output *out,
                               struct sph_trace_stats *stats) {
  const struct particle_set *p = in->particles;
  /* ranks sharing every source's rays: this pass's share of the photons, as its rays
     (Ndot / n_rays each) would carry */
  int64_t first, stride, share;
  IONF_CALL(sph_trace_ray_share(in, &first, &stride, &share));
  const double weight = (double)share / (double)in->n_rays;
  for (int64_t i = 0; i < p->count; ++i) {
    double sum = 0.0;
    for (int64_t s = 0; s < in->sources.count; ++s) {
      const double *a = p->pos_cm + 3 * i, *b = in->sources.pos_cm + 3 * s;
      double r2 = (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                  (a[2] - b[2]) * (a[2] - b[2]) + p->h_cm[i] * p->h_cm[i];
      /* a made-up screening by the particle's own neutral column: couples Gamma to x */
      double tau = 6.3e-18 * 1e-3 * (1.0 - in->x_hii[i]) * sqrt(r2) * 0.1;
      sum += weight * in->sources.ndot_per_s[s] * 6.3e-18 / (4.0 * IONF_PI * r2) * exp(-tau);
    }
    out->gamma_hi_per_s[i] = sum;
    if (in->heating) out->heating_erg_per_s[i] = sum * 2.0 * IONF_EV_ERG;
  }
  stats->rays = share * in->sources.count;
  return IONF_OK;
}

/* ---- checkpoints and restarts ------------------------------------------------------ */

static const char *const ck_yaml =
    "particles:\n"
    "  generate: {kind: lattice, count_1d: 6, n_H: 1.0e-3, box: 6.6 kpc}\n"
    "  rays_per_source: 48\n"
    "material: {temperature: 100, x_HII_initial: 1.2e-3, isothermal: false}\n"
    "sources:\n"
    "  - {position: [1 kpc, 1 kpc, 1 kpc], Ndot: 1e48}\n"
    "  - {position: [5 kpc, 2 kpc, 3 kpc], Ndot: 3e48}\n"
    "time: {dt: 2 Myr, t_end: 8 Myr, outputs: [4 Myr, 8 Myr]}\n"
    "output: {progress: false, checkpoint_every: 3, overwrite: true}\n";

/* An engine of ck_yaml with `extra` ("" for none) and output.directory `dir`. */
static ionf_err ck_engine(const char *dir, const char *extra, struct sph_config *cfg,
                          struct engine **e) {
  char set[IONF_PATH_MAX + 32];
  snprintf(set, sizeof set, "output.directory=%s", dir);
  const char *sets[] = {set, extra};
  *e = NULL;
  IONF_CALL(load(ck_yaml, sets, extra[0] ? 2 : 1, cfg));
  ionf_err rc = engine_create_particles(cfg, screened_trace, e);
  if (rc != IONF_OK) sph_config_free(cfg);
  return rc;
}

/* A restart from `path` of ck_yaml + `extra` is refused with IONF error `want` naming
   `needle`. */
static void expect_restart_refused(const char *what, const char *path, const char *extra,
                                   ionf_err want, const char *needle) {
  struct sph_config cfg;
  struct engine *e = NULL;
  ionf_err rc = ck_engine("test_sph_engine_ck_bad", extra, &cfg, &e);
  EXPECT(rc == IONF_OK, "%s: engine: %s", what, ionf_error_message());
  if (rc != IONF_OK) return;
  ionf_error_clear();
  rc = engine_restart(e, path);
  const char *m = ionf_error_message();
  EXPECT(rc == want && strstr(m, path) && strstr(m, needle), "%s: refused (%d, want %d) naming "
         "'%s' and '%s': %s", what, (int)rc, (int)want, path, needle, m);
  EXPECT(e->step == 0 && e->time_s == 0.0 && !e->restarted, "%s: the engine is untouched", what);
  engine_destroy(e);
  sph_config_free(&cfg);
}

static int same_doubles(const double *a, const double *b, int64_t n) {
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

static void test_checkpoint(void) {
  /* A: 4 steps to 8 Myr, a checkpoint after step 3 (checkpoint_every 3; none at the end) */
  struct sph_config cfg;
  struct engine *a = NULL, *b = NULL;
  ionf_err rc = ck_engine("test_sph_engine_ck_a", "", &cfg, &a);
  EXPECT(rc == IONF_OK, "engine A: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  struct engine_report rep;
  rc = engine_run(a, &rep);
  EXPECT(rc == IONF_OK && a->step == 4, "run A: %s", ionf_error_message());
  EXPECT(strstr(rep.checkpoint, "test_sph_engine_ck_a/checkpoint.h5"), "A wrote %s",
         rep.checkpoint);
  engine_destroy(a);
  sph_config_free(&cfg);
  const char *ck = "test_sph_engine_ck_a/checkpoint.h5";
  /* the checkpoint is a particle snapshot at step 3 */
  struct sph_snapshot_data d;
  rc = sph_snapshot_read(ck, &d);
  EXPECT(rc == IONF_OK && d.step == 3 && fabs(d.time_s - 6 * MYR) < 1e-6 * MYR,
         "checkpoint reads as a snapshot of step 3: %s", rc == IONF_OK ? "" : ionf_error_message());
  if (rc == IONF_OK) sph_snapshot_free(&d);

  /* B: restarted from it, writes snapshot 2 (8 Myr), equal to A's bit for bit */
  remove("test_sph_engine_ck_b/snapshot_0000.h5");
  remove("test_sph_engine_ck_b/snapshot_0001.h5");
  rc = ck_engine("test_sph_engine_ck_b", "", &cfg, &b);
  EXPECT(rc == IONF_OK, "engine B: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  rc = engine_restart(b, ck);
  EXPECT(rc == IONF_OK && b->step == 3 && b->next_snapshot_index == 2, "restart: %s",
         ionf_error_message());
  ionf_error_clear();
  EXPECT(engine_restart(b, ck) == IONF_ERR_USAGE && strstr(ionf_error_message(), "right after"),
         "restarting a restarted engine is refused: %s", ionf_error_message());
  if (rc == IONF_OK) rc = engine_run(b, &rep);
  EXPECT(rc == IONF_OK && b->step == 4 && rep.n_snapshots == 1, "run B: %s (%d snapshots)",
         ionf_error_message(), rep.n_snapshots);
  engine_destroy(b);
  sph_config_free(&cfg);
  FILE *f0 = fopen("test_sph_engine_ck_b/snapshot_0000.h5", "rb");
  FILE *f1 = fopen("test_sph_engine_ck_b/snapshot_0001.h5", "rb");
  EXPECT(!f0 && !f1, "the restart writes no initial or earlier snapshot");
  if (f0) fclose(f0);
  if (f1) fclose(f1);
  struct sph_snapshot_data da, db;
  ionf_err ra = sph_snapshot_read("test_sph_engine_ck_a/snapshot_0002.h5", &da);
  ionf_err rb = sph_snapshot_read("test_sph_engine_ck_b/snapshot_0002.h5", &db);
  EXPECT(ra == IONF_OK && rb == IONF_OK, "both final snapshots read: %s", ionf_error_message());
  if (ra == IONF_OK && rb == IONF_OK) {
    int64_t n = da.particles.count;
    EXPECT(db.particles.count == n && da.step == 4 && db.step == 4 && da.time_s == db.time_s,
           "same count, step, time");
    EXPECT(same_doubles(da.x_hii, db.x_hii, n) && same_doubles(da.temperature_k, db.temperature_k, n) &&
               same_doubles(da.gamma_hi_per_s, db.gamma_hi_per_s, n),
           "x_HII, T and Gamma after the restart equal the uninterrupted run's bit for bit");
    double x_max = 0.0, t_max = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      if (da.x_hii[i] > x_max) x_max = da.x_hii[i];
      if (da.temperature_k[i] > t_max) t_max = da.temperature_k[i];
    }
    EXPECT(x_max > 0.02 && t_max > 300.0, "the state moved (max x %g, max T %g K)", x_max, t_max);
  }
  if (ra == IONF_OK) sph_snapshot_free(&da);
  if (rb == IONF_OK) sph_snapshot_free(&db);

  /* refusals name the file and the mismatch, and leave the engine as created */
  expect_restart_refused("missing file", "test_sph_engine_ck_none/checkpoint.h5", "", IONF_ERR_IO,
                         "cannot open checkpoint");
  expect_restart_refused("a snapshot", "test_sph_engine_ck_a/snapshot_0001.h5", "", IONF_ERR_INPUT,
                         "not an ionfront checkpoint");
  expect_restart_refused("other count", ck, "particles.generate.count_1d=5", IONF_ERR_INPUT,
                         "holds 216 particles");
  expect_restart_refused("other particles", ck, "particles.generate.seed=7", IONF_ERR_INPUT,
                         "other particles");
  expect_restart_refused("other rays", ck, "particles.rays_per_source=192", IONF_ERR_INPUT,
                         "rays_per_source");
  expect_restart_refused("other R_max", ck, "raytracing.R_max=3 kpc", IONF_ERR_INPUT,
                         "raytracing.R_max");
  expect_restart_refused("isothermal", ck, "material.isothermal=true", IONF_ERR_INPUT,
                         "material.isothermal");
  expect_restart_refused("at t_end", ck, "time={dt: 2 Myr, t_end: 6 Myr, outputs: [6 Myr]}",
                         IONF_ERR_INPUT, "already at time.t_end");
}

/* `ranks DIR [KEY=VALUE ...]`: the run of sph_mpi_ranks.sh, with overrides (debug: hooks). */
static int run_ranks(const char *dir, char **extra, int n_extra) {
  static const char *const yaml =
      "particles:\n"
      "  generate: {kind: lattice, count_1d: 8, n_H: 1.0e-3, box: 6.6 kpc, periodic: true}\n"
      "material: {temperature: 100, x_HII_initial: 1.2e-3, isothermal: false}\n"
      "sources:\n"
      "  - {position: [1 kpc, 1 kpc, 1 kpc], Ndot: 1e48}\n"
      "  - {position: [5 kpc, 2 kpc, 3 kpc], Ndot: 3e48}\n"
      "  - {position: [3 kpc, 3 kpc, 3 kpc], Ndot: 5e47}\n"
      "  - {position: [2 kpc, 6 kpc, 5 kpc], Ndot: 2e48}\n"
      "  - {position: [6 kpc, 6 kpc, 1 kpc], Ndot: 1e48}\n"
      "time: {dt: 2 Myr, t_end: 6 Myr}\n"
      "raytracing: {R_max: 4 kpc}\n"
      "output: {progress: false}\n";
  struct sph_config cfg;
  char set[IONF_PATH_MAX + 32];
  snprintf(set, sizeof set, "output.directory=%s", dir);
  enum { MAX_SETS = 8 };
  const char *sets[MAX_SETS] = {set};
  int n_sets = 1;
  for (int i = 0; i < n_extra && n_sets < MAX_SETS; ++i) sets[n_sets++] = extra[i];
  ionf_err rc = load(yaml, sets, n_sets, &cfg);
  struct engine *e = NULL;
  if (rc == IONF_OK) rc = engine_create_particles(&cfg, screened_trace, &e);
  struct engine_report rep;
  if (rc == IONF_OK) rc = engine_run(e, &rep);
  if (rc != IONF_OK) fprintf(stderr, "rank %d: %s\n", comm_rank(), ionf_error_message());
  engine_destroy(e);
  if (rc == IONF_OK || cfg.base.effective_yaml) sph_config_free(&cfg);
  return rc == IONF_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  int code;
  if (argc >= 3 && !strcmp(argv[1], "ranks")) {
    code = run_ranks(argv[2], argv + 3, argc - 3);
  } else {
    /* the snapshots and checkpoints (relative output directories) go to a fresh
       temporary directory, removed at the end */
    char tmp[4096];
    if (!test_tmpdir_enter(tmp, sizeof tmp, "ionf_sph_engine")) {
      comm_finalize();
      return 1;
    }
    test_config();
    test_thin_chemistry();
    test_periodic_config();
    test_snapshot();
    test_checkpoint();
    EXPECT(test_tmpdir_leave(tmp), "removing %s", tmp);
    code = test_failures ? 1 : 0;
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    else printf("all checks passed\n");
  }
  comm_finalize();
  return code;
}
