/**
 * @file sph_deposit.c
 * @brief Kernel-weighted deposition of particle values onto a grid.
 */
#include "particles/sph_deposit.h"

#include <math.h>
#include <stdlib.h>

#include "particles/sph_k.h"

ionf_err sph_deposit(const struct particle_set *p, const double *value, int64_t n, double *out,
                     double box_cm_out[3]) {
  IONF_CHECK(n >= 1 && n <= 4096, IONF_ERR_INPUT, "deposition grid of %lld cells per side (1..4096)",
             (long long)n);
  struct bvh_scene scene;
  particles_scene(p, &scene);
  double lo[3], cell[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = scene.lo[a];
    cell[a] = (scene.hi[a] - scene.lo[a]) / (double)n;
    if (!(cell[a] > 0)) cell[a] = 1.0; /* a flat set: one cell thick */
    if (box_cm_out) box_cm_out[a] = cell[a] * (double)n;
  }
  /* a periodic box: kernels reaching past a face add to the cells across it (the
     cell distances are to the particle's image, so an h above half the box adds
     each image's weight) */
  const int periodic = p->periodic && p->has_box;
  int64_t cells = n * n * n;
  double *sum_w = calloc((size_t)cells, sizeof(double));
  IONF_CHECK(sum_w, IONF_ERR_MEM, "out of memory for the deposition weights (%lld cells)",
             (long long)cells);
  for (int64_t c = 0; c < cells; ++c) out[c] = 0.0;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t i = 0; i < p->count; ++i) {
    const double *x = p->pos_cm + 3 * i;
    double h = p->h_cm[i];
    int64_t first[3], last[3];
    for (int a = 0; a < 3; ++a) { /* cells whose centres may lie within h */
      first[a] = (int64_t)floor((x[a] - h - lo[a]) / cell[a] - 0.5);
      last[a] = (int64_t)ceil((x[a] + h - lo[a]) / cell[a] - 0.5);
      if (!periodic) {
        if (first[a] < 0) first[a] = 0;
        if (last[a] > n - 1) last[a] = n - 1;
      }
    }
    for (int64_t ci = first[0]; ci <= last[0]; ++ci)
      for (int64_t cj = first[1]; cj <= last[1]; ++cj)
        for (int64_t ck = first[2]; ck <= last[2]; ++ck) {
          double dx = lo[0] + ((double)ci + 0.5) * cell[0] - x[0];
          double dy = lo[1] + ((double)cj + 0.5) * cell[1] - x[1];
          double dz = lo[2] + ((double)ck + 0.5) * cell[2] - x[2];
          double w = sph_kernel_w_r2(dx * dx + dy * dy + dz * dz, h);
          if (w <= 0.0) continue;
          w *= p->n_h_atoms[i];
          int64_t wi = periodic ? ((ci % n) + n) % n : ci, wj = periodic ? ((cj % n) + n) % n : cj,
                  wk = periodic ? ((ck % n) + n) % n : ck;
          int64_t c = (wi * n + wj) * n + wk;
#pragma omp atomic
          sum_w[c] += w;
#pragma omp atomic
          out[c] += w * value[i];
        }
  }
  for (int64_t c = 0; c < cells; ++c) out[c] = sum_w[c] > 0.0 ? out[c] / sum_w[c] : NAN;
  free(sum_w);
  return IONF_OK;
}
