/**
 * Misuse of the public C API returns an error code with a message, never a crash:
 * NULL pointers, wrong sizes, unknown names, bad values, calls out of order, bad
 * configs, redshifts out of range, cosmology asked of a particle run; and a good engine
 * keeps working after its failed calls.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw: test_tmpdir.h */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ionfront.h>

#include "../test_tmpdir.h"

static int failures = 0;

/* The call must fail with `want` and leave a message containing `needle`. */
static void expect(const char *what, ionf_status got, ionf_status want, const ionf_engine *e,
                   const char *needle) {
  const char *msg = ionf_last_error_message(e);
  if (got != want || !msg[0] || (needle && !strstr(msg, needle))) {
    fprintf(stderr, "FAIL: %s: got %d (%s) '%s', want %d with '%s'\n", what, got,
            ionf_status_name(got), msg, want, needle ? needle : "");
    failures++;
  } else {
    printf("ok: %s -> %s: %s\n", what, ionf_status_name(got), msg);
  }
}

static int run_checks(void) {
  const char *small[] = {"grid.N=8", "time.dt=10 Myr", "time.t_end=20 Myr", "time.outputs=[20 Myr]",
                         "output.progress=false", "raytracing.backend=cpu",
                         "output.directory=test_api_misuse_out"};
  const int n_small = 7;
  ionf_engine *e = (ionf_engine *)&failures; /* must be reset to NULL on failure */

  /* creation */
  expect("create without an output pointer",
         ionf_engine_create_builtin(NULL, small, n_small, IONF_COMM_WORLD, NULL), IONF_STATUS_INPUT,
         NULL, "NULL");
  expect("create from a missing file",
         ionf_engine_create_from_file("/nonexistent/run.yaml", NULL, 0, IONF_COMM_WORLD, &e),
         IONF_STATUS_IO, NULL, "/nonexistent/run.yaml");
  if (e != NULL) { fprintf(stderr, "FAIL: *out not NULL after a failed create\n"); failures++; }
  const char *bad_key[] = {"grid.NN=8"};
  expect("create with an unknown key",
         ionf_engine_create_builtin(NULL, bad_key, 1, IONF_COMM_WORLD, &e), IONF_STATUS_CONFIG,
         NULL, "NN");
  expect("create with a NULL override list",
         ionf_engine_create_builtin(NULL, NULL, 2, IONF_COMM_WORLD, &e), IONF_STATUS_INPUT, NULL,
         "NULL");
  expect("create from NULL YAML text",
         ionf_engine_create_from_yaml(NULL, NULL, 0, IONF_COMM_WORLD, &e), IONF_STATUS_INPUT, NULL,
         "NULL");
  expect("create from broken YAML",
         ionf_engine_create_from_yaml("grid: [N: 8", NULL, 0, IONF_COMM_WORLD, &e),
         IONF_STATUS_CONFIG, NULL, NULL);
  expect("create an unknown built-in problem",
         ionf_engine_create_builtin("iliev99", NULL, 0, IONF_COMM_WORLD, &e), IONF_STATUS_USAGE,
         NULL, "iliev99");

  expect("create on a communicator that is not MPI_COMM_WORLD's ranks",
         ionf_engine_create_builtin(NULL, small, n_small, 123456, &e), IONF_STATUS_USAGE, NULL,
         "123456");

  /* calls on no engine */
  expect("step on a NULL engine", ionf_engine_step(NULL, 1e13, NULL), IONF_STATUS_USAGE, NULL,
         "NULL");
  expect("field of a NULL engine", ionf_engine_field(NULL, "x_HII", NULL, NULL), IONF_STATUS_USAGE,
         NULL, "NULL");
  expect("run a NULL engine", ionf_engine_run(NULL), IONF_STATUS_USAGE, NULL, "NULL");
  ionf_engine_destroy(NULL); /* allowed: nothing */

  ionf_status rc = ionf_engine_create_builtin(NULL, small, n_small, IONF_COMM_WORLD, &e);
  if (rc != IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: create: %s\n", ionf_last_error_message(NULL));
    return 1;
  }
  int64_t n = 0;
  ionf_engine_grid(e, &n, NULL, NULL);
  double *x = NULL;
  int64_t dims[3];
  expect("field with an unknown name", ionf_engine_field(e, "x_HI", &x, dims), IONF_STATUS_USAGE,
         e, "x_HII");
  expect("field with a NULL name", ionf_engine_field(e, NULL, &x, dims), IONF_STATUS_INPUT, e,
         "NULL");
  expect("field with a NULL data pointer", ionf_engine_field(e, "T", NULL, dims),
         IONF_STATUS_INPUT, e, "NULL");
  double values[8 * 8 * 8];
  for (int i = 0; i < 512; ++i) values[i] = 0.5;
  expect("set_field with the wrong count", ionf_engine_set_field(e, "x_HII", values, 511),
         IONF_STATUS_INPUT, e, "511");
  expect("set_field of NULL values", ionf_engine_set_field(e, "x_HII", NULL, 512),
         IONF_STATUS_INPUT, e, "NULL");
  expect("set_field of a rate", ionf_engine_set_field(e, "Gamma_HI", values, 512),
         IONF_STATUS_USAGE, e, "Gamma_HI");
  values[7] = 1.5;
  expect("set_field out of range", ionf_engine_set_field(e, "x_HII", values, 512),
         IONF_STATUS_INPUT, e, "1.5");
  values[7] = NAN;
  expect("set_field of NaN density", ionf_engine_set_field(e, "n_H", values, 512),
         IONF_STATUS_INPUT, e, "n_H[7]");
  double pos[6] = {1, 2, 3, 4, 5, 9}, ndot[2] = {1e50, 1e50};
  expect("source outside the box", ionf_engine_set_sources(e, 2, pos, IONF_POSITION_CELLS, ndot),
         IONF_STATUS_INPUT, e, "outside");
  expect("sources with NULL rates", ionf_engine_set_sources(e, 2, pos, IONF_POSITION_CELLS, NULL),
         IONF_STATUS_INPUT, e, "NULL");
  expect("sources with bad units", ionf_engine_set_sources(e, 1, pos, 7, ndot), IONF_STATUS_INPUT,
         e, "units");
  ndot[0] = -1.0;
  expect("source with a negative rate", ionf_engine_set_sources(e, 1, pos, IONF_POSITION_CELLS, ndot),
         IONF_STATUS_INPUT, e, NULL);
  expect("step of dt = 0", ionf_engine_step(e, 0.0, NULL), IONF_STATUS_INPUT, e, "dt_s");
  expect("step of dt = NaN", ionf_engine_step(e, NAN, NULL), IONF_STATUS_INPUT, e, "dt_s");
  expect("snapshot index -1", ionf_engine_write_snapshot(e, -1, NULL, 0), IONF_STATUS_INPUT, e,
         "-1");
  expect("restart from a missing file", ionf_engine_restart(e, "/nonexistent/checkpoint.h5"),
         IONF_STATUS_IO, e, "/nonexistent/checkpoint.h5");
  /* redshifts and cosmology */
  double z = 0.0;
  expect("redshift into NULL", ionf_engine_redshift(e, NULL), IONF_STATUS_INPUT, e, "NULL");
  expect("age at z = -1", ionf_engine_age_at_redshift(e, -1.0, &z), IONF_STATUS_INPUT, e, "-1");
  expect("redshift at age 0", ionf_engine_redshift_at_age(e, 0.0, &z), IONF_STATUS_INPUT, e, "age");
  expect("H(z = NaN)", ionf_engine_hubble(e, NAN, &z), IONF_STATUS_INPUT, e, "nan");
  values[7] = -1.0;
  expect("density of a redshift, negative", ionf_engine_set_density(e, values, 512, 9.0),
         IONF_STATUS_INPUT, e, "n_H[7]");
  values[7] = 1e-3;
  expect("density of a redshift, wrong count", ionf_engine_set_density(e, values, 7, 9.0),
         IONF_STATUS_INPUT, e, "7 values");
  expect("density of z = inf", ionf_engine_set_density(e, values, 512, INFINITY),
         IONF_STATUS_INPUT, e, "inf");
  expect("cosmology of NULL", ionf_engine_cosmology(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
         IONF_STATUS_USAGE, NULL, "NULL");

  /* after all that the engine still works: a step, then a restart is out of order */
  int iterations = 0;
  if ((rc = ionf_engine_step(e, 3.15e13, &iterations)) != IONF_STATUS_OK || iterations < 1) {
    fprintf(stderr, "FAIL: a good step after the failed calls: %s\n", ionf_last_error_message(e));
    failures++;
  }
  int64_t count = -1;
  ionf_engine_source_count(e, &count);
  if (count != 1) { fprintf(stderr, "FAIL: %lld sources, the config's 1 expected\n", (long long)count); failures++; }
  expect("restart after a step", ionf_engine_restart(e, "x.h5"), IONF_STATUS_USAGE, e, "right after");
  ionf_engine_destroy(e);

  /* a particle engine: what has no meaning for particles says so */
  const char *particles[] = {"particles.generate.count_1d=6", "time.dt=10 Myr",
                             "time.t_end=10 Myr", "time.outputs=[10 Myr]",
                             "output.progress=false", "output.directory=test_api_misuse_out"};
  ionf_engine *p = NULL;
  if ((rc = ionf_engine_create_builtin("iliev1_particles", particles, 6, IONF_COMM_WORLD, &p)) !=
      IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: particle create: %s\n", ionf_last_error_message(NULL));
    return 1;
  }
  int kind = -1;
  int64_t n_particles = 0;
  ionf_engine_kind(p, &kind, &n_particles);
  if (kind != IONF_ENGINE_PARTICLES || n_particles != 216) {
    fprintf(stderr, "FAIL: kind %d with %lld particles, want particles and 216\n", kind,
            (long long)n_particles);
    failures++;
  }
  expect("grid of a particle run", ionf_engine_grid(p, &n, NULL, NULL), IONF_STATUS_USAGE, p,
         "no grid");
  expect("particle sources in cells", ionf_engine_set_sources(p, 1, pos, IONF_POSITION_CELLS, ndot),
         IONF_STATUS_INPUT, p, "cm");
  expect("set a read-only particle field", ionf_engine_set_field(p, "n_H", values, 216),
         IONF_STATUS_USAGE, p, "read-only");
  expect("particle restart from a missing file", ionf_engine_restart(p, "/nonexistent/checkpoint.h5"),
         IONF_STATUS_IO, p, "/nonexistent/checkpoint.h5");
  expect("particle restart from NULL", ionf_engine_restart(p, NULL), IONF_STATUS_INPUT, p, "NULL");
  expect("particle field with a wrong count", ionf_engine_set_field(p, "x_HII", values, 512),
         IONF_STATUS_INPUT, p, "216");
  expect("redshift of a particle run", ionf_engine_redshift(p, &z), IONF_STATUS_USAGE, p,
         "no cosmology");
  expect("density of a particle run", ionf_engine_set_density(p, values, 216, 9.0),
         IONF_STATUS_USAGE, p, "no cosmology");
  expect("finalize with an engine alive", ionf_finalize(), IONF_STATUS_USAGE, NULL, "still alive");
  ionf_engine_destroy(p);
  if ((rc = ionf_finalize()) != IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: finalize: %s\n", ionf_last_error_message(NULL));
    failures++;
  }
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}

int main(void) {
  char tmp[4096]; /* the engines' output directories go to a fresh temporary directory */
  if (!test_tmpdir_enter(tmp, sizeof tmp, "ionf_api_misuse")) return 1;
  int code = run_checks();
  if (!test_tmpdir_leave(tmp)) {
    fprintf(stderr, "FAIL: removing %s\n", tmp);
    code = 1;
  }
  return code;
}
