/**
 * @file test_chem_clumping.c
 * @brief The clumping factor in the chemistry (chem_k.h, chem_he_k.h, chem_cpu.c): C times
 *        the recombinations equals alpha_B scaled by C (hydrogen; hydrogen through the
 *        H + He update; with the temperature evolving, whose cooling is not clumped); C = 1
 *        and no clumping give the same bits as before; helium's recombination coefficients
 *        are all scaled, its collisional ones not; a CPU pass with the density model gives
 *        each cell the update of its own C; the solver passes the C it was set to.
 */
#include <stdio.h>
#include <string.h>

#include "chem/chem.h"
#include "chem/chem_he_k.h"
#include "chem/chem_k.h"
#include "test_util.h"

static struct chem_params params(int thermal) {
  struct chem_params p;
  memset(&p, 0, sizeof p);
  p.alpha_b_1e4_cm3_s = 2.59e-13;
  p.alpha_b_power = -0.7;
  p.col_h0 = 5.835e-11;
  p.col_t_h0_k = 1.578e5;
  p.collisional = 1;
  p.abu_c = 7.1e-7;
  p.thermal = thermal;
  return p;
}

static struct chem_clumping uniform(double c) {
  struct chem_clumping k;
  memset(&k, 0, sizeof k);
  k.model = CHEM_CLUMPING_UNIFORM;
  k.factor = c;
  return k;
}

/* C alpha_B against alpha_B' = C alpha_B: equal to rounding (alpha differs in its last bit). */
static void test_hydrogen_scaling(void) {
  const double cs[3] = {1.7, 5.0, 30.0}, temps[2] = {1e4, 2.3e4};
  double worst = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int t = 0; t < 2; ++t) {
      struct chem_params p = params(0), ps = params(0);
      ps.alpha_b_1e4_cm3_s = cs[i] * p.alpha_b_1e4_cm3_s;
      for (double gamma = 1e-16; gamma < 1e-10; gamma *= 30.0) {
        struct chem_cell_result a =
            chem_cell_update_clumped(&p, cs[i], 1.2e-3, 1.2e-3, 1e-3, temps[t], gamma, 3e14);
        struct chem_cell_result b = chem_cell_update(&ps, 1.2e-3, 1.2e-3, 1e-3, temps[t], gamma, 3e14);
        worst = test_worst(worst, test_rel_diff(a.x_end, b.x_end, 1e-14));
        worst = test_worst(worst, test_rel_diff(a.x_av, b.x_av, 1e-14));
        /* the same through a pass */
        double xa = 1.2e-3, xb = 1.2e-3, ta = 0.0, tb = 0.0;
        int ma, mb;
        struct chem_clumping k = uniform(cs[i]), none = uniform(1.0);
        none.model = CHEM_CLUMPING_NONE;
        struct chem_cell_result pa = chem_cell_pass(&p, &k, 0, 3e14, 1.2e-3, 1e-3, temps[t],
                                                    gamma, 0.0, &xa, &ta, &ma);
        struct chem_cell_result pb = chem_cell_pass(&ps, &none, 0, 3e14, 1.2e-3, 1e-3, temps[t],
                                                    gamma, 0.0, &xb, &tb, &mb);
        worst = test_worst(worst, test_rel_diff(pa.x_end, pb.x_end, 1e-14));
        worst = test_worst(worst, test_rel_diff(xa, xb, 1e-14));
      }
    }
  printf("hydrogen: C alpha_B vs scaled alpha_B: worst relative difference %.3g\n", worst);
  /* measured: 0 (the products round alike); a missing or doubled factor would be O(1) */
  EXPECT(worst <= 1e-12, "C alpha_B differs from the scaled alpha_B by %.3g", worst);
  /* the clumping matters: C = 5 leaves the cell less ionized than C = 1 */
  struct chem_params p = params(0);
  struct chem_cell_result c1 = chem_cell_update_clumped(&p, 1.0, 0.5, 0.5, 1e-3, 1e4, 1e-14, 3e15);
  struct chem_cell_result c5 = chem_cell_update_clumped(&p, 5.0, 0.5, 0.5, 1e-3, 1e4, 1e-14, 3e15);
  EXPECT(c5.x_end < c1.x_end - 0.05, "C = 5: x_end %g, C = 1: %g", c5.x_end, c1.x_end);
}

/* The thermal update: C scales the recombinations only (the cooling is not clumped), so it
   equals the update with alpha_B scaled. */
