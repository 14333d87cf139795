/**
 * @file engine_memory.h
 * @brief The memory a grid run needs per rank, on the host and on its GPU, estimated from
 *        the config before anything is allocated, and the check that refuses a run that
 *        cannot fit (both figures named) instead of the kernel's OOM killer ending it.
 *
 * The estimate is the sum of the engine's large allocations (tests/test_engine_memory.c
 * holds it to what the allocator hands out): the fields (fields_alloc), the rate tables,
 * the CPU tracer's column buffers (one box per species of the largest source domain, one
 * per thread when a rank has many sources), the Monte Carlo tallies and dTb; on a GPU the
 * fields' twins, the tables and one source's column buffer (the batch grows into what is
 * free).  Libraries' own memory (MPI, HDF5, CUDA contexts) is not in it.
 */
#ifndef IONF_ENGINE_MEMORY_H
#define IONF_ENGINE_MEMORY_H

#include <stdint.h>

#include "config/config.h"
#include "core/error.h"

struct engine_memory {
  double fields_bytes;  /*!< host fields of this rank */
  double tracer_bytes;  /*!< host ray-tracing buffers (0 when tracing on a GPU) */
  double other_bytes;   /*!< tables, Monte Carlo tallies, dTb, plane-source columns */
  double host_bytes;    /*!< their sum */
  double gpu_bytes;     /*!< on this rank's GPU (0: computes on the host) */
  int decomposition;    /*!< enum decomp_kind the run takes (grid.decomposition, auto resolved) */
  int64_t box_cells;    /*!< cells of the largest rank's box (halo included) */
  double replicated_host_bytes, replicated_gpu_bytes; /*!< the estimate were it replicated */
  const char *decomposition_reason; /*!< why (auto): a short phrase for the start-up log */
};

/** The estimate for a grid run of `cfg`: `rank_sources` point sources on this rank (-1:
    unknown, taken as many), `threads` OpenMP threads, `on_gpu`: fields and tracer on a GPU. */
void engine_memory_grid(const struct ionf_config *cfg, int64_t rank_sources, int threads,
                        int on_gpu, struct engine_memory *m);
/** The same for a rank holding `box_cells` cells of the grid (a slab and its halo). */
void engine_memory_grid_box(const struct ionf_config *cfg, int64_t box_cells,
                            int64_t rank_sources, int threads, int on_gpu,
                            struct engine_memory *m);

/** Memory this rank may use: the host's (MemAvailable of /proc/meminfo, or free pages;
    within a cgroup limit) shared among the ranks on this host; the GPU's free memory
    (cudaMemGetInfo) shared among the ranks on that GPU (0 without one). */
void engine_memory_available(double *host_bytes, double *gpu_bytes);

/** The estimate of a grid run about to start here (sources from the config, the backend
    it would choose, grid.decomposition: auto takes replicated when that fits every rank,
    slabs when it does not and slabs would) against what is available: IONF_ERR_MEM / IONF_ERR_GPU_MEM naming
    both figures when it does not fit.  Collective (every rank gets the worst outcome). */
IONF_NODISCARD ionf_err engine_memory_check_grid(const struct ionf_config *cfg,
                                                 struct engine_memory *m);

#endif
