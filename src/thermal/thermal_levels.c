/**
 * @file thermal_levels.c
 * @brief The per-level, per-gas fields of a thermal solve (thermal_levels.h).
 *
 * Coarse level l (multigrid): cell c of axis a covers the fine cells
 * [c 2^l, min((c + 1) 2^l, n)); its kappa_j is their mean (the fine cells are equal in
 * volume) and its I_b,j their kappa_j-weighted mean (plain mean where kappa_j is 0), both
 * computed from the fine level.  The weighted mean is written as the first child's value
 * plus the weighted mean of the differences, so that equal children give their value
 * bit for bit (an isothermal region stays exactly isothermal on every level).
 */
#include "thermal/thermal_levels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


int thermal_levels_count(const struct thermal_setup *s) {
  return s->multigrid.levels > 1 ? s->multigrid.levels : 1;
}

/* Composition of fine cell i (defaults where a field is NULL). */
static void thermal_levels_comp(const struct thermal_fields *f, int64_t i, double *p_atm,
                                double *x_h2o, double *x_co2) {
  *p_atm = f->p_atm ? f->p_atm[i] : 1.0;
  *x_h2o = f->x_h2o ? f->x_h2o[i] : 0.0;
  *x_co2 = f->x_co2 ? f->x_co2[i] : 0.0;
}

static ionf_err thermal_levels_check_cell(const struct thermal_fields *f, int64_t i,
                                          const int64_t n[3]) {
  double p, xw, xc;
  thermal_levels_comp(f, i, &p, &xw, &xc);
  int64_t c0 = i / (n[1] * n[2]), c1 = (i / n[2]) % n[1], c2 = i % n[2];
  IONF_CHECK(isfinite(f->t_k[i]) && f->t_k[i] >= 0.0, IONF_ERR_INPUT,
             "thermal: temperature %g K of cell (%lld, %lld, %lld) is not a finite value >= 0",
             f->t_k[i], (long long)c0, (long long)c1, (long long)c2);
  IONF_CHECK(isfinite(p) && p > 0.0, IONF_ERR_INPUT,
             "thermal: pressure %g atm of cell (%lld, %lld, %lld) is not a finite value > 0", p,
             (long long)c0, (long long)c1, (long long)c2);
  IONF_CHECK(xw >= 0.0 && xw <= 1.0 && xc >= 0.0 && xc <= 1.0 && xw + xc <= 1.0 + 1e-12,
             IONF_ERR_INPUT,
             "thermal: mole fractions x_H2O = %g, x_CO2 = %g of cell (%lld, %lld, %lld) are not "
             "in [0, 1] with a sum <= 1",
             xw, xc, (long long)c0, (long long)c1, (long long)c2);
  return IONF_OK;
}

/* Level 0: the gases of every fine cell. */
static ionf_err thermal_levels_fine(const struct thermal_setup *s, const struct thermal_fields *f,
                                    struct thermal_levels *lv) {
  int64_t cells = lv->cells[0];
  for (int64_t i = 0; i < cells; ++i) IONF_CALL(thermal_levels_check_cell(f, i, s->n));
  double *kappa = lv->kappa_per_m[0], *ib = lv->ib_w_per_m2_sr[0];
  double t_max = 0.0;
#pragma omp parallel for schedule(static) reduction(max : t_max)
  for (int64_t i = 0; i < cells; ++i) {
    double p, xw, xc, k[THERMAL_GASES_MAX], a[THERMAL_GASES_MAX];
    thermal_levels_comp(f, i, &p, &xw, &xc);
    thermal_gas_eval(s->gas_model, s->kappa_per_m, f->t_k[i], p, xw, xc, k, a);
    for (int j = 0; j < lv->gases; ++j) {
      kappa[(int64_t)j * cells + i] = k[j];
      ib[(int64_t)j * cells + i] = thermal_gas_ib(a[j], f->t_k[i]);
    }
    t_max = fmax(t_max, f->t_k[i]);
  }
  lv->t_max_k = t_max;
  return IONF_OK;
}

