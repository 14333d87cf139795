/**
 * @file asora_lanes.cu
 * @brief The lane table of whole domains (asora_lanes.h), built on the host with the cell
 *        step's own geometry (asora_cube_shell_row, asora_cell_place_make) and copied to
 *        the GPU.
 */
#include <cuda_runtime.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/rt/asora/asora_lanes.h"
#include "rt/asora/asora_cell_k.h"
}

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The lanes of a whole domain [-h, h]^3, h = ceil(r_max_cells), for the pass's photon
 * radius: the cells of every cube shell inside the sphere in the order the kernel's rows
 * give them (asora_cube_shell_row), packed (di + 512) | (dj + 512) << 10 | (dk + 512) << 20,
 * with each shell's first lane.  Every source whose domain is whole (a periodic box at
 * least 2h + 1 cells a side, or a source that far from the faces) then reads its lanes
 * instead of laying out the shell's rows: the same cells in the same order; where every
 * domain is whole, each lane's place too (asora_whole_kernel).  Built when the radius
 * changes; none (r 0) without a radius or beyond ASORA_LANE_TABLE_R_MAX (the packing's
 * |d| <= 511); no places beyond ASORA_LANE_PLACES_R_MAX.
 */
extern "C" ionf_err asora_lanes_build(struct asora_lanes *l, double r_max_cells) {
  if (!(r_max_cells > 0.0) || r_max_cells > ASORA_LANE_TABLE_R_MAX) {
    l->r = 0.0;
    return IONF_OK;
  }
  if (r_max_cells == l->r) return IONF_OK;
  const int h_max = (int)ceil(r_max_cells);
  struct asora_domain dom;
  for (int ax = 0; ax < 3; ++ax) {
    dom.lo[ax] = -h_max;
    dom.hi[ax] = h_max;
  }
  dom.q_max = asora_shell_radius_for(r_max_cells);
  dom.r2_max_cells = r_max_cells * r_max_cells;
  size_t count = 0;
  const size_t most = (size_t)asora_sphere_cells_max(h_max);
  const int with_places = r_max_cells <= ASORA_LANE_PLACES_R_MAX;
  unsigned *lanes = (unsigned *)malloc(sizeof(unsigned) * most);
  int *start = (int *)malloc(sizeof(int) * (size_t)(h_max + 2));
  /* the places as four parts of 16 bytes, each part's lanes side by side (a warp's read of
     a part is then whole lines): at[4]; store[3], corner; geo[0..1]; geo[2..3] */
  unsigned char *places = with_places ? (unsigned char *)malloc(ASORA_PLACE_BYTES * most) : NULL;
  if (!lanes || !start || (with_places && !places)) {
    free(lanes);
    free(start);
    free(places);
    return ionf_error_set(IONF_ERR_MEM, "ASORA: no memory for the lane table (R = %g)", r_max_cells);
  }
  for (int h = 0; h <= h_max; ++h) {
    struct asora_cube_shell cs;
    asora_cube_shell_make(&dom, h, &cs);
    start[h] = (int)count;
    for (int r = 0; r < cs.row_start[6]; ++r) {
      int f, u, v_first;
      const int n = asora_cube_shell_row(&cs, r, dom.r2_max_cells, &f, &u, &v_first);
      for (int k = 0; k < n; ++k) {
        int di, dj, dk;
        asora_cube_shell_row_cell(&cs, f, u, v_first + k, &di, &dj, &dk);
        if (places) {
          struct asora_cell_place pl;
          asora_cell_place_make(&dom, di, dj, dk, &pl);
          const int ints[8] = {pl.at[0],    pl.at[1],    pl.at[2],    pl.at[3],
                               pl.store[0], pl.store[1], pl.store[2], pl.corner};
          memcpy(places + 16 * count, ints, 16);
          memcpy(places + 16 * (most + count), ints + 4, 16);
          memcpy(places + 16 * (2 * most + count), pl.geo, 16);
          memcpy(places + 16 * (3 * most + count), pl.geo + 2, 16);
        }
        lanes[count++] = (unsigned)(di + 512) | (unsigned)(dj + 512) << 10 |
                         (unsigned)(dk + 512) << 20;
      }
    }
  }
  start[h_max + 1] = (int)count;
  if (places) /* the parts packed for count lanes */
    for (int part = 1; part < 4; ++part)
      memmove(places + 16 * part * count, places + 16 * part * most, 16 * count);
  ionf_err rc = IONF_OK;
  if (count > l->capacity || (size_t)(h_max + 2) > l->start_capacity || (places && !l->d_places)) {
    asora_lanes_free(l);
    rc = cuda_util_alloc((void **)&l->d_lanes, sizeof(unsigned) * count, "the lane table");
    if (rc == IONF_OK && places)
      rc = cuda_util_alloc((void **)&l->d_places, ASORA_PLACE_BYTES * count, "the lane table");
    if (rc == IONF_OK)
      rc = cuda_util_alloc((void **)&l->d_start, sizeof(int) * (size_t)(h_max + 2),
                           "the lane table");
    if (rc == IONF_OK) {
      l->capacity = count;
      l->start_capacity = (size_t)(h_max + 2);
    }
  }
  cudaError_t err = cudaSuccess;
  if (rc == IONF_OK) err = cudaMemcpy(l->d_lanes, lanes, sizeof(unsigned) * count, cudaMemcpyHostToDevice);
  if (rc == IONF_OK && err == cudaSuccess && places)
    err = cudaMemcpy(l->d_places, places, ASORA_PLACE_BYTES * count, cudaMemcpyHostToDevice);
  if (rc == IONF_OK && err == cudaSuccess)
    err = cudaMemcpy(l->d_start, start, sizeof(int) * (size_t)(h_max + 2), cudaMemcpyHostToDevice);
  if (rc == IONF_OK && err != cudaSuccess) rc = cuda_util_fail((int)err, "copy of the lane table");
  free(lanes);
  free(start);
  free(places);
  l->r = rc == IONF_OK ? r_max_cells : 0.0;
  l->h = h_max;
  l->count = count;
  if (!places && l->d_places) { /* beyond ASORA_LANE_PLACES_R_MAX: none of this table's */
    cudaFree(l->d_places);
    l->d_places = NULL;
  }
  return rc;
}

extern "C" void asora_lanes_free(struct asora_lanes *l) {
  cudaFree(l->d_lanes);
  cudaFree(l->d_start);
  cudaFree(l->d_places);
  l->d_lanes = NULL;
  l->d_start = NULL;
  l->d_places = NULL;
  l->capacity = l->start_capacity = 0;
}
