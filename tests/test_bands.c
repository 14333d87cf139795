/**
 * @file test_bands.c
 * @brief The band tables of hydrogen and helium (src/rt/bands.c, bands_k.h) against
 *        direct integration over frequency with Verner's cross-sections: the photons
 *        surviving columns of HI, HeI and HeII, the photons a cell absorbs per absorber
 *        and the heat they bring, for a 1e5 K black body and a quasar power law;
 *        photon conservation in every sub-bin; the sub-bins add up to the spectrum.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chem/atomic_k.h"
#include "core/constants.h"
#include "rt/bands.h"
#include "rt/sed.h"
#include "test_util.h"

struct exact {
  const struct bands_setup *setup;
  double col[3], dcol[3];
  int what;      /* 0: surviving; 1 + s: absorbed by s; 4 + s: heat of s */
};

static double photons(const struct bands_setup *s, double e) {
  if (s->type == BANDS_POWERLAW) return pow(e / IONF_E_HI_EV, -s->powerlaw_index - 1.0);
  if (s->type == BANDS_TABLE) return sed_photons_at(s->table, e);
  double x = e / (IONF_K_B_EV_PER_K * s->t_eff_k);
  return x > 700.0 ? 0.0 : e * e / expm1(x);
}

static double exact_f(double e, void *vp) {
  const struct exact *p = vp;
  double tau = 0.0, dtau = 0.0, sig[3];
  for (int s = 0; s < 3; ++s) {
    sig[s] = atomic_sigma_cm2(s, e);
    tau += sig[s] * p->col[s];
    dtau += sig[s] * p->dcol[s];
  }
  double n = photons(p->setup, e) * exp(-tau);
  if (p->what == 0) return n;
  int s = (p->what - 1) % 3;
  double share = dtau > 0.0 ? sig[s] * p->dcol[s] / dtau : 0.0;
  double absorbed = n * -expm1(-dtau) * share;
  return p->what <= 3 ? absorbed : absorbed * (e - atomic_threshold_ev(s)) * IONF_EV_ERG;
}

static double exact(struct exact *p) {
  static gsl_integration_workspace *ws;
  if (!ws) ws = gsl_integration_workspace_alloc(4000);
  /* integrate band by band: the cross-sections jump at the thresholds */
  const double edges[4] = {IONF_E_HI_EV, IONF_E_HEI_EV, IONF_E_HEII_EV, p->setup->e_max_ev};
  double sum = 0.0, norm = 0.0, v, err;
  int what = p->what;
  for (int b = 0; b < 3; ++b) {
    gsl_function f = {exact_f, p};
    gsl_integration_qag(&f, edges[b], edges[b + 1], 0.0, 1e-11, 4000, GSL_INTEG_GAUSS41, ws, &v, &err);
    sum += v;
    p->what = 0;
    struct exact bare = *p;
    memset(bare.col, 0, sizeof bare.col);
    gsl_function g = {exact_f, &bare};
    gsl_integration_qag(&g, edges[b], edges[b + 1], 0.0, 1e-11, 4000, GSL_INTEG_GAUSS41, ws, &v, &err);
    norm += v;
    p->what = what;
  }
  return sum / norm;
}

/* Column c of 300 spread log-uniformly (HI 1e14-1e20, HeI and HeII 1e13-1e19 cm^-2), the
   same for every spectrum and quadrature. */
#define RANDOM_COLUMNS 300
static void random_column(int c, double col[3]) {
  unsigned seed = 12345u + 7919u * (unsigned)c;
  for (int s = 0; s < 3; ++s) {
    for (int k = 0; k < 3; ++k) seed = seed * 1103515245u + 12345u;
    col[s] = pow(10.0, (s == 0 ? 14.0 : 13.0) + 6.0 * (double)(seed >> 8) / 16777216.0);
  }
}

/* Columns in and through a cell: HI-dominated, He-dominated, mixed; from thin to a few
   optical depths at 54 eV. */
static const double cols[][3] = {{1e16, 1e15, 1e14}, {1e17, 1e16, 1e16}, {1e18, 1e17, 1e17},
                                 {1e14, 1e18, 1e18}, {1e19, 1e18, 1e16}, {0.0, 0.0, 3e18},
                                 {3e17, 0.0, 0.0}};
