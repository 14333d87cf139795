/**
 * @file asora_lanes.h
 * @brief The GPU tracer's lane table of whole domains (gpu/rt/asora/asora_cuda.cu): for the
 *        pass's photon radius R, the cells of every cube shell of [-H, H]^3 (H = ceil R)
 *        inside the sphere, in the order the kernels' rows give them, each shell's first
 *        lane, and (up to ASORA_LANE_PLACES_R_MAX) each cell's place in the shell buffers
 *        (struct asora_cell_place), the same for every source whose domain is whole.
 */
#ifndef IONF_ASORA_LANES_H
#define IONF_ASORA_LANES_H

#include <stddef.h>

#include "core/error.h"

/** Bytes of one lane's place on the GPU (struct asora_cell_place's 64). */
#define ASORA_PLACE_BYTES 64

struct asora_lanes {
  unsigned *d_lanes;   /*!< packed (di + 512) | (dj + 512) << 10 | (dk + 512) << 20 */
  int *d_start;        /*!< shell h's lanes: d_lanes[d_start[h] .. d_start[h + 1]) */
  unsigned char *d_places; /*!< each lane's struct asora_cell_place in four parts of 16
                            bytes, a part's lanes side by side (count of them): at[4];
                            store[3], corner; geo[0..1]; geo[2..3]; or NULL */
  size_t count;        /*!< lanes in the table */
  size_t capacity, start_capacity; /*!< lanes and shells the buffers hold */
  double r;            /*!< the photon radius of the table (0: none) */
  int h;               /*!< its last shell, ceil(r) */
};

/** The table for photon radius r_max_cells (none, r 0, without a radius or beyond
    ASORA_LANE_TABLE_R_MAX): built when the radius changes, buffers grown when needed. */
ionf_err asora_lanes_build(struct asora_lanes *l, double r_max_cells);

void asora_lanes_free(struct asora_lanes *l);

#endif /* IONF_ASORA_LANES_H */
