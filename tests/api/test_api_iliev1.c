/**
 * Test 1 (Iliev et al. 2006) through the public C API alone (linked with the shared
 * libionfront, only <ionfront.h> included): create from the built-in default problem
 * with the overrides given as arguments, step to t_end with the engine's dt (the last
 * step landing on t_end as `ionfront run` does), write snapshot_0001.h5.
 * api_cli_match.sh compares it bit for bit with the command line's.
 * usage: test_api_iliev1 OUTPUT_DIR [section.key=VALUE ...]
 */
#include <stdio.h>
#include <string.h>

#include <ionfront.h>

static int fail(const char *what, ionf_status rc, const ionf_engine *e) {
  fprintf(stderr, "FAIL: %s: %s (%d): %s\n", what, ionf_status_name(rc), rc,
          ionf_last_error_message(e));
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_api_iliev1 OUTPUT_DIR [section.key=VALUE ...]\n");
    return 2;
  }
  char out_override[1200];
  snprintf(out_override, sizeof out_override, "output.directory='%s'", argv[1]);
  const char *overrides[64];
  int n = 0;
  for (int a = 2; a < argc && n < 63; ++a) overrides[n++] = argv[a];
  overrides[n++] = out_override;
  if (ionf_api_version() != IONF_API_VERSION) {
    fprintf(stderr, "FAIL: header API %d, library %d\n", IONF_API_VERSION, ionf_api_version());
    return 1;
  }
  ionf_engine *e = NULL;
  ionf_status rc = ionf_engine_create_from_file(NULL, overrides, n, IONF_COMM_WORLD, &e);
  if (rc != IONF_STATUS_OK) return fail("create", rc, NULL);
  double t_s, dt_s, t_end_s;
  int64_t step, cells;
  if ((rc = ionf_engine_time(e, &t_s, &step, &dt_s, &t_end_s)) != IONF_STATUS_OK ||
      (rc = ionf_engine_grid(e, &cells, NULL, NULL)) != IONF_STATUS_OK)
    return fail("query", rc, e);
  while (t_s < t_end_s - 1e-9 * dt_s) {
    double dt = dt_s;
    if (t_end_s - t_s - dt < 1e-9 * dt_s) dt = t_end_s - t_s; /* land on t_end exactly */
    int iterations = 0;
    if ((rc = ionf_engine_step(e, dt, &iterations)) != IONF_STATUS_OK) return fail("step", rc, e);
    if ((rc = ionf_engine_time(e, &t_s, &step, NULL, NULL)) != IONF_STATUS_OK)
      return fail("time", rc, e);
    printf("step %lld: t = %.6g s, %d iteration(s)\n", (long long)step, t_s, iterations);
  }
  double *x = NULL;
  int64_t dims[3] = {0, 0, 0};
  if ((rc = ionf_engine_field(e, "x_HII", &x, dims)) != IONF_STATUS_OK) return fail("field", rc, e);
  if (dims[0] != cells || dims[1] != cells || dims[2] != cells) {
    fprintf(stderr, "FAIL: dims %lld %lld %lld for a %lld^3 grid\n", (long long)dims[0],
            (long long)dims[1], (long long)dims[2], (long long)cells);
    return 1;
  }
  double x_mean = 0.0;
  for (int64_t c = 0; c < cells * cells * cells; ++c) x_mean += x[c];
  x_mean /= (double)(cells * cells * cells);
  printf("<x_HII> = %.10g after %lld steps\n", x_mean, (long long)step);
  if (!(x_mean > 0.0 && x_mean < 1.0)) {
    fprintf(stderr, "FAIL: mean x_HII %g is not between 0 and 1\n", x_mean);
    return 1;
  }
  char path[2048];
  if ((rc = ionf_engine_write_snapshot(e, 1, path, sizeof path)) != IONF_STATUS_OK)
    return fail("snapshot", rc, e);
  printf("wrote %s\n", path);
  ionf_engine_destroy(e);
  if ((rc = ionf_finalize()) != IONF_STATUS_OK) return fail("finalize", rc, NULL);
  return 0;
}
