/**
 * @file thermal_run.h
 * @brief A thermal-radiation run (`problem: thermal`): its medium made or read, its cells
 *        and wall patches shared among the MPI ranks, the solve on the chosen backend, the
 *        results gathered, thermal.h5 written and the log lines.
 *
 * Data flow: config_thermal (src/config) -> thermal_run_create (the medium: setup profile or
 * HDF5, read by rank 0 and broadcast: every rank holds all of T, since rays cross the whole
 * grid) -> thermal_run_solve (this rank's block of cells and of wall patches,
 * thermal_backend_solve: thermal_solve_cpu or thermal_solve_cuda; the wall results
 * all-gathered) -> thermal_run_execute (the command line: the cells' results gathered,
 * rank 0 writes OUTDIR/thermal.h5, io/thermal_io.h).  Each element's result depends only on
 * the seed and its rays (Philox counters per element), so a run is bit for bit the same on
 * any number of ranks.  The C API (src/api/api_thermal.c) drives thermal_run_create and
 * thermal_run_solve with the caller's arrays each step.
 *
 * Every call marked collective is made by every rank of comm_mpi(), which agree on errors
 * (no rank is left waiting in a collective).
 */
#ifndef IONF_THERMAL_RUN_H
#define IONF_THERMAL_RUN_H

#include <stdint.h>

#include "config/config_thermal.h"
#include "core/error.h"
#include "thermal/thermal.h"

struct thermal_run {
  const struct config_thermal *cfg; /*!< borrowed: it outlives the run */
  enum backend_kind backend;        /*!< the one used: BACKEND_CPU or BACKEND_CUDA */
  char backend_text[200];           /*!< which and why, for the log */
  int64_t cells, walls;             /*!< the whole grid's cells, every wall patch */
  struct thermal_range range;       /*!< this rank's block of each */
  double *t_k, *p_atm, *x_h2o, *x_co2; /*!< [cells] the configured medium, host (p, x: NULL
                                            for a grey gas) */
  double *wall_q_w_per_m2, *wall_q_sigma_w_per_m2; /*!< [walls] every patch after a solve */
  int64_t rays_traced, steps_traced; /*!< of the last solve, summed over the ranks */
  double solve_s;                    /*!< its wall-clock time (the slowest rank's) */
};

/** The block of cells and of wall patches rank `rank` of `size` computes: contiguous,
    comm_slab's split of each. */
void thermal_run_range(const struct thermal_setup *s, int rank, int size,
                       struct thermal_range *r);

/** Host bytes a rank holds for a run of `cfg` (the medium, the gathered results, walls). */
double thermal_run_memory_bytes(const struct config_thermal *cfg);

/** Make the run of `cfg`: the backend chosen, the medium generated or read (rank 0 reads,
    every rank gets it).  Collective. */
IONF_NODISCARD ionf_err thermal_run_create(const struct config_thermal *cfg,
                                           struct thermal_run **out);
void thermal_run_destroy(struct thermal_run *r);

/**
 * Solve this rank's range for the medium `f` (NULL: the run's own), writing this rank's
 * cells' Q^R and sigma into q[range.cell_count], q_sigma (host, or with device_pointers GPU
 * memory: then f too, on the cuda backend only), and every rank's wall results into
 * r->wall_q_w_per_m2 / r->wall_q_sigma_w_per_m2 (all-gathered).  Collective.
 */
IONF_NODISCARD ionf_err thermal_run_solve(struct thermal_run *r, const struct thermal_fields *f,
                                          int device_pointers, double *q, double *q_sigma);

/** Every cell's T finite and >= 0, the pressure (when not NULL) > 0, the mole fractions in
    [0, 1]: IONF_ERR_INPUT naming `where`, the cell and the value otherwise.  Host arrays. */
IONF_NODISCARD ionf_err thermal_run_check_fields(const char *where,
                                                 const struct thermal_fields *f, int64_t cells);

/** The relative Monte Carlo error sigma / |Q| over the cells with Q != 0: mean and max. */
void thermal_run_sigma_stats(const double *q, const double *q_sigma, int64_t n, double *mean,
                             double *max);

/** What a finished run reports (the command line's summary). */
struct thermal_run_report {
  double solve_s;          /*!< the solve's wall-clock time */
  int64_t rays_traced, steps_traced;
  double sigma_rel_mean, sigma_rel_max;
  char path[1100];         /*!< OUTDIR/thermal.h5 */
};

/** The whole run of the command line: create, claim the output directory, solve, gather,
    write thermal.h5 (rank 0), log lines.  Collective. */
IONF_NODISCARD ionf_err thermal_run_execute(const struct config_thermal *cfg,
                                            struct thermal_run_report *rep);

/** --dry-run: the run checked as it would start (the fields file's datasets, the backend)
    and its plan logged (cells, rays, elements per rank, memory per rank).  Collective. */
IONF_NODISCARD ionf_err thermal_run_plan(const struct config_thermal *cfg);

#endif /* IONF_THERMAL_RUN_H */
