/**
 * @file test_expanding.c
 * @brief The H II region in an expanding universe (built-in `expanding`, at
 *        64^3 and dt = 10 Myr): its comoving front stays within 5% of the
 *        Shapiro & Giroux (1987) solution at 50-500 Myr, and the density and
 *        the redshift follow the background.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "chem/chem_k.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "grid/ifront.h"
#include "test_util.h"

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  char *overrides[] = {"grid.N=64", "sources=[{position: [32, 32, 32], Ndot: 1.0e54}]",
                       "time.dt=10 Myr", "output.progress=false", "raytracing.backend=cpu"};
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (config_load(NULL, "expanding", overrides, 5, &cfg) != IONF_OK ||
      engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return 1;
  }
  const double checks_myr[] = {50, 100, 200, 300, 500};
  double alpha = chem_alpha_b(&e->chem, cfg.temperature_k);
  double comoving_cell = cfg.box_size_cm / 64.0;
  int next = 0;
  while (next < 5) {
    struct engine_step_info info;
    if (engine_step(e, 10.0 * IONF_MYR_S, &info) != IONF_OK) {
      fprintf(stderr, "step: %s\n", ionf_error_message());
      return 1;
    }
    if (fabs(e->time_s / IONF_MYR_S - checks_myr[next]) > 1e-6) continue;
    double z = engine_redshift(e);
    double r_cells = ifront_radius_along_x_cm(&e->grid, fields_species(e->fields.x_ion, e->fields.cells, SPECIES_HI), e->sources.ijk) /
                     e->grid.cell_cm;
    /* comoving with a = 1 at switch-on (z_initial), the solution's normalisation */
    double r = r_cells * comoving_cell / (1.0 + cfg.z_initial);
    double r_sg = cosmology_sg87_front_comoving_cm(1e54, cfg.n_h_cm3.value, alpha,
                                                   e->age_start_s, e->age_start_s + e->time_s);
    printf("t = %3.0f Myr, z = %.3f: r_I = %.4f Mpc (comoving, a_i = 1), Shapiro & Giroux %.4f, "
           "ratio %.4f\n",
           checks_myr[next], z, r / IONF_MPC_CM, r_sg / IONF_MPC_CM, r / r_sg);
    EXPECT(r_cells > 0 && fabs(r / r_sg - 1.0) < 0.05, "front off by %.1f%% at %.0f Myr",
           100.0 * (r / r_sg - 1.0), checks_myr[next]);
    ++next;
  }
  /* the background: redshift from the age, density diluted to the last step's middle */
  double z_end = engine_redshift(e);
  double age = e->age_start_s + e->time_s;
  EXPECT_REL(cosmology_age_s(&e->cosmo, z_end), age, 1e-10, "redshift at the end");
  double expect_n = cfg.n_h_cm3.value * pow((1.0 + e->z_density) / (1.0 + cfg.z_initial), 3);
  EXPECT_REL(e->fields.n_h_cm3[0], expect_n, 1e-10, "diluted density");
  EXPECT(z_end < cfg.z_initial && z_end > 4.0, "z after 500 Myr: %g", z_end);
  engine_destroy(e);
  config_free(&cfg);
  comm_finalize();
  TEST_RETURN();
}
