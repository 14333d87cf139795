/**
 * @file bands.c
 * @brief Band tables for hydrogen and helium (see bands.h, bands_k.h).
 */
#include "rt/bands.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/atomic_k.h"
#include "chem/secondary_k.h"
#include "core/constants.h"

#define BANDS_WORKSPACE 2000

struct bands_integrand {
  const struct bands_setup *setup;
  double e_b, index, tau; /* the sub-bin's middle, power law, optical depth there */
  int weight_sigma;       /* 1: times (E/E_b)^-index (the thin tables) */
  int weight_energy;      /* 1: times E [erg] */
};

double bands_photons_at(const struct bands_setup *s, double e_ev) {
  if (s->type == BANDS_POWERLAW) return pow(e_ev / IONF_E_HI_EV, -s->powerlaw_index - 1.0);
  if (s->type == BANDS_TABLE) return sed_photons_at(s->table, e_ev);
  double x = e_ev / (IONF_K_B_EV_PER_K * s->t_eff_k);
  if (x > 700.0) return 0.0;
  return e_ev * e_ev / expm1(x);
}

static double bands_f(double e_ev, void *vp) {
  const struct bands_integrand *p = vp;
  double shape = pow(e_ev / p->e_b, -p->index);
  double w = bands_photons_at(p->setup, e_ev) * exp(-p->tau * shape);
  if (p->weight_sigma) w *= shape;
  if (p->weight_energy) w *= e_ev * IONF_EV_ERG;
  return w;
}

static ionf_err bands_integrate(gsl_integration_workspace *ws, struct bands_integrand *p, double lo,
                                double hi, double *out) {
  gsl_function f = {bands_f, p};
  double err;
  int rc = gsl_integration_qag(&f, lo, hi, 0.0, 1e-10, BANDS_WORKSPACE, GSL_INTEG_GAUSS41, ws, out,
                               &err);
  if (rc != GSL_SUCCESS && rc != GSL_EROUND)
    return ionf_error_set(IONF_ERR_INTERNAL, "band table: quadrature failed from %g to %g eV at "
                          "tau = %g (%s)", lo, hi, p->tau, gsl_strerror(rc));
  return IONF_OK;
}

static ionf_err bands_check(const struct bands_setup *s) {
  IONF_CHECK(s->n_sub[0] >= 1 && s->n_sub[1] >= 1 && s->n_sub[2] >= 1 &&
                 s->n_sub[0] + s->n_sub[1] + s->n_sub[2] <= BANDS_MAX_BINS,
             IONF_ERR_CONFIG, "band sub-bins %d, %d, %d: each at least 1, %d in all at most",
             s->n_sub[0], s->n_sub[1], s->n_sub[2], BANDS_MAX_BINS);
  IONF_CHECK(isfinite(s->e_max_ev) && s->e_max_ev > IONF_E_HEII_EV * 1.001, IONF_ERR_CONFIG,
             "spectrum E_max = %g eV: the spectrum must reach above the He II threshold (54.416 eV)",
             s->e_max_ev);
  IONF_CHECK(s->type != BANDS_BLACKBODY || (isfinite(s->t_eff_k) && s->t_eff_k >= 1e3), IONF_ERR_CONFIG,
             "spectrum T_eff = %g K: at least 1000 K", s->t_eff_k);
  IONF_CHECK(s->type != BANDS_POWERLAW || (isfinite(s->powerlaw_index) && fabs(s->powerlaw_index) < 20.0),
             IONF_ERR_CONFIG, "spectrum index = %g: a finite power law, |index| < 20",
             s->powerlaw_index);
  IONF_CHECK(s->type != BANDS_TABLE || (s->table && s->table->n >= 2), IONF_ERR_CONFIG,
             "a tabulated spectrum without a table");
  return IONF_OK;
}

/* Sub-bin edges, power laws and cross-sections at the lower edges. */
static void bands_layout(const struct bands_setup *s, struct bands *b) {
  const double edges[4] = {IONF_E_HI_EV, IONF_E_HEI_EV, IONF_E_HEII_EV, s->e_max_ev};
  int k = 0;
  for (int band = 0; band < 3; ++band) {
    double ratio = pow(edges[band + 1] / edges[band], 1.0 / s->n_sub[band]);
    for (int i = 0; i < s->n_sub[band]; ++i, ++k) {
      b->e_lo_ev[k] = edges[band] * pow(ratio, i);
      b->e_hi_ev[k] = i + 1 == s->n_sub[band] ? edges[band + 1] : edges[band] * pow(ratio, i + 1);
      /* the band's own absorber sets the sub-bin's power law */
      double s_lo = atomic_sigma_cm2(band, b->e_lo_ev[k]);
      double s_hi = atomic_sigma_cm2(band, b->e_hi_ev[k] * (1.0 - 1e-12));
      b->index[k] = -log(s_hi / s_lo) / log(b->e_hi_ev[k] / b->e_lo_ev[k]);
      /* every absorber's cross-section at the sub-bin's geometric middle, where the
         power laws are pinned: a mismatch of slopes then errs to second order */
      double e_mid = sqrt(b->e_lo_ev[k] * b->e_hi_ev[k]);
      for (int a = 0; a < BANDS_N_ABSORBERS; ++a)
        b->sigma_cm2[BANDS_N_ABSORBERS * k + a] = atomic_sigma_cm2(a, e_mid);
    }
  }
  b->n_bins = k;
}

