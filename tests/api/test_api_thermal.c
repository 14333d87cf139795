/**
 * The C API of thermal radiation (include/ionfront.h, ionf_thermal_*) as a flow solver's
 * coupling loop uses it, through the public header only: create from YAML text and from a
 * built-in; the grid and this rank's cells; solve with the config's medium (NULL) and with
 * the caller's T array of the same values: the same bits; a changed T changes Q and a
 * hotter gas cools more; the wall fluxes' shape and signs (the hot gas heats the 500 K
 * wall, the 1500 K wall loses heat); a few relaxation steps dT = -Q dt / (rho c_p) stay
 * finite; misuse is refused with a message (device arrays on the cpu backend, NaN T, wrong
 * counts, a periodic face, an ionization config, a destroyed handle never touched).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ionfront.h>

static int failures = 0;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "FAIL %d: ", __LINE__);             \
      fprintf(stderr, __VA_ARGS__);                       \
      fprintf(stderr, " [%s]\n", ionf_last_error_message(NULL)); \
      failures++;                                         \
    }                                                     \
  } while (0)

static void refused(const char *what, ionf_status got, ionf_status want, const char *needle) {
  const char *msg = ionf_last_error_message(NULL);
  if (got != want || !strstr(msg, needle)) {
    fprintf(stderr, "FAIL: %s: got %d '%s', want %d with '%s'\n", what, got, msg, want, needle);
    failures++;
  } else {
    printf("ok: %s: %s\n", what, msg);
  }
}

static const char *const sets[] = {"montecarlo.rays_per_element=48", "raytracing.backend=cpu",
                                   "output.directory=test_api_thermal_out"};

static void loop(ionf_thermal *t) {
  int64_t n[3], first = -1, count = -1;
  double cell_m[3];
  CHECK(ionf_thermal_grid(t, n, cell_m) == IONF_STATUS_OK, "grid");
  CHECK(n[0] == 32 && n[1] == 4 && n[2] == 4 && fabs(cell_m[0] - 1.0 / 32) < 1e-15, "slab grid");
  CHECK(ionf_thermal_cell_range(t, &first, &count) == IONF_STATUS_OK, "range");
  int64_t cells = n[0] * n[1] * n[2];
  CHECK(first == 0 && count == cells, "one rank: all %lld cells (%lld, %lld)", (long long)cells,
        (long long)first, (long long)count);
  double *temp = malloc(sizeof(double) * (size_t)cells), *q0 = malloc(sizeof(double) * (size_t)cells);
  double *q = malloc(sizeof(double) * (size_t)cells), *s = malloc(sizeof(double) * (size_t)cells);
  for (int64_t c = 0; c < cells; ++c) /* lin1 at the cell centres, as the config's setup */
    temp[c] = 500.0 + 1000.0 * ((double)(c / 16) + 0.5) / 32.0;
  CHECK(ionf_thermal_solve(t, NULL, NULL, NULL, NULL, q0, s, IONF_MEMORY_HOST) == 0, "solve NULL");
  CHECK(ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, NULL, IONF_MEMORY_HOST) == 0, "solve T");
  CHECK(!memcmp(q, q0, sizeof(double) * (size_t)cells), "the caller's T of the config's values "
        "gives the config's bits");
  int64_t rays = 0;
  double secs = -1;
  CHECK(ionf_thermal_stats(t, &rays, NULL, &secs) == 0 && rays == 48 * (cells + 32) && secs >= 0,
        "stats: %lld rays", (long long)rays);
  int64_t dims[2];
  CHECK(ionf_thermal_wall_shape(t, 0, dims) == 0 && dims[0] == 4 && dims[1] == 4, "x_lo 4 x 4");
  CHECK(ionf_thermal_wall_shape(t, 2, dims) == 0 && dims[0] == 0 && dims[1] == 0, "y_lo none");
  double w[16], ws[16], lo = 0, hi = 0;
  CHECK(ionf_thermal_wall_flux(t, 0, w, ws, 16) == 0, "x_lo flux");
  for (int p = 0; p < 16; ++p) lo += w[p] / 16;
  CHECK(ionf_thermal_wall_flux(t, 1, w, NULL, 16) == 0, "x_hi flux");
  for (int p = 0; p < 16; ++p) hi += w[p] / 16;
  CHECK(lo > 0 && hi < 0, "the 500 K wall heated (%g), the 1500 K one cooled (%g) W/m^2", lo, hi);
  /* a hotter gas (+200 K everywhere) emits more: Q rises in every x column */
  for (int64_t c = 0; c < cells; ++c) temp[c] += 200.0;
  CHECK(ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, s, IONF_MEMORY_HOST) == 0, "hotter");
  double mean0 = 0, mean1 = 0;
  for (int64_t c = 0; c < cells; ++c) mean0 += q0[c] / (double)cells, mean1 += q[c] / (double)cells;
  CHECK(mean1 > mean0 + 1e4, "hotter gas cools more: mean Q %g -> %g W/m^3", mean0, mean1);
  /* a flow solver's loop: T relaxes with dT/dt = -Q / (rho c_p) (air-like, 1 kg/m^3) */
  const double rho_cp = 1.0 * 1005.0, dt = 0.05;
  for (int step = 0; step < 3; ++step) {
    CHECK(ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, s, IONF_MEMORY_HOST) == 0, "step");
    for (int64_t c = 0; c < cells; ++c) temp[c] -= q[c] * dt / rho_cp;
  }
  int finite = 1;
  for (int64_t c = 0; c < cells; ++c) finite = finite && isfinite(temp[c]) && temp[c] > 0;
  CHECK(finite, "the relaxed T is finite and positive");
  /* misuse */
  refused("device arrays on the cpu backend",
          ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, s, IONF_MEMORY_DEVICE),
          IONF_STATUS_USAGE, "device arrays need raytracing.backend: cuda");
  refused("bad memory kind", ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, s, 7),
          IONF_STATUS_INPUT, "memory = 7");
  temp[5] = NAN;
  refused("NaN temperature", ionf_thermal_solve(t, temp, NULL, NULL, NULL, q, s, 0),
          IONF_STATUS_INPUT, "T[5] = nan");
  refused("NULL q", ionf_thermal_solve(t, NULL, NULL, NULL, NULL, NULL, s, 0), IONF_STATUS_INPUT,
          "q_w_per_m3 is NULL");
  refused("wrong wall count", ionf_thermal_wall_flux(t, 0, w, ws, 15), IONF_STATUS_INPUT,
          "has 16 wall patches");
  refused("periodic face", ionf_thermal_wall_flux(t, 3, w, ws, 16), IONF_STATUS_INPUT,
          "a periodic axis");
  refused("face 6", ionf_thermal_wall_shape(t, 6, dims), IONF_STATUS_INPUT, "face 6");
  free(temp);
  free(q0);
  free(q);
  free(s);
}

