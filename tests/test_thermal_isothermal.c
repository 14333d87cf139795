/**
 * @file test_thermal_isothermal.c
 * @brief An isothermal enclosure (gas and walls at 1200 K; walls black, grey and a
 *        mirror; one periodic axis) gives Q^R = 0 and net wall fluxes = 0 exactly, with
 *        sigma 0, for every ray: the difference form of the estimator.  Grey gas and the
 *        Bordbar WSGG (uniform composition), one level and 3 multigrid levels, gases drawn
 *        and sorted.
 */
#include "test_util.h"
#include "thermal/thermal.h"

#define NX 6
#define NY 5
#define NZ 4

int main(void) {
  static double t_k[NX * NY * NZ], p_atm[NX * NY * NZ], xw[NX * NY * NZ], xc[NX * NY * NZ];
  for (int i = 0; i < NX * NY * NZ; ++i) {
    t_k[i] = 1200.0;
    p_atm[i] = 1.0;
    xw[i] = 0.2;
    xc[i] = 0.1;
  }
  struct thermal_setup s;
  memset(&s, 0, sizeof s);
  s.n[0] = NX;
  s.n[1] = NY;
  s.n[2] = NZ;
  s.cell_m[0] = 0.1;
  s.cell_m[1] = 0.2;
  s.cell_m[2] = 0.15;
  s.periodic[2] = 1;
  const double eps[4] = {1.0, 0.5, 0.3, 0.0};
  for (int f = 0; f < 4; ++f) {
    s.wall[f].emissivity = eps[f];
    s.wall[f].t_k = 1200.0;
  }
  s.kappa_per_m = 2.0;
  s.rays_per_element = 200;
  s.seed = 7u;
  s.transmissivity_min = 1e-6;
  struct thermal_fields f = {t_k, p_atm, xw, xc};
  int64_t cells = NX * NY * NZ, walls = thermal_wall_patches(&s);
  static double q[NX * NY * NZ], qs[NX * NY * NZ], wq[1024], wqs[1024];
  EXPECT(walls == 2 * NY * NZ + 2 * NX * NZ, "%lld wall patches", (long long)walls);
  struct thermal_range r = {0, cells, 0, walls};
  struct thermal_result out = {q, qs, wq, wqs, 0, 0};
  for (int model = 0; model < 2; ++model)
    for (int levels = 1; levels <= 3; levels += 2)
      for (int sort = 0; sort < 2; ++sort) {
        s.gas_model = model;
        s.multigrid.levels = levels;
        s.multigrid.steps_per_level = 2;
        s.sort_gases = sort;
        ionf_err rc = thermal_solve_cpu(&s, &f, &r, &out);
        EXPECT(rc == IONF_OK, "%s", ionf_error_message());
        int nonzero = 0;
        for (int64_t i = 0; i < cells; ++i) nonzero += q[i] != 0.0 || qs[i] != 0.0;
        for (int64_t i = 0; i < walls; ++i) nonzero += wq[i] != 0.0 || wqs[i] != 0.0;
        printf("model %d, levels %d, sort %d: %lld rays, %lld steps, %d nonzero\n", model,
               levels, sort, (long long)out.rays_traced, (long long)out.steps_traced, nonzero);
        EXPECT(nonzero == 0, "model %d levels %d sort %d: %d results not exactly 0", model,
               levels, sort, nonzero);
        EXPECT(out.steps_traced > out.rays_traced, "rays did not walk");
      }
  return test_failures ? 1 : 0;
}
