/**
 * @file planar.c
 * @brief Plane-parallel sources: the faces' names and the photons they send in.
 */
#include "rt/planar/planar.h"

const char *const planar_face_names[PLANAR_N_FACES] = {"x_low", "x_high", "y_low",
                                                       "y_high", "z_low", "z_high"};

double planar_total_ndot(const struct planar_source *planes, int n_planes, double box_cm) {
  double sum = 0.0;
  for (int p = 0; p < n_planes; ++p) sum += planes[p].flux_per_cm2_s * box_cm * box_cm;
  return sum;
}