size_t bands_table_doubles(const struct bands *b) {
  return (size_t)b->n_bins * BANDS_NODES * BANDS_NODE_VALUES;
}

/* The sub-bins' arrays and layout (bands_layout). */
static ionf_err bands_sub_alloc(const struct bands_setup *setup, struct bands *b) {
  const int nb = setup->n_sub[0] + setup->n_sub[1] + setup->n_sub[2];
  b->sigma_cm2 = ionf_malloc(sizeof(double) * BANDS_N_ABSORBERS * (size_t)nb, "band cross-sections");
  const size_t n_table = (size_t)nb * BANDS_NODES * BANDS_NODE_VALUES;
  b->table = calloc(n_table, sizeof(double));
  if (b->heating) b->e_table = calloc(n_table, sizeof(double));
  if (!b->sigma_cm2 || !b->table || (b->heating && !b->e_table))
    return ionf_error_set(IONF_ERR_MEM, "no memory for the band tables");
  bands_layout(setup, b);
  return IONF_OK;
}

/* The sub-bins' tables, normalised by the spectrum's photons `norm`. */
static ionf_err bands_sub_tables(const struct bands_setup *setup, struct bands *b,
                                 gsl_integration_workspace *ws, double norm) {
  struct bands_integrand p = {setup, IONF_E_HI_EV, 0.0, 0.0, 0, 0};
  ionf_err rc = IONF_OK;
  /* the last node stays 0: nothing survives tau = BANDS_TAU_MAX (bands_k.h) */
  for (int k = 0; k < b->n_bins && rc == IONF_OK; ++k) {
    p.e_b = sqrt(b->e_lo_ev[k] * b->e_hi_ev[k]);
    p.index = b->index[k];
    for (int i = 0; i + 1 < BANDS_NODES && rc == IONF_OK; ++i) {
      p.tau = bands_node_tau(i);
      const size_t at = ((size_t)k * BANDS_NODES + (size_t)i) * BANDS_NODE_VALUES;
      double *dest[4] = {b->table + at, b->table + at + 1, b->e_table ? b->e_table + at : NULL,
                         b->e_table ? b->e_table + at + 1 : NULL};
      for (int t = 0; t < (b->heating ? 4 : 2) && rc == IONF_OK; ++t) {
        p.weight_sigma = t & 1;   /* thick, thin, e_thick, e_thin */
        p.weight_energy = t >= 2;
        double v = 0.0;
        rc = bands_integrate(ws, &p, b->e_lo_ev[k], b->e_hi_ev[k], &v);
        *dest[t] = v / norm;
      }
    }
  }
  return rc;
}

ionf_err bands_build(const struct bands_setup *setup, struct bands *b) {
  memset(b, 0, sizeof *b);
  IONF_CALL(bands_check(setup));
  b->heating = setup->heating || setup->secondary;
  b->secondary = setup->secondary;
  ionf_err rc = setup->whole ? IONF_OK : bands_sub_alloc(setup, b);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(BANDS_WORKSPACE);
  if (rc == IONF_OK && !ws) rc = ionf_error_set(IONF_ERR_MEM, "no quadrature workspace");
  struct bands_integrand p = {setup, IONF_E_HI_EV, 0.0, 0.0, 0, 0};
  double norm = 0.0;
  if (rc == IONF_OK) rc = bands_integrate(ws, &p, IONF_E_HI_EV, setup->e_max_ev, &norm);
  if (rc == IONF_OK && !(norm > 0.0))
    rc = ionf_error_set(IONF_ERR_CONFIG, "the spectrum emits no photons above 13.598 eV");
  if (rc == IONF_OK)
    rc = setup->whole ? bands_whole_build(setup, norm, b->heating, &b->whole)
                      : bands_sub_tables(setup, b, ws, norm);
  if (ws) gsl_integration_workspace_free(ws);
  gsl_set_error_handler(old);
  if (rc != IONF_OK) bands_free(b);
  return rc;
}

void bands_free(struct bands *b) {
  bands_whole_free(&b->whole);
  free(b->sigma_cm2);
  free(b->table);
  free(b->e_table);
  b->sigma_cm2 = b->table = b->e_table = NULL;
}

struct bands_view bands_view_of(const struct bands *b) {
  struct bands_view v;
  v.n_bins = b->n_bins;
  v.heating = b->heating;
  v.sigma_cm2 = b->sigma_cm2;
  v.table = b->table;
  v.e_table = b->e_table;
  for (int a = 0; a < BANDS_N_ABSORBERS; ++a)
    v.threshold_erg[a] = atomic_threshold_ev(a) * IONF_EV_ERG;
  v.secondary = b->secondary;
  v.first_xray_bin = b->n_bins;
  for (int k = b->n_bins - 1; k >= 0 && sqrt(b->e_lo_ev[k] * b->e_hi_ev[k]) >= SECONDARY_MIN_EV; --k)
    v.first_xray_bin = k;
  v.whole = bands_whole_view_of(&b->whole);
  if (v.whole.n_bands) /* the band from 100 eV (SECONDARY_MIN_EV) up, if there is one */
    v.first_xray_bin = b->whole.e_lo_ev[v.whole.n_bands - 1] >= SECONDARY_MIN_EV ? v.whole.n_bands - 1
                                                                               : v.whole.n_bands;
  return v;
}
