/**
 * @file sph_rays.c
 * @brief HEALPix ray directions (see sph_rays.h).
 */
#include "particles/sph_rays.h"

#include <chealpix.h>
#include <math.h>
#include <stdlib.h>

ionf_err sph_rays_nside(int64_t n_rays, int64_t *nside) {
  *nside = 0;
  for (int64_t ns = 1; ns <= SPH_RAYS_MAX_NSIDE; ns *= 2)
    if (12 * ns * ns == n_rays) {
      *nside = ns;
      return IONF_OK;
    }
  return ionf_error_set(IONF_ERR_INPUT,
                        "rays per source = %lld: must be 12 nside^2 (HEALPix) with nside a power "
                        "of two in [1, %d] (12, 48, 192, 768, 3072, ...)",
                        (long long)n_rays, SPH_RAYS_MAX_NSIDE);
}

int64_t sph_rays_default_nside(int64_t n_particles) {
  double want = cbrt((double)(n_particles > 1 ? n_particles : 1)) / sqrt(3.0);
  int64_t ns = 1;
  while ((double)ns < want && ns < SPH_RAYS_MAX_NSIDE) ns *= 2;
  return ns;
}

ionf_err sph_rays_directions(int64_t nside, double **dirs) {
  *dirs = NULL;
  int64_t n = 12 * nside * nside;
  double *d = ionf_malloc((size_t)n * 3 * sizeof(double), "the HEALPix ray directions");
  if (!d) return IONF_ERR_MEM;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double v[3];
    pix2vec_nest64(nside, i, v);
    double norm = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int a = 0; a < 3; ++a) d[3 * i + a] = v[a] / norm;
  }
  *dirs = d;
  return IONF_OK;
}
