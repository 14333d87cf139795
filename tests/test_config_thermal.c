/**
 * problem: thermal's config (src/config/config_thermal.c) and what the run makes of it:
 * the built-in thermal problems load as their texts say; the effective YAML loads back to
 * the same config (and the same YAML); one value stands for three axes; the generated
 * profiles have the seed's values at the cell centres (eqs. 18-22); the ranks' blocks of
 * cells and wall patches tile both lists on 1..7 ranks; a config without `problem` is not a
 * thermal one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config_thermal.h"
#include "config/problems.h"
#include "core/constants.h"
#include "core/params.h"
#include "engine/thermal_profile.h"
#include "engine/thermal_run.h"
#include "test_util.h"

static ionf_err load_text(const char *text, struct config_thermal *cfg) {
  struct param_node *root = NULL;
  IONF_CALL(params_load_string(text, "test", &root));
  ionf_err rc = config_thermal_from_params(root, "test", "", cfg);
  params_free(root);
  return rc;
}

static void test_builtins(void) {
  struct config_thermal c;
  EXPECT(load_text(problems_yaml("thermal_slab"), &c) == IONF_OK, "slab: %s", ionf_error_message());
  EXPECT(c.setup.n[0] == 32 && c.setup.n[1] == 4 && c.setup.n[2] == 4, "slab cells");
  EXPECT(!c.setup.periodic[0] && c.setup.periodic[1] && c.setup.periodic[2], "slab periodic");
  EXPECT(c.setup.gas_model == THERMAL_GAS_GREY && c.setup.kappa_per_m == 1.0, "slab kappa");
  EXPECT(c.setup.wall[THERMAL_FACE_X_LO].t_k == 500.0 && c.setup.wall[THERMAL_FACE_X_HI].t_k == 1500.0,
         "slab walls 500 K and 1500 K");
  EXPECT(c.profile == CONFIG_THERMAL_LIN1 && c.axis == 0, "slab profile lin1 along x");
  EXPECT(fabs(c.setup.cell_m[0] - 1.0 / 32.0) < 1e-15 && c.setup.cell_m[1] == c.setup.cell_m[0],
         "slab cubic cells of 1/32 m");
  config_thermal_free(&c);
  EXPECT(load_text(problems_yaml("thermal_cube"), &c) == IONF_OK, "cube: %s", ionf_error_message());
  EXPECT(c.setup.n[0] == 16 && c.setup.n[1] == 16 && c.setup.n[2] == 16, "cube: one N for 3 axes");
  EXPECT(c.setup.kappa_per_m == 0.5 && c.profile == CONFIG_THERMAL_SIN, "cube kappa, sin");
  for (int f = 0; f < THERMAL_FACES; ++f)
    EXPECT(c.setup.wall[f].t_k == 0.0 && c.setup.wall[f].emissivity == 1.0, "cube wall %d", f);
  EXPECT(thermal_wall_patches(&c.setup) == 6 * 256, "cube: 6 x 16^2 wall patches");
  config_thermal_free(&c);
  EXPECT(load_text(problems_yaml("thermal_wsgg"), &c) == IONF_OK, "wsgg: %s", ionf_error_message());
  EXPECT(c.setup.gas_model == THERMAL_GAS_WSGG_BORDBAR14 && c.x_h2o == 0.1 && c.x_co2 == 0.1 &&
             c.pressure_atm == 1.0,
         "wsgg gas");
  EXPECT(strstr(c.effective_yaml, "kappa_per_m") == NULL, "wsgg: no kappa in the effective config");
  config_thermal_free(&c);
}

/* The effective YAML is a complete config: loaded again it gives the same one. */
static void test_round_trip(void) {
  const char *names[] = {"thermal_slab", "thermal_cube", "thermal_wsgg"};
  for (int i = 0; i < 3; ++i) {
    struct config_thermal a, b;
    if (load_text(problems_yaml(names[i]), &a) != IONF_OK) {
      EXPECT(0, "%s: %s", names[i], ionf_error_message());
      continue;
    }
    EXPECT(load_text(a.effective_yaml, &b) == IONF_OK, "%s effective: %s", names[i],
           ionf_error_message());
    const struct thermal_setup *s = &a.setup, *t = &b.setup;
    int same = s->gas_model == t->gas_model && s->kappa_per_m == t->kappa_per_m &&
               s->rays_per_element == t->rays_per_element && s->seed == t->seed &&
               s->transmissivity_min == t->transmissivity_min &&
               s->multigrid.levels == t->multigrid.levels &&
               s->multigrid.steps_per_level == t->multigrid.steps_per_level &&
               s->sort_gases == t->sort_gases && a.profile == b.profile && a.axis == b.axis &&
               a.backend == b.backend && a.x_h2o == b.x_h2o && a.x_co2 == b.x_co2 &&
               a.pressure_atm == b.pressure_atm && !strcmp(a.output_dir, b.output_dir);
    for (int k = 0; k < 3; ++k)
      same = same && s->n[k] == t->n[k] && s->cell_m[k] == t->cell_m[k] &&
             s->periodic[k] == t->periodic[k];
    for (int f = 0; f < THERMAL_FACES; ++f)
      same = same && s->wall[f].t_k == t->wall[f].t_k &&
             s->wall[f].emissivity == t->wall[f].emissivity;
    EXPECT(same, "%s: the effective config loads to the same config", names[i]);
    const char *body_a = strchr(a.effective_yaml, '\n'), *body_b = strchr(b.effective_yaml, '\n');
    EXPECT(body_a && body_b && !strcmp(body_a, body_b), "%s: the same effective YAML twice",
           names[i]);
    config_thermal_free(&a);
    config_thermal_free(&b);
  }
}

