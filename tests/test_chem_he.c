/**
 * @file test_chem_he.c
 * @brief The hydrogen + helium ionization update (src/chem/chem_he_k.h):
 *        helium's exact 2x2 solution and its time average against a fine RK4
 *        integration (stiff, slow and near-degenerate rates), the equilibrium of a
 *        long step, conservation, and the coupled update in photoionization
 *        equilibrium (the balance of each ion with the final n_e).
 */
#include <math.h>
#include <stdio.h>

#include "chem/chem.h"
#include "chem/chem_he_k.h"
#include "test_util.h"

/* rel difference, +inf when either is NaN */
static double rel(double a, double b) {
  if (a != a || b != b) return INFINITY;
  double s = fabs(b) > 1e-300 ? fabs(b) : 1e-300;
  return fabs(a - b) / s;
}

/* helium's system and the integral of y, by RK4 in n steps */
static void rk4_helium(double y1, double y2, double a0, double a1, double r1, double r2, double dt,
                       int n, double end[2], double av[2]) {
  double y[4] = {y1, y2, 0.0, 0.0}, h = dt / n;
  for (int s = 0; s < n; ++s) {
    double k[4][4], t[4];
    for (int st = 0; st < 4; ++st) {
      for (int i = 0; i < 4; ++i)
        t[i] = y[i] + (st == 0 ? 0.0 : (st == 3 ? h : 0.5 * h) * k[st - 1][i]);
      double y0 = 1.0 - t[0] - t[1];
      k[st][0] = y0 * a0 - t[0] * (a1 + r1) + t[1] * r2;
      k[st][1] = t[0] * a1 - t[1] * r2;
      k[st][2] = t[0];
      k[st][3] = t[1];
    }
    for (int i = 0; i < 4; ++i) y[i] += h / 6.0 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
  end[0] = y[0];
  end[1] = y[1];
  av[0] = y[2] / dt;
  av[1] = y[3] / dt;
}

static void test_helium_exact(void) {
  /* {y1, y2, a0, a1, r1, r2, dt}: rates [1/s] from photoionized to recombining, with
     dt from a fraction of the slowest time scale to many of the fastest */
  const double cases[][7] = {
      {0.0, 0.0, 1e-12, 1e-13, 1e-14, 5e-14, 1e12},   /* ionizing, dt ~ 1/a0 */
      {0.0, 0.0, 1e-12, 1e-13, 1e-14, 5e-14, 1e10},   /* early */
      {0.3, 0.6, 0.0, 0.0, 2e-13, 8e-13, 3e12},       /* recombining only */
      {0.5, 0.2, 1e-13, 1e-13, 1e-13, 1e-13, 2e13},   /* near-degenerate eigenvalues */
      {0.1, 0.0, 3e-13, 2.9e-13, 1e-15, 1e-15, 5e12}, /* close rates */
      {0.2, 0.1, 1e-9, 1e-10, 1e-13, 1e-13, 1e11},    /* stiff: a0 dt = 100 */
  };
  double worst = 0.0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const double *k = cases[c];
    double end[2], av[2], ref_end[2], ref_av[2];
    chem_he_helium(k[0], k[1], k[2], k[3], k[4], k[5], k[6], end, av);
    int steps = 200000;
    rk4_helium(k[0], k[1], k[2], k[3], k[4], k[5], k[6], steps, ref_end, ref_av);
    for (int i = 0; i < 2; ++i) {
      /* absolute in the fractions, which are O(1) or floored */
      double d[2] = {fabs(end[i] - ref_end[i]), fabs(av[i] - ref_av[i])};
      for (int j = 0; j < 2; ++j) {
        double e = d[j] != d[j] ? INFINITY : d[j];
        if (ref_end[i] < CHEM_HE_X_FLOOR && j == 0) e = fabs(end[i]) <= 2 * CHEM_HE_X_FLOOR ? 0 : e;
        worst = e > worst ? e : worst;
      }
    }
    printf("case %zu: y_end (%.10f, %.10f) RK4 (%.10f, %.10f); y_av (%.10f, %.10f) RK4 (%.10f, %.10f)\n",
           c, end[0], end[1], ref_end[0], ref_end[1], av[0], av[1], ref_av[0], ref_av[1]);
    EXPECT(end[0] >= 0 && end[1] >= 0 && end[0] + end[1] <= 1.0 + 1e-15, "case %zu: range", c);
  }
  /* RK4 with 2e5 steps is exact to ~1e-13 here; measured 1.9e-14 worst; 10x */
  EXPECT(worst < 2e-13, "helium update vs RK4: worst absolute difference %.3g", worst);
  printf("helium exact vs RK4: worst %.3g\n", worst);
}

