/**
 * @file chem_cpu.c
 * @brief The chemistry pass on the CPU: an OpenMP loop over cells calling
 *        chem_cell_update from chem_k.h.
 */
#include "chem.h"

#include "constants.h"

#include <math.h>

struct chem_params chem_params_from_config(const struct ionf_config *cfg) {
  struct chem_params p;
  p.alpha_b_1e4_cm3_s = cfg->alpha_b_1e4_cm3_s;
  p.alpha_b_power = cfg->alpha_b_power;
  /* C2-Ray: colh0 = 1.3e-8 * f_H0 * xi_H0 / E_H0^2 with f = 0.83, xi = 1, E in eV. */
  p.col_h0 = 1.3e-8 * 0.83 * 1.0 / (IONF_E_HI_EV * IONF_E_HI_EV);
  p.col_t_h0_k = IONF_E_HI_EV / IONF_K_B_EV;
  p.collisional = cfg->collisional_ionization;
  p.abu_c = cfg->abu_c;
  p.thermal = !cfg->isothermal;
  p.t_cmb_k = 0.0;      /* set per step by cosmological runs */
  p.hubble_per_s = 0.0;
  return p;
}

ionf_err chem_cpu_pass(const struct chem_input *in, struct chem_state *state,
                       struct chem_pass_result *result) {
  int64_t unconverged = 0, at_max = 0;
  double sum_x = 0.0, sum_neutral = 0.0, sum_mass = 0.0, sum_t = 0.0;
  const struct chem_params p = in->params;
  const int thermal = p.thermal && in->heating_erg_per_s && state->t_av_k && state->t_end_k;
#pragma omp parallel for schedule(static) reduction(+ : unconverged, at_max, sum_x, sum_neutral, sum_mass, sum_t)
  for (int64_t c = 0; c < in->n_cells; ++c) {
    double x_av_old = state->x_hii_av[c];
    struct chem_cell_result r;
    if (thermal) {
      double t_av_old = state->t_av_k[c];
      r = chem_cell_update_thermal(&p, in->x_hii[c], x_av_old, in->temperature_k[c], t_av_old,
                                   in->n_h_cm3[c], in->gamma_hi_per_s[c],
                                   in->heating_erg_per_s[c], in->dt_s);
      state->t_av_k[c] = r.t_av_k;
      state->t_end_k[c] = r.t_end_k;
      unconverged += chem_cell_unconverged(x_av_old, r.x_av) ||
                     fabs(r.t_av_k - t_av_old) > CHEM_MIN_FRACTIONAL_T_CHANGE * r.t_av_k;
    } else {
      r = chem_cell_update(&p, in->x_hii[c], x_av_old, in->n_h_cm3[c], in->temperature_k[c],
                           in->gamma_hi_per_s[c], in->dt_s);
      unconverged += chem_cell_unconverged(x_av_old, r.x_av);
    }
    state->x_hii_av[c] = r.x_av;
    state->x_hii_end[c] = r.x_end;
    at_max += !r.converged;
    sum_x += r.x_end;
    sum_neutral += 1.0 - r.x_end;
    sum_mass += in->n_h_cm3[c] * r.x_end;
    sum_t += r.t_end_k;
  }
  result->unconverged_cells = unconverged;
  result->cells_at_max_iter = at_max;
  result->sum_x_end = sum_x;
  result->sum_x_neutral_end = sum_neutral;
  result->sum_x_end_mass = sum_mass;
  result->sum_t_end = sum_t;
  return IONF_OK;
}
