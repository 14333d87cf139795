/**
 * @file engine.h
 * @brief The engine: one time step (ray tracing <-> chemistry iterated to
 *        convergence) and one run loop, driving either kind of domain -- the cells
 *        of a grid box (engine/grid_domain.c) or a set of SPH particles
 *        (engine/particle_domain.c) -- through the tracer interface (rt/tracer.h),
 *        the chemistry interface (chem/chem.h) and a backend that holds the
 *        working fields (engine/backend.h).
 *
 * Data flow of one step (docs/design.md): domain prepares the step (a production
 * run's new interval, an expanding box's dilution); x_av := x; repeat { rates :=
 * the domain's tracers over this rank's sources at x_av; the ranks' rates summed;
 * chemistry on the cells -> x_av, x_end } until few cells still change or
 * sum(x_end) and sum(1 - x_end) (and sum(T_end)) change by less than
 * convergence_fraction; x := x_end.
 */
#ifndef IONF_ENGINE_H
#define IONF_ENGINE_H

#include <stdint.h>

#include "chem/chem.h"
#include "config/config.h"
#include "config/sph_config.h"
#include "cosmo/cosmology.h"
#include "engine/backend.h"
#include "engine/engine_memory.h"
#include "fields/fields.h"
#include "grid/decomp.h"
#include "grid/grid.h"
#include "grid/sources.h"
#include "particles/bvh.h"
#include "particles/particles.h"
#include "particles/sph_trace.h"
#include "rt/mc/mc.h"
#include "rt/photo_tables.h"
#include "rt/tracer.h"

/** Tracers a domain may hold (grids: a point-source tracer and the plane sources). */
#define ENGINE_MAX_TRACERS 4

/** Wall-clock seconds spent per phase (this rank). */
struct engine_timers {
  double trace_s, reduce_s, chemistry_s, io_s;
};

enum engine_kind { ENGINE_GRID, ENGINE_PARTICLES };

struct domain_ops;
struct engine_particles;
struct nccl_sum;

struct engine {
  /* ---- every run ---- */
  const struct ionf_config *cfg; /*!< physics, time, output (a particle run's base config);
                                      borrowed: must outlive the engine */
  enum engine_kind kind;
  const struct domain_ops *domain; /*!< what is particular to the kind (engine/domain.h) */
  struct fields fields;          /*!< host fields: this rank's box of the grid, or the particles */
  int64_t global_cells;          /*!< cells (or particles) of the whole run */
  int64_t slab_units;            /*!< reductions by slab: units shared among ranks (grid: i-planes) */
  int64_t slab_unit_cells;       /*!< ... and the cells of one unit */
  struct source_list sources;    /*!< all point sources (grids: merged per cell; particles: by position) */
  int64_t first_source;          /*!< this rank's share: [first, first + count) */
  int64_t source_count;
  double source_imbalance;       /*!< largest rank's tracing cost / mean (1 = balanced) */
  double ndot_total_per_s;       /*!< photons per second of all point sources */
  struct photo_tables tables;
  struct bands bands;            /*!< with helium: the band tables (bands_built) */
  struct chem_params chem;       /*!< the config's chemistry */
  struct chem_params chem_now;   /*!< this step's (Monte Carlo's case A, T_CMB(z), H(z)) */
  struct chem_he_params chem_he_now; /*!< with helium: this step's H + He parameters */
  struct chem_clumping clumping_now; /*!< this step's clumping factor (chemistry.clumping) */
  struct backend *backend;       /*!< where the working fields live */
  struct tracer *tracers[ENGINE_MAX_TRACERS]; /*!< one pass calls them in order */
  int n_tracers;
  struct chem_solver *chem_solver;
  enum reduction_mode reduction; /*!< how ranks sum the rates (config's, 'auto' resolved) */
  double time_s;                 /*!< simulation time [s] */
  int64_t step;                  /*!< steps taken */
  int restarted;                 /*!< state came from a checkpoint */
  int next_snapshot_index;       /*!< NNNN of the next snapshot after a restart */
  int restart_in_place;          /*!< the checkpoint restarted from is in output.directory */
  int mid_step;                  /*!< 1 while engine_step changes the state; 0 after a step, and
                                      when a step failed before changing anything (its inputs
                                      could not be read on some rank, every rank knows) */
  struct engine_timers timers;
  int64_t cells_traced;          /*!< (source, cell) pairs traced by this rank (grids) */
  int64_t hits;                  /*!< ray-particle intersections traced by this rank (particles) */

