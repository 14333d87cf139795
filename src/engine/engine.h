/**
 * @file engine.h
 * @brief The grid engine: state, one time step (ray tracing <-> chemistry
 *        iterated to convergence), and a whole run with outputs.
 *
 * Data flow of one step (docs/design.md): x_av := x; repeat { Gamma := sum over
 * this rank's sources of ASORA(n_H (1 - x_av)); Allreduce(Gamma); chemistry
 * on every cell -> x_av, x_end } until sum(x_end) and sum(1 - x_end) change by
 * less than convergence_fraction; x := x_end.
 */
#ifndef IONF_ENGINE_H
#define IONF_ENGINE_H

#include <stdint.h>

#include "engine/backend.h"
#include "chem/chem.h"
#include "config/config.h"
#include "grid/grid.h"
#include "rt/mc/mc.h"
#include "rt/photo_tables.h"
#include "cosmo/cosmology.h"
#include "grid/sources.h"

/** Wall-clock seconds spent per phase (this rank). */
struct engine_timers {
  double trace_s, reduce_s, chemistry_s, io_s;
};

struct engine {
  const struct ionf_config *cfg; /*!< borrowed; must outlive the engine */
  struct grid grid;
  struct grid_fields fields;
  struct source_list sources;    /*!< all sources, merged per cell */
  int64_t first_source;          /*!< this rank's share: [first, first + count) */
  int64_t source_count;
  double source_imbalance;       /*!< largest rank's tracing cost / mean (1 = balanced) */
  struct photo_tables tables;
  struct chem_params chem;
  struct rt_backend *backend;
  double time_s;                 /*!< simulation time [s] */
  int64_t step;                  /*!< steps taken */
  int uniform_density;           /*!< n_H is one value everywhere (no density file, no clump) */
  int uniform_temperature;       /*!< the initial T is one value everywhere (no clump) */
  int64_t clump_cells;           /*!< cells painted by material.clumps (0: none) */
  double sum_n_h_cm3;            /*!< sum of n_H over cells (mass-weighted means) */
  int restarted;                 /*!< state came from a checkpoint */
  enum reduction_mode reduction; /*!< how ranks sum Gamma (config's, 'auto' resolved) */
  /* cosmological runs */
  struct cosmology cosmo;        /*!< background (when cfg->cosmological) */
  double age_start_s;            /*!< cosmic age at z_initial */
  double z_density;              /*!< redshift the density field currently stands at */
  int next_snapshot_index;       /*!< NNNN of the next snapshot after a restart */
  double ndot_total_per_s;       /*!< photons per second of all sources */
  /* production runs (cfg->sequence, src/sequence.h) */
  int seq_interval;              /*!< the interval whose inputs are loaded (-1: none) */
  char seq_density_file[IONF_PATH_MAX + 64]; /*!< its density file ("" if not from the sequence) */
  char seq_halo_file[IONF_PATH_MAX + 64];    /*!< its halo catalogue ("" if not from the sequence) */
  struct engine_timers timers;
  int64_t cells_traced;          /*!< (source, cell) pairs traced by this rank */
  /* raytracing.method montecarlo (src/mc.h) */
  int mc_on;
  struct mc_state mc;            /*!< seed, step, packets; the backend borrows it */
  double *gamma_rel_err;         /*!< n^3 estimated relative error of Gamma (at outputs) */
};

/** Per-step outcome. */
struct engine_step_info {
  int iterations;                /*!< ray-tracing/chemistry passes */
  int converged;                 /*!< 0 if max_iterations was reached */
  double x_mean_volume;          /*!< volume-weighted mean x_HII at the end */
  double x_mean_mass;            /*!< mass-weighted mean x_HII at the end */
};

/** One comparison of the I-front with the analytic solution (single-source runs). */
struct ifront_record {
  double time_s;
  double r_numeric_cm;           /*!< -1 when the front left the box */
  double r_analytic_cm;
};

