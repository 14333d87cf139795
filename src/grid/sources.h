/**
 * @file sources.h
 * @brief Point sources of ionizing photons on the grid.
 */
#ifndef IONF_SOURCES_H
#define IONF_SOURCES_H

#include <stdint.h>

#include "core/error.h"

struct source_list {
  int64_t n;               /*!< number of sources */
  int32_t *ijk;            /*!< 3n 0-based cell indices (i, j, k) */
  double *ndot_per_s;      /*!< n ionizing photon rates [1/s] */
};

/** Allocate room for n sources (uninitialised). */
IONF_NODISCARD ionf_err sources_alloc(int64_t n, struct source_list *s);
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