  /* ---- grid runs (engine/grid_domain.c) ---- */
  struct grid grid;              /*!< geometry and this rank's box */
  struct decomp decomp;          /*!< how the grid is split among ranks (grid.decomposition) */
  double r_max_cells;            /*!< this step's photon radius [cells] (raytracing.R_max, or
                                      mean_free_path's R(z): config_subgrid_r_max_cells) */
  struct engine_memory memory;   /*!< the estimate per rank the run started with (and why so split) */
  int uniform_density;           /*!< n_H is one value everywhere (no density file, no clump) */
  int uniform_temperature;       /*!< the initial T is one value everywhere (no clump) */
  int64_t clump_cells;           /*!< cells painted by material.clumps (0: none) */
  double sum_n_h_cm3;            /*!< sum of n_H over cells (mass-weighted means) */
  struct cosmology cosmo;        /*!< background (when cfg->cosmological) */
  double age_start_s;            /*!< cosmic age at z_initial */
  double z_density;              /*!< redshift the density field currently stands at */
  int seq_interval;              /*!< production runs: the interval whose inputs are loaded (-1: none) */
  char seq_density_file[IONF_PATH_MAX + 64]; /*!< its density file ("" if not from the sequence) */
  char seq_halo_file[IONF_PATH_MAX + 64];    /*!< its halo catalogue ("" if not from the sequence) */
  int64_t *seq_suppressed_cells; /*!< low-mass haloes on: the flat cells (i N + j) N + k whose
                                      low-mass haloes the interval leaves out, ascending (malloc'd) */
  int64_t seq_n_suppressed;      /*!< their number; -1: low-mass haloes off */
  double *seq_sources_by_interval; /*!< production runs with halos: sources of each interval's
                                      catalogue (sequence_check_inputs), for the ETA; else NULL */
  int seq_suppressed_given;      /*!< a restart put its checkpoint's list there: the next
                                      sequence_load takes it instead of judging the cells */
  int mc_on;                     /*!< raytracing.method montecarlo */
  struct mc_state mc;            /*!< seed, step, packets; the Monte Carlo tracer borrows it */
  double *gamma_rel_err;         /*!< Monte Carlo: estimated relative error of Gamma (at outputs) */

  /* ---- particle runs (engine/particle_domain.c) ---- */
  struct engine_particles *particles; /*!< NULL for grid runs */
};

/** A particle run's own state. */
struct engine_particles {
  const struct sph_config *cfg;  /*!< borrowed: must outlive the engine */
  struct particle_set set;
  struct bvh tree;
  int64_t n_rays;                /*!< per source */
  double sum_n_h_atoms;          /*!< mass-weighted means */
  const char *tracer_name;       /*!< "cpu", "cuda" or "injected" */
  sph_trace_fn pass;             /*!< a test's pass function; NULL: the tracer's own */
  char identity[17];             /*!< the particle set's (io/sph_checkpoint.h); "" until needed */
  struct nccl_sum *nccl;         /*!< the split's block sums through the GPUs (NCCL), or NULL:
                                      through the host (MPI); particle_reduce.c */
};

