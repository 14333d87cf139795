/**
 * @file test_sph_trace_volume.c
 * @brief The thesis' volume-integral check of the kernel columns: a fine
 *        grid of parallel rays across a generated particle set (lattice with
 *        a clump), each ray's hits found with the tracer's ray-sphere test
 *        (src/sph_trace_k.h), sum over rays and hits of C(q2)/h^2 * A_ray =
 *        the number of particles (every kernel integrates to 1) to 1e-5 relative:
 *        measured 2.6e-6 (1892.005 for 1892 particles, 2026-11-27), the quadrature
 *        of ~30 rays per smallest kernel diameter and the column table's
 *        interpolation; 4x margin.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/constants.h"
#include "core/error.h"
#include "particles/particles.h"
#include "particles/particles_make.h"
#include "particles/sph_kernel_table.h"
#include "particles/sph_trace_k.h"
#include "test_util.h"

int main(void) {
  static double table[SPH_COLUMN_INTERVALS + 1];
  EXPECT(sph_kernel_table_fill(table) == IONF_OK, "fill: %s", ionf_error_message());
  struct particles_make_params prm;
  particles_make_default_params(&prm);
  prm.n_side = 12;
  prm.periodic = 0;
  prm.jitter = 0.3;
  struct particle_clump clump = {{0.6 * IONF_KPC_CM, 0.5 * IONF_KPC_CM, 0.5 * IONF_KPC_CM},
                                 0.15 * IONF_KPC_CM, 8.0};
  prm.clumps = &clump;
  prm.n_clumps = 1;
  struct particle_set p;
  if (particles_make_lattice(&prm, &p) != IONF_OK) {
    fprintf(stderr, "%s\n", ionf_error_message());
    return 1;
  }
  /* rays along +z from below the set, on a grid covering every sphere */
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, z0 = INFINITY, h_min = INFINITY;
  for (int64_t i = 0; i < p.count; ++i) {
    const double *x = p.pos_cm + 3 * i;
    double h = p.h_cm[i];
    for (int a = 0; a < 2; ++a) {
      lo[a] = fmin(lo[a], x[a] - h);
      hi[a] = fmax(hi[a], x[a] + h);
    }
    z0 = fmin(z0, x[2] - 2.0 * h);
    h_min = fmin(h_min, h);
  }
  /* about 30 rays across the smallest kernel's diameter */
  double spacing = h_min / 15.0;
  int64_t nx = (int64_t)ceil((hi[0] - lo[0]) / spacing) + 1;
  int64_t ny = (int64_t)ceil((hi[1] - lo[1]) / spacing) + 1;
  double area = spacing * spacing;
  double sum = 0.0;
  /* per particle, the rays within its square (same as all rays x all particles) */
#pragma omp parallel for reduction(+ : sum) schedule(dynamic, 16)
  for (int64_t i = 0; i < p.count; ++i) {
    const double *x = p.pos_cm + 3 * i;
    double h = p.h_cm[i];
    int64_t ix0 = (int64_t)floor((x[0] - h - lo[0]) / spacing), ix1 = (int64_t)ceil((x[0] + h - lo[0]) / spacing);
    int64_t iy0 = (int64_t)floor((x[1] - h - lo[1]) / spacing), iy1 = (int64_t)ceil((x[1] + h - lo[1]) / spacing);
    double s = 0.0;
    for (int64_t ix = ix0 < 0 ? 0 : ix0; ix <= ix1 && ix < nx; ++ix)
      for (int64_t iy = iy0 < 0 ? 0 : iy0; iy <= iy1 && iy < ny; ++iy) {
        double o[3] = {lo[0] + (double)ix * spacing, lo[1] + (double)iy * spacing, z0};
        double d[3] = {0.0, 0.0, 1.0};
        struct sph_ray ray;
        sph_ray_make(o, d, 0.0, &ray);
        double t, q2;
        int inside;
        if (sph_ray_sphere(&ray, x, h, &t, &q2, &inside))
          s += sph_hit_column_per_atom(table, q2, h, inside) * area;
      }
    sum += s;
  }
  printf("%lld particles, %lld x %lld rays: sum of kernel volume integrals = %.8g (N %+.3g)\n",
         (long long)p.count, (long long)nx, (long long)ny, sum, sum - (double)p.count);
  printf("relative error %.3g (tolerance 1e-5)\n", test_rel_diff(sum, (double)p.count, 0.0));
  EXPECT_REL(sum, (double)p.count, 1e-5, "sum over particles of the kernel volume integrals");
  particles_free(&p);
  TEST_RETURN();
}
