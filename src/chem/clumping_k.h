/**
 * @file clumping_k.h
 * @brief The clumping factor of one cell (shared host/device maths): the sub-grid
 *        <n^2> / <n>^2 that multiplies a cell's recombinations (chemistry.clumping;
 *        the models and their tables: chem/clumping.h).
 *
 * A step's models reduce to this small struct, set by the engine per step and carried
 * in the chemistry's parameters (chem_k.h's chem_params, chem_he_k.h's chem_he_params),
 * so no per-cell array is stored:
 *   none     C = 1 (the default: recombinations exactly as without clumping);
 *   uniform  one C for every cell (a constant, or C(z) of the step's redshift);
 *   density  C = max(1, a x^2 + b x + c) with x = x_offset + n_H / <n_H> (Bianco et al.
 *            2021's deterministic fit, a, b, c of the step's redshift; x_offset 0: the
 *            fits' variable 1 + delta = n / <n>; 1: pyC2Ray's sinks_model.py, 1 + n / <n>).
 * A zeroed struct is `none`.
 */
#ifndef IONF_CLUMPING_K_H
#define IONF_CLUMPING_K_H

#include "core/ionf_hd.h"

enum chem_clumping_model {
  CHEM_CLUMPING_NONE = 0,    /*!< C = 1 */
  CHEM_CLUMPING_UNIFORM = 1, /*!< C = factor */
  CHEM_CLUMPING_DENSITY = 2  /*!< C = max(1, a x^2 + b x + c), x = x_offset + n / mean */
};

/** One step's clumping (copied to the device with the chemistry's parameters). */
struct chem_clumping {
  int model;              /*!< enum chem_clumping_model */
  double factor;          /*!< uniform: C */
  double a, b, c;         /*!< density: the fit's coefficients at the step's redshift */
  double x_offset;        /*!< density: x = x_offset + n_H / mean_n_h_cm3 */
  double mean_n_h_cm3;    /*!< density: the grid's mean n_H this step (> 0) */
};

/** C of a cell of hydrogen density n_h_cm3 (the density model: at least 1, and 1 where
    the fit is NaN). */
IONF_HD IONF_INLINE double chem_clumping_factor(const struct chem_clumping *k, double n_h_cm3) {
  if (k->model == CHEM_CLUMPING_UNIFORM) return k->factor;
  if (k->model == CHEM_CLUMPING_DENSITY) {
    double x = k->x_offset + n_h_cm3 / k->mean_n_h_cm3;
    double f = k->a * x * x + k->b * x + k->c;
    return f > 1.0 ? f : 1.0;
  }
  return 1.0;
}

#endif /* IONF_CLUMPING_K_H */
