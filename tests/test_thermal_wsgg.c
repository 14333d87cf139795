/**
 * @file test_thermal_wsgg.c
 * @brief The Bordbar et al. 2014 WSGG (thermal_gas_k.h) and the MC with it:
 *  - its weights are >= 0 and sum to <= 1 over the fit's range (T 500-2400 K, Mr 0.01-4);
 *  - its total emissivity against an independent model, the WSGG of Smith, Shen &
 *    Friedman 1982 (ASME J. Heat Transfer 104, 602; its Table 1 for p_w/p_c = 1 and 2 at
 *    1 atm: 3 grey gases, a_j cubic in T), within 25% at T = 600-2000 K and
 *    p_a L = 0.05-3 atm m (the two fit different spectral data, HITEMP 2010 line by line
 *    and Hottel-era band models; they differ by up to 20% here);
 *  - the MC slab (1 m, 32 cells, parab1 temperatures, H2O/CO2 varying along x, Mr 0.5 to 3,
 *    grey walls 0.8 and 0.6) against the exact WSGG slab (thermal_exact.c, the sum of the
 *    grey gases' exact solutions), with gases drawn and with gases sorted (stratified):
 *    every cell and wall within 4.5 sigma, chi^2 per value within [0.5, 1.6].
 * The paper's own emissivity tables were not available to this test (see docs/validation.md).
 */
#include "test_util.h"
#include "thermal/thermal_gas_k.h"
#include "thermal_test_util.h"

static double smith82(int mr, double t_k, double pl) {
  static const double k[2][3] = {{0.4303, 7.055, 178.1}, {0.4201, 6.516, 131.9}};
  static const double b[2][3][4] = {
      {{5.150e-1, -2.303e-4, 9.779e-8, -1.494e-11},
       {7.749e-2, 3.399e-4, -2.297e-7, 3.770e-11},
       {1.907e-1, -1.824e-4, 5.608e-8, -5.122e-12}},
      {{6.508e-1, -5.551e-4, 3.029e-7, -5.353e-11},
       {-0.2504e-1, 6.112e-4, -3.882e-7, 6.528e-11},
       {2.718e-1, -3.118e-4, 1.221e-7, -1.612e-11}}};
  double eps = 0.0;
  for (int j = 0; j < 3; ++j) {
    const double *c = b[mr - 1][j];
    double a = c[0] + t_k * (c[1] + t_k * (c[2] + t_k * c[3]));
    eps += a * (1.0 - exp(-k[mr - 1][j] * pl));
  }
  return eps;
}

static void model(void) {
  double amin = 1.0;
  for (double t = 500.0; t <= 2400.0; t += 50.0)
    for (double mr = 0.01; mr <= 4.0; mr *= 1.5) {
      double kappa[THERMAL_GASES_MAX], a[THERMAL_GASES_MAX];
      thermal_gas_eval(THERMAL_GAS_WSGG_BORDBAR14, 0.0, t, 1.0, 0.3 * mr / (1 + mr),
                       0.3 / (1 + mr), kappa, a);
      for (int j = 0; j < 5; ++j) amin = a[j] < amin || isnan(a[j]) ? a[j] : amin;
    }
  printf("smallest weight a_j (transparent included) over the range: %.4f\n", amin);
  EXPECT(amin >= 0.0, "a weight %.4f < 0", amin);
  double worst = 0.0;
  const double pls[4] = {0.05, 0.2, 1.0, 3.0};
  for (int mr = 1; mr <= 2; ++mr)
    for (double t = 600.0; t <= 2000.0; t += 200.0)
      for (int p = 0; p < 4; ++p) {
        /* p_a = 0.3 atm of H2O + CO2 at Mr = mr; path pl / 0.3 */
        double xw = 0.3 * mr / (1.0 + mr), xc = 0.3 / (1.0 + mr);
        double e = thermal_gas_emissivity(THERMAL_GAS_WSGG_BORDBAR14, 0.0, t, 1.0, xw, xc,
                                          pls[p] / 0.3);
        double ref = smith82(mr, t, pls[p]);
        worst = test_worst(worst, test_rel_diff(e, ref, 0.0));
        if (t == 1000.0) printf("Mr %d, T %.0f K, pL %.2f atm m: eps %.4f (Smith 1982 %.4f)\n",
                                mr, t, pls[p], e, ref);
      }
  printf("largest relative difference from Smith et al. 1982: %.3f\n", worst);
  EXPECT(worst <= 0.25, "emissivity %.3f off Smith et al. 1982", worst);
}

static void slab(int sort) {
  struct thermal_test_slab t;
  thermal_test_slab_init(&t, THERMAL_TEST_PARAB1, 32, 2, 2, 2000);
  t.s.gas_model = THERMAL_GAS_WSGG_BORDBAR14;
  t.s.sort_gases = sort;
  t.s.wall[THERMAL_FACE_X_LO].emissivity = 0.8;
  t.s.wall[THERMAL_FACE_X_HI].emissivity = 0.6;
  for (int i = 0; i < 128; ++i) {
    double mr = 0.5 + 2.5 * (i / 4) / 31.0;
    t.x_h2o[i] = 0.3 * mr / (1.0 + mr);
    t.x_co2[i] = 0.3 / (1.0 + mr);
  }
  t.f.p_atm = t.p_atm;
  t.f.x_h2o = t.x_h2o;
  t.f.x_co2 = t.x_co2;
  if (thermal_test_slab_solve(&t)) {
    ++test_failures;
    return;
  }
  double zq, chi2q, zw = 0.0, chi2w = 0.0;
  thermal_test_slab_z(&t, &zq, &chi2q);
  for (int w = 0; w < 8; ++w) {
    double z = (t.wq[w] - t.wq_exact[w / 4]) / t.wq_sigma[w];
    if (!isfinite(z)) z = INFINITY;
    zw = test_worst(zw, fabs(z));
    chi2w += z * z;
  }
  double chi2 = (128.0 * chi2q + chi2w) / 136.0;
  printf("WSGG slab, gases %s: Q[0] %.5g exact %.5g sigma %.3g, Q[16] %.5g exact %.5g; walls "
         "%.5g (%.5g), %.5g (%.5g); max |z| cells %.2f walls %.2f, chi2/value %.3f\n",
         sort ? "sorted" : "drawn", t.q[0], t.q_exact[0], t.q_sigma[0], t.q[64], t.q_exact[16],
         t.wq[0], t.wq_exact[0], t.wq[4], t.wq_exact[1], zq, zw, chi2);
  EXPECT(zq <= 4.5 && zw <= 4.5, "gases %s: max |z| %.2f (cells), %.2f (walls)",
         sort ? "sorted" : "drawn", zq, zw);
  EXPECT(chi2 >= 0.65 && chi2 <= 1.4, "gases %s: chi^2 per value %.3f", sort ? "sorted" : "drawn",
         chi2);
  thermal_test_slab_free(&t);
}

int main(void) {
  model();
  slab(0);
  slab(1);
  return test_failures ? 1 : 0;
}