/* The walls' intensities: each patch's gases with the composition of the cell next to it. */
static void thermal_levels_walls(const struct thermal_setup *s, const struct thermal_fields *f,
                                 struct thermal_levels *lv) {
  int64_t patches = lv->wall_first[THERMAL_FACES];
  for (int face = 0; face < THERMAL_FACES; ++face) {
    int a = face / 2, b, c;
    thermal_face_axes(a, &b, &c);
    double t_w = s->wall[face].t_k;
    if (lv->wall_first[face + 1] > lv->wall_first[face]) lv->t_max_k = fmax(lv->t_max_k, t_w);
    for (int64_t q = 0; q < lv->wall_first[face + 1] - lv->wall_first[face]; ++q) {
      int64_t idx[3];
      idx[a] = (face % 2 == 0) ? 0 : s->n[a] - 1;
      idx[b] = q / s->n[c];
      idx[c] = q % s->n[c];
      int64_t cell = (idx[0] * s->n[1] + idx[1]) * s->n[2] + idx[2];
      double p, xw, xc, k[THERMAL_GASES_MAX], aj[THERMAL_GASES_MAX];
      thermal_levels_comp(f, cell, &p, &xw, &xc);
      thermal_gas_eval(s->gas_model, s->kappa_per_m, t_w, p, xw, xc, k, aj);
      for (int j = 0; j < lv->gases; ++j)
        lv->wall_ib_w_per_m2_sr[(int64_t)j * patches + lv->wall_first[face] + q] =
            thermal_gas_ib(aj[j], t_w);
    }
  }
}

/* One coarse cell of level l, gas j, from level 0. */
static void thermal_levels_coarse_cell(const struct thermal_levels *lv, int l, int j,
                                       const int64_t c[3], double *kappa_out, double *ib_out) {
  const int64_t *n = lv->n[0];
  int64_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = c[a] << l;
    hi[a] = (c[a] + 1) << l;
    if (hi[a] > n[a]) hi[a] = n[a];
  }
  const double *kappa = lv->kappa_per_m[0] + (int64_t)j * lv->cells[0];
  const double *ib = lv->ib_w_per_m2_sr[0] + (int64_t)j * lv->cells[0];
  double ib0 = ib[(lo[0] * n[1] + lo[1]) * n[2] + lo[2]];
  double ksum = 0.0, kdsum = 0.0, dsum = 0.0;
  int64_t count = 0;
  for (int64_t x = lo[0]; x < hi[0]; ++x)
    for (int64_t y = lo[1]; y < hi[1]; ++y)
      for (int64_t z = lo[2]; z < hi[2]; ++z) {
        int64_t i = (x * n[1] + y) * n[2] + z;
        ksum += kappa[i];
        kdsum += kappa[i] * (ib[i] - ib0);
        dsum += ib[i] - ib0;
        ++count;
      }
  *kappa_out = ksum / (double)count;
  *ib_out = ksum > 0.0 ? ib0 + kdsum / ksum : ib0 + dsum / (double)count;
}

static void thermal_levels_coarse(struct thermal_levels *lv, int l) {
  const int64_t *n = lv->n[l];
  int64_t cells = lv->cells[l];
  for (int j = 0; j < lv->gases; ++j) {
    double *kappa = lv->kappa_per_m[l] + (int64_t)j * cells;
    double *ib = lv->ib_w_per_m2_sr[l] + (int64_t)j * cells;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < cells; ++i) {
      int64_t c[3];
      c[0] = i / (n[1] * n[2]);
      c[1] = (i / n[2]) % n[1];
      c[2] = i % n[2];
      thermal_levels_coarse_cell(lv, l, j, c, &kappa[i], &ib[i]);
    }
  }
}

static ionf_err thermal_levels_alloc(struct thermal_levels *lv) {
  for (int l = 0; l < lv->levels; ++l) {
    size_t count = (size_t)lv->cells[l] * (size_t)lv->gases;
    lv->kappa_per_m[l] = ionf_malloc(count * sizeof(double), "thermal level kappa");
    lv->ib_w_per_m2_sr[l] = ionf_malloc(count * sizeof(double), "thermal level I_b");
    if (!lv->kappa_per_m[l] || !lv->ib_w_per_m2_sr[l]) return IONF_ERR_MEM;
  }
  size_t walls = (size_t)lv->wall_first[THERMAL_FACES] * (size_t)lv->gases;
  lv->wall_ib_w_per_m2_sr = ionf_malloc((walls > 0 ? walls : 1) * sizeof(double), "thermal walls");
  return lv->wall_ib_w_per_m2_sr ? IONF_OK : IONF_ERR_MEM;
}

