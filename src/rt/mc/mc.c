/**
 * @file mc.c
 * @brief Monte Carlo transport state: seed and packets from the config, the
 *        black-body energy table (GSL quadrature), the error estimate of Gamma
 *        and the packet adaptation to a target error (see mc.h).
 */
#include "rt/mc/mc.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "rt/mc/mc_k.h"

/* Photons of a black body per unit e = h nu / 13.6 eV (unnormalised). */
static double bb_photons(double e, void *kt_over_e0) {
  double x = e / *(double *)kt_over_e0;
  return x > 700.0 ? 0.0 : e * e / expm1(x);
}

ionf_err mc_spectrum_build(double t_eff_k, int points, double *table) {
  enum { FINE = 8192 }; /* CDF nodes, log-spaced in e */
  double kt_over_e0 = IONF_K_B_EV_PER_K * t_eff_k / IONF_E_HI_EV;
  double e_max = 10.0 * IONF_E_HEII_EV / IONF_E_HI_EV; /* as photo_tables.c */
  double *e = ionf_malloc(2 * (FINE + 1) * sizeof(double), "the black-body CDF");
  if (!e) return IONF_ERR_MEM;
  double *cdf = e + FINE + 1;
  /* GSL failures come back as codes; the caller's GSL handler is put back after */
  gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(1000);
  if (!ws) {
    gsl_set_error_handler(old_handler);
    free(e);
    return ionf_error_set(IONF_ERR_MEM, "could not allocate the quadrature workspace");
  }
  gsl_function f = {bb_photons, &kt_over_e0};
  ionf_err rc = IONF_OK;
  e[0] = 1.0;
  cdf[0] = 0.0;
  for (int i = 1; i <= FINE && rc == IONF_OK; ++i) {
    e[i] = exp(log(e_max) * (double)i / FINE);
    double part = 0.0, err = 0.0;
    int q = gsl_integration_qag(&f, e[i - 1], e[i], 0.0, 1e-10, 1000, GSL_INTEG_GAUSS21, ws,
                                &part, &err);
    if (q != GSL_SUCCESS && q != GSL_EROUND)
      rc = ionf_error_set(IONF_ERR_INTERNAL, "black-body packet spectrum: quadrature failed (%s)",
                          gsl_strerror(q));
    cdf[i] = cdf[i - 1] + part;
  }
  gsl_set_error_handler(old_handler);
  gsl_integration_workspace_free(ws);
  if (rc == IONF_OK && !(cdf[FINE] > 0.0))
    rc = ionf_error_set(IONF_ERR_CONFIG,
                        "spectrum.T_eff = %g K emits no ionizing photons above 13.6 eV", t_eff_k);
  if (rc == IONF_OK) { /* invert: the energy at CDF = i / (points - 1) */
    int j = 0;
    for (int i = 0; i < points; ++i) {
      double target = cdf[FINE] * (double)i / (double)(points - 1);
      while (j < FINE - 1 && cdf[j + 1] < target) ++j;
      double span = cdf[j + 1] - cdf[j];
      double fr = span > 0.0 ? (target - cdf[j]) / span : 0.0;
      if (fr < 0.0) fr = 0.0;
      if (fr > 1.0) fr = 1.0;
      table[i] = e[j] + fr * (e[j + 1] - e[j]);
    }
    table[0] = 1.0;
    table[points - 1] = e_max;
  }
  free(e);
  return rc;
}

struct mc_medium mc_medium_make(const struct mc_state *st, int64_t n, int periodic,
                                double cell_cm, double r_max_cells, const double *n_h_cm3,
                                const double *x_hii_av, double *gamma, double *gamma_sq,
                                double *heat) {
  struct mc_medium m = {n, periodic, cell_cm, mc_walk_limit_cells(r_max_cells, n, periodic),
                        n_h_cm3, x_hii_av, st->sigma0_cm2, st->sigma_index, gamma, gamma_sq,
                        st->heating ? heat : NULL};
  return m;
}

