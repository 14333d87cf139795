/**
 * @file thermal_levels.h
 * @brief The grids a thermal solve walks, built once per solve on the host: per level
 *        (the fine grid, then multigrid levels each 2x coarser) and per grey gas, the
 *        absorption coefficient and blackbody intensity of every cell; per gas and wall
 *        patch, the wall's blackbody intensity.  Plain arrays, so that the CUDA solver can
 *        copy them; thermal_levels_view gives the kernels' flat view (thermal_k.h).
 */
#ifndef IONF_THERMAL_LEVELS_H
#define IONF_THERMAL_LEVELS_H

#include <stdint.h>

#include "core/error.h"
#include "thermal/thermal.h"
#include "thermal/thermal_k.h"

/** The host arrays of a solve. */
struct thermal_levels {
  int levels;                          /*!< >= 1 (level 0: the fine grid) */
  int gases;
  int64_t n[THERMAL_LEVELS_MAX][3];    /*!< cells per axis of each level */
  double cell_m[THERMAL_LEVELS_MAX][3];
  int64_t cells[THERMAL_LEVELS_MAX];   /*!< cells of each level */
  double *kappa_per_m[THERMAL_LEVELS_MAX];    /*!< [gas][cell] */
  double *ib_w_per_m2_sr[THERMAL_LEVELS_MAX]; /*!< [gas][cell] */
  int64_t wall_first[7];               /*!< first patch of each face; [6]: all patches */
  double *wall_ib_w_per_m2_sr;         /*!< [gas][patch] */
  double t_max_k;                      /*!< largest cell or wall temperature */
};

/** Number of levels a setup asks for (multigrid.levels, at least 1). */
int thermal_levels_count(const struct thermal_setup *s);

/**
 * Build the levels of a checked setup from the fields (every cell is checked: T finite and
 * >= 0, p > 0, mole fractions in [0, 1] summing to at most 1; the message names the cell).
 * On failure nothing stays allocated.
 */
ionf_err thermal_levels_build(const struct thermal_setup *s, const struct thermal_fields *f,
                              struct thermal_levels *lv);

/** Free what thermal_levels_build allocated (safe on a zeroed struct). */
void thermal_levels_free(struct thermal_levels *lv);

/** The kernels' view of a setup, its fields and levels (pointers into lv and f). */
void thermal_levels_view(const struct thermal_setup *s, const struct thermal_fields *f,
                         const struct thermal_levels *lv, struct thermal_view *v);

/**
 * The seed's eq. 25 forward: the share of a ray's energy absorbed on each of `levels`
 * levels (fraction[levels]) when it takes steps_per_level steps of one cell on each
 * (cells of cell_m 2^l on level l) through a medium of kappa_ref [1/m], the last level
 * taking the rest.  (Silvestri & Pecnik 2019, Table 5.)
 */
void thermal_levels_fractions(double kappa_ref_per_m, double cell_m, int steps_per_level,
                              int levels, double *fraction);

/**
 * The seed's eq. 25: the steps on level l (cells of cell_m 2^l) that take a ray from the
 * absorbed share p_before to p_after (both in [0, 1)), before eq. 25 truncates it.
 */
double thermal_levels_steps(double kappa_ref_per_m, double cell_m, int level,
                            double p_before, double p_after);

#endif /* IONF_THERMAL_LEVELS_H */
