/**
 * @file sources.h
 * @brief Point sources of ionizing photons: on a grid by cell, among particles by
 *        position.
 */
#ifndef IONF_SOURCES_H
#define IONF_SOURCES_H

#include <stdint.h>

#include "core/error.h"

struct source_list {
  int64_t n;               /*!< number of sources */
  int32_t *ijk;            /*!< 3n 0-based cell indices (i, j, k) (grid runs) */
  double *ndot_per_s;      /*!< n ionizing photon rates [1/s] */
  double *pos_cm;          /*!< 3n positions [cm] in the particles' frame (particle runs;
                                NULL on grids) */
};

/** Allocate room for n sources on a grid (ijk and Ndot, uninitialised). */
IONF_NODISCARD ionf_err sources_alloc(int64_t n, struct source_list *s);
/** A list of n sources placed by position: copies of pos_cm (3n) and ndot_per_s (n). */
IONF_NODISCARD ionf_err sources_from_positions(int64_t n, const double *pos_cm,
                                               const double *ndot_per_s, struct source_list *s);
void sources_free(struct source_list *s);

/**
 * Check every source: indices inside [0, n_cells_1d), Ndot finite and > 0.
 * The message names `origin` (file or "sources[3]"), the source number and the value.
 */
IONF_NODISCARD ionf_err sources_validate(const struct source_list *s, int64_t n_cells_1d,
                                         const char *origin);

/** Merge sources in the same cell (summing Ndot), ordered by cell index. */
IONF_NODISCARD ionf_err sources_merge_same_cell(struct source_list *s, int64_t n_cells_1d);

/** Total photon rate [1/s]. */
double sources_total_ndot(const struct source_list *s);

#endif
