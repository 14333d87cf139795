/**
 * @file thermal_profile.c
 * @brief The generated temperature profiles of a thermal run (thermal_profile.h).
 */
#include "engine/thermal_profile.h"

#include <math.h>

#include "core/constants.h"

/* T of one cell at centre p[3] [m] in a box of sides l[3] [m]; s along `axis`. */
static double thermal_profile_at(enum config_thermal_profile profile, double uniform_t_k,
                                 const double p[3], const double l[3], int axis) {
  double s = p[axis], u = s / l[axis], xyz = p[0] * p[1] * p[2];
  switch (profile) {
    case CONFIG_THERMAL_UNIFORM: return uniform_t_k;
    case CONFIG_THERMAL_LIN1: return 500.0 + 1000.0 * u;
    case CONFIG_THERMAL_PARAB1: return 500.0 - 2000.0 * s * s + 2000.0 * s;
    case CONFIG_THERMAL_PARAB2: return 500.0 - 8000.0 * u * u + 8000.0 * u;
    case CONFIG_THERMAL_SIN: {
      double ib = sin(IONF_PI * p[0]) * sin(IONF_PI * p[1]) * sin(IONF_PI * p[2]);
      return pow(fabs(ib) * IONF_PI / IONF_STEFAN_BOLTZMANN_W_PER_M2_K4, 0.25);
    }
    case CONFIG_THERMAL_3DIMS: return 500.0 - 2000.0 * xyz * xyz + 2000.0 * xyz;
    case CONFIG_THERMAL_FILE: break;
  }
  return NAN;
}

ionf_err thermal_profile_temperature(const struct config_thermal *cfg, double *t_k) {
  IONF_CHECK(cfg->profile != CONFIG_THERMAL_FILE, IONF_ERR_INTERNAL,
             "thermal_profile_temperature: the fields come from '%s'", cfg->file);
  const int64_t *n = cfg->setup.n;
  const double *d = cfg->setup.cell_m;
  for (int64_t i = 0; i < n[0]; ++i)
    for (int64_t j = 0; j < n[1]; ++j)
      for (int64_t k = 0; k < n[2]; ++k) {
        double p[3] = {((double)i + 0.5) * d[0], ((double)j + 0.5) * d[1],
                       ((double)k + 0.5) * d[2]};
        double t = thermal_profile_at(cfg->profile, cfg->uniform_t_k, p, cfg->size_m, cfg->axis);
        t_k[(i * n[1] + j) * n[2] + k] = t;
      }
  /* a profile outside its box (parab1 or 3dims in a box over 1 m) can go below 0 K */
  for (int64_t c = 0; c < n[0] * n[1] * n[2]; ++c)
    IONF_CHECK(isfinite(t_k[c]) && t_k[c] >= 0.0, IONF_ERR_CONFIG,
               "%s: setup.profile = %s gives T = %g K in cell %lld (the seed's profiles are "
               "meant for a box of 1 m per side): make grid.size_m smaller or use another "
               "profile",
               cfg->config_name, config_thermal_profile_names[cfg->profile], t_k[c],
               (long long)c);
  return IONF_OK;
}

void thermal_profile_fill(double *field, int64_t cells, double value) {
  for (int64_t c = 0; c < cells; ++c) field[c] = value;
}
