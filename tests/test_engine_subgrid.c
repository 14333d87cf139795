/**
 * @file test_engine_subgrid.c
 * @brief A run's sub-grid models step by step: in an expanding box each step's photon
 *        radius is R(z) of raytracing.mean_free_path at the step's redshift (its middle),
 *        below the radius planned at the start, and the tracer uses it -- no rate beyond
 *        it, rates between the previous step's radius and it; the redshift clumping
 *        model's C and the density model's a, b, c and mean n_H are the step's.  With the
 *        argument `cuda` the same on the CUDA backend (the GPU's ASORA and chemistry), and
 *        its x_HII against the CPU backend's to 1e-10 (the ASORA atomics' order: about
 *        1e-13, test_backend_agreement); skips (77) without a GPU.
 */
#include <stdio.h>
#include <string.h>

#include "chem/clumping.h"
#include "config/config.h"
#include "core/ionf_config.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "mpi/comm.h"
#include "test_util.h"

#define N 16

static const char *backend = "raytracing.backend=cpu";

static int make(const char *const *given, int n, struct ionf_config *cfg, struct engine **e) {
  const char *sets[16];
  for (int i = 0; i < n && i < 15; ++i) sets[i] = given[i];
  sets[n++] = backend;
  if (config_load(NULL, "expanding", (char *const *)sets, n, cfg) != IONF_OK ||
      engine_create(cfg, e) != IONF_OK) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return 0;
  }
  return 1;
}

/* Rates of the last pass against the step's radius: none beyond it, some in the shell
   (r_prev, r_now] (the front is far beyond: the gas there is ionized). */
static void check_rates(struct engine *e, double r_prev, double r_now) {
  EXPECT(engine_sync_to_host(e) == IONF_OK, "sync");
  const double *g = fields_species(e->fields.gamma_per_s, e->fields.cells, SPECIES_HI);
  int beyond = 0, shell = 0, shell_lit = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        double d2 = (double)((i - 8) * (i - 8) + (j - 8) * (j - 8) + (k - 8) * (k - 8));
        double gam = g[((int64_t)i * N + j) * N + k];
        if (d2 > r_now * r_now) beyond += gam != 0.0;
        if (d2 > r_prev * r_prev && d2 <= r_now * r_now) {
          ++shell;
          shell_lit += gam > 0.0;
        }
      }
  EXPECT(beyond == 0, "%d cell(s) beyond R_max = %.4f cells have a rate", beyond, r_now);
  EXPECT(shell > 0 && shell_lit == shell, "%d of %d cell(s) between %.4f and %.4f cells lit",
         shell_lit, shell, r_prev, r_now);
}

static void test_mean_free_path_and_redshift_clumping(void) {
  const char *sets[] = {"grid.N=16", "sources=[{position: [8, 8, 8], Ndot: 1e57}]",
                        "time.dt=10 Myr", "time.t_end=40 Myr", "output.progress=false",
                        "raytracing.mean_free_path={model: Choudhury09, A: 2000 Mpc, eta: -9}",
                        "chemistry.clumping={model: redshift}"};
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (!make(sets, 7, &cfg, &e)) {
    ++test_failures;
    return;
  }
  const double cell_cm = cfg.box_size_cm / N; /* comoving */
  /* 22.685 Mpc / 16 = 1.418 Mpc cells: the 1.518 Mpc fit */
  EXPECT(cfg.clumping.c0 == 338.76 && cfg.clumping.c1 == -0.4187 && cfg.clumping.c2 == 0.0058528,
         "the 1.518 Mpc fit: %g %g %g", cfg.clumping.c0, cfg.clumping.c1, cfg.clumping.c2);
  double r_prev = 0.0;
  for (int s = 0; s < 4; ++s) {
    struct engine_step_info info;
    if (engine_step(e, 10.0 * IONF_MYR_S, &info) != IONF_OK) {
      fprintf(stderr, "step: %s\n", ionf_error_message());
      ++test_failures;
      break;
    }
    const double z = e->z_density; /* the step's middle */
    const double r = 2000.0 * IONF_MPC_CM * pow((1.0 + z) / 5.0, -9.0) / cell_cm;
    const double c = 338.76 * exp(-0.4187 * z + 0.0058528 * z * z) + 1.0;
    printf("step %d: z = %.4f, R_max = %.4f cells (planned %.4f), C = %.4f\n", s + 1, z,
           e->r_max_cells, cfg.r_max_cells, e->clumping_now.factor);
    EXPECT_REL(e->r_max_cells, r, 1e-12, "the step's R_max: R(z) of its middle");
    EXPECT(e->r_max_cells <= cfg.r_max_cells, "step %d beyond the plan", s + 1);
    EXPECT(e->r_max_cells > r_prev + 0.1, "R grows as z falls: %g after %g", e->r_max_cells, r_prev);
    EXPECT(e->clumping_now.model == CHEM_CLUMPING_UNIFORM, "a uniform C");
    EXPECT_REL(e->clumping_now.factor, c, 1e-12, "the step's C(z)");
    if (s > 0) check_rates(e, r_prev, e->r_max_cells);
    r_prev = e->r_max_cells;
  }
  EXPECT(cfg.r_max_cells >= r_prev && cfg.r_max_cells < r_prev * 1.2,
         "the plan: R at the end of the run (%g), the last step's %g", cfg.r_max_cells, r_prev);
  engine_destroy(e);
  config_free(&cfg);
}

