/**
 * @file test_thermal_setup.c
 * @brief Bad thermal set-ups and fields are refused with a message naming the key or the
 *        cell (thermal_setup_check, thermal_solve_cpu), never a crash; a good one passes;
 *        thermal_wall_patches counts the faces of non-periodic axes only.
 */
#include "test_util.h"
#include "thermal/thermal.h"

static struct thermal_setup good(void) {
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  for (int a = 0; a < 3; ++a) {
    s.n[a] = 3;
    s.cell_m[a] = 0.1;
    s.wall[2 * a].emissivity = s.wall[2 * a + 1].emissivity = 1.0;
  }
  s.n[2] = 2;
  s.periodic[1] = 1;
  s.kappa_per_m = 1.0;
  s.rays_per_element = 10;
  s.transmissivity_min = 1e-6;
  return s;
}

static void refused(const struct thermal_setup *s, const char *needle) {
  ionf_error_clear();
  ionf_err rc = thermal_setup_check(s);
  EXPECT(rc == IONF_ERR_CONFIG, "expected a config error for %s, got %d", needle, (int)rc);
  EXPECT(strstr(ionf_error_message(), needle) != NULL, "message \"%s\" does not name %s",
         ionf_error_message(), needle);
}

int main(void) {
  struct thermal_setup s = good();
  EXPECT(thermal_setup_check(&s) == IONF_OK, "%s", ionf_error_message());
  EXPECT(thermal_wall_patches(&s) == 2 * 3 * 2 + 2 * 3 * 3, "%lld patches",
         (long long)thermal_wall_patches(&s));
  s.wall[THERMAL_FACE_X_HI].emissivity = 1.5;
  refused(&s, "walls.x_hi.emissivity");
  s = good();
  s.wall[THERMAL_FACE_Z_LO].t_k = NAN;
  refused(&s, "walls.z_lo.T_K");
  s = good();
  s.wall[THERMAL_FACE_Y_LO].emissivity = -3.0; /* periodic axis: not a wall, ignored */
  EXPECT(thermal_setup_check(&s) == IONF_OK, "a periodic axis' wall was checked");
  s = good();
  s.rays_per_element = 0;
  refused(&s, "montecarlo.rays_per_element");
  s = good();
  s.transmissivity_min = 1.0;
  refused(&s, "montecarlo.transmissivity_min");
  s = good();
  s.multigrid.levels = 17;
  refused(&s, "montecarlo.multigrid.levels");
  s = good();
  s.multigrid.levels = 3;
  refused(&s, "montecarlo.multigrid.steps_per_level");
  s = good();
  s.gas_model = THERMAL_GAS_WSGG_BORDBAR14;
  s.sort_gases = 1;
  s.rays_per_element = 9; /* 5 grey gases: 10 needed */
  refused(&s, "montecarlo.sort_gases");
  s = good();
  s.gas_model = 7;
  refused(&s, "gas.model");
  s = good();
  s.kappa_per_m = -1.0;
  refused(&s, "gas.kappa_per_m");
  s = good();
  s.n[1] = 0;
  refused(&s, "grid.cells");
  s = good();
  s.cell_m[2] = 0.0;
  refused(&s, "grid.size_m");

  /* bad fields: named by cell */
  s = good();
  double t[18], x[18], q[18], qs[18], wq[64], wqs[64];
  for (int i = 0; i < 18; ++i) t[i] = 800.0, x[i] = 0.1;
  t[7] = NAN;
  struct thermal_fields f = {t, NULL, x, x};
  struct thermal_range r = {0, 18, 0, thermal_wall_patches(&s)};
  struct thermal_result out = {q, qs, wq, wqs, 0, 0};
  ionf_error_clear();
  ionf_err rc = thermal_solve_cpu(&s, &f, &r, &out);
  EXPECT(rc == IONF_ERR_INPUT && strstr(ionf_error_message(), "(1, 0, 1)"),
         "NaN temperature: %d \"%s\"", (int)rc, ionf_error_message());
  t[7] = 800.0;
  x[4] = 0.7; /* x_H2O + x_CO2 = 1.4 */
  ionf_error_clear();
  rc = thermal_solve_cpu(&s, &f, &r, &out);
  EXPECT(rc == IONF_ERR_INPUT && strstr(ionf_error_message(), "mole fractions"),
         "bad mole fractions: %d \"%s\"", (int)rc, ionf_error_message());
  x[4] = 0.1;
  r.cell_count = 19;
  ionf_error_clear();
  rc = thermal_solve_cpu(&s, &f, &r, &out);
  EXPECT(rc == IONF_ERR_INTERNAL, "a range past the grid: %d", (int)rc);
  r.cell_count = 18;
  ionf_error_clear();
  EXPECT(thermal_solve_cpu(&s, &f, &r, &out) == IONF_OK, "%s", ionf_error_message());
  return test_failures ? 1 : 0;
}