static const double dcols[][3] = {{1e15, 1e14, 1e13}, {3e16, 1e15, 3e16}, {1e18, 1e17, 1e17}};

/* Column c of `cols` into p (no cell column yet): the photons surviving it by direct
   integration, returned, and bands_surviving's relative error against that into *worst. */
static double column_exact(const struct bands_setup *setup, const struct bands_view *v, size_t c,
                           struct exact *p, double *worst) {
  *p = (struct exact){setup, {cols[c][0], cols[c][1], cols[c][2]}, {0}, 0};
  const double ex = exact(p);
  *worst = test_worst(*worst, fabs(bands_surviving(v, p->col) / ex - 1.0));
  return ex;
}

/* Band k's effective optical depths of the columns col (whole bands). */
static void whole_taus(const struct bands_whole *w, int k, const double col[3], double tau[2]) {
  for (int a = 0; a < 2; ++a) {
    tau[a] = 0.0;
    for (int s = 0; s < 3; ++s) tau[a] += w->k[k][a][s] * col[s];
  }
}

/* The worst relative error of bands_surviving at the random columns where more than 1e-6 of
   the photons survive. */
static double random_worst(const struct bands_setup *setup, const struct bands_view *v) {
  double worst = 0.0;
  for (int c = 0; c < RANDOM_COLUMNS; ++c) {
    struct exact p = {setup, {0.0, 0.0, 0.0}, {0}, 0};
    random_column(c, p.col);
    const double ex = exact(&p);
    if (ex > 1e-6) worst = test_worst(worst, fabs(bands_surviving(v, p.col) / ex - 1.0));
  }
  return worst;
}

/* The photons and heat each absorber of p's cell takes (gamma, heat per unit column, a
   source of one photon) against direct integration: the worst relative errors into *w_abs
   and *w_heat, where the absorber takes more than 1e-4 of the surviving ex (one that takes
   1e-6 of it may be off by more without changing anything); returns what all take. */
static double absorber_worst(struct exact *p, double ex, const double gamma[3],
                             const double heat[3], double *w_abs, double *w_heat) {
  double absorbed_all = 0.0;
  for (int s = 0; s < 3; ++s) {
    if (p->dcol[s] <= 0.0) continue;
    absorbed_all += gamma[s] * p->dcol[s];
    p->what = 1 + s;
    const double ea = exact(p);
    p->what = 4 + s;
    const double eh = exact(p);
    p->what = 0;
    const double ra = fabs(gamma[s] * p->dcol[s] - ea), rh = fabs(heat[s] * p->dcol[s] - eh);
    if (ea > 1e-4 * ex) *w_abs = ra / ea > *w_abs || ra != ra ? ra / ea : *w_abs;
    if (eh > 0.0 && ea > 1e-4 * ex) *w_heat = rh / eh > *w_heat || rh != rh ? rh / eh : *w_heat;
  }
  return absorbed_all;
}

