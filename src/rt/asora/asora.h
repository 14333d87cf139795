/**
 * @file asora.h
 * @brief Inputs of one ray-tracing pass (all sources of a rank onto Gamma),
 *        and the CPU implementation.  The CUDA one is gpu/asora_cuda.h.
 */
#ifndef IONF_ASORA_H
#define IONF_ASORA_H

#include <stdint.h>

#include "core/error.h"
#include "grid/grid.h"
#include "rt/photo_k.h"
#include "grid/sources.h"

/** Order in which the CPU visits a source's cells (same results either way). */
enum asora_cpu_order {
  ASORA_ORDER_LINES = 0,  /*!< (di, dj) lines in wavefronts of |di|+|dj|: cache-friendly, default */
  ASORA_ORDER_SHELLS = 1, /*!< octahedral shells |di|+|dj|+|dk| = q (ASORA's order) */
  ASORA_ORDER_CUBES = 2   /*!< cube shells max(|di|,|dj|,|dk|) = h (the GPU's order) */
};

struct trace_input {
  struct grid grid;                 /*!< geometry */
  const double *n_h_cm3;            /*!< n^3 hydrogen densities */
  const double *x_ion_av;           /*!< [species][n^3] time-averaged ion fractions (species_k.h) */
  const struct source_list *sources;/*!< all sources */
  int64_t first_source;             /*!< this pass traces sources first..first+count-1 */
  int64_t source_count;
  double r_max_cells;               /*!< photon radius [cells]; <= 0: whole box */
  struct photo_table_view tables;   /*!< rate tables */
  enum asora_cpu_order order;       /*!< CPU visiting order (0 = lines) */
  double *heating_out;              /*!< optional (NULL): [species][n^3] photo-heating per
                                         absorber atom is added here */
  double *column_out;               /*!< optional (NULL): [species][n^3] outgoing column
                                         [cm^-2] per grid cell of the traced sources (last
                                         writer wins; meant for one source, in tests) */
};

/** Statistics of a pass, for benchmarks and logs. */
struct trace_stats {
  int64_t cells_traced;             /*!< (source, cell) pairs visited */
};

/** Column-density buffers kept between passes (no allocation per pass). */
struct asora_cpu_workspace {
  double *buffers;        /*!< per-thread column buffers ([species][domain box] each) */
  size_t capacity;        /*!< doubles allocated */
};

/**
 * Add every listed source's photoionization rate of every species to gamma_out
 * ([species][n^3], not zeroed here).  OpenMP: within wavefronts for few sources, over sources
 * (with atomic adds) for many.  `ws` may be NULL (buffers allocated for this
 * call only) or a zero-initialised workspace reused across calls.
 */
IONF_NODISCARD ionf_err asora_cpu_trace(const struct trace_input *in, double *gamma_out,
                                        struct trace_stats *stats,
                                        struct asora_cpu_workspace *ws);
/** Free a workspace's buffers. */
void asora_cpu_workspace_free(struct asora_cpu_workspace *ws);

#endif