static void test_helium_equilibrium(void) {
  const double a0 = 2e-12, a1 = 5e-13, r1 = 3e-13, r2 = 9e-13;
  double end[2], av[2];
  chem_he_helium(0.0, 0.0, a0, a1, r1, r2, 1e16, end, av);
  double det = a0 * r2 + r1 * r2 + a0 * a1;
  EXPECT(rel(end[0], a0 * r2 / det) < 1e-12 && rel(end[1], a0 * a1 / det) < 1e-12,
         "long step: (%g, %g), equilibrium (%g, %g)", end[0], end[1], a0 * r2 / det, a0 * a1 / det);
  /* the average of a step long against every time scale is the equilibrium too */
  EXPECT(rel(av[0], a0 * r2 / det) < 1e-3 && rel(av[1], a0 * a1 / det) < 1e-3, "long average");
}

/* He III's case-B recombination photons per H nucleus per second that ionize hydrogen
   (returned) and He I (*to_hei), written out from Friedrich et al. 2012's numbers apart
   from the update: Balmer continuum alpha_2 = min(3.4e-13 (T/1e4)^-0.6, alpha_B) to H;
   a fraction v = 0.285 (T/1e4)^0.119 of alpha_B by two photons, 1.425 above 13.6 eV of
   which 0.737 above 24.6 eV (shared by n sigma at 24.587 eV); the rest Lyman alpha at
   40.812 eV, a fraction 10 x_HI in [0.01, 1] shared by n sigma there. */
static double heiii_photons(double t_k, double n_e, double a, struct chem_he_state av,
                            double *to_hei) {
  const double n_hi = 1.0 - av.x_hii, n_hei = a * (1.0 - av.x_heii - av.x_heiii);
  const double h24 = n_hi * atomic_sigma_cm2(ATOMIC_HI, 24.587),
               he24 = n_hei * atomic_sigma_cm2(ATOMIC_HEI, 24.587);
  const double h41 = n_hi * atomic_sigma_cm2(ATOMIC_HI, 40.812),
               he41 = n_hei * atomic_sigma_cm2(ATOMIC_HEI, 40.812);
  const double y = h24 / (h24 + he24), z = h41 / (h41 + he41);
  const double alpha_b = atomic_alpha_heiii(t_k, 1);
  const double alpha_2 = fmin(3.4e-13 * pow(t_k / 1e4, -0.6), alpha_b);
  const double v = 0.285 * pow(t_k / 1e4, 0.119);
  const double f = fmin(fmax(10.0 * n_hi, 0.01), 1.0);
  const double rec = n_e * a * av.x_heiii;
  if (to_hei) *to_hei = rec * alpha_b * (v * 0.737 * (1.0 - y) + (1.0 - v) * f * (1.0 - z));
  return rec * (alpha_b * (v * (1.425 - 0.737 + 0.737 * y) + (1.0 - v) * f * z) + alpha_2);
}

/* Long steps repeated from where the last ended, as the engine's passes repeat, until
   the neutral fractions of H and He and x_HeIII settle (1e-10 relative): the on-the-spot
   sources come from the previous n_e iterate's state, and one update's 1e-6 criterion on
   n_e leaves highly ionized gas's neutral fractions ~1e-4 loose (the engine's passes
   converge them to its own 1e-3). */