int main(void) {
  ionf_thermal *t = NULL;
  CHECK(ionf_thermal_create_builtin("thermal_slab", sets, 3, IONF_COMM_WORLD, &t) == 0,
        "create builtin");
  if (t) {
    double w[16];
    refused("wall fluxes before a solve", ionf_thermal_wall_flux(t, 0, w, NULL, 16),
            IONF_STATUS_USAGE, "call ionf_thermal_solve first");
    loop(t);
    ionf_thermal_destroy(t);
  }
  /* from YAML text: a uniform 1000 K periodic box has Q = 0 up to noise (no walls) */
  const char *yaml = "problem: thermal\ngrid: {cells: 4, size_m: 1, periodic: true}\n"
                     "gas: {kappa_per_m: 1}\nsetup: {profile: uniform, T_K: 1000}\n";
  t = NULL;
  CHECK(ionf_thermal_create_from_yaml(yaml, sets, 2, IONF_COMM_WORLD, &t) == 0, "from YAML");
  if (t) {
    double q[64], s[64];
    CHECK(ionf_thermal_solve(t, NULL, NULL, NULL, NULL, q, s, IONF_MEMORY_HOST) == 0, "uniform");
    double worst = 0;
    for (int c = 0; c < 64; ++c) worst = fabs(q[c]) > worst || isnan(q[c]) ? fabs(q[c]) : worst;
    CHECK(worst == 0.0, "an isothermal periodic box: Q = 0 exactly (ERMC's difference form): %g",
          worst);
    refused("a face of a periodic box", ionf_thermal_wall_flux(t, 0, q, s, 1),
            IONF_STATUS_INPUT, "periodic axis");
    ionf_thermal_destroy(t);
  }
  t = (ionf_thermal *)&failures;
  refused("an ionization config", ionf_thermal_create_builtin("iliev1", NULL, 0, IONF_COMM_WORLD, &t),
          IONF_STATUS_CONFIG, "not a thermal-radiation config");
  CHECK(t == NULL, "a failed create sets *out to NULL");
  refused("bad key", ionf_thermal_create_from_yaml(yaml, (const char *const[]){"gas.kapa=1"}, 1,
                                                   IONF_COMM_WORLD, &t),
          IONF_STATUS_CONFIG, "unknown key 'gas.kapa'");
  refused("NULL handle", ionf_thermal_solve(NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0),
          IONF_STATUS_USAGE, "NULL");
  ionf_thermal_destroy(NULL);
  CHECK(ionf_finalize() == 0, "finalize after destroy");
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("all passed\n");
  return failures ? 1 : 0;
}
