/**
 * @file planar_cpu.c
 * @brief Plane-parallel sources on the CPU: the columns of each face in
 *        parallel (they share no cell), one face after the other.
 */
#include "planar.h"

#include "planar_k.h"

const char *const planar_face_names[PLANAR_N_FACES] = {"x_low", "x_high", "y_low",
                                                       "y_high", "z_low", "z_high"};

ionf_err planar_cpu_trace(const struct planar_input *in, double *gamma_out,
                          int64_t *cells_traced) {
  int64_t n = in->grid.n, columns = n * n;
  IONF_CHECK(in->n_planes == 0 || !in->grid.periodic, IONF_ERR_INTERNAL,
             "plane-parallel sources in a periodic box");
  for (int p = 0; p < in->n_planes; ++p) {
    struct planar_column_view v;
    v.n_h_cm3 = in->n_h_cm3;
    v.x_hii_av = in->x_hii_av;
    v.n = n;
    v.cell_cm = in->grid.cell_cm;
    v.face = in->planes[p].face;
    v.ndot_per_s = planar_column_ndot(in->planes[p].flux_per_cm2_s, in->grid.cell_cm);
    v.tables = in->tables;
    double *heat = in->tables.heating ? in->heating_out : NULL;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < columns; ++c) planar_trace_column(&v, c, gamma_out, heat);
  }
  if (cells_traced) *cells_traced = (int64_t)in->n_planes * columns * n;
  return IONF_OK;
}

double planar_total_ndot(const struct planar_source *planes, int n_planes, double box_cm) {
  double sum = 0.0;
  for (int p = 0; p < n_planes; ++p) sum += planes[p].flux_per_cm2_s * box_cm * box_cm;
  return sum;
}
