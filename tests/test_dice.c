/**
 * @file test_dice.c
 * @brief Overlapping H II regions (built-in `dice` at 64^3): five sources in a
 *        dice pattern give an ionization field with the pattern's symmetries
 *        (mirror in x and y about the centre source, and x <-> y), each
 *        source's cell ionized, the fronts merged between neighbours, and the
 *        far corner still neutral.  Checks the multi-source sum and the
 *        black-body rates together.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "test_util.h"

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  char *overrides[] = {"grid.N=63", "output.progress=false", "raytracing.backend=cpu",
                       "sources=[{position: [31, 31, 31], Ndot: 5.0e48}, "
                       "{position: [15, 47, 31], Ndot: 5.0e48}, {position: [15, 15, 31], Ndot: 5.0e48}, "
                       "{position: [47, 15, 31], Ndot: 5.0e48}, {position: [47, 47, 31], Ndot: 5.0e48}]",
                       "grid.box_size=6.89 kpc"};
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (config_load(NULL, "dice", overrides, 5, &cfg) != IONF_OK || engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return 1;
  }
  for (int s = 0; s < 10; ++s) {
    struct engine_step_info info;
    if (engine_step(e, IONF_MYR_S, &info) != IONF_OK) {
      fprintf(stderr, "step: %s\n", ionf_error_message());
      return 1;
    }
  }
  int64_t n = e->grid.n;
  const double *x = fields_species(e->fields.x_ion, e->fields.cells, SPECIES_HI);
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        double v = x[grid_index(n, i, j, k)];
        double mirrors[3] = {x[grid_index(n, n - 1 - i, j, k)], x[grid_index(n, i, n - 1 - j, k)],
                             x[grid_index(n, j, i, k)]};
        for (int m = 0; m < 3; ++m) {
          worst = test_worst(worst, test_rel_diff(mirrors[m], v, 0.0));
        }
      }
  printf("largest asymmetry of x_HII under the dice's mirrors: %.3g\n", worst);
  EXPECT(worst < 1e-9, "x_HII not symmetric: %.3g", worst);
  const int src[5][3] = {{31, 31, 31}, {15, 47, 31}, {15, 15, 31}, {47, 15, 31}, {47, 47, 31}};
  for (int s = 0; s < 5; ++s)
    EXPECT(x[grid_index(n, src[s][0], src[s][1], src[s][2])] > 0.99, "source %d's cell not ionized",
           s);
  double between = x[grid_index(n, 23, 23, 31)]; /* half-way between centre and a corner source */
  double far = x[grid_index(n, 0, 0, 0)];
  printf("x_HII between two sources %.4f, at the far corner %.2e\n", between, far);
  EXPECT(between > 0.9, "the fronts have not merged: x = %g", between);
  EXPECT(far < 0.1, "the far corner is ionized: x = %g", far);
  engine_destroy(e);
  config_free(&cfg);
  comm_finalize();
  TEST_RETURN();
}
