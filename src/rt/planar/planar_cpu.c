/**
 * @file planar_cpu.c
 * @brief Plane-parallel sources on the CPU: the columns of each face in
 *        parallel (they share no cell), one face after the other, in the order
 *        that walks memory contiguously.
 */
#include "rt/planar/planar.h"

#include <omp.h>
#include <stdlib.h>

#include "rt/planar/planar_k.h"

ionf_err planar_cpu_trace(const struct planar_input *in, double *gamma_out,
                          int64_t *cells_traced) {
  int64_t n = in->grid.n, columns = n * n;
  IONF_CHECK(in->n_planes == 0 || !in->grid.periodic, IONF_ERR_INTERNAL,
             "plane-parallel sources in a periodic box");
  for (int p = 0; p < in->n_planes; ++p) {
    struct planar_column_view v;
    v.n_h_cm3 = in->n_h_cm3;
    v.x_ion_av = in->x_ion_av;
    v.n_species = in->n_species > 0 ? in->n_species : 1;
    v.abundance_he = in->abundance_he;
    v.n = n;
    v.cell_cm = in->grid.cell_cm;
    v.face = in->planes[p].face;
    v.ndot_per_s = planar_column_ndot(in->planes[p].flux_per_cm2_s, in->grid.cell_cm);
    v.tables = in->tables;
    double *heat = in->tables.heating ? in->heating_out : NULL;
    if (v.face / 2 == 2) { /* along z a column is contiguous: walk it whole */
#pragma omp parallel for schedule(static)
      for (int64_t c = 0; c < columns; ++c) planar_trace_column(&v, c, gamma_out, heat);
      continue;
    }
    /* along x or y the n columns of a row (consecutive k) advance together, a layer
       at a time, so memory is walked contiguously; the same cells in the same order
       per column, so the same bits as planar_trace_column */
    struct planar_columns *buffers =
        ionf_malloc(sizeof(struct planar_columns) * (size_t)n * (size_t)omp_get_max_threads(),
                    "plane-source column densities");
    if (!buffers) return IONF_ERR_MEM;
#pragma omp parallel
    {
      struct planar_columns *col = buffers + (size_t)n * (size_t)omp_get_thread_num();
#pragma omp for schedule(static)
      for (int64_t u = 0; u < n; ++u) {
        for (int64_t k = 0; k < n; ++k)
          for (int sp = 0; sp < IONF_MAX_SPECIES; ++sp) col[k].cm2[sp] = 0.0; /* all, set */
        for (int64_t s = 0; s < n; ++s)
          for (int64_t k = 0; k < n; ++k)
            col[k] = planar_cell_step(&v, planar_cell_index(n, v.face, u * n + k, s), col[k],
                                      gamma_out, heat);
      }
    }
    free(buffers);
  }
  if (cells_traced) *cells_traced = (int64_t)in->n_planes * columns * n;
  return IONF_OK;
}
