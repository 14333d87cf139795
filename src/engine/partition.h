/**
 * @file partition.h
 * @brief Sharing the sources among MPI ranks by ray-tracing cost, not count.
 */
#ifndef IONF_PARTITION_H
#define IONF_PARTITION_H

#include <stdint.h>

#include "core/error.h"
#include "grid/sources.h"

/** Cells a source's sweep traces: the photon-radius sphere clipped to its domain. */
int64_t partition_source_cost(const int32_t *src, int64_t n, int periodic, double r_max_cells);

/**
 * Reorder `s` so that rank r's sources are s[first[r] .. first[r] + count[r]),
 * chosen greedily (largest cost first, to the least-loaded rank) so that the
 * ranks' total costs are close.  Within a rank the sources keep their order.
 * *imbalance = largest rank cost / mean rank cost (1 is perfect).
 * first and count hold n_ranks entries each.
 */
IONF_NODISCARD ionf_err partition_sources(struct source_list *s, int64_t n, int periodic,
                                          double r_max_cells, int n_ranks, int64_t *first,
                                          int64_t *count, double *imbalance);

/**
 * A split grid (grid/decomp.h): rank r traces the sources in the i-planes it owns
 * (comm_slab's share of n planes); `s` reordered as partition_sources does, with the
 * same *imbalance of tracing costs (clustered sources make slabs uneven).
 */
IONF_NODISCARD ionf_err partition_sources_by_slab(struct source_list *s, int64_t n, int periodic,
                                                  double r_max_cells, int n_ranks,
                                                  int64_t *first, int64_t *count,
                                                  double *imbalance);

#endif