/* worst relative errors of one spectrum; returns 0 when the tables cannot be built */
static int check_spectrum(const char *name, struct bands_setup *setup, double tol_survive,
                          double tol_random, double tol_absorb, double tol_heat) {
  struct bands b;
  if (bands_build(setup, &b) != IONF_OK) {
    fprintf(stderr, "FAIL: %s: %s\n", name, ionf_error_message());
    ++test_failures;
    return 0;
  }
  struct bands_view v = bands_view_of(&b);
  EXPECT(setup->e_max_ev < 150.0 || (v.first_xray_bin < v.n_bins &&
                                     v.first_xray_bin > setup->n_sub[0] + setup->n_sub[1]),
         "%s: X-ray sub-bins from %d of %d", name, v.first_xray_bin, v.n_bins);
  /* the sub-bins hold the whole spectrum: sum of thick_b(0) = 1 */
  double total = 0.0;
  for (int k = 0; k < v.n_bins; ++k) total += bands_thick(&v, k, 0.0);
  EXPECT(fabs(total - 1.0) < 1e-9, "%s: sub-bins hold %.12f of the photons", name, total);
  double w_surv = 0.0, w_abs = 0.0, w_heat = 0.0, w_cons = 0.0;
  for (size_t c = 0; c < sizeof cols / sizeof cols[0]; ++c) {
    struct exact p;
    const double ex = column_exact(setup, &v, c, &p, &w_surv);
    for (size_t d = 0; d < sizeof dcols / sizeof dcols[0]; ++d) {
      memcpy(p.dcol, dcols[d], sizeof p.dcol);
      double gamma[3] = {0}, heat[3] = {0}, soft[3] = {0}, xray[3] = {0}, g2[3] = {0};
      bands_rates(&v, 1.0, p.col, p.dcol, 1.0, 1.0, gamma, heat, NULL);
      /* with the X-rays apart: the same rates, the same energy in all */
      bands_rates(&v, 1.0, p.col, p.dcol, 1.0, 1.0, g2, soft, xray);
      for (int s = 0; s < 3; ++s)
        EXPECT(g2[s] == gamma[s] && fabs(soft[s] + xray[s] - heat[s]) <= 1e-13 * fabs(heat[s]) &&
                   (v.first_xray_bin < v.n_bins || xray[s] == 0.0),
               "%s: X-ray split of absorber %d: %g + %g vs %g", name, s, soft[s], xray[s], heat[s]);
      const double absorbed_all = absorber_worst(&p, ex, gamma, heat, &w_abs, &w_heat);
      /* photon conservation: what the absorbers take is what the tables lose between the
         sub-bin's optical depths in and out (tau_out = tau_in + dtau, as the tracer forms it) */
      double lost = 0.0;
      for (int k = 0; k < v.n_bins; ++k) {
        double t_in = 0.0, dt = 0.0;
        for (int s = 0; s < 3; ++s) {
          t_in += v.sigma_cm2[3 * k + s] * p.col[s];
          dt += v.sigma_cm2[3 * k + s] * p.dcol[s];
        }
        const double t_out = t_in + dt;
        if (!(t_in < BANDS_TAU_MAX)) continue;
        if (dt > PHOTO_TAU_THIN_LIMIT)
          lost += bands_thick(&v, k, t_in) - bands_thick(&v, k, t_out);
        else /* a thin sub-bin: the first-order form, as bands_rates */
          lost += bands_thin(&v, k, t_out) * dt;
      }
      double ec = fabs(absorbed_all - lost) / lost;
      w_cons = ec > w_cons || ec != ec ? ec : w_cons;
    }
  }
  const double w_rand = random_worst(setup, &v);
  printf("%s (%d+%d+%d sub-bins): surviving at %d random columns %.2e\n", name, setup->n_sub[0],
         setup->n_sub[1], setup->n_sub[2], RANDOM_COLUMNS, w_rand);
  EXPECT(w_rand <= tol_random, "%s: surviving photons at random columns off by %.3g", name, w_rand);
  /* the thin-cell form is the limit of the thick one: the rate is continuous where
     bands_rates switches (dtau = PHOTO_TAU_THIN_LIMIT), at optical depths in every interval
     kind (the first, inside octaves, the last) */
  double w_cont = 0.0;
  for (double tau0 = 1e-5; tau0 < 2000.0; tau0 *= 1.7) {
    double g_thin[3] = {0}, g_thick[3] = {0};
    const double col[3] = {tau0 / v.sigma_cm2[0], 0.0, 0.0};
    const double lo[3] = {0.999 * PHOTO_TAU_THIN_LIMIT / v.sigma_cm2[0], 0.0, 0.0};
    const double hi[3] = {1.001 * PHOTO_TAU_THIN_LIMIT / v.sigma_cm2[0], 0.0, 0.0};
    bands_rates(&v, 1.0, col, lo, 1.0, 1.0, g_thin, NULL, NULL);
    bands_rates(&v, 1.0, col, hi, 1.0, 1.0, g_thick, NULL, NULL);
    double e = test_rel_diff(g_thin[0], g_thick[0], 1e-300);
    if (g_thin[0] > 1e-100 * v.sigma_cm2[0]) w_cont = test_worst(w_cont, e);
  }
  printf("%s: thin/thick switch: rates differ by %.2e\n", name, w_cont);
  /* measured 5.4e-8 (black body), 6.8e-8 (power law): the rounding of a difference of
     table values over dtau = 1e-7; tolerance 5x */
  EXPECT(w_cont <= 3.5e-7, "%s: the rate jumps by %.3g where the thin form takes over", name, w_cont);
  printf("%s (%d+%d+%d sub-bins): surviving %.2e, absorbed %.2e, heat %.2e, conservation %.2e\n",
         name, setup->n_sub[0], setup->n_sub[1], setup->n_sub[2], w_surv, w_abs, w_heat, w_cons);
  EXPECT(w_surv <= tol_survive, "%s: surviving photons off by %.3g", name, w_surv);
  EXPECT(w_abs <= tol_absorb, "%s: absorbed photons off by %.3g", name, w_abs);
  EXPECT(w_heat <= tol_heat, "%s: heat off by %.3g", name, w_heat);
  EXPECT(w_cons <= 1e-14, "%s: photons not conserved: %.3g", name, w_cons);
  bands_free(&b);
  return 1;
}

