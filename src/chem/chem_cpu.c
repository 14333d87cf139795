/**
 * @file chem_cpu.c
 * @brief The chemistry pass on the CPU: an OpenMP loop over cells calling
 *        chem_k.h's chem_cell_pass (hydrogen) or chem_he_k.h's chem_he_cell_pass.
 */
#include "chem/chem.h"

#include <math.h>
#include <stdlib.h>

struct chem_params chem_params_make(const struct species_data species[IONF_MAX_SPECIES],
                                    int collisional, double abu_c, int thermal) {
  struct chem_params p;
  const struct species_data *h = &species[SPECIES_HI];
  p.alpha_b_1e4_cm3_s = h->alpha_b_1e4_cm3_s;
  p.alpha_b_power = h->alpha_b_power;
  p.col_h0 = h->col_prefactor;
  p.col_t_h0_k = h->col_t_k;
  p.collisional = collisional;
  p.abu_c = abu_c;
  p.thermal = thermal;
  p.t_cmb_k = 0.0;      /* set per step by cosmological runs */
  p.hubble_per_s = 0.0;
  return p;
}

/* Hydrogen with helium: chem_he_cell_pass on every cell; the sums are hydrogen's. */
static ionf_err chem_cpu_pass_he(const struct chem_input *in, const struct chem_clumping *clumping,
                                 struct chem_state *state, struct chem_pass_result *result) {
  int64_t unconverged = 0, at_max = 0;
  double sum_x = 0.0, sum_neutral = 0.0, sum_mass = 0.0, sum_t = 0.0;
  const int thermal = in->params.thermal && in->heating_erg_per_s && state->t_av_k && state->t_end_k;
  const int64_t st = in->species_stride;
  const struct chem_he_params he = in->he;
#pragma omp parallel for schedule(static) reduction(+ : unconverged, at_max, sum_x, sum_neutral, sum_mass, sum_t)
  for (int64_t c = 0; c < in->n_cells; ++c) {
    struct chem_he_state s0 = {in->x_ion[c], in->x_ion[st + c], in->x_ion[2 * st + c]};
    struct chem_he_state av = {state->x_ion_av[c], state->x_ion_av[st + c],
                               state->x_ion_av[2 * st + c]};
    struct chem_he_rates g = {in->gamma_per_s[c], in->gamma_per_s[st + c],
                              in->gamma_per_s[2 * st + c]};
    double heat[3] = {0.0, 0.0, 0.0};
    if (thermal)
      for (int s = 0; s < 3; ++s) heat[s] = in->heating_erg_per_s[s * st + c];
    int moved;
    struct chem_he_pass_result r = chem_he_cell_pass_clumped(
        &he, clumping, thermal, in->dt_s, s0, in->n_h_cm3[c], in->temperature_k[c], g, heat, &av,
        thermal ? &state->t_av_k[c] : NULL, &moved);
    state->x_ion_av[c] = av.x_hii;
    state->x_ion_av[st + c] = av.x_heii;
    state->x_ion_av[2 * st + c] = av.x_heiii;
    state->x_ion_end[c] = r.end.x_hii;
    state->x_ion_end[st + c] = r.end.x_heii;
    state->x_ion_end[2 * st + c] = r.end.x_heiii;
    if (thermal) state->t_end_k[c] = r.t_end_k;
    unconverged += moved;
    at_max += !r.converged;
    sum_x += r.end.x_hii;
    sum_neutral += 1.0 - r.end.x_hii;
    sum_mass += in->n_h_cm3[c] * r.end.x_hii;
    sum_t += r.t_end_k;
  }
  chem_pass_result_set(result, unconverged, at_max, sum_x, sum_neutral, sum_mass, sum_t);
  return IONF_OK;
}

ionf_err chem_cpu_pass(const struct chem_input *in, struct chem_state *state,
                       struct chem_pass_result *result) {
  struct chem_clumping none = {CHEM_CLUMPING_NONE, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0};
  return chem_cpu_pass_clumped(in, &none, state, result);
}

ionf_err chem_cpu_pass_clumped(const struct chem_input *in, const struct chem_clumping *clumping,
                               struct chem_state *state, struct chem_pass_result *result) {
  if (in->n_species == 3) return chem_cpu_pass_he(in, clumping, state, result);
  int64_t unconverged = 0, at_max = 0;
  double sum_x = 0.0, sum_neutral = 0.0, sum_mass = 0.0, sum_t = 0.0;
  const struct chem_params p = in->params;
  const int thermal = p.thermal && in->heating_erg_per_s && state->t_av_k && state->t_end_k;
  /* hydrogen's update (the only species today) */
  const int64_t h = SPECIES_HI * in->species_stride;
  const double *x0 = in->x_ion + h, *gamma = in->gamma_per_s + h;
  const double *heat = in->heating_erg_per_s ? in->heating_erg_per_s + h : NULL;
  double *x_av = state->x_ion_av + h, *x_end = state->x_ion_end + h;
#pragma omp parallel for schedule(static) reduction(+ : unconverged, at_max, sum_x, sum_neutral, sum_mass, sum_t)
  for (int64_t c = 0; c < in->n_cells; ++c) {
    int moved;
    struct chem_cell_result r =
        chem_cell_pass(&p, clumping, thermal, in->dt_s, x0[c], in->n_h_cm3[c],
                       in->temperature_k[c], gamma[c], thermal ? heat[c] : 0.0, &x_av[c],
                       thermal ? &state->t_av_k[c] : NULL, &moved);
    x_end[c] = r.x_end;
    if (thermal) state->t_end_k[c] = r.t_end_k;
    unconverged += moved;
    at_max += !r.converged;
    sum_x += r.x_end;
    sum_neutral += 1.0 - r.x_end;
    sum_mass += in->n_h_cm3[c] * r.x_end;
    sum_t += r.t_end_k;
  }
  chem_pass_result_set(result, unconverged, at_max, sum_x, sum_neutral, sum_mass, sum_t);
  return IONF_OK;
}

/* ---- the CPU solver: chem_cpu_pass behind the interface ------------------------- */

static ionf_err cpu_solver_pass(struct chem_solver *s, const struct chem_input *in,
                                struct chem_state *state, struct chem_pass_result *result) {
  return chem_cpu_pass_clumped(in, &s->clumping, state, result);
}

static void cpu_solver_destroy(struct chem_solver *s) { free(s); }

ionf_err chem_solver_create_cpu(struct chem_solver **out) {
  struct chem_solver *s = ionf_calloc(1, sizeof *s, "the CPU chemistry");
  *out = s;
  if (!s) return IONF_ERR_MEM;
  s->name = "cpu";
  s->device_arrays = 0;
  s->ops.pass = cpu_solver_pass;
  s->ops.destroy = cpu_solver_destroy;
  return IONF_OK;
}

void chem_solver_set_clumping(struct chem_solver *s, const struct chem_clumping *clumping) {
  s->clumping = *clumping;
}

void chem_solver_destroy(struct chem_solver *s) {
  if (s && s->ops.destroy) s->ops.destroy(s);
}
