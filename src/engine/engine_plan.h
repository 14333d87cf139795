/**
 * @file engine_plan.h
 * @brief What a grid run would do, checked without doing it (`ionfront run --dry-run`):
 *        every input opened and validated as the run would (the density file, the source
 *        file, a sequence's density files and halo catalogues), the sources shared among
 *        the ranks, the steps, the memory per rank; nothing allocated for the fields,
 *        nothing written (a synthetic: section's missing files are not made).
 */
#ifndef IONF_ENGINE_PLAN_H
#define IONF_ENGINE_PLAN_H

#include <stdint.h>

#include "config/config.h"
#include "engine/engine_memory.h"
#include "core/error.h"

struct engine_plan {
  int64_t n_sources;         /*!< point sources at the start, merged per cell (-1: from a
                                  sequence's halo catalogues, one per redshift) */
  double ndot_total_per_s;   /*!< their photon rate */
  int n_ranks;               /*!< the ranks of the library's communicator */
  int64_t *rank_sources;     /*!< per rank: the point sources it traces (cost-balanced) */
  double source_imbalance;   /*!< largest rank's tracing cost / mean */
  int64_t n_steps;           /*!< steps from 0 to t_end */
  double step_min_s, step_max_s; /*!< the shortest and longest step */
  int synthetic_pending;     /*!< synthetic: the run would first make missing input files
                                  (not checked, not made here) */
  struct engine_memory memory; /*!< this rank's estimate (engine_memory_check_grid) */
  double host_available_bytes, gpu_available_bytes; /*!< engine_memory_available */
};

/** Check a grid run's inputs and its memory, and plan it (collective: every rank gets
    the same plan, or the same error: the run's).  Free with engine_plan_free. */
IONF_NODISCARD ionf_err engine_plan_grid(const struct ionf_config *cfg, struct engine_plan *plan);
void engine_plan_free(struct engine_plan *plan);

/** The steps of a run from 0 to t_end: count, shortest and longest (engine_next_step_length). */
void engine_plan_steps(const struct ionf_config *cfg, int64_t *n_steps, double *min_s,
                       double *max_s);

#endif