static void test_hydrogen_thermal(void) {
  struct chem_params p = params(1), ps = params(1);
  ps.alpha_b_1e4_cm3_s = 4.0 * p.alpha_b_1e4_cm3_s;
  struct chem_cell_result a = chem_cell_update_thermal_clumped(&p, 4.0, 1e-3, 1e-3, 100.0, 100.0,
                                                               1e-3, 1e-12, 3e-24, 3e14);
  struct chem_cell_result b =
      chem_cell_update_thermal(&ps, 1e-3, 1e-3, 100.0, 100.0, 1e-3, 1e-12, 3e-24, 3e14);
  double d = test_worst(test_rel_diff(a.x_end, b.x_end, 1e-14), test_rel_diff(a.t_end_k, b.t_end_k, 1e-14));
  EXPECT(d <= 1e-12, "thermal: C alpha_B vs scaled alpha_B differ by %.3g", d);
  /* C = 1 through the _clumped form: the same bits as the old function */
  struct chem_cell_result c = chem_cell_update_thermal_clumped(&p, 1.0, 1e-3, 1e-3, 100.0, 100.0,
                                                               1e-3, 1e-12, 3e-24, 3e14);
  struct chem_cell_result o =
      chem_cell_update_thermal(&p, 1e-3, 1e-3, 100.0, 100.0, 1e-3, 1e-12, 3e-24, 3e14);
  EXPECT(c.x_end == o.x_end && c.x_av == o.x_av && c.t_end_k == o.t_end_k && c.t_av_k == o.t_av_k,
         "C = 1 changes bits of the thermal update");
}

