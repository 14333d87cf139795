/**
 * @file asora_geometry.cu
 * @brief The stencils' geometry table on the GPU (asora_geometry.h): asora_stencil_geometry
 *        of every |d| up to the sources' largest shell, built on the host by the cell
 *        step's own function and copied to the device.
 */
#include <cuda_runtime.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/rt/asora/asora_geometry.h"
#include "rt/asora/asora_k.h"
}

#include <stdlib.h>

extern "C" ionf_err asora_geometry_build(struct asora_geometry *g, int h_max) {
  const int side = h_max + 1;
  const double bytes = (double)side * side * side * ASORA_GEOMETRY_VALUES * sizeof(double);
  if (side <= g->side) return IONF_OK;
  if (bytes > ASORA_GEOMETRY_TABLE_MAX_BYTES) { /* too large: computed (an old table would
                                                    not cover these shells) */
    cudaFree(g->d_geo);
    g->d_geo = NULL;
    g->side = 0;
    return IONF_OK;
  }
  double *host = (double *)calloc((size_t)side * side * side * ASORA_GEOMETRY_VALUES, sizeof(double));
  if (!host) return ionf_error_set(IONF_ERR_MEM, "ASORA: no memory for the stencil table");
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k)
        if (i || j || k)
          asora_stencil_geometry(i, j, k, host + ASORA_GEOMETRY_VALUES * (((size_t)i * side + j) * side + k));
  cudaFree(g->d_geo);
  g->d_geo = NULL;
  g->side = 0;
  ionf_err rc = cuda_util_alloc((void **)&g->d_geo, (size_t)bytes, "the stencil table");
  if (rc == IONF_OK) {
    cudaError_t err = cudaMemcpy(g->d_geo, host, (size_t)bytes, cudaMemcpyHostToDevice);
    if (err != cudaSuccess) rc = cuda_util_fail((int)err, "copy of the stencil table");
  }
  free(host);
  if (rc == IONF_OK) g->side = side;
  return rc;
}

extern "C" void asora_geometry_free(struct asora_geometry *g) {
  cudaFree(g->d_geo);
  g->d_geo = NULL;
  g->side = 0;
}
