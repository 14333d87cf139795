/**
 * ionf_engine_set_field validates before anything reaches the state: a refused call
 * (NaN density, x_HII out of [0, 1], negative temperature) leaves the engine's field
 * exactly as it was, bit for bit, and an accepted call replaces it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ionfront.h>

static int failures = 0;

/* A copy of this rank's `name` field (count cells), or NULL. */
static double *field_copy(ionf_engine *e, const char *name, int64_t count) {
  double *data = NULL;
  int64_t dims[3];
  if (ionf_engine_field(e, name, &data, dims) != IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: field '%s': %s\n", name, ionf_last_error_message(e));
    failures++;
    return NULL;
  }
  double *copy = malloc(sizeof(double) * (size_t)count);
  if (copy) memcpy(copy, data, sizeof(double) * (size_t)count);
  return copy;
}

/* Set `name` to `values` (one bad value at [7]); the call must fail with `want` and the
   field must equal `before` bit for bit afterwards. */
static void refused_keeps(ionf_engine *e, const char *name, const double *values, int64_t count,
                          ionf_status want) {
  double *before = field_copy(e, name, count);
  ionf_status got = ionf_engine_set_field(e, name, values, count);
  double *after = field_copy(e, name, count);
  if (got != want) {
    fprintf(stderr, "FAIL: set_field '%s' with a bad value: got %s, want %s\n", name,
            ionf_status_name(got), ionf_status_name(want));
    failures++;
  }
  if (before && after && memcmp(before, after, sizeof(double) * (size_t)count) != 0) {
    for (int64_t i = 0; i < count; ++i)
      if (memcmp(&before[i], &after[i], sizeof(double)) != 0) {
        fprintf(stderr, "FAIL: refused set_field '%s' changed cell %lld: %.17g -> %.17g\n", name,
                (long long)i, before[i], after[i]);
        break;
      }
    failures++;
  } else if (before && after) {
    printf("ok: refused set_field '%s' left the field unchanged (%s)\n", name,
           ionf_last_error_message(e));
  }
  free(before);
  free(after);
}

int main(void) {
  const char *small[] = {"grid.N=8", "time.dt=10 Myr", "time.t_end=20 Myr", "time.outputs=[20 Myr]",
                         "output.progress=false", "raytracing.backend=cpu"};
  ionf_engine *e = NULL;
  if (ionf_engine_create_builtin(NULL, small, 6, IONF_COMM_WORLD, &e) != IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: create: %s\n", ionf_last_error_message(NULL));
    return 1;
  }
  double *x = NULL;
  int64_t dims[3];
  if (ionf_engine_field(e, "x_HII", &x, dims) != IONF_STATUS_OK) return 1;
  const int64_t count = dims[0] * dims[1] * dims[2];
  double *values = malloc(sizeof(double) * (size_t)count);
  if (!values) return 1;

  for (int64_t i = 0; i < count; ++i) values[i] = 2.5e-3; /* a valid density... */
  values[7] = NAN;                                        /* ...but for one cell */
  refused_keeps(e, "n_H", values, count, IONF_STATUS_INPUT);
  for (int64_t i = 0; i < count; ++i) values[i] = 0.25;
  values[7] = 1.5;
  refused_keeps(e, "x_HII", values, count, IONF_STATUS_INPUT);
  values[7] = NAN;
  refused_keeps(e, "x_HII", values, count, IONF_STATUS_INPUT);
  for (int64_t i = 0; i < count; ++i) values[i] = 1.0e4;
  values[7] = -5.0;
  refused_keeps(e, "T", values, count, IONF_STATUS_INPUT);

  /* an accepted call replaces the field */
  for (int64_t i = 0; i < count; ++i) values[i] = 0.25;
  if (ionf_engine_set_field(e, "x_HII", values, count) != IONF_STATUS_OK) {
    fprintf(stderr, "FAIL: set_field x_HII = 0.25: %s\n", ionf_last_error_message(e));
    failures++;
  } else {
    double *now = field_copy(e, "x_HII", count);
    if (now && memcmp(now, values, sizeof(double) * (size_t)count) != 0) {
      fprintf(stderr, "FAIL: accepted set_field x_HII did not replace the field\n");
      failures++;
    }
    free(now);
  }
  free(values);
  ionf_engine_destroy(e);
  if (ionf_finalize() != IONF_STATUS_OK) failures++;
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
