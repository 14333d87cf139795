/**
 * @file photo_tables.c
 * @brief gamma(tau) tables by adaptive quadrature over the source spectrum.
 */
#include "rt/photo_tables.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"

struct bb_params {
  double kt_ev;       /* k T_eff [eV] */
  double tau;         /* threshold optical depth */
  double index;       /* cross-section power-law index */
  double e_threshold; /* the species' threshold in units of 13.598 eV (HI: 1) */
  int weight_sigma;   /* 1: integrand carries sigma/sigma0 (thin table) */
  int weight_energy;  /* 1: integrand carries the energy above threshold */
};

/* Photon spectrum of a black body, in the variable e = h nu / (13.598 eV) (every species). */
static double bb_photons(double e, const struct bb_params *p) {
  double x = e * IONF_E_HI_EV / p->kt_ev;
  if (x > 700.0) return 0.0;
  return e * e / expm1(x);
}

static double bb_integrand(double e, void *vp) {
  const struct bb_params *p = vp;
  double sig = pow(e / p->e_threshold, -p->index); /* sigma / sigma0 */
  double w = bb_photons(e, p) * exp(-p->tau * sig);
  if (p->weight_energy) w *= e - p->e_threshold;
  return p->weight_sigma ? w * sig : w;
}

static ionf_err integrate(gsl_integration_workspace *ws, struct bb_params *p, double e_max,
                          double *out) {
  gsl_function f = {bb_integrand, p};
  double err;
  int rc = gsl_integration_qag(&f, p->e_threshold, e_max, 0.0, 1e-10, 2000, GSL_INTEG_GAUSS41,
                               ws, out, &err);
  /* A round-off limited result is still accurate to far better than the table spacing. */
  if (rc != GSL_SUCCESS && rc != GSL_EROUND)
    return ionf_error_set(IONF_ERR_INTERNAL,
                          "black-body rate table: quadrature failed at tau = %g (%s)", p->tau,
                          gsl_strerror(rc));
  return IONF_OK;
}

/* Species s's tables (allocated; the black-body ones by quadrature against `norm`). */
static ionf_err build_species(const struct photo_spectrum *spectrum,
                              const struct species_data *sd, gsl_integration_workspace *ws,
                              double norm, struct photo_tables *t,
                              struct photo_species_tables *sp) {
  size_t n = (size_t)t->num_tau + 1;
  sp->sigma0_cm2 = sd->sigma0_cm2;
  sp->thick = ionf_malloc(n * sizeof(double), "the thick rate table");
  sp->thin = ionf_malloc(n * sizeof(double), "the thin rate table");
  if (t->heating) {
    sp->heat_thick = ionf_calloc(n, sizeof(double), "the heating tables");
    sp->heat_thin = ionf_calloc(n, sizeof(double), "the heating tables");
  }
  if (!sp->thick || !sp->thin || (t->heating && (!sp->heat_thick || !sp->heat_thin)))
    return IONF_ERR_MEM;
  if (t->grey) {
    for (size_t i = 0; i < n; ++i) {
      double tau = photo_table_tau((int)i, t->min_log_tau, t->dlog_tau);
      sp->thick[i] = sp->thin[i] = exp(-tau);
    }
    return IONF_OK;
  }
  struct bb_params p = {IONF_K_B_EV_PER_K * spectrum->t_eff_k, 0.0, sd->sigma_power_law_index,
                        sd->threshold_ev / IONF_E_HI_EV, 0, 0};
  const double e0_erg = IONF_E_HI_EV * IONF_EV_ERG;
  double e_max = 10.0 * IONF_E_HEII_EV / IONF_E_HI_EV;
  ionf_err rc = IONF_OK;
  for (size_t i = 0; i < n && rc == IONF_OK; ++i) {
    p.tau = photo_table_tau((int)i, t->min_log_tau, t->dlog_tau);
    double thick, thin;
    p.weight_sigma = 0;
    rc = integrate(ws, &p, e_max, &thick);
    if (rc != IONF_OK) break;
    p.weight_sigma = 1;
    rc = integrate(ws, &p, e_max, &thin);
    sp->thick[i] = thick / norm;
    sp->thin[i] = thin / norm;
    if (rc != IONF_OK || !sp->heat_thick) continue;
    /* energy above threshold: what photo-heating deposits per absorbed photon */
    double heat_thick, heat_thin;
    p.weight_energy = 1;
    p.weight_sigma = 0;
    rc = integrate(ws, &p, e_max, &heat_thick);
    p.weight_sigma = 1;
    if (rc == IONF_OK) rc = integrate(ws, &p, e_max, &heat_thin);
    p.weight_energy = 0;
    sp->heat_thick[i] = e0_erg * heat_thick / norm;
    sp->heat_thin[i] = e0_erg * heat_thin / norm;
  }
  return rc;
}