static void test_density_clumping(void) {
  const char *sets[] = {"grid.N=16", "sources=[{position: [8, 8, 8], Ndot: 1e54}]",
                        "time.dt=10 Myr", "time.t_end=20 Myr", "output.progress=false",
                        "chemistry.clumping={model: density}"};
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (!make(sets, 6, &cfg, &e)) {
    ++test_failures;
    return;
  }
  for (int s = 0; s < 2; ++s) {
    struct engine_step_info info;
    if (engine_step(e, 10.0 * IONF_MYR_S, &info) != IONF_OK) {
      fprintf(stderr, "step: %s\n", ionf_error_message());
      ++test_failures;
      break;
    }
    EXPECT(engine_sync_to_host(e) == IONF_OK, "sync");
    double sum = 0.0;
    for (int64_t c = 0; c < e->fields.cells; ++c) sum += e->fields.n_h_cm3[c];
    double abc[3];
    clumping_table_at(&cfg.clumping.table, e->z_density, abc);
    const struct chem_clumping *k = &e->clumping_now;
    EXPECT(k->model == CHEM_CLUMPING_DENSITY && k->a == abc[0] && k->b == abc[1] &&
               k->c == abc[2] && k->x_offset == 0.0,
           "step %d: the table's a, b, c at z = %g", s + 1, e->z_density);
    EXPECT_REL(k->mean_n_h_cm3, sum / (double)e->fields.cells, 1e-12, "the grid's mean n_H");
    printf("step %d: z = %.4f, a = %.4g, b = %.4g, c = %.4g, mean n_H = %.4g: C = %.4g\n", s + 1,
           e->z_density, k->a, k->b, k->c, k->mean_n_h_cm3,
           chem_clumping_factor(k, k->mean_n_h_cm3));
  }
  engine_destroy(e);
  config_free(&cfg);
}

/* x_HII after two steps with both models, the density clumping model and the radius of a
   mean free path, on this backend. */
static int final_x(const char *on, double *x) {
  const char *sets[] = {"grid.N=16", "sources=[{position: [8, 8, 8], Ndot: 1e55}]",
                        "time.dt=10 Myr", "time.t_end=20 Myr", "output.progress=false",
                        "raytracing.mean_free_path={model: Worseck2014, A: 2000 Mpc, eta: -9}",
                        "chemistry.clumping={model: density}"};
  const char *saved = backend;
  backend = on;
  struct ionf_config cfg;
  struct engine *e = NULL;
  int ok = make(sets, 7, &cfg, &e);
  backend = saved;
  if (!ok) return 0;
  for (int s = 0; s < 2 && ok; ++s) {
    struct engine_step_info info;
    ok = engine_step(e, 10.0 * IONF_MYR_S, &info) == IONF_OK;
  }
  ok = ok && engine_sync_to_host(e) == IONF_OK;
  if (ok) memcpy(x, e->fields.x_ion, sizeof(double) * N * N * N);
  else fprintf(stderr, "%s: %s\n", on, ionf_error_message());
  engine_destroy(e);
  config_free(&cfg);
  return ok;
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  if (argc > 1 && !strcmp(argv[1], "cuda")) {
    char why[256];
    if (test_gpu_probe(why, sizeof why) <= 0) {
      comm_finalize();
      return test_gpu_skip(why);
    }
    backend = "raytracing.backend=cuda";
  }
  test_mean_free_path_and_redshift_clumping();
  test_density_clumping();
  if (!strcmp(backend, "raytracing.backend=cuda")) {
    static double xc[N * N * N], xg[N * N * N];
    if (final_x("raytracing.backend=cpu", xc) && final_x("raytracing.backend=cuda", xg)) {
      double worst = 0.0;
      for (int c = 0; c < N * N * N; ++c) worst = test_worst(worst, test_abs_diff(xg[c], xc[c]));
      printf("x_HII, CUDA against CPU: largest difference %.3g\n", worst);
      EXPECT(worst <= 1e-10, "the CUDA backend's x_HII differs from the CPU's by %.3g", worst);
    } else {
      ++test_failures;
    }
  }
  comm_finalize();
  TEST_RETURN();
}