static struct chem_he_result settle(const struct chem_he_params *p, struct chem_he_state s0,
                                    double n_h, double t_k, struct chem_he_rates g, int *passes) {
  struct chem_he_result r = chem_he_cell_update(p, s0, s0, n_h, t_k, g, 1e17);
  for (*passes = 1; *passes < 200; ++*passes) {
    const struct chem_he_state o = r.end;
    r = chem_he_cell_update(p, o, o, n_h, t_k, g, 1e17);
    const double dh = rel(1.0 - r.end.x_hii, 1.0 - o.x_hii),
                 d0 = rel(1.0 - r.end.x_heii - r.end.x_heiii, 1.0 - o.x_heii - o.x_heiii),
                 d3 = rel(r.end.x_heiii, o.x_heiii);
    if (dh < 1e-10 && d0 < 1e-10 && d3 < 1e-10) break;
  }
  return r;
}

/* The coupled update in equilibrium: each ion's balance holds with the final n_e. */
static void test_coupled_equilibrium(void) {
  struct chem_he_params p = {0.08, 7.1e-7, 0, 1, 2.59e-13, -0.7, 0.0, 0.0}; /* case A */
  struct chem_he_state s0 = {1.2e-3, 1e-4, 1e-6};
  struct chem_he_rates g = {1e-12, 5e-13, 1e-14};
  const double n_h = 1e-3, t_k = 1.5e4;
  /* a long step, then another from where it ended: the average is the end state */
  struct chem_he_result r = chem_he_cell_update(&p, s0, s0, n_h, t_k, g, 1e17);
  r = chem_he_cell_update(&p, r.end, r.end, n_h, t_k, g, 1e17);
  EXPECT(r.converged, "not converged in %d iterations", r.iterations);
  struct chem_he_coefficients c = chem_he_coefficients_at(&p, t_k);
  double n_e = chem_he_electron_density(&p, n_h, &r.end);
  double x = r.end.x_hii, y1 = r.end.x_heii, y2 = r.end.x_heiii, y0 = 1.0 - y1 - y2;
  double h_balance = (1 - x) * (g.gamma_hi + n_e * c.col_hi) / (x * n_e * c.alpha_hii);
  double he1_balance = y0 * (g.gamma_hei + n_e * c.col_hei) / (y1 * n_e * c.alpha_heii);
  double he2_balance = y1 * (g.gamma_heii + n_e * c.col_heii) / (y2 * n_e * c.alpha_heiii);
  printf("equilibrium: x_HII %.8f x_HeII %.8f x_HeIII %.3e n_e %.6e; balances %.9f %.9f %.9f\n",
         x, y1, y2, n_e, h_balance, he1_balance, he2_balance);
  /* n_e iterated to 1e-6 relative: the balances hold to that (measured 5.9e-7; 5x) */
  EXPECT(rel(h_balance, 1.0) < 3e-6, "hydrogen out of balance: %.9f", h_balance);
  EXPECT(rel(he1_balance, 1.0) < 3e-6, "He I/II out of balance: %.9f", he1_balance);
  EXPECT(rel(he2_balance, 1.0) < 3e-6, "He II/III out of balance: %.9f", he2_balance);

  /* case B: helium's ground-state photons ionize hydrogen, so x_HII rises over case A's
     hydrogen balance with case B's coefficient alone */
  p.case_b = 1;
  int passes;
  r = settle(&p, s0, n_h, t_k, g, &passes);
  c = chem_he_coefficients_at(&p, t_k);
  n_e = chem_he_electron_density(&p, n_h, &r.end);
  x = r.end.x_hii;
  double no_spot = (1 - x) * (g.gamma_hi + n_e * c.col_hi) / (x * n_e * c.alpha_hii);
  EXPECT(r.converged && no_spot < 1.0, "case B: helium's photons should add to H's ionization "
         "(balance without them %.9f)", no_spot);
  /* ... and with them, hydrogen balances: the ground-state photons' shares (by n sigma at
     24.6 and 54.4 eV) and He I's cascade photons, p alpha_B(HeII) n_e n_HeII, all to H */
  {
    /* the update forms the sources from the step's averages */
    y1 = r.av.x_heii;
    y2 = r.av.x_heiii;
    y0 = 1.0 - y1 - y2;
    const double a = p.abundance_he, n_hi = 1.0 - r.av.x_hii;
    const double n_e_av = chem_he_electron_density(&p, n_h, &r.av);
    const double t24 = n_hi * atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEI_EV) +
                       a * y0 * atomic_sigma_cm2(ATOMIC_HEI, IONF_E_HEI_EV);
    const double t54 = n_hi * atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEII_EV) +
                       a * y0 * atomic_sigma_cm2(ATOMIC_HEI, IONF_E_HEII_EV) +
                       a * y1 * atomic_sigma_cm2(ATOMIC_HEII, IONF_E_HEII_EV);
    const double src = n_e_av * a * (n_hi * atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEI_EV) / t24 * c.ground_heii * y1 +
                                  n_hi * atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEII_EV) / t54 * c.ground_heiii * y2 +
                                  0.96 * atomic_alpha_heii(t_k, 1) * y1) +
                       heiii_photons(t_k, n_e_av, a, r.av, NULL);
    double with_spot =
        ((1 - x) * (g.gamma_hi + n_e_av * c.col_hi) + src) / (x * n_e_av * c.alpha_hii);
    printf("case B (%d passes): hydrogen's balance without helium's photons %.9f, with them "
           "%.9f (%.2e off)\n", passes, no_spot, with_spot, rel(with_spot, 1.0));
    /* settled: measured 7.4e-13 off, against 0.28 without helium's photons; tolerance
       5e-11 (~10x the largest of this file's three settled balances, 4.5e-12) */
    EXPECT(rel(with_spot, 1.0) < 5e-11, "case B: hydrogen out of balance with helium's photons: %.9f",
           with_spot);
  }
  /* no helium: helium stays as it was */
  p.abundance_he = 0.0;
  r = chem_he_cell_update(&p, s0, s0, n_h, t_k, g, 1e13);
  EXPECT(r.end.x_heii == s0.x_heii && r.end.x_heiii == s0.x_heiii, "helium changed without helium");
}

