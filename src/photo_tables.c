/**
 * @file photo_tables.c
 * @brief gamma(tau) tables by adaptive quadrature over the source spectrum.
 */
#include "photo_tables.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constants.h"

struct bb_params {
  double kt_ev;       /* k T_eff [eV] */
  double tau;         /* threshold optical depth */
  double index;       /* cross-section power-law index */
  int weight_sigma;   /* 1: integrand carries sigma/sigma0 (thin table) */
  int weight_energy;  /* 1: integrand carries the energy above threshold, e - 1 */
};

/* Photon spectrum of a black body, in the variable e = h nu / (13.598 eV). */
static double bb_photons(double e, const struct bb_params *p) {
  double x = e * IONF_E_HI_EV / p->kt_ev;
  if (x > 700.0) return 0.0;
  return e * e / expm1(x);
}

static double bb_integrand(double e, void *vp) {
  const struct bb_params *p = vp;
  double sig = pow(e, -p->index); /* sigma / sigma0 */
  double w = bb_photons(e, p) * exp(-p->tau * sig);
  if (p->weight_energy) w *= e - 1.0;
  return p->weight_sigma ? w * sig : w;
}

static ionf_err integrate(gsl_integration_workspace *ws, struct bb_params *p, double e_max,
                          double *out) {
  gsl_function f = {bb_integrand, p};
  double err;
  int rc = gsl_integration_qag(&f, 1.0, e_max, 0.0, 1e-10, 2000, GSL_INTEG_GAUSS41, ws, out, &err);
  /* A round-off limited result is still accurate to far better than the table spacing. */
  if (rc != GSL_SUCCESS && rc != GSL_EROUND)
    return ionf_error_set(IONF_ERR_INTERNAL,
                          "black-body rate table: quadrature failed at tau = %g (%s)", p->tau,
                          gsl_strerror(rc));
  return IONF_OK;
}

ionf_err photo_tables_build(const struct ionf_config *cfg, struct photo_tables *t) {
  memset(t, 0, sizeof *t);
  t->num_tau = cfg->num_tau;
  t->min_log_tau = cfg->min_log_tau;
  t->dlog_tau = (cfg->max_log_tau - cfg->min_log_tau) / (double)cfg->num_tau;
  t->grey = cfg->spectrum == SPECTRUM_GREY;
  t->sigma0_cm2 = cfg->sigma0_cm2;
  size_t n = (size_t)t->num_tau + 1;
  t->thick = ionf_malloc(n * sizeof(double), "the thick rate table");
  t->thin = ionf_malloc(n * sizeof(double), "the thin rate table");
  /* heating tables when the temperature evolves; a grey (threshold) spectrum heats nothing */
  t->heating = !cfg->isothermal && !t->grey;
  if (t->heating) {
    t->heat_thick = ionf_calloc(n, sizeof(double), "the heating tables");
    t->heat_thin = ionf_calloc(n, sizeof(double), "the heating tables");
  }
  if (!t->thick || !t->thin || (t->heating && (!t->heat_thick || !t->heat_thin))) {
    photo_tables_free(t);
    return IONF_ERR_MEM;
  }
  if (t->grey) {
    for (size_t i = 0; i < n; ++i) {
      double tau = photo_table_tau((int)i, t->min_log_tau, t->dlog_tau);
      t->thick[i] = t->thin[i] = exp(-tau);
    }
    return IONF_OK;
  }

  gsl_set_error_handler_off();
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(2000);
  if (!ws) {
    photo_tables_free(t);
    return ionf_error_set(IONF_ERR_MEM, "could not allocate the quadrature workspace");
  }
  struct bb_params p = {IONF_K_B_EV * cfg->t_eff_k, 0.0, cfg->sigma_power_law_index, 0, 0};
  const double e0_erg = IONF_E_HI_EV * IONF_EV_ERG;
  double e_max = 10.0 * IONF_E_HEII_EV / IONF_E_HI_EV;
  double norm = 0.0;
  ionf_err rc = integrate(ws, &p, e_max, &norm);
  if (rc == IONF_OK && !(norm > 0.0))
    rc = ionf_error_set(IONF_ERR_CONFIG,
                        "spectrum.T_eff = %g K emits no ionizing photons above 13.6 eV",
                        cfg->t_eff_k);
  for (size_t i = 0; i < n && rc == IONF_OK; ++i) {
    p.tau = photo_table_tau((int)i, t->min_log_tau, t->dlog_tau);
    double thick, thin;
    p.weight_sigma = 0;
    rc = integrate(ws, &p, e_max, &thick);
    if (rc != IONF_OK) break;
    p.weight_sigma = 1;
    rc = integrate(ws, &p, e_max, &thin);
    t->thick[i] = thick / norm;
    t->thin[i] = thin / norm;
    if (rc != IONF_OK || !t->heat_thick) continue;
    /* energy above threshold: what photo-heating deposits per absorbed photon */
    double heat_thick, heat_thin;
    p.weight_energy = 1;
    p.weight_sigma = 0;
    rc = integrate(ws, &p, e_max, &heat_thick);
    p.weight_sigma = 1;
    if (rc == IONF_OK) rc = integrate(ws, &p, e_max, &heat_thin);
    p.weight_energy = 0;
    t->heat_thick[i] = e0_erg * heat_thick / norm;
    t->heat_thin[i] = e0_erg * heat_thin / norm;
  }
  gsl_integration_workspace_free(ws);
  if (rc != IONF_OK) photo_tables_free(t);
  return rc;
}

void photo_tables_free(struct photo_tables *t) {
  free(t->thick);
  free(t->thin);
  free(t->heat_thick);
  free(t->heat_thin);
  t->thick = t->thin = t->heat_thick = t->heat_thin = NULL;
}

struct photo_table_view photo_tables_view(const struct photo_tables *t) {
  struct photo_table_view v;
  v.thick = t->thick;
  v.thin = t->thin;
  v.heat_thick = t->heat_thick;
  v.heat_thin = t->heat_thin;
  v.heating = t->heating;
  v.num_tau = t->num_tau;
  v.min_log_tau = t->min_log_tau;
  v.dlog_tau = t->dlog_tau;
  v.grey = t->grey;
  v.sigma0_cm2 = t->sigma0_cm2;
  return v;
}
