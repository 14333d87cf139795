/**
 * @file test_iliev2.c
 * @brief Iliev et al. 2006 Test 2 (H II region with temperature evolution) at
 *        a reduced size (48^3, dt = 10 Myr): the I-front and the temperature of
 *        the ionized gas fall inside the spread of the published codes.
 *
 * The envelopes are the published results (Iliev et al. 2006 comparison
 * project; the eight codes' I-front records and radially averaged T profiles,
 * shells of width L/128 about the corner), min and max over the codes:
 * I-front [kpc] at 10, 30, 100, 200, 500 Myr, and the mean T [K] of shells
 * 25, 37 and 49 (0-based rows of the published profiles; r = 1.31, 1.92,
 * 2.55 kpc) at 100 and 500 Myr.  They are
 * The front's is widened by 3%: this run's cells are 2.7 times larger and its
 * steps twice as long as the paper's, which moves the front by up to a cell (~3% of
 * r).  The temperature band is the codes' spread itself, not widened: it spans a
 * factor 1.5 to 2.3, and the measured shell temperatures (2026-11-27: 15738,
 * 14278, 13363 K at 100 and 500 Myr) lie 8 to 12% inside its top and far above its
 * bottom.  Tighter: the ionized shells are in equilibrium by 100 Myr (six of the
 * eight published codes keep T from 100 to 500 Myr to 4e-4 or better, C2-Ray to
 * 1e-6; OTVET to 2e-2, Zeus not, 0.3); here measured |T(500) / T(100) - 1| =
 * 1.3e-4 at most, allowed 1e-3 (7x margin).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "grid/ifront.h"
#include "test_util.h"

static const double front_t_myr[5] = {10, 30, 100, 200, 500};
static const double front_min_kpc[5] = {2.05, 2.96, 4.23, 4.89, 5.42};
static const double front_max_kpc[5] = {2.18, 3.13, 4.43, 5.19, 5.94};
static const int shells[3] = {25, 37, 49};
static const double t_min_k[2][3] = {{7790, 7715, 7566}, {9965, 9962, 9949}};
static const double t_max_k[2][3] = {{17871, 16130, 14536}, {17871, 16130, 14536}};

/* Mean temperature of the cells whose centre lies in reference shell `shell`. */
static double shell_temperature(const struct engine *e, int shell) {
  int64_t n = e->grid.n;
  double ref_cell = 6.6 * IONF_KPC_CM / 128.0, sum = 0.0;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        double r = e->grid.cell_cm * sqrt((double)(i * i + j * j + k * k));
        if ((int)(r / ref_cell) != shell) continue;
        sum += e->fields.temperature_k[grid_index(n, i, j, k)];
        ++count;
      }
  return count ? sum / (double)count : -1.0;
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  char *overrides[] = {"grid.N=48", "time.dt=10 Myr", "output.progress=false",
                       "raytracing.backend=cpu"};
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (config_load(NULL, "iliev2", overrides, 4, &cfg) != IONF_OK ||
      engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return 1;
  }
  int next = 0, t_index = 0;
  double t_shell_k[2][3];
  while (next < 5) {
    struct engine_step_info info;
    if (engine_step(e, 10.0 * IONF_MYR_S, &info) != IONF_OK) {
      fprintf(stderr, "step: %s\n", ionf_error_message());
      return 1;
    }
    if (fabs(e->time_s / IONF_MYR_S - front_t_myr[next]) > 1e-6) continue;
    double r = ifront_radius_along_x_cm(&e->grid, fields_species(e->fields.x_ion, e->fields.cells, SPECIES_HI), e->sources.ijk) / IONF_KPC_CM;
    printf("t = %3.0f Myr: I-front %.3f kpc (published codes %.2f..%.2f)\n", front_t_myr[next], r,
           front_min_kpc[next], front_max_kpc[next]);
    EXPECT(r >= 0.97 * front_min_kpc[next] && r <= 1.03 * front_max_kpc[next],
           "front %.3f kpc at %.0f Myr outside the published spread", r, front_t_myr[next]);
    if (front_t_myr[next] == 100 || front_t_myr[next] == 500) {
      for (int s = 0; s < 3; ++s) {
        double t = shell_temperature(e, shells[s]);
        t_shell_k[t_index][s] = t;
        printf("   shell %d: T = %.0f K (published codes %.0f..%.0f)\n", shells[s], t,
               t_min_k[t_index][s], t_max_k[t_index][s]);
        EXPECT(t >= t_min_k[t_index][s] && t <= t_max_k[t_index][s],
               "T %.0f K in shell %d outside the published spread", t, shells[s]);
      }
      ++t_index;
    }
    ++next;
  }
  for (int s = 0; s < 3; ++s) {
    double d = test_rel_diff(t_shell_k[1][s], t_shell_k[0][s], 0.0);
    printf("shell %d: |T(500 Myr) / T(100 Myr) - 1| = %.3g (tolerance 1e-3)\n", shells[s], d);
    EXPECT(d <= 1e-3, "shell %d not in thermal equilibrium: T %.1f K at 100 Myr, %.1f K at 500 Myr",
           shells[s], t_shell_k[0][s], t_shell_k[1][s]);
  }
  engine_destroy(e);
  config_free(&cfg);
  comm_finalize();
  TEST_RETURN();
}