/* Case B with much He III (its photoionization rate half He I's): hydrogen and He I
   balance only with He III's excited-state photons (heiii_photons), which give H and He I
   ionizations well above the 1e-5 level the balances hold to. */
static void test_heiii_photons(void) {
  struct chem_he_params p = {0.08, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0}; /* case B */
  const struct chem_he_state s0 = {1e-2, 1e-2, 1e-3};
  const struct chem_he_rates g = {2e-13, 1e-13, 5e-14};
  const double n_h = 1e-2, t_k = 2e4, a = p.abundance_he;
  int passes;
  const struct chem_he_result r = settle(&p, s0, n_h, t_k, g, &passes);
  EXPECT(r.converged, "not converged in %d iterations", r.iterations);
  const struct chem_he_coefficients c = chem_he_coefficients_at(&p, t_k);
  const double n_e = chem_he_electron_density(&p, n_h, &r.av);
  const double x = r.end.x_hii, y1 = r.end.x_heii, y2 = r.end.x_heiii, y0 = 1.0 - y1 - y2;
  const struct chem_he_state av = r.av;
  const double n_hi = 1.0 - av.x_hii, n_hei = a * (1.0 - av.x_heii - av.x_heiii),
               n_heii = a * av.x_heii;
  const double h24 = n_hi * atomic_sigma_cm2(ATOMIC_HI, 24.587),
               he24 = n_hei * atomic_sigma_cm2(ATOMIC_HEI, 24.587);
  const double h54 = n_hi * atomic_sigma_cm2(ATOMIC_HI, 54.416),
               he54 = n_hei * atomic_sigma_cm2(ATOMIC_HEI, 54.416),
               heii54 = n_heii * atomic_sigma_cm2(ATOMIC_HEII, 54.416);
  const double ground_heii = atomic_alpha_heii(t_k, 0) - atomic_alpha_heii(t_k, 1),
               ground_heiii = atomic_alpha_heiii(t_k, 0) - atomic_alpha_heiii(t_k, 1);
  double to_hei;
  const double heiii_h = heiii_photons(t_k, n_e, a, av, &to_hei);
  /* hydrogen: the ground-state photons' shares, He I's cascades, He III's photons */
  const double src_h = n_e * a * (h24 / (h24 + he24) * ground_heii * av.x_heii +
                                  h54 / (h54 + he54 + heii54) * ground_heiii * av.x_heiii +
                                  0.96 * atomic_alpha_heii(t_k, 1) * av.x_heii);
  const double h_loss = x * n_e * c.alpha_hii, h_gain = (1 - x) * (g.gamma_hi + n_e * c.col_hi);
  const double h_with = (h_gain + src_h + heiii_h) / h_loss, h_without = (h_gain + src_h) / h_loss;
  /* He I: the 54.4 eV photons it takes and He III's photons; He II's recombinations less
     the ground-state photons hydrogen takes */
  const double he_gain = y0 * (g.gamma_hei + n_e * c.col_hei) +
                         n_e * he54 / (h54 + he54 + heii54) * ground_heiii * av.x_heiii;
  const double he_loss = y1 * n_e * (c.alpha_heii + h24 / (h24 + he24) * ground_heii);
  const double he_with = (he_gain + to_hei / a) / he_loss, he_without = he_gain / he_loss;
  printf("He III's photons (%d passes): x_HII %.6f x_HeII %.6f x_HeIII %.6f; H balance %.2e off (without them "
         "%.6f), He I balance %.2e off (without them %.6f)\n",
         passes, x, y1, y2, rel(h_with, 1.0), h_without, rel(he_with, 1.0), he_without);
  /* measured (settled): H 8.5e-13 off, He I 4.5e-12; tolerance 5e-11 (~10x) */
  EXPECT(rel(h_with, 1.0) < 5e-11, "hydrogen out of balance with He III's photons: %.9f", h_with);
  EXPECT(rel(he_with, 1.0) < 5e-11, "He I out of balance with He III's photons: %.9f", he_with);
  EXPECT(rel(h_without, 1.0) > 1e-3 && rel(he_without, 1.0) > 1e-3,
         "He III's photons should matter here: balances without them %.6f, %.6f", h_without,
         he_without);
  /* case A: none of them (every recombination photon leaves) */
  p.case_b = 0;
  const struct chem_he_coefficients ca = chem_he_coefficients_at(&p, t_k);
  EXPECT(ca.excited_heiii == 0.0 && ca.n2_heiii == 0.0, "case A with He III's on-the-spot photons");
}