ionf_err photo_tables_build(const struct photo_spectrum *spectrum,
                            const struct species_data species[IONF_MAX_SPECIES], int thermal,
                            struct photo_tables *t) {
  memset(t, 0, sizeof *t);
  t->num_tau = spectrum->num_tau;
  t->min_log_tau = spectrum->min_log_tau;
  t->dlog_tau = (spectrum->max_log_tau - spectrum->min_log_tau) / (double)spectrum->num_tau;
  t->grey = spectrum->type == SPECTRUM_GREY;
  /* heating tables when the temperature evolves; a grey (threshold) spectrum heats nothing */
  t->heating = thermal && !t->grey;

  gsl_integration_workspace *ws = NULL;
  double norm = 0.0;
  ionf_err rc = IONF_OK;
  /* GSL failures come back as codes; the caller's GSL handler is put back below */
  gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
  if (!t->grey) {
    ws = gsl_integration_workspace_alloc(2000);
    if (!ws) {
      gsl_set_error_handler(old_handler);
      return ionf_error_set(IONF_ERR_MEM, "could not allocate the quadrature workspace");
    }
    /* one source photon per second above the HI threshold */
    struct bb_params p = {IONF_K_B_EV_PER_K * spectrum->t_eff_k, 0.0,
                          species[SPECIES_HI].sigma_power_law_index, 1.0, 0, 0};
    rc = integrate(ws, &p, 10.0 * IONF_E_HEII_EV / IONF_E_HI_EV, &norm);
    if (rc == IONF_OK && !(norm > 0.0))
      rc = ionf_error_set(IONF_ERR_CONFIG,
                          "spectrum.T_eff = %g K emits no ionizing photons above 13.6 eV",
                          spectrum->t_eff_k);
  }
  for (int s = 0; s < PHOTO_TABLE_SPECIES && rc == IONF_OK; ++s)
    rc = build_species(spectrum, &species[s], ws, norm, t, &t->sp[s]);
  /* the nodes' inverses, for photo_table_locate_fast (tables fine enough for its series) */
  if (rc == IONF_OK && !t->grey && t->num_tau >= 4 && t->dlog_tau <= PHOTO_FAST_DLOG_TAU_MAX) {
    t->inv_tau = ionf_malloc(((size_t)t->num_tau + 1) * sizeof(double), "the rate tables");
    if (!t->inv_tau) rc = IONF_ERR_MEM;
    for (int i = 0; rc == IONF_OK && i <= t->num_tau; ++i)
      t->inv_tau[i] = i == 0 ? 0.0 : 1.0 / photo_table_tau(i, t->min_log_tau, t->dlog_tau);
  }
  /* every species' threshold cross-section (the tracers' interpolation weights) */
  for (int s = PHOTO_TABLE_SPECIES; s < IONF_MAX_SPECIES; ++s) t->sp[s].sigma0_cm2 = species[s].sigma0_cm2;
  photo_tables_cut(t, 0.0);
  if (ws) gsl_integration_workspace_free(ws);
  gsl_set_error_handler(old_handler);
  if (rc != IONF_OK) photo_tables_free(t);
  return rc;
}