/** Per-step outcome. */
struct engine_step_info {
  int iterations;                /*!< ray-tracing/chemistry passes */
  int converged;                 /*!< 0 if max_iterations was reached */
  double x_mean_volume;          /*!< mean x_HII by volume (particles: by particle) */
  double x_mean_mass;            /*!< mean x_HII by mass (particles: by hydrogen atoms) */
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

/** A grid run: fields, sources (this rank's share), tables, backend, tracers.  Collective. */
IONF_NODISCARD ionf_err engine_create(const struct ionf_config *cfg, struct engine **out);
/**
 * A particle run: particles (file or generated), n_H, initial state, the tree, tables
 * and this rank's sources.  trace NULL: the config's backend (auto: CUDA when a GPU is
 * present); else that pass function (tests).  Collective.
 */
IONF_NODISCARD ionf_err engine_create_particles(const struct sph_config *cfg, sph_trace_fn trace,
                                                struct engine **out);
void engine_destroy(struct engine *e);

/**
 * With helium (e->fields.n_species 3): the band tables of the run's spectrum (a table
 * spectrum read from its file) into e->bands; every run: the H + He chemistry's
 * parameters e->chem_he_now.  Grid and particle domains alike.
 */
IONF_NODISCARD ionf_err engine_helium_make(struct engine *e);
/** Rays per source of a particle run whose config says 0: the tracer's default. */
int64_t engine_particles_default_rays(int64_t n_particles);

/**
 * Share e->sources among the ranks (grids: by tracing cost; particles: contiguous
 * blocks), set first_source, source_count, source_imbalance and ndot_total_per_s, and
 * hand them to the tracers.  Every rank computes the same shares.
 */
IONF_NODISCARD ionf_err engine_share_sources(struct engine *e);
/** Sum of the grid's n_H, each cell once (a split grid: the ranks' owned cells, summed:
    collective then).  Grid runs. */
IONF_NODISCARD ionf_err engine_sum_n_h(struct engine *e, double *sum_out);
/** Advance by dt_s.  Collective. */
IONF_NODISCARD ionf_err engine_step(struct engine *e, double dt_s, struct engine_step_info *info);
/** Run to t_end with snapshots, log.csv, progress lines, checkpoints.  Collective. */
IONF_NODISCARD ionf_err engine_run(struct engine *e, struct engine_report *report);
/**
 * One pass of the run's tracers at the current x_av on the backend's working fields,
 * this rank's sources only (no sum over ranks): the rates there; stats := the pass's.
 * engine_step's building block, for tests and benchmarks.
 */
IONF_NODISCARD ionf_err engine_trace_pass(struct engine *e, struct trace_stats *stats);
/** One chemistry pass over cells [first, first + count) of the working fields with the
    current rates (no sum over ranks), as engine_step makes it. */
IONF_NODISCARD ionf_err engine_chemistry_pass(struct engine *e, double dt_s, int64_t first,
                                              int64_t count, struct chem_pass_result *cr);
/** Make e->fields' x, Gamma, T and n_H current on the host (before reading them).  Collective. */
IONF_NODISCARD ionf_err engine_sync_to_host(struct engine *e);

/** Snapshot NNNN = index of the current state now (the library's outputs; collective). */
IONF_NODISCARD ionf_err engine_write_snapshot(struct engine *e, int index, char *path, size_t size);
/** DIR/checkpoint.h5 of the current state now (collective). */
IONF_NODISCARD ionf_err engine_write_checkpoint(struct engine *e, char *path, size_t size);
/** Continue from a checkpoint (right after creation).  Collective. */
IONF_NODISCARD ionf_err engine_restart(struct engine *e, const char *path);

/** A stop signal (SIGTERM, SIGUSR1) arrived: the run stops at the end of the current step
    with a checkpoint.  Async-signal-safe: the program's handler calls it. */
void engine_note_stop_signal(int sig);
/**
 * At the end of a step of a run loop: *signal_out := the stop signal any rank received
 * (SIGTERM, SIGUSR1), else 0, the same on every rank.  The test hook
 * debug.signal_after_step = N stands for SIGUSR1 arriving on rank 0 after step N.
 * Collective.
 */
IONF_NODISCARD ionf_err engine_stop_requested(const struct engine *e, int *signal_out);
/** The IONF_STOPPED error of a run stopped by `sig` after `step`, naming the checkpoint
    written and the command that continues it. */
IONF_NODISCARD ionf_err engine_stopped_error(int sig, int64_t step, double time_s,
                                             const char *checkpoint);
/**
 * The one step-length rule: steps of dt (in a production run the interval's equal
 * steps), shortened to land exactly on the next output time (or t_end).
 */
double engine_next_step_length(const struct ionf_config *cfg, double t_s, double t_tiny_s);
/** 1 when an output time of cfg is `time_s` and its snapshot (number k + 1 for the k-th
    output) is `next_index`: a checkpoint written after that snapshot failed
    (engine_run writes it first on a restart, even at time.t_end). */
int engine_output_missed_at(const struct ionf_config *cfg, double time_s, int next_index);

/** Redshift at the engine's current time (-1 when not cosmological). */
double engine_redshift(const struct engine *e);
/** One point source (no plane) in a uniform medium: the front is measured and logged
    (ifront.csv).  Grid runs only. */
int engine_has_single_source_front(const struct engine *e);
/** ... and at one fixed temperature, so an analytic solution applies (Stromgren;
    Shapiro & Giroux 1987 in an expanding box). */
int engine_has_analytic_front(const struct engine *e);
/** Photons per second of all sources: point sources, and plane sources' flux times
    the face area (proper, at the current step). */
double engine_total_ndot(const struct engine *e);
/** The analytic front radius [cm, proper] at t for this run (only if it applies). */
double engine_analytic_front_cm(const struct engine *e, double t_s);
/** The grid with its proper cell size at the current time (not the step's middle). */
struct grid engine_grid_now(const struct engine *e);
/** The start-up log's line of where the run computes: the backend and its tracers. */
void engine_describe(const struct engine *e, char *buf, size_t size);

#endif