/* The whole-band tables (bands_whole_k.h, setup->whole) against the same direct
   integration: surviving photons, photons and heat each absorber takes (errors relative to
   what it takes, as check_spectrum), photon conservation per band, the thin/thick switch. */
/* Beyond a band's dark_a (BANDS_WHOLE_H_DARK; the other tau anything) the interpolated
   tables pass exactly nothing, photons and energy, so that skipping the band there changes
   no result; returns the bands that go dark inside the tables. */
static int check_dark(const char *name, const struct bands_whole *w) {
  int dark_bands = 0;
  const double ahead[] = {1.0, 1.013, 1.37, 3.1, 77.0}, other[] = {0.0, 1e-3, 1.0, 1e3, 1e6};
  for (int k = 0; k < w->n_bands; ++k) {
    const double *h = w->table + BANDS_WHOLE_HEADER * k;
    int dark_here = 0;
    for (int a = 0; a < w->axes[k]; ++a) {
      const double dark = h[BANDS_WHOLE_H_DARK + a];
      EXPECT(dark > 0.0 && dark <= BANDS_WHOLE_TAU_MAX, "%s: band %d's dark_%d = %g", name, k, a, dark);
      if (!(dark < BANDS_WHOLE_TAU_MAX)) continue;
      dark_here = 1;
      for (size_t i = 0; i < sizeof ahead / sizeof ahead[0]; ++i)
        for (size_t j = 0; j < (w->axes[k] == 2 ? sizeof other / sizeof other[0] : 1); ++j) {
          double tau[2];
          tau[a] = dark * ahead[i];
          tau[1 - a] = other[j];
          const double lp = bands_whole_eval(w->table + w->offset[k], w->axes[k], tau).lambda;
          const double le = w->e_table ? bands_whole_eval(w->e_table + w->offset[k], w->axes[k], tau).lambda
                                       : INFINITY;
          EXPECT(exp(-lp) == 0.0 && exp(-le) == 0.0,
                 "%s: band %d passes light beyond its dark_%d (tau %g, %g: Lambda %g, %g)", name,
                 k, a, tau[0], tau[1], lp, le);
        }
    }
    dark_bands += dark_here;
  }
  return dark_bands;
}

