/**
 * @file thermal_profile.h
 * @brief The generated media of a thermal run's setup: (setup.profile; config_thermal.h):
 *        the temperature profiles of Silvestri & Pecnik 2019 (seed 003, eqs. 18-22) on the
 *        cell centres, and the uniform pressure and mole fractions of gas:.
 */
#ifndef IONF_THERMAL_PROFILE_H
#define IONF_THERMAL_PROFILE_H

#include <stdint.h>

#include "config/config_thermal.h"
#include "core/error.h"

/**
 * T [K] of every cell ([nx][ny][nz], C order) for cfg's profile, at the cell centres
 * x = (i + 1/2) dx [m] from the box corner (s: the coordinate along setup.axis, L the box
 * along it):
 *   uniform  T = setup.T_K
 *   lin1     T = 500 + 1000 s/L                 (walls 500 K and 1500 K in the seed)
 *   parab1   T = 500 - 2000 s^2 + 2000 s        (s in m; the seed's 1 m slab)
 *   parab2   T = 500 - 8000 (s/L)^2 + 8000 s/L  (2500 K at the centre)
 *   sin      T = (sin(pi x) sin(pi y) sin(pi z) pi / sigma)^(1/4)  (x, y, z in m; a 1 m cube:
 *            I_b = sin(pi x) sin(pi y) sin(pi z) W/(m^2 sr))
 *   3dims    T = 500 - 2000 (x y z)^2 + 2000 x y z
 * IONF_ERR_INTERNAL for CONFIG_THERMAL_FILE (the fields come from the file).
 */
IONF_NODISCARD ionf_err thermal_profile_temperature(const struct config_thermal *cfg, double *t_k);

/** `value` in every one of `cells` cells. */
void thermal_profile_fill(double *field, int64_t cells, double value);

#endif /* IONF_THERMAL_PROFILE_H */