static const char cube_text[] =
    "problem: thermal\n"
    "grid: {cells: 4, size_m: 1.0, periodic: true}\n"
    "gas: {kappa_per_m: 2}\n"
    "setup: {profile: PROFILE}\n";

/* The profile at cell (i, j, k) of a 4^3 periodic 1 m cube against its formula. */
static void test_profiles(void) {
  static const char *const names[] = {"lin1", "parab1", "parab2", "sin", "3dims"};
  for (int p = 0; p < 5; ++p) {
    char text[512];
    const char *at = strstr(cube_text, "PROFILE");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - cube_text), cube_text, names[p], at + 7);
    struct config_thermal c;
    if (load_text(text, &c) != IONF_OK) {
      EXPECT(0, "%s: %s", names[p], ionf_error_message());
      continue;
    }
    EXPECT(c.setup.periodic[0] && c.setup.periodic[1] && c.setup.periodic[2] &&
               thermal_wall_patches(&c.setup) == 0,
           "periodic: true for every axis, no walls");
    double t[64];
    EXPECT(thermal_profile_temperature(&c, t) == IONF_OK, "%s: %s", names[p], ionf_error_message());
    double worst = 0.0;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) {
          double x = (i + 0.5) / 4, y = (j + 0.5) / 4, z = (k + 0.5) / 4, xyz = x * y * z, want;
          switch (p) {
            case 0: want = 500 + 1000 * x; break;
            case 1: want = 500 - 2000 * x * x + 2000 * x; break;
            case 2: want = 500 - 8000 * x * x + 8000 * x; break;
            case 3:
              want = pow(sin(IONF_PI * x) * sin(IONF_PI * y) * sin(IONF_PI * z) * IONF_PI /
                             5.670374419e-8, 0.25);
              break;
            default: want = 500 - 2000 * xyz * xyz + 2000 * xyz; break;
          }
          worst = test_worst(worst, test_rel_diff(t[(i * 4 + j) * 4 + k], want, 1.0));
        }
    EXPECT(worst <= 1e-14, "%s: worst relative difference %g", names[p], worst);
    config_thermal_free(&c);
  }
}

/* Every cell and wall patch in exactly one rank's block, the blocks in rank order. */
static void test_ranges(void) {
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.n[0] = 7, s.n[1] = 5, s.n[2] = 3, s.periodic[2] = 1;
  int64_t cells = 105, walls = thermal_wall_patches(&s);
  EXPECT(walls == 2 * 15 + 2 * 21, "walls of x and y faces: %lld", (long long)walls);
  for (int p = 1; p <= 7; ++p) {
    int64_t next_cell = 0, next_wall = 0;
    for (int r = 0; r < p; ++r) {
      struct thermal_range g;
      thermal_run_range(&s, r, p, &g);
      EXPECT(g.cell_first == next_cell && g.wall_first == next_wall, "%d ranks, rank %d", p, r);
      EXPECT(g.cell_count >= cells / p && g.cell_count <= cells / p + 1, "balanced cells");
      next_cell += g.cell_count;
      next_wall += g.wall_count;
    }
    EXPECT(next_cell == cells && next_wall == walls, "%d ranks cover everything", p);
  }
}

static void test_not_thermal(void) {
  struct param_node *root = NULL;
  EXPECT(params_load_string("grid: {N: 8}\n", "t", &root) == IONF_OK, "parse");
  EXPECT(!config_thermal_is_thermal(root), "an ionization config is not thermal");
  params_free(root);
  EXPECT(params_load_string("problem: thermal\n", "t", &root) == IONF_OK, "parse");
  EXPECT(config_thermal_is_thermal(root), "problem: thermal is");
  params_free(root);
  struct config_thermal c;
  EXPECT(load_text("problem: thermal\ngrid: {cells: 4, size_m: 1, periodic: true}\n"
                   "gas: {kappa_per_m: 1}\nsetup: {profile: uniform, T_K: 300}\n"
                   "output: {directory: o}\n",
                   &c) == IONF_OK,
         "a minimal config: %s", ionf_error_message());
  EXPECT(c.uniform_t_k == 300.0 && c.setup.rays_per_element == 1000 && c.setup.seed == 1 &&
             c.setup.transmissivity_min == 1e-6 && c.backend == BACKEND_AUTO,
         "defaults");
  config_thermal_free(&c);
}

int main(void) {
  test_builtins();
  test_round_trip();
  test_profiles();
  test_ranges();
  test_not_thermal();
  if (test_failures) fprintf(stderr, "%d failure(s)\n", test_failures);
  else printf("all passed\n");
  return test_failures ? 1 : 0;
}