static void check_whole(const char *name, struct bands_setup *setup, double tol_survive,
                        double tol_random, double tol_absorb, double tol_heat) {
  struct bands b;
  setup->whole = 1;
  if (bands_build(setup, &b) != IONF_OK) {
    fprintf(stderr, "FAIL: %s (whole bands): %s\n", name, ionf_error_message());
    ++test_failures;
    setup->whole = 0;
    return;
  }
  setup->whole = 0;
  const struct bands_view v = bands_view_of(&b);
  const struct bands_whole *w = &b.whole;
  EXPECT(v.n_bins == 0 && v.whole.n_bands == w->n_bands &&
             w->n_bands == (setup->e_max_ev > 100.1 ? 4 : 3),
         "%s: %d bands", name, w->n_bands);
  double total = 0.0;
  for (int k = 0; k < w->n_bands; ++k) total += w->photons[k];
  EXPECT(fabs(total - 1.0) < 1e-9, "%s: the bands hold %.12f of the photons", name, total);
  double w_surv = 0.0, w_abs = 0.0, w_heat = 0.0, w_cons = 0.0;
  for (size_t c = 0; c < sizeof cols / sizeof cols[0]; ++c) {
    struct exact p;
    const double ex = column_exact(setup, &v, c, &p, &w_surv);
    for (size_t d = 0; d < sizeof dcols / sizeof dcols[0]; ++d) {
      memcpy(p.dcol, dcols[d], sizeof p.dcol);
      double gamma[3] = {0}, heat[3] = {0};
      bands_rates(&v, 1.0, p.col, p.dcol, 1.0, 1.0, gamma, heat, NULL);
      const double absorbed_all = absorber_worst(&p, ex, gamma, heat, &w_abs, &w_heat);
      double lost = 0.0;
      for (int k = 0; k < w->n_bands; ++k) { /* what the bands lose between in and out */
        double tau_in[2], tau_d[2];
        whole_taus(w, k, p.col, tau_in);
        whole_taus(w, k, p.dcol, tau_d);
        const double tau_out[2] = {tau_in[0] + tau_d[0], tau_in[1] + tau_d[1]};
        const double *t = w->table + w->offset[k];
        lost += w->photons[k] * (exp(-bands_whole_eval(t, w->axes[k], tau_in).lambda) -
                                 exp(-bands_whole_eval(t, w->axes[k], tau_out).lambda));
      }
      double ec = fabs(absorbed_all - lost) / lost;
      w_cons = ec > w_cons || ec != ec ? ec : w_cons;
    }
  }
  const double w_rand = random_worst(setup, &v); /* between the nodes too */
  double w_cont = 0.0;
  for (double tau0 = 1e-5; tau0 < 2000.0; tau0 *= 1.7) {
    double g_thin[3] = {0}, g_thick[3] = {0};
    const double s0 = w->k[0][0][0];
    const double col[3] = {tau0 / s0, 0.0, 0.0};
    const double lo[3] = {0.999 * PHOTO_TAU_THIN_LIMIT / s0, 0.0, 0.0};
    const double hi[3] = {1.001 * PHOTO_TAU_THIN_LIMIT / s0, 0.0, 0.0};
    bands_rates(&v, 1.0, col, lo, 1.0, 1.0, g_thin, NULL, NULL);
    bands_rates(&v, 1.0, col, hi, 1.0, 1.0, g_thick, NULL, NULL);
    double e = test_rel_diff(g_thin[0], g_thick[0], 1e-300);
    if (g_thin[0] > 1e-100 * s0) w_cont = test_worst(w_cont, e);
  }
  printf("%s (whole bands; HeII fit %.2e, %.2e): surviving %.2e (300 columns: %.2e), absorbed "
         "%.2e, heat %.2e, conservation %.2e, thin/thick %.2e\n",
         name, b.whole.heii_fit_error[2], b.whole.heii_fit_error[3], w_surv, w_rand, w_abs, w_heat,
         w_cons, w_cont);
  EXPECT(w_surv <= tol_survive, "%s (whole bands): surviving photons off by %.3g", name, w_surv);
  EXPECT(w_rand <= tol_random, "%s (whole bands): surviving photons at random columns off by %.3g",
         name, w_rand);
  EXPECT(w_abs <= tol_absorb, "%s (whole bands): absorbed photons off by %.3g", name, w_abs);
  EXPECT(w_heat <= tol_heat, "%s (whole bands): heat off by %.3g", name, w_heat);
  /* measured 1.3e-12 at worst: the tables' difference exp(-Lambda_in) - exp(-Lambda_out)
     here against the cell's exp(-Lambda_in) expm1(Lambda_in - Lambda_out); 5x */
  EXPECT(w_cons <= 6.5e-12, "%s (whole bands): photons not conserved: %.3g", name, w_cons);
  EXPECT(w_cont <= 3.5e-7, "%s (whole bands): the rate jumps by %.3g at the thin form", name, w_cont);
  /* the bands below 100 eV go dark inside the tables (measured: all 4 of the black body's,
     to 544 eV; 3 of the power law's, whose band to 2 keV does not) */
  const int dark = check_dark(name, w);
  printf("%s (whole bands): %d band(s) go dark inside the tables\n", name, dark);
  EXPECT(dark >= 3, "%s (whole bands): only %d band(s) go dark inside the tables", name, dark);
  bands_free(&b);
}

