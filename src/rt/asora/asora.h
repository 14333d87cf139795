/**
 * @file asora.h
 * @brief ASORA short characteristics as a tracer (rt/tracer.h): the CPU pass over
 *        a rank's sources (asora_cpu.c, OpenMP), its tracer (asora_tracer.c) and
 *        the CUDA tracer (gpu/rt/asora/asora_cuda.cu); the per-cell maths is asora_k.h.
 */
#ifndef IONF_ASORA_H
#define IONF_ASORA_H

#include <stdint.h>

#include "core/error.h"
#include "grid/grid.h"
#include "grid/sources.h"
#include "rt/bands_k.h"
#include "rt/photo_k.h"
#include "rt/tracer.h"

/** Order in which the CPU visits a source's cells (same results either way). */
enum asora_cpu_order {
  ASORA_ORDER_LINES = 0,  /*!< (di, dj) lines in wavefronts of |di|+|dj|: cache-friendly, default */
  ASORA_ORDER_SHELLS = 1, /*!< octahedral shells |di|+|dj|+|dk| = q (ASORA's order) */
  ASORA_ORDER_CUBES = 2   /*!< cube shells max(|di|,|dj|,|dk|) = h (the GPU's order) */
};

struct trace_input {
  struct grid grid;                 /*!< geometry and the box the fields hold */
  const double *n_h_cm3;            /*!< the box's hydrogen densities */
  const double *x_ion_av;           /*!< [species][box cells] time-averaged ion fractions */
  int n_species;                    /*!< species blocks (0 or 1: hydrogen alone; 3: helium) */
  double abundance_he;              /*!< n_He / n_H */
  const struct source_list *sources;/*!< all sources */
  int64_t first_source;             /*!< this pass traces sources first..first+count-1 */
  int64_t source_count;
  double r_max_cells;               /*!< photon radius [cells]; <= 0: whole box */
  struct photo_table_view tables;   /*!< rate tables */
  struct bands_view bands;          /*!< three species: the band tables (bands_k.h) */
  enum asora_cpu_order order;       /*!< CPU visiting order (0 = lines) */
  double *heating_out;              /*!< optional (NULL): [species][box cells] photo-heating
                                         per absorber atom is added here */
  double *column_out;               /*!< optional (NULL): [species][box cells] outgoing column
                                         [cm^-2] per grid cell of the traced sources (last
                                         writer wins; meant for one source, in tests) */
};

/** Column-density buffers kept between passes (no allocation per pass). */
struct asora_cpu_workspace {
  double *buffers;        /*!< per-thread column buffers ([species][domain box] each) */
  size_t capacity;        /*!< doubles allocated */
  double *split;          /*!< helium's X-rays: each cell's secondary_split_at, [3][cells] */
  size_t split_capacity;  /*!< doubles allocated */
};

/**
 * Add every listed source's photoionization rate of every species to gamma_out
 * ([species][box cells], not zeroed here); stats->cells_traced := the cells visited.  OpenMP: within wavefronts for few sources, over sources
 * (with atomic adds) for many.  `ws` may be NULL (buffers allocated for this
 * call only) or a zero-initialised workspace reused across calls.
 */
IONF_NODISCARD ionf_err asora_cpu_trace(const struct trace_input *in, double *gamma_out,
                                        struct trace_stats *stats,
                                        struct asora_cpu_workspace *ws);
/** Free a workspace's buffers. */
void asora_cpu_workspace_free(struct asora_cpu_workspace *ws);

/** What an ASORA tracer is made with (CPU or CUDA). */
struct asora_tracer_setup {
  struct grid grid;                 /*!< geometry and the box the fields hold (cell_cm: the
                                         start; each pass brings its own) */
  double r_max_cells;               /*!< the largest photon radius of any pass [cells] (each
                                         pass brings its own, tracer_fields); <= 0: whole box */
  struct photo_table_view tables;   /*!< rate tables, in the tracer's memory */
  struct bands_view bands;          /*!< three species: the band tables, in its memory */
  int n_species;                    /*!< the fields' species (column buffers per species) */
  enum asora_cpu_order order;       /*!< CPU: visiting order (results identical) */
  int64_t source_batch_size;        /*!< CUDA: sources in flight; 0 = from the SMs and memory */
  void *stream;                     /*!< CUDA: the backend's cudaStream_t */
};

/** The CPU tracer: asora_cpu_trace over this rank's sources, a workspace kept. */
IONF_NODISCARD ionf_err asora_tracer_create_cpu(const struct asora_tracer_setup *s,
                                                struct tracer **out);
/**
 * The CUDA tracer (CUDA builds): fields and rates in GPU memory, one block per
 * source for many sources, spread over the GPU shell by shell for few.
 */
IONF_NODISCARD ionf_err asora_tracer_create_cuda(const struct asora_tracer_setup *s,
                                                 struct tracer **out);

#endif