static struct chem_he_params he_params(double abundance) {
  struct chem_he_params p = {abundance, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  return p;
}

static void test_helium(void) {
  struct chem_he_params p = he_params(0.08);
  struct chem_he_coefficients c1 = chem_he_coefficients_at(&p, 2e4);
  struct chem_he_coefficients c3 = chem_he_coefficients_clumped(&p, 2e4, 3.0);
  EXPECT(c3.alpha_hii == 3.0 * c1.alpha_hii && c3.alpha_heii == 3.0 * c1.alpha_heii &&
             c3.alpha_heiii == 3.0 * c1.alpha_heiii && c3.ground_heii == 3.0 * c1.ground_heii &&
             c3.ground_heiii == 3.0 * c1.ground_heiii && c3.excited_heii == 3.0 * c1.excited_heii,
         "every recombination coefficient times C");
  EXPECT(c3.col_hi == c1.col_hi && c3.col_hei == c1.col_hei && c3.col_heii == c1.col_heii,
         "collisional ionization is not clumped");
  /* no clumping = C = 1 = the old pass, bit for bit */
  struct chem_he_state s0 = {1e-3, 1e-3, 1e-6}, av_a = s0, av_b = s0;
  struct chem_he_rates g = {3e-13, 1e-13, 1e-15};
  double ta = 0.0, tb = 0.0;
  int ma, mb;
  struct chem_clumping one = uniform(1.0);
  struct chem_he_pass_result ra =
      chem_he_cell_pass(&p, 0, 3e13, s0, 1e-3, 1e4, g, NULL, &av_a, &ta, &ma);
  struct chem_he_pass_result rb =
      chem_he_cell_pass_clumped(&p, &one, 0, 3e13, s0, 1e-3, 1e4, g, NULL, &av_b, &tb, &mb);
  EXPECT(ra.end.x_hii == rb.end.x_hii && ra.end.x_heii == rb.end.x_heii &&
             ra.end.x_heiii == rb.end.x_heiii && av_a.x_hii == av_b.x_hii,
         "C = 1 changes bits of the helium pass");
  /* hydrogen alone through the H + He update: C alpha_B = the scaled alpha_B */
  struct chem_he_params h = he_params(0.0), hs = he_params(0.0);
  hs.alpha_hii_b_1e4_cm3_s = 6.0 * h.alpha_hii_b_1e4_cm3_s;
  struct chem_he_result x = chem_he_cell_update_clumped(&h, 6.0, s0, s0, 1e-3, 1e4, g, 3e14);
  struct chem_he_result y = chem_he_cell_update(&hs, s0, s0, 1e-3, 1e4, g, 3e14);
  double d = test_worst(test_rel_diff(x.end.x_hii, y.end.x_hii, 1e-14),
                        test_rel_diff(x.av.x_hii, y.av.x_hii, 1e-14));
  EXPECT(d <= 1e-12, "H + He update without helium: C alpha_B vs scaled alpha_B: %.3g", d);
  /* with helium, C = 4 recombines more: less He III at the end */
  struct chem_he_result r1 = chem_he_cell_update_clumped(&p, 1.0, s0, s0, 1e-3, 1e4, g, 3e15);
  struct chem_he_result r4 = chem_he_cell_update_clumped(&p, 4.0, s0, s0, 1e-3, 1e4, g, 3e15);
  EXPECT(r4.end.x_heiii < r1.end.x_heiii && r4.end.x_hii < r1.end.x_hii,
         "C = 4 leaves less ionized gas: x_HII %g vs %g, x_HeIII %g vs %g", r4.end.x_hii,
         r1.end.x_hii, r4.end.x_heiii, r1.end.x_heiii);
}

/* A CPU pass with the density model: each cell as chem_cell_pass with its own C. */
#define N 64
static void test_density_pass(void) {
  static double n_h[N], t[N], g[N], x[N], x_av[N], x_end[N], ref_av[N];
  double sum = 0.0;
  for (int c = 0; c < N; ++c) {
    n_h[c] = 1e-4 * (0.2 + 0.05 * c);
    t[c] = 1e4;
    g[c] = 1e-14 * (1 + c % 5);
    x[c] = x_av[c] = ref_av[c] = 1.2e-3;
    sum += n_h[c];
  }
  struct chem_params p = params(0);
  struct chem_clumping k;
  memset(&k, 0, sizeof k);
  k.model = CHEM_CLUMPING_DENSITY;
  k.a = 3.0, k.b = 14.0, k.c = -2.0, k.mean_n_h_cm3 = sum / N;
  struct chem_input in;
  memset(&in, 0, sizeof in);
  in.n_cells = N, in.dt_s = 3e14, in.params = p, in.n_h_cm3 = n_h, in.temperature_k = t;
  in.gamma_per_s = g, in.x_ion = x, in.species_stride = N, in.n_species = 1;
  struct chem_state st = {x_av, x_end, NULL, NULL};
  struct chem_pass_result res;
  EXPECT(chem_cpu_pass_clumped(&in, &k, &st, &res) == IONF_OK, "pass");
  int differ = 0;
  double c_min = 1e300, c_max = 0.0;
  for (int c = 0; c < N; ++c) {
    double cc = chem_clumping_factor(&k, n_h[c]);
    c_min = cc < c_min ? cc : c_min;
    c_max = cc > c_max ? cc : c_max;
    struct chem_clumping one = uniform(cc);
    double t_av = 0.0;
    int moved;
    struct chem_cell_result r =
        chem_cell_pass(&p, &one, 0, 3e14, x[c], n_h[c], t[c], g[c], 0.0, &ref_av[c], &t_av, &moved);
    differ += r.x_end != x_end[c] || ref_av[c] != x_av[c];
  }
  EXPECT(differ == 0, "%d cells differ from the update with their own C", differ);
  EXPECT(c_min >= 1.0 && c_max > 2.0 * c_min, "C varies with the density: %g..%g", c_min, c_max);
  /* the solver passes the C it was set to */
  struct chem_solver *s = NULL;
  EXPECT(chem_solver_create_cpu(&s) == IONF_OK, "solver");
  double sx_av[N], sx_end[N];
  for (int c = 0; c < N; ++c) sx_av[c] = 1.2e-3;
  struct chem_state ss = {sx_av, sx_end, NULL, NULL};
  chem_solver_set_clumping(s, &k);
  EXPECT(s->ops.pass(s, &in, &ss, &res) == IONF_OK, "solver pass");
  EXPECT(!memcmp(sx_end, x_end, sizeof sx_end) && !memcmp(sx_av, x_av, sizeof sx_av),
         "the solver's pass differs from chem_cpu_pass_clumped");
  /* and none by default: chem_cpu_pass */
  struct chem_solver *s0 = NULL;
  EXPECT(chem_solver_create_cpu(&s0) == IONF_OK, "solver");
  double ax[N], ae[N], bx[N], be[N];
  for (int c = 0; c < N; ++c) ax[c] = bx[c] = 1.2e-3;
  struct chem_state sa = {ax, ae, NULL, NULL}, sb = {bx, be, NULL, NULL};
  EXPECT(s0->ops.pass(s0, &in, &sa, &res) == IONF_OK && chem_cpu_pass(&in, &sb, &res) == IONF_OK,
         "passes");
  EXPECT(!memcmp(ae, be, sizeof ae) && !memcmp(ax, bx, sizeof ax),
         "a new solver's pass is not chem_cpu_pass (no clumping)");
  chem_solver_destroy(s);
  chem_solver_destroy(s0);
}

int main(void) {
  test_hydrogen_scaling();
  test_hydrogen_thermal();
  test_helium();
  test_density_pass();
  TEST_RETURN();
}