/* The temperature: a long step settles where heating equals cooling; adiabatic cooling
   alone follows T0 exp(-2 H t); the coupled update converges. */
static void test_thermal(void) {
  struct chem_he_params p = {0.08, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  struct chem_he_state av = {0.9, 0.5, 0.4};
  const double n_h = 1e-3, heat[3] = {1e-23, 3e-23, 5e-23}; /* erg/s per atom */
  /* T_eq by bisection on heating - cooling */
  double a_he = p.abundance_he;
  double h_rate = n_h * ((1 - av.x_hii) * heat[0] + a_he * (1 - av.x_heii - av.x_heiii) * heat[1] +
                         a_he * av.x_heii * heat[2]);
  double lo = 1e3, hi = 1e7;
  for (int i = 0; i < 200; ++i) {
    double mid = sqrt(lo * hi);
    if (h_rate > chem_he_cooling(&p, n_h, &av, mid)) lo = mid; else hi = mid;
  }
  double t_eq = sqrt(lo * hi), t_av;
  double t_end = chem_he_thermal_update(&p, 1e4, n_h, &av, &av, heat, 1e17, &t_av);
  printf("thermal equilibrium: T_end %.6g K, heating = cooling at %.6g K (rel %.2e)\n", t_end,
         t_eq, fabs(t_end / t_eq - 1.0));
  /* the sub-steps shrink as heating and cooling meet: measured 2.3e-11; 1e-9 */
  EXPECT(rel(t_end, t_eq) < 1e-9, "equilibrium temperature %.6g vs %.6g", t_end, t_eq);
  /* adiabatic alone: a gas too thin to cool, T0 exp(-2 H dt) */
  p.hubble_per_s = 1e-17;
  const double heat0[3] = {0.0, 0.0, 0.0}, t0 = 1e4, dt = 5e16;
  t_end = chem_he_thermal_update(&p, t0, 1e-12, &av, &av, heat0, dt, &t_av);
  double want = t0 * exp(-2.0 * p.hubble_per_s * dt);
  printf("adiabatic: T_end %.8g K, exact %.8g K (rel %.2e)\n", t_end, want, rel(t_end, want));
  /* first-order sub-steps of at most 5%: measured 2.55e-2 after a factor e^-1; 1.5x */
  EXPECT(rel(t_end, want) < 3.8e-2, "adiabatic cooling %.8g vs %.8g", t_end, want);
  /* the coupled update of a photo-heated cell converges and stays in range */
  p.hubble_per_s = 0.0;
  struct chem_he_state s0 = {1e-3, 1e-3, 1e-6};
  struct chem_he_rates g = {1e-13, 5e-14, 1e-15};
  struct chem_he_thermal_result r = chem_he_cell_update_thermal(&p, s0, s0, 100.0, 100.0, n_h, g,
                                                                heat, 3e13);
  printf("heated cell: T %.1f -> %.1f K (average %.1f), x_HII %.4f, x_HeII %.4f, x_HeIII %.2e, "
         "%d iterations\n", 100.0, r.t_end_k, r.t_av_k, r.ion.end.x_hii, r.ion.end.x_heii,
         r.ion.end.x_heiii, r.iterations);
  EXPECT(r.ion.converged && r.t_end_k > 100.0 && r.t_end_k < 1e6 && r.t_av_k > 100.0,
         "heated cell: T_end %g, converged %d", r.t_end_k, r.ion.converged);
}

/* The CPU pass with helium runs chem_he_cell_pass on every cell of [species][cell] arrays. */
static void test_cpu_pass(void) {
  enum { N = 37 };
  double n_h[N], t[N], g[3 * N], heat[3 * N], x0[3 * N], av[3 * N], end[3 * N], t_av[N], t_end[N];
  for (int c = 0; c < N; ++c) {
    n_h[c] = 1e-3 * (1.0 + 0.1 * c);
    t[c] = t_av[c] = 1e4 + 100.0 * c;
    for (int s = 0; s < 3; ++s) {
      g[s * N + c] = 1e-13 * (1 + s + c % 5) / (1 + s * s);
      heat[s * N + c] = 1e-24 * (1 + s);
      x0[s * N + c] = av[s * N + c] = s == 2 ? 1e-6 : 1e-3 * (1 + c % 3);
    }
  }
  struct chem_params hp = {2.59e-13, -0.7, 0.0, 0.0, 1, 7.1e-7, 1, 0.0, 0.0};
  struct chem_he_params he = {0.08, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  struct chem_input in = {N, 3e13, hp, n_h, t, g, x0, heat, N, 3, he};
  struct chem_state st = {av, end, t_av, t_end};
  struct chem_pass_result res;
  EXPECT(chem_cpu_pass(&in, &st, &res) == IONF_OK, "pass");
  int differ = 0;
  for (int c = 0; c < N; ++c) {
    struct chem_he_state s0 = {x0[c], x0[N + c], x0[2 * N + c]}, a = s0;
    struct chem_he_rates gr = {g[c], g[N + c], g[2 * N + c]};
    double h3[3] = {heat[c], heat[N + c], heat[2 * N + c]}, tav = t[c];
    int moved;
    struct chem_he_pass_result r = chem_he_cell_pass(&he, 1, 3e13, s0, n_h[c], t[c], gr, h3, &a,
                                                     &tav, &moved);
    differ += r.end.x_hii != end[c] || r.end.x_heii != end[N + c] || r.end.x_heiii != end[2 * N + c] ||
              a.x_heii != av[N + c] || tav != t_av[c] || r.t_end_k != t_end[c];
  }
  EXPECT(differ == 0, "%d cells of the CPU pass differ from chem_he_cell_pass", differ);
  EXPECT(res.unconverged_cells >= 0 && res.sum_x_end > 0.0, "pass sums");
}

int main(void) {
  test_cpu_pass();
  test_thermal();
  test_helium_exact();
  test_helium_equilibrium();
  test_coupled_equilibrium();
  test_heiii_photons();
  TEST_RETURN();
}