void photo_tables_free(struct photo_tables *t) {
  for (int s = 0; s < PHOTO_TABLE_SPECIES; ++s) {
    struct photo_species_tables *sp = &t->sp[s];
    free(sp->thick);
    free(sp->thin);
    free(sp->heat_thick);
    free(sp->heat_thin);
    sp->thick = sp->thin = sp->heat_thick = sp->heat_thin = NULL;
  }
  free(t->inv_tau);
  t->inv_tau = NULL;
}

/* The first node from which on table[i] <= cutoff table[0] (num_tau + 1: none). */
static int first_node_below(const double *table, int num_tau, double cutoff) {
  int first = num_tau + 1;
  for (int i = num_tau; i >= 0 && table[i] <= cutoff * table[0]; --i) first = i;
  return first;
}

void photo_tables_cut(struct photo_tables *t, double cutoff) {
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) t->sp[s].opaque_cm2 = PHOTO_MAX_COLUMN_CM2;
  if (!(cutoff > 0.0)) return;
  for (int s = 0; s < PHOTO_TABLE_SPECIES; ++s) {
    struct photo_species_tables *sp = &t->sp[s];
    double tau;
    if (t->grey) {
      tau = -log(cutoff);
    } else {
      const double *tables[4] = {sp->thick, sp->thin, sp->heat_thick, sp->heat_thin};
      int first = 0;
      for (int q = 0; q < (t->heating ? 4 : 2); ++q) {
        int f = first_node_below(tables[q], t->num_tau, cutoff);
        if (f > first) first = f;
      }
      if (first > t->num_tau) continue; /* never so low: no cut */
      tau = photo_table_tau(first, t->min_log_tau, t->dlog_tau);
    }
    if (tau / sp->sigma0_cm2 < PHOTO_MAX_COLUMN_CM2) sp->opaque_cm2 = tau / sp->sigma0_cm2;
  }
}

struct photo_table_view photo_tables_view(const struct photo_tables *t) {
  struct photo_table_view v;
  memset(&v, 0, sizeof v); /* the species without tables: NULL */
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) {
    v.sp[s].sigma0_cm2 = t->sp[s].sigma0_cm2;
    v.sp[s].opaque_cm2 = t->sp[s].opaque_cm2;
  }
  for (int s = 0; s < PHOTO_TABLE_SPECIES; ++s) {
    v.sp[s].thick = t->sp[s].thick;
    v.sp[s].thin = t->sp[s].thin;
    v.sp[s].heat_thick = t->sp[s].heat_thick;
    v.sp[s].heat_thin = t->sp[s].heat_thin;
    v.sp[s].sigma0_cm2 = t->sp[s].sigma0_cm2;
  }
  v.heating = t->heating;
  v.num_tau = t->num_tau;
  v.min_log_tau = t->min_log_tau;
  v.dlog_tau = t->dlog_tau;
  v.grey = t->grey;
  if (t->inv_tau) { /* photo_table_locate_fast: tau in [tau_2, tau_{n-1}), inside float's range */
    v.inv_tau = t->inv_tau;
    v.fast_tau_lo = photo_table_tau(2, t->min_log_tau, t->dlog_tau);
    v.fast_tau_hi = photo_table_tau(t->num_tau - 1, t->min_log_tau, t->dlog_tau);
    if (v.fast_tau_lo < 1e-30) v.fast_tau_lo = 1e-30;
    if (v.fast_tau_hi > 1e30) v.fast_tau_hi = 1e30;
    v.guess_scale = log10(2.0) / t->dlog_tau;
    v.guess_offset = 1.0 - t->min_log_tau / t->dlog_tau;
    v.inv_ln10_dlog = 1.0 / (log(10.0) * t->dlog_tau);
    for (int k = 0; k < PHOTO_LN1P_TERMS; ++k) v.ln1p_series[k] = 1.0 / (k + 1);
  }
  return v;
}
