/**
 * @file thermal.c
 * @brief A thermal setup's checks and its wall patches (thermal.h).
 */
#include "thermal/thermal.h"

#include <math.h>

#include "thermal/thermal_k.h"

/* The face names of the walls' keys (walls.<face>.emissivity, walls.<face>.t_k). */
static const char *const thermal_face_name[THERMAL_FACES] = {"x_lo", "x_hi", "y_lo",
                                                             "y_hi", "z_lo", "z_hi"};

int64_t thermal_wall_patches(const struct thermal_setup *s) {
  int64_t sum = 0;
  for (int face = 0; face < THERMAL_FACES; ++face)
    sum += thermal_face_patches(s->n, s->periodic, face);
  return sum;
}

static ionf_err thermal_check_grid(const struct thermal_setup *s) {
  static const char axis[3] = {'x', 'y', 'z'};
  for (int a = 0; a < 3; ++a) {
    IONF_CHECK(s->n[a] >= 1 && s->n[a] <= ((int64_t)1 << 24), IONF_ERR_CONFIG,
               "thermal: grid.cells along %c is %lld; expected 1 to 2^24 cells", axis[a],
               (long long)s->n[a]);
    IONF_CHECK(isfinite(s->cell_m[a]) && s->cell_m[a] > 0.0, IONF_ERR_CONFIG,
               "thermal: grid.size_m along %c gives cells of %g m; expected a finite value > 0",
               axis[a], s->cell_m[a]);
    IONF_CHECK(s->periodic[a] == 0 || s->periodic[a] == 1, IONF_ERR_CONFIG,
               "thermal: grid.periodic along %c is %d; expected 0 or 1", axis[a], s->periodic[a]);
  }
  IONF_CHECK(s->n[0] * s->n[1] <= INT64_MAX / s->n[2], IONF_ERR_CONFIG,
             "thermal: grid.cells %lld x %lld x %lld has too many cells", (long long)s->n[0],
             (long long)s->n[1], (long long)s->n[2]);
  return IONF_OK;
}

static ionf_err thermal_check_walls(const struct thermal_setup *s) {
  for (int face = 0; face < THERMAL_FACES; ++face) {
    if (s->periodic[face / 2]) continue;
    const struct thermal_wall *w = &s->wall[face];
    IONF_CHECK(w->emissivity >= 0.0 && w->emissivity <= 1.0, IONF_ERR_CONFIG,
               "thermal: walls.%s.emissivity is %g; expected a value in [0, 1]",
               thermal_face_name[face], w->emissivity);
    IONF_CHECK(isfinite(w->t_k) && w->t_k >= 0.0, IONF_ERR_CONFIG,
               "thermal: walls.%s.T_K is %g K; expected a finite value >= 0",
               thermal_face_name[face], w->t_k);
  }
  return IONF_OK;
}

static ionf_err thermal_check_rays(const struct thermal_setup *s) {
  IONF_CHECK(s->rays_per_element >= 1 && s->rays_per_element <= (int64_t)UINT32_MAX,
             IONF_ERR_CONFIG, "thermal: montecarlo.rays_per_element is %lld; expected 1 to %lu",
             (long long)s->rays_per_element, (unsigned long)UINT32_MAX);
  IONF_CHECK(s->transmissivity_min > 0.0 && s->transmissivity_min < 1.0, IONF_ERR_CONFIG,
             "thermal: montecarlo.transmissivity_min is %g; expected a value in (0, 1)",
             s->transmissivity_min);
  IONF_CHECK(s->multigrid.levels >= 0 && s->multigrid.levels <= THERMAL_LEVELS_MAX,
             IONF_ERR_CONFIG, "thermal: montecarlo.multigrid.levels is %d; expected 0 to %d",
             s->multigrid.levels, THERMAL_LEVELS_MAX);
  IONF_CHECK(s->multigrid.levels <= 1 || s->multigrid.steps_per_level >= 1, IONF_ERR_CONFIG,
             "thermal: montecarlo.multigrid.steps_per_level is %d; expected >= 1 with %d levels",
             s->multigrid.steps_per_level, s->multigrid.levels);
  IONF_CHECK(s->sort_gases == 0 || s->sort_gases == 1, IONF_ERR_CONFIG,
             "thermal: montecarlo.sort_gases is %d; expected 0 or 1", s->sort_gases);
  int gases = thermal_gas_count(s->gas_model);
  IONF_CHECK(!s->sort_gases || s->rays_per_element >= 2 * gases, IONF_ERR_CONFIG,
             "thermal: montecarlo.rays_per_element is %lld; montecarlo.sort_gases needs at "
             "least %d (2 per grey gas)",
             (long long)s->rays_per_element, 2 * gases);
  return IONF_OK;
}

ionf_err thermal_setup_check(const struct thermal_setup *s) {
  IONF_CHECK(s, IONF_ERR_INTERNAL, "thermal: no setup");
  IONF_CALL(thermal_check_grid(s));
  IONF_CALL(thermal_check_walls(s));
  IONF_CHECK(s->gas_model == THERMAL_GAS_GREY || s->gas_model == THERMAL_GAS_WSGG_BORDBAR14,
             IONF_ERR_CONFIG, "thermal: gas.model %d is not a known model",
             s->gas_model);
  IONF_CHECK(s->gas_model != THERMAL_GAS_GREY ||
                 (isfinite(s->kappa_per_m) && s->kappa_per_m >= 0.0),
             IONF_ERR_CONFIG, "thermal: gas.kappa_per_m is %g; expected a finite value >= 0",
             s->kappa_per_m);
  IONF_CALL(thermal_check_rays(s));
  return IONF_OK;
}