int main(void) {
  gsl_set_error_handler_off();
  struct bands_setup bb = {.type = BANDS_BLACKBODY, .t_eff_k = 1e5, .e_max_ev = 10.0 * IONF_E_HEII_EV,
                           .n_sub = {1, 26, 20}, .heating = 1};
  /* tolerances: the measured worst errors (surviving, at the random columns, absorbed,
     heat) times 1.5: 1+26+20: 1.08e-3, 1.80e-3, 3.49e-3, 2.89e-3 (black body); 1.10e-3,
     2.11e-3, 3.99e-3, 2.62e-3 (power law) */
  check_spectrum("black body 1e5 K", &bb, 1.6e-3, 2.7e-3, 5.2e-3, 4.3e-3);
  struct bands_setup pl = {.type = BANDS_POWERLAW, .powerlaw_index = 1.5, .e_max_ev = 2000.0,
                           .n_sub = {1, 26, 20}, .heating = 1};
  check_spectrum("power law 1.5", &pl, 1.65e-3, 3.2e-3, 6.0e-3, 3.9e-3);
  /* 1+8+8: 6.01e-3, 1.32e-2, 1.51e-2, 9.20e-3 (black body); 1.77e-3, 3.40e-3, 1.20e-2, 6.54e-3
     (power law) */
  memcpy(bb.n_sub, (int[3]){1, 8, 8}, sizeof bb.n_sub);
  check_spectrum("black body 1e5 K", &bb, 9.0e-3, 2.0e-2, 2.3e-2, 1.4e-2);
  memcpy(pl.n_sub, (int[3]){1, 8, 8}, sizeof pl.n_sub);
  check_spectrum("power law 1.5", &pl, 2.7e-3, 5.1e-3, 1.8e-2, 9.8e-3);
  /* whole bands, tolerances the measured worst errors times 1.5: 7.81e-5, 1.71e-3, 1.89e-3,
     3.25e-3 (black body); 1.03e-4, 2.72e-3, 1.89e-3, 4.10e-3 (power law): as 1+26+20
     sub-bins' at the random columns, below them in the photons and heat each absorber takes */
  check_whole("black body 1e5 K", &bb, 1.2e-4, 2.6e-3, 2.8e-3, 4.9e-3);
  check_whole("power law 1.5", &pl, 1.6e-4, 4.1e-3, 2.8e-3, 6.2e-3);
  /* a tabulated spectrum: a power law of index 1.5 tabulated at 60 energies (log-log is
     exact for a power law), so the tables equal the power law's to quadrature accuracy */
  double e_tab[60], p_tab[60];
  for (int i = 0; i < 60; ++i) {
    e_tab[i] = 10.0 * pow(2100.0 / 10.0, i / 59.0);
    p_tab[i] = 7.0 * pow(e_tab[i] / IONF_E_HI_EV, -2.5);
  }
  struct sed table = {60, e_tab, p_tab, "test"};
  struct bands_setup tab = pl;
  tab.type = BANDS_TABLE;
  tab.table = &table;
  memcpy(tab.n_sub, (int[3]){1, 8, 8}, sizeof tab.n_sub);
  struct bands bt, bp;
  if (bands_build(&tab, &bt) == IONF_OK && bands_build(&pl, &bp) == IONF_OK) {
    double worst = 0.0;
    size_t n = bands_table_doubles(&bt);
    for (size_t i = 0; i < n; ++i) {
      double d = fabs(bt.table[i] - bp.table[i]);
      worst = d > worst || d != d ? d : worst;
    }
    printf("tabulated power law vs power law: worst table difference %.2e\n", worst);
    /* the same integrands to rounding: measured 5.6e-16; 1e-12 */
    EXPECT(worst < 1e-12, "tabulated spectrum differs: %g", worst);
    bands_free(&bt);
    bands_free(&bp);
  } else {
    EXPECT(0, "tabulated spectrum: %s", ionf_error_message());
  }
  /* secondary ionization: an X-ray-rich power law to 2 keV, a neutral and an ionized cell */
  {
    struct bands xb;
    struct bands_setup xs = pl;
    xs.secondary = 1;
    xs.heating = 0; /* the energy tables come with secondary */
    if (bands_build(&xs, &xb) == IONF_OK) {
      struct bands_view v = bands_view_of(&xb);
      EXPECT(v.heating && v.secondary && v.first_xray_bin < v.n_bins, "X-ray set-up");
      const double col[3] = {1e17, 1e16, 1e15}, dcol[3] = {1e18, 1e17, 1e16};
      const double n_abs[3] = {1e-3, 8e-5, 1e-6};
      for (int k = 0; k < 2; ++k) {
        const double x_e = k == 0 ? 1e-3 : 1.0;
        double g[3] = {0}, h[3] = {0}, x[3] = {0};
        bands_rates(&v, 1e50, col, dcol, 1e20, 1e60, g, h, x);
        double g0[3], h0[3], deposit = 0.0;
        for (int s = 0; s < 3; ++s) {
          g0[s] = g[s];
          h0[s] = h[s];
          deposit += n_abs[s] * x[s];
        }
        bands_secondary(x_e, n_abs, x, g, h);
        struct secondary_split f = secondary_split_at(x_e);
        double ion_hi = (g[0] - g0[0]) * n_abs[0] * IONF_E_HI_EV * IONF_EV_ERG;
        double ion_hei = (g[1] - g0[1]) * n_abs[1] * IONF_E_HEI_EV * IONF_EV_ERG;
        double heat_add = 0.0;
        for (int s = 0; s < 3; ++s) heat_add += n_abs[s] * (h[s] - h0[s]);
        printf("secondary at x_e = %g: X-ray deposit %.4g erg/s/cm^3: heat %.4f, HI %.4f, HeI %.4f\n",
               x_e, deposit, heat_add / deposit, ion_hi / deposit, ion_hei / deposit);
        EXPECT(deposit > 0.0, "no X-ray deposit");
        EXPECT(fabs(heat_add / deposit - f.heat) < 1e-12 && fabs(ion_hi / deposit - f.ion_hi) < 1e-12 &&
                   fabs(ion_hei / deposit - f.ion_hei) < 1e-12 && g[2] == g0[2],
               "the deposit's shares at x_e = %g", x_e);
        /* the split given per cell (three fields of `stride` values, as the tracers'
           pre-passes lay it out) gives the same bits as the split computed from x_e */
        const long long stride = 5;
        double fields[15] = {0}, g2[3], h2[3];
        fields[2] = f.heat;
        fields[2 + stride] = f.ion_hi;
        fields[2 + 2 * stride] = f.ion_hei;
        memcpy(g2, g0, sizeof g2);
        memcpy(h2, h0, sizeof h2);
        bands_secondary_split(0.5, fields + 2, stride, n_abs, x, g2, h2);
        EXPECT(memcmp(g2, g, sizeof g) == 0 && memcmp(h2, h, sizeof h) == 0,
               "the split from fields differs from the one computed at x_e = %g", x_e);
      }
      bands_free(&xb);
    } else {
      EXPECT(0, "X-ray bands: %s", ionf_error_message());
    }
  }
  /* bad set-ups are refused naming the value */
  struct bands b;
  struct bands_setup bad = bb;
  bad.e_max_ev = 40.0;
  EXPECT(bands_build(&bad, &b) == IONF_ERR_CONFIG && strstr(ionf_error_message(), "E_max = 40"),
         "E_max below He II: %s", ionf_error_message());
  ionf_error_clear();
  bad = bb;
  bad.n_sub[1] = 0;
  EXPECT(bands_build(&bad, &b) == IONF_ERR_CONFIG, "no sub-bin in a band");
  ionf_error_clear();
  TEST_RETURN();
}