ionf_err mc_state_init(const struct mc_config *mc, const struct photo_spectrum *spectrum,
                       const struct species_data species[IONF_MAX_SPECIES],
                       const struct chem_params *chem, int64_t n, struct mc_state *st) {
  memset(st, 0, sizeof *st);
  st->seed = mc->seed;
  st->packets_per_source = mc->packets_per_source;
  st->sigma0_cm2 = species[SPECIES_HI].sigma0_cm2;
  st->sigma_index = species[SPECIES_HI].sigma_power_law_index;
  st->heating = chem->thermal && spectrum->type != SPECTRUM_GREY;
  st->recombination_emission = mc->recombination_emission;
  st->recombination_packets = mc->recombination_packets;
  st->alpha_a_1e4_cm3_s = mc->alpha_a_1e4_cm3_s;
  st->alpha_b_1e4_cm3_s = chem->alpha_b_1e4_cm3_s;
  st->alpha_power = chem->alpha_b_power;
  st->abu_c = chem->abu_c;
  st->ranks = 1;
  st->gamma_sq = ionf_calloc((size_t)grid_cells(n), sizeof(double), "the Monte Carlo tallies");
  if (!st->gamma_sq) return IONF_ERR_MEM;
  if (spectrum->type == SPECTRUM_GREY) return IONF_OK;
  st->spectrum_points = MC_SPECTRUM_POINTS;
  st->spectrum = ionf_malloc(MC_SPECTRUM_POINTS * sizeof(double), "the packet spectrum");
  if (!st->spectrum) {
    mc_state_free(st);
    return IONF_ERR_MEM;
  }
  ionf_err rc = mc_spectrum_build(spectrum->t_eff_k, MC_SPECTRUM_POINTS, st->spectrum);
  if (rc != IONF_OK) mc_state_free(st);
  return rc;
}

void mc_state_free(struct mc_state *st) {
  free(st->spectrum);
  free(st->gamma_sq);
  st->spectrum = st->gamma_sq = NULL;
}

double mc_walk_limit_cells(double r_max_cells, int64_t n, int periodic) {
  if (r_max_cells > 0.0) return r_max_cells;
  /* the whole box: a non-periodic box ends the walk at its faces; a periodic one
     at half the box, so that no packet comes back to its source's cell */
  return periodic ? 0.5 * (double)n : HUGE_VAL;
}

double mc_recombination_total(const struct mc_state *st, const struct grid *g,
                              const double *n_h_cm3, const double *x_hii,
                              const double *temperature_k) {
  int64_t cells = grid_cells(g->n);
  double vol = g->cell_cm * g->cell_cm * g->cell_cm, total = 0.0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int64_t c = 0; c < cells; ++c) {
    double t = temperature_k[c];
    total += mc_recombination_photons(n_h_cm3[c], x_hii[c], st->abu_c,
                                      mc_alpha(st->alpha_a_1e4_cm3_s, st->alpha_power, t),
                                      mc_alpha(st->alpha_b_1e4_cm3_s, st->alpha_power, t), vol);
  }
  return total;
}

void mc_relative_error(const double *gamma, const double *gamma_sq, int64_t cells, double *rel) {
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) rel[c] = gamma[c] > 0.0 ? sqrt(gamma_sq[c]) / gamma[c] : 0.0;
}

double mc_front_error(const double *rel, const double *x_hii, int64_t cells) {
  double sum = 0.0;
  int64_t count = 0;
#pragma omp parallel for reduction(+ : sum, count) schedule(static)
  for (int64_t c = 0; c < cells; ++c) {
    if (x_hii[c] < 0.1 || x_hii[c] > 0.9 || !(rel[c] > 0.0)) continue;
    sum += rel[c] * rel[c];
    ++count;
  }
  return count > 0 ? sqrt(sum / (double)count) : -1.0;
}

int64_t mc_next_packets(int64_t packets, double front_error, double target, int64_t max_packets) {
  if (!(target > 0.0) || !(front_error > 0.0)) return packets;
  double want = (double)packets * (front_error / target) * (front_error / target);
  double lo = 0.25 * (double)packets, hi = 4.0 * (double)packets;
  want = want < lo ? lo : want > hi ? hi : want;
  if (want > (double)max_packets) want = (double)max_packets;
  if (want < 1.0) want = 1.0;
  return (int64_t)ceil(want);
}
