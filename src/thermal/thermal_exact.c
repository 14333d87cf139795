/**
 * @file thermal_exact.c
 * @brief The exact plane slab (thermal_exact.h).
 */
#include "thermal/thermal_exact.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_expint.h>
#include <math.h>
#include <stdlib.h>

#include "thermal/thermal_gas_k.h"

/* E_2 and E_3 (0 past x = 700, where they underflow). */
static double thermal_exact_e2(double x) { return x > 700.0 ? 0.0 : gsl_sf_expint_E2(x); }
static double thermal_exact_e3(double x) { return x > 700.0 ? 0.0 : gsl_sf_expint_En(3, x); }

/* One grey problem: kappa[n], ib[n] per cell, tau_f[n + 1] the optical depth of the faces,
   the walls' emissivity and intensity; adds Q to q[n] and the net fluxes to wq[2]. */
struct thermal_exact_gas {
  int64_t n;
  const double *kappa, *ib, *tau_f;
  double eps[2], ib_w[2];
};

/* Flux reaching wall w (0: x = 0, 1: x = L) from the medium [W/m^2]. */
static double thermal_exact_medium_flux(const struct thermal_exact_gas *g, int w) {
  double tl = g->tau_f[g->n], sum = 0.0;
  for (int64_t c = 0; c < g->n; ++c) {
    double a = w == 0 ? g->tau_f[c] : tl - g->tau_f[c + 1];
    double b = w == 0 ? g->tau_f[c + 1] : tl - g->tau_f[c];
    sum += g->ib[c] * (thermal_exact_e3(a) - thermal_exact_e3(b));
  }
  return 2.0 * IONF_PI * sum;
}

static void thermal_exact_gas_solve(const struct thermal_exact_gas *g, double *q, double wq[2]) {
  double tl = g->tau_f[g->n];
  double s[2], e3l = thermal_exact_e3(tl);
  for (int w = 0; w < 2; ++w) s[w] = thermal_exact_medium_flux(g, w);
  /* J_w = A_w + B_w J_other */
  double aa[2], bb[2], j[2];
  for (int w = 0; w < 2; ++w) {
    aa[w] = g->eps[w] * IONF_PI * g->ib_w[w] + (1.0 - g->eps[w]) * s[w];
    bb[w] = (1.0 - g->eps[w]) * 2.0 * e3l;
  }
  double det = 1.0 - bb[0] * bb[1];
  if (det > 1e-300) {
    j[0] = (aa[0] + bb[0] * aa[1]) / det;
    j[1] = (aa[1] + bb[1] * aa[0]) / det;
    for (int w = 0; w < 2; ++w) {
      double h = 2.0 * j[1 - w] * e3l + s[w];
      wq[w] += h - j[w];
    }
  } else { /* two mirrors with nothing between them: nothing moves */
    j[0] = j[1] = 0.0;
  }
  for (int64_t i = 0; i < g->n; ++i) {
    if (g->kappa[i] == 0.0) continue;
    double tx = 0.5 * (g->tau_f[i] + g->tau_f[i + 1]);
    double gsum = 2.0 * j[0] * thermal_exact_e2(tx) + 2.0 * j[1] * thermal_exact_e2(tl - tx);
    double m = 0.0;
    for (int64_t c = 0; c < g->n; ++c) {
      double k;
      const double lo = g->tau_f[c], hi = g->tau_f[c + 1];
      if (c == i) k = 2.0 - thermal_exact_e2(tx - lo) - thermal_exact_e2(hi - tx);
      else if (c < i) k = thermal_exact_e2(tx - hi) - thermal_exact_e2(tx - lo);
      else k = thermal_exact_e2(lo - tx) - thermal_exact_e2(hi - tx);
      m += g->ib[c] * k;
    }
    gsum += 2.0 * IONF_PI * m;
    q[i] += g->kappa[i] * (4.0 * IONF_PI * g->ib[i] - gsum);
  }
}

static ionf_err thermal_exact_check(const struct thermal_setup *s, const struct thermal_fields *f) {
  IONF_CALL(thermal_setup_check(s));
  IONF_CHECK(f && f->t_k, IONF_ERR_INPUT, "thermal exact slab: no temperature field");
  IONF_CHECK(!s->periodic[0] && s->periodic[1] && s->periodic[2], IONF_ERR_CONFIG,
             "thermal exact slab: needs walls on x and periodic y and z");
  return IONF_OK;
}

ionf_err thermal_exact_slab(const struct thermal_setup *s, const struct thermal_fields *f,
                            double *q_w_per_m3, double wall_q_w_per_m2[2]) {
  IONF_CALL(thermal_exact_check(s, f));
  int64_t n = s->n[0], stride = s->n[1] * s->n[2];
  int gases = thermal_gas_count(s->gas_model);
  double *buf = ionf_malloc((size_t)(3 * n + 1) * sizeof(double), "thermal exact slab");
  if (!buf) return IONF_ERR_MEM;
  double *kappa = buf, *ib = buf + n, *tau_f = buf + 2 * n;
  for (int64_t i = 0; i < n; ++i) q_w_per_m3[i] = 0.0;
  wall_q_w_per_m2[0] = wall_q_w_per_m2[1] = 0.0;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  for (int j = 0; j < gases; ++j) {
    struct thermal_exact_gas g;
    double k[THERMAL_GASES_MAX], a[THERMAL_GASES_MAX];
    tau_f[0] = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t c = i * stride;
      double p = f->p_atm ? f->p_atm[c] : 1.0, xw = f->x_h2o ? f->x_h2o[c] : 0.0;
      double xc = f->x_co2 ? f->x_co2[c] : 0.0;
      thermal_gas_eval(s->gas_model, s->kappa_per_m, f->t_k[c], p, xw, xc, k, a);
      kappa[i] = k[j];
      ib[i] = thermal_gas_ib(a[j], f->t_k[c]);
      tau_f[i + 1] = tau_f[i] + k[j] * s->cell_m[0];
    }
    g.n = n;
    g.kappa = kappa;
    g.ib = ib;
    g.tau_f = tau_f;
    for (int w = 0; w < 2; ++w) {
      int64_t c = w == 0 ? 0 : (n - 1) * stride;
      double p = f->p_atm ? f->p_atm[c] : 1.0, xw = f->x_h2o ? f->x_h2o[c] : 0.0;
      double xc = f->x_co2 ? f->x_co2[c] : 0.0;
      thermal_gas_eval(s->gas_model, s->kappa_per_m, s->wall[w].t_k, p, xw, xc, k, a);
      g.eps[w] = s->wall[w].emissivity;
      g.ib_w[w] = thermal_gas_ib(a[j], s->wall[w].t_k);
    }
    thermal_exact_gas_solve(&g, q_w_per_m3, wall_q_w_per_m2);
  }
  gsl_set_error_handler(old);
  free(buf);
  return IONF_OK;
}