/** What a run produced. */
struct engine_report {
  int n_snapshots;
  char last_snapshot[IONF_PATH_MAX];
  char checkpoint[IONF_PATH_MAX + 32]; /*!< last checkpoint written ("" if none) */
  int n_ifront;                  /*!< 0 unless one source in a uniform medium */
  struct ifront_record ifront[64];
  double wall_s;
  int64_t steps;
};

/** Build the engine: fields, sources (this rank's share), tables, backend. Collective. */
IONF_NODISCARD ionf_err engine_create(const struct ionf_config *cfg, struct engine **out);
/**
 * Share e->sources among the ranks by tracing cost (reorders the list) and set
 * first_source, source_count, source_imbalance and ndot_total_per_s.  Every rank
 * computes the same shares; no communication.
 */
IONF_NODISCARD ionf_err engine_share_sources(struct engine *e);
/**
 * Advance by dt_s.  In a production run (cfg->sequence) a step that starts a new
 * interval first loads that interval's density and halos (sequence_load).  Collective.
 */
IONF_NODISCARD ionf_err engine_step(struct engine *e, double dt_s, struct engine_step_info *info);
/** Run to t_end with snapshots, log.csv, progress lines. Collective. */
IONF_NODISCARD ionf_err engine_run(struct engine *e, struct engine_report *report);
void engine_destroy(struct engine *e);
/** Copy the backend's x_HII, Gamma, T and n_H into e->fields (before reading them). */
IONF_NODISCARD ionf_err engine_sync_to_host(struct engine *e);

/** Snapshot NNNN = index of the current state now (the library's outputs; collective). */
IONF_NODISCARD ionf_err engine_write_snapshot(struct engine *e, int index, char *path, size_t size);
/** DIR/checkpoint.h5 of the current state now (collective). */
IONF_NODISCARD ionf_err engine_write_checkpoint(struct engine *e, char *path, size_t size);

/** Continue from DIR/checkpoint.h5-style file `path` (x_HII, T, time, step). */
IONF_NODISCARD ionf_err engine_restart(struct engine *e, const char *path);
/** SIGTERM / SIGUSR1 stop the run at the end of the current step with a checkpoint. */
void engine_install_signal_handlers(void);
/**
 * At the end of step `step` of a run loop (grid or particle engine): *signal_out :=
 * the stop signal any rank received (SIGTERM, SIGUSR1), else 0, the same on every
 * rank.  IONFRONT_FAULT_INJECT=signal:N raises SIGUSR1 on rank 0 after step N (tests).
 * Collective.
 */
IONF_NODISCARD ionf_err engine_stop_requested(int64_t step, int *signal_out);
/**
 * What a run loop does after step `step` (grid and particle engines alike):
 * *checkpoint := 1 when a checkpoint is due (every checkpoint_every steps, or a stop
 * signal arrived) and the run is not `finished`; *stop := the stop signal when the
 * run must end now (0: go on).  Collective (engine_stop_requested).
 */
IONF_NODISCARD ionf_err engine_step_end(int64_t step, int finished, int64_t checkpoint_every,
                                        int *checkpoint, int *stop);
/** The IONF_STOPPED error of a run stopped by `sig` after `step`, naming the checkpoint
    written and the command that continues it. */
IONF_NODISCARD ionf_err engine_stopped_error(int sig, int64_t step, double time_s,
                                             const char *checkpoint);

/** Test hook: the number after "WHAT:" in IONFRONT_FAULT_INJECT, else -1 (engine.c). */
long engine_fault_inject(const char *what);

/** Redshift at the engine's current time (-1 when not cosmological). */
double engine_redshift(const struct engine *e);

/** One point source (no plane) in a uniform medium: the front is measured and logged
    (ifront.csv). */
int engine_has_single_source_front(const struct engine *e);
/** ... and at one fixed temperature, so an analytic solution applies (Stromgren;
    Shapiro & Giroux 1987 in an expanding box). */
int engine_has_analytic_front(const struct engine *e);
/** Photons per second of all sources: point sources, and plane sources' flux times
    the face area (proper, at the current step). */
double engine_total_ndot(const struct engine *e);
/** The analytic front radius [cm, proper] at t for this run (only if it applies). */
double engine_analytic_front_cm(const struct engine *e, double t_s);

#endif