ionf_err thermal_levels_build(const struct thermal_setup *s, const struct thermal_fields *f,
                              struct thermal_levels *lv) {
  memset(lv, 0, sizeof *lv);
  IONF_CHECK(f && f->t_k, IONF_ERR_INPUT, "thermal: no temperature field");
  lv->levels = thermal_levels_count(s);
  lv->gases = thermal_gas_count(s->gas_model);
  for (int l = 0; l < lv->levels; ++l) {
    lv->cells[l] = 1;
    for (int a = 0; a < 3; ++a) {
      lv->n[l][a] = l == 0 ? s->n[a] : (lv->n[l - 1][a] + 1) / 2;
      lv->cell_m[l][a] = ldexp(s->cell_m[a], l);
      lv->cells[l] *= lv->n[l][a];
    }
  }
  lv->wall_first[0] = 0;
  for (int face = 0; face < THERMAL_FACES; ++face)
    lv->wall_first[face + 1] = lv->wall_first[face] + thermal_face_patches(s->n, s->periodic, face);
  ionf_err rc = thermal_levels_alloc(lv);
  if (rc == IONF_OK) rc = thermal_levels_fine(s, f, lv);
  if (rc != IONF_OK) {
    thermal_levels_free(lv);
    return rc;
  }
  thermal_levels_walls(s, f, lv);
  for (int l = 1; l < lv->levels; ++l) thermal_levels_coarse(lv, l);
  return IONF_OK;
}

void thermal_levels_free(struct thermal_levels *lv) {
  for (int l = 0; l < THERMAL_LEVELS_MAX; ++l) {
    free(lv->kappa_per_m[l]);
    free(lv->ib_w_per_m2_sr[l]);
    lv->kappa_per_m[l] = NULL;
    lv->ib_w_per_m2_sr[l] = NULL;
  }
  free(lv->wall_ib_w_per_m2_sr);
  lv->wall_ib_w_per_m2_sr = NULL;
}

void thermal_levels_view(const struct thermal_setup *s, const struct thermal_fields *f,
                         const struct thermal_levels *lv, struct thermal_view *v) {
  memset(v, 0, sizeof *v);
  for (int a = 0; a < 3; ++a) {
    v->n[a] = s->n[a];
    v->len_m[a] = (double)s->n[a] * s->cell_m[a];
    v->periodic[a] = s->periodic[a];
  }
  v->gas_model = s->gas_model;
  v->gases = lv->gases;
  v->kappa_grey_per_m = s->kappa_per_m;
  v->t_max_k = lv->t_max_k;
  v->t_k = f->t_k;
  v->p_atm = f->p_atm;
  v->x_h2o = f->x_h2o;
  v->x_co2 = f->x_co2;
  v->levels = lv->levels;
  v->steps_per_level = s->multigrid.steps_per_level;
  for (int l = 0; l < lv->levels; ++l) {
    for (int a = 0; a < 3; ++a) {
      v->level[l].n[a] = lv->n[l][a];
      v->level[l].cell_m[a] = lv->cell_m[l][a];
    }
    v->level[l].kappa_per_m = lv->kappa_per_m[l];
    v->level[l].ib_w_per_m2_sr = lv->ib_w_per_m2_sr[l];
  }
  for (int face = 0; face < THERMAL_FACES; ++face) v->wall_eps[face] = s->wall[face].emissivity;
  for (int i = 0; i <= THERMAL_FACES; ++i) v->wall_first[i] = lv->wall_first[i];
  v->wall_ib_w_per_m2_sr = lv->wall_ib_w_per_m2_sr;
  v->seed = s->seed;
  v->rays = s->rays_per_element;
  v->tau_min = s->transmissivity_min;
  v->sort_gases = s->sort_gases;
}

void thermal_levels_fractions(double kappa_ref_per_m, double cell_m, int steps_per_level,
                              int levels, double *fraction) {
  double path_m = 0.0, left = 1.0;
  for (int l = 0; l < levels; ++l) {
    path_m += steps_per_level * ldexp(cell_m, l);
    double after = l + 1 < levels ? exp(-kappa_ref_per_m * path_m) : 0.0;
    fraction[l] = left - after;
    left = after;
  }
}

double thermal_levels_steps(double kappa_ref_per_m, double cell_m, int level,
                            double p_before, double p_after) {
  double dx = ldexp(cell_m, level);
  return log(1.0 - p_before) / (kappa_ref_per_m * dx) - log(1.0 - p_after) / (kappa_ref_per_m * dx);
}
