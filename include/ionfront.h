/**
 * @file ionfront.h
 * @brief libionfront: the public C API of the ionfront radiative-transfer engine.
 *
 * The one header another code needs (C17; C++ may include it).  Link with
 * `find_package(ionfront)` -> `ionfront::ionfront`, or `pkg-config --cflags --libs ionfront`.
 *
 * Life cycle:
 *   ionf_engine *e;
 *   ionf_engine_create_from_file("run.yaml", NULL, 0, IONF_COMM_WORLD, &e);
 *   while (...) { ionf_engine_set_sources(e, ...); ionf_engine_step(e, dt_s, NULL); }
 *   ionf_engine_field(e, "x_HII", &x, dims);     (borrowed: this rank's cells)
 *   ionf_engine_destroy(e);
 *   ionf_finalize();                              (only if the library started MPI)
 *
 * Errors: every call returns an ionf_status (IONF_STATUS_OK = 0, otherwise one of the
 * codes below; the same numbers the `ionfront` command exits with).  The message of the
 * last failure is ionf_last_error_message(engine) (the engine's own last failure) or
 * ionf_last_error_message(NULL) (the calling thread's last failure of any call).  The
 * library never exits or aborts the process.
 *
 * Messages: the library never writes to stdout or stderr.  Its progress lines and
 * warnings go to the log handler set with ionf_set_log_handler; with none set (the
 * default) they are dropped.  It leaves process-wide state as it found it: MPI_COMM_WORLD's
 * error handler, GSL's error handler (off only during its own quadratures) and HDF5's
 * automatic error printing (off only while it reads or writes a file).
 *
 * Threads: one engine is used by one thread at a time; the engine itself runs OpenMP
 * threads (OMP_NUM_THREADS) and, in a CUDA build, the GPU.  Engines are not meant to be
 * stepped concurrently from several threads (the internal error record is per process).
 *
 * MPI: calls marked "Collective" must be made by every rank of the engine's
 * communicator, in the same order and with the same arguments unless said otherwise.
 * The library calls MPI_Init_thread(FUNNELED) itself only if MPI is not initialised
 * when the first engine is created, and ionf_finalize() finalises only what it started.
 * Communicators are passed as Fortran handles (MPI_Fint, as an int: MPI_Comm_c2f(comm) in
 * C, comm.py2f() in mpi4py), so that this header needs no mpi.h and a Python caller
 * needs no MPI headers; IONF_COMM_WORLD stands for MPI_COMM_WORLD.  Any intracommunicator
 * works (e.g. the radiative-transfer ranks of a coupled code).  The library works on its
 * own duplicate of it (MPI_Comm_dup at the first creation on it; freed by ionf_finalize,
 * or when an engine is created on another communicator), with MPI_ERRORS_RETURN set on
 * that duplicate only, so that MPI failures come back as codes; the caller's
 * communicator and its error handler are left alone, and the caller may free its
 * communicator while the engine lives.  Engines alive at the same time in one process
 * must use the same communicator.  GPUs are chosen by the rank within the node among the
 * communicator's ranks.
 *
 * GPU: in a CUDA build (raytracing.backend cuda|auto) the working fields live on the
 * GPU.  Calls marked "Synchronizes the GPU" copy between GPU and host memory.
 *
 * Units: CGS and seconds (cm, s, K, cm^-3, photons/s), as the suffixes say.
 * Grid fields are the cells this rank holds, its local box (ionf_engine_local_box:
 * first cell lo[3] and extent[3] in global cell indices, halo included), as arrays of
 * double in C order: global cell (i, j, k) at [((i - lo0) * e1 + (j - lo1)) * e2 + (k - lo2)],
 * i along x.  Today every rank's box is the whole n^3 grid (lo = 0, extent = n, no halo),
 * but a caller must not assume it: read the box.
 */
#ifndef IONFRONT_H
#define IONFRONT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped when a call changes incompatibly.  2: grid fields are this rank's local box
    (ionf_engine_local_box), no longer promised to be the whole grid; ionf_set_log_handler:
    the library no longer prints (its messages go to the handler) and works on a duplicate
    of the caller's communicator. */
#define IONF_API_VERSION 2

/** Status codes (the numbers match the command line's exit codes). */
typedef int ionf_status;
#define IONF_STATUS_OK 0
#define IONF_STATUS_CONFIG 2       /* bad configuration: syntax, unknown key, type, range */
#define IONF_STATUS_INPUT 3        /* bad input data or argument (sizes, positions, NULL) */
#define IONF_STATUS_IO 4           /* a file could not be read or written */
#define IONF_STATUS_MEM 5          /* host allocation failed */
#define IONF_STATUS_GPU 6          /* a CUDA call failed */
#define IONF_STATUS_GPU_MEM 7      /* the GPU ran out of memory */
#define IONF_STATUS_MPI 8          /* an MPI call failed */
#define IONF_STATUS_UNSUPPORTED 9  /* not available in this build or version */
#define IONF_STATUS_INTERNAL 10    /* a bug: an invariant did not hold */
#define IONF_STATUS_USAGE 11       /* calls out of order, bad handle or name */
#define IONF_STATUS_PEER 12        /* another MPI rank failed (its message says why) */
#define IONF_STATUS_STOPPED 13     /* a run stopped by SIGTERM/SIGUSR1 after a checkpoint */

/** MPI_COMM_WORLD, for the `mpi_comm` arguments. */
#define IONF_COMM_WORLD (-1)

/** Source positions given as 0-based cell indices (i, j, k; fractions are truncated). */
#define IONF_POSITION_CELLS 0
/** Source positions in cm from the box corner (proper, at the current time). */
#define IONF_POSITION_CM 1

/** ionf_engine_kind: a grid run, or a run on SPH particles (a particles: section). */
#define IONF_ENGINE_GRID 0
#define IONF_ENGINE_PARTICLES 1

/** The `level` of a message given to the log handler (ionf_set_log_handler); the values
    are Python logging's INFO and WARNING (IONF_LOG_RANK_INFO between them). */
#define IONF_LOG_INFO 20       /* about the whole run (progress lines), on rank 0 only */
#define IONF_LOG_RANK_INFO 21  /* about one rank, delivered on that rank */
#define IONF_LOG_WARNING 30    /* a warning, on the rank that met it */

/** An engine: a grid, its fields, sources and the ray tracing / chemistry backend. */
typedef struct ionf_engine ionf_engine;

/** IONF_API_VERSION of the library actually loaded. */
int ionf_api_version(void);
/** "0.1.0 (git abc1234)"; static storage. */
const char *ionf_version_string(void);
/** Short name of a status code ("configuration error", ...); static storage. */
const char *ionf_status_name(ionf_status status);

/**
 * The message of the last failure: of `engine`'s calls when engine is not NULL, else
 * of the calling thread's last failing call (including creation, which has no engine
 * yet).  "" when none.  Valid until the next call on that engine / thread.
 */
const char *ionf_last_error_message(const ionf_engine *engine);

/**
 * Deliver the library's messages to handler(level, text, user) from now on (level one of
 * IONF_LOG_*; text one line without a newline or rank prefix, valid during the call
 * only); handler NULL: drop them (the default).  Every engine of the process, and the
 * calls made before any engine exists, use it.  The handler may be called from any call
 * that can print (creation, step, run, ...), on the calling thread, and must not call
 * back into the library.  Not collective; set it before creating engines.
 */
void ionf_set_log_handler(void (*handler)(int level, const char *text, void *user), void *user);

/**
 * Start MPI if nobody has (MPI_Init_thread, FUNNELED).  Optional: engine creation does
 * it too.  Collective (as MPI_Init).
 */
ionf_status ionf_init(void);
/**
 * Free the library's duplicate communicator, then MPI_Finalize if ionf_init or an engine
 * creation started MPI, and nothing more when the caller did (mpi4py, a hydro code): they
 * finalize it.  Destroy every engine first.  Collective.
 */
ionf_status ionf_finalize(void);

/**
 * Create an engine from a YAML config file (`path`; NULL: the built-in default problem,
 * Iliev et al. 2006 Test 1), then apply `n_overrides` "section.key=VALUE" strings
 * (VALUE is YAML, as `ionfront run --set`), validate, build the grid and fields,
 * read input files and set up the backend.  *out receives the engine (NULL on failure).
 * Relative input paths are relative to the config file.  (No config struct: the
 * key-value overrides reach every key and keep the ABI stable as keys are added.)
 * A config with a particles: section makes a particle engine (SPH particles,
 * src/sph_engine.h): see ionf_engine_kind and the particle notes below.  The engine writes its outputs
 * (snapshots, checkpoints) under output.directory.  Collective over `mpi_comm`;
 * may synchronize the GPU.
 */
ionf_status ionf_engine_create_from_file(const char *path, const char *const *overrides,
                                         int n_overrides, int mpi_comm, ionf_engine **out);
/** As ionf_engine_create_from_file, from YAML text; relative paths are relative to the
    working directory.  Collective. */
ionf_status ionf_engine_create_from_yaml(const char *yaml_text, const char *const *overrides,
                                         int n_overrides, int mpi_comm, ionf_engine **out);
/** As ionf_engine_create_from_file, from a built-in problem ("iliev1", ...: the names of
    `ionfront example`).  Collective. */
ionf_status ionf_engine_create_builtin(const char *name, const char *const *overrides,
                                       int n_overrides, int mpi_comm, ionf_engine **out);
/** Free everything the engine holds (NULL: nothing).  Borrowed field pointers die
    with it.  Collective. */
void ionf_engine_destroy(ionf_engine *engine);

/** IONF_ENGINE_GRID or IONF_ENGINE_PARTICLES, and the number of particles (0 for a grid);
    either pointer may be NULL. */
ionf_status ionf_engine_kind(const ionf_engine *engine, int *kind, int64_t *particle_count);
/** Cells per side n, box side and cell size [cm, proper at the current time]; any
    output pointer may be NULL.  A particle engine has no grid: IONF_STATUS_USAGE. */
ionf_status ionf_engine_grid(const ionf_engine *engine, int64_t *n, double *box_cm,
                             double *cell_cm);
/** Simulation time [s], steps taken, and the config's time.dt and time.t_end [s];
    any output pointer may be NULL. */
ionf_status ionf_engine_time(const ionf_engine *engine, double *time_s, int64_t *step,
                             double *dt_s, double *t_end_s);
/** MPI rank and number of ranks of the engine's communicator. */
ionf_status ionf_engine_rank(const ionf_engine *engine, int *rank, int *size);

/**
 * The part of the grid this rank holds (grid engines): first[3] its first cell and
 * extent[3] its cells per axis, in global cell indices, halo included; *halo the halo's
 * width in cells.  Any pointer may be NULL.  A particle engine has no grid:
 * IONF_STATUS_USAGE.
 */
ionf_status ionf_engine_local_box(const ionf_engine *engine, int64_t first[3], int64_t extent[3],
                                  int64_t *halo);

/**
 * Borrow a field's host array: *data points at the cells of this rank's local box
 * (ionf_engine_local_box), owned by the engine (valid until ionf_engine_destroy), dims =
 * the box's extent.  Names: "n_H" [cm^-3], "T" [K], and per
 * absorbing species of the build the ion fraction "x_<ion>" and photoionization rate
 * "Gamma_<absorber>" [1/s], as in the snapshots: "x_HII" and "Gamma_HI" for hydrogen
 * (a wrong name's message lists them all).  The host copy is brought up to
 * date first.  Writing into it is allowed for n_H, T and x_*: call
 * ionf_engine_field_modified afterwards (before the next step).  Collective;
 * synchronizes the GPU.
 * Particle engines: per-particle host arrays, dims = {count, 1, 1} ({count, 3, 1} for
 * "position_cm"): "x_HII", "T" (writable), "Gamma_HI", "n_H", "h_cm", "mass_g",
 * "position_cm" (read-only); no GPU copy to synchronize.
 */
ionf_status ionf_engine_field(ionf_engine *engine, const char *name, double **data,
                              int64_t dims[3]);
/** The borrowed array of `name` (n_H, T, x_*) was changed by the caller: take it into the
    working copies (and the GPU).  Collective; synchronizes the GPU. */
ionf_status ionf_engine_field_modified(ionf_engine *engine, const char *name);
/** Copy `count` values (the local box's cells) into field `name` (n_H, T, x_*) and take
    them in, as ionf_engine_field + memcpy + ionf_engine_field_modified; values that are
    refused (NaN, out of range) leave the field as it was.  Collective. */
ionf_status ionf_engine_set_field(ionf_engine *engine, const char *name, const double *values,
                                  int64_t count);

/**
 * Replace the point sources: `count` sources (0 allowed), positions[3 * count] (x, y, z
 * of each, in `position_units`: IONF_POSITION_CELLS or IONF_POSITION_CM), ndot_per_s[count]
 * ionizing photons per second (> 0, finite).  Sources in one cell are merged.  Arrays are
 * copied.  The spectrum stays the config's.  Collective: every rank passes the same list
 * (the ranks share the tracing).  May synchronize the GPU.  Particle engines take
 * positions in cm only (the particles' frame), and keep sources that share a place apart.
 */
ionf_status ionf_engine_set_sources(ionf_engine *engine, int64_t count, const double *positions,
                                    int position_units, const double *ndot_per_s);
/** Number of point sources (after merging). */
ionf_status ionf_engine_source_count(const ionf_engine *engine, int64_t *count);

/**
 * Advance by dt_s seconds (> 0): ray tracing and chemistry iterated to convergence.
 * `iterations` (may be NULL) receives the passes taken.  No files are written.
 * Collective; runs on the GPU in CUDA runs (no host copy is made).
 */
ionf_status ionf_engine_step(ionf_engine *engine, double dt_s, int *iterations);
/**
 * Run from the current time to time.t_end as `ionfront run` does: snapshots at
 * time.outputs, log.csv, ifront.csv, checkpoints, progress lines.  Collective.
 * output.directory must not hold another run's files (IONF_STATUS_CONFIG) unless
 * output.overwrite is true (they are removed first) or the engine was restarted from
 * a checkpoint in that directory.  A write error on one rank returns an error on every
 * rank (IONF_STATUS_PEER on the others); a failure after a finished step that every
 * rank knows of writes a checkpoint of that step first (the message names it).
 */
ionf_status ionf_engine_run(ionf_engine *engine);
/**
 * Write a snapshot now: output.directory/snapshot_NNNN.h5 with NNNN = index (>= 0);
 * `path` (may be NULL) receives its name (path_size bytes).  Collective (parallel HDF5);
 * synchronizes the GPU.
 */
ionf_status ionf_engine_write_snapshot(ionf_engine *engine, int index, char *path,
                                       size_t path_size);
/** Write output.directory/checkpoint.h5 (a restart file); `path` as above.  Collective.
    Grid and particle engines (a particle checkpoint is also a particle snapshot). */
ionf_status ionf_engine_write_checkpoint(ionf_engine *engine, char *path, size_t path_size);
/** Continue from a checkpoint (x, T, time, step) of the same kind of run (grid or
    particles, the same grid size or particle set).  Right after creation.  Collective. */
ionf_status ionf_engine_restart(ionf_engine *engine, const char *checkpoint_path);

/*
 * Redshifts and cosmology (grid engines; added after API version 2 without changing it:
 * a library without them lacks the symbols).  A grid run always has a flat LCDM
 * background (the config's cosmology: section, or its defaults) that dates its times:
 * time 0 is cosmology.z_initial.  When cosmology.cosmological is true the box expands
 * (each step at the redshift of its middle, C2-Ray's convention: n_H diluted as (1+z)^3,
 * the proper cell size as 1/(1+z)); when false the dates change nothing in the physics
 * (pyC2Ray's test runs).  A particle engine is static and has none: IONF_STATUS_USAGE.
 * None is collective; every rank gets the same answers.
 */

/**
 * The run's cosmology: *cosmological 1 when the box expands, else 0; h = H0 / (100
 * km/s/Mpc), Omega_m, Omega_b, Omega_Lambda (1 - Omega_m: flat), T_cmb0 [K] today and
 * z_initial, the redshift at time 0.  Any output pointer may be NULL.
 */
ionf_status ionf_engine_cosmology(const ionf_engine *engine, int *cosmological, double *h,
                                  double *omega_m, double *omega_b, double *omega_lambda,
                                  double *t_cmb0_k, double *z_initial);
/**
 * The redshift at the engine's current time.  In a production run (sequence:) standing on
 * one of its listed redshifts, that redshift exactly; otherwise the redshift at the cosmic
 * age age(z_initial) + time_s.
 */
ionf_status ionf_engine_redshift(const ionf_engine *engine, double *z);
/** The cosmic age [s] at redshift z (> -1, finite); a redshift's simulation time is
    age(z) - age(z_initial). */
ionf_status ionf_engine_age_at_redshift(const ionf_engine *engine, double z, double *age_s);
/** The redshift at cosmic age age_s [s] (> 0, finite): the inverse of
    ionf_engine_age_at_redshift. */
ionf_status ionf_engine_redshift_at_age(const ionf_engine *engine, double age_s, double *z);
/** The Hubble rate H(z) [1/s] at redshift z (> -1, finite). */
ionf_status ionf_engine_hubble(const ionf_engine *engine, double z, double *hubble_per_s);
/**
 * Set the hydrogen density of this rank's cells (`count` = the local box's cells, as
 * ionf_engine_set_field) as the density of redshift z: n_h_cm3 is proper [cm^-3] at z
 * (finite, > -1).  In an expanding box the next step dilutes it from z to the redshift of
 * its middle, and so on (a density read per redshift, as a pyC2Ray script's, set at the
 * start of that redshift's steps).  In a static run z only has to be valid: this is
 * ionf_engine_set_field(engine, "n_H", ...).  Refused values (negative, NaN) leave n_H
 * and its redshift as they were.  Collective; synchronizes the GPU.
 */
ionf_status ionf_engine_set_density(ionf_engine *engine, const double *n_h_cm3, int64_t count,
                                    double z);

/*
 * Thermal radiation (`problem: thermal`; added after API version 2 without changing it: a
 * library without them lacks the symbols).  A solver of the radiative source Q^R [W/m^3]
 * of every cell of a non-scattering absorbing-emitting medium (grey, or H2O-CO2 by a
 * weighted sum of grey gases) and of the net radiative flux into its walls [W/m^2], with
 * their Monte Carlo standard errors, for a flow solver's coupling loop:
 *
 *   ionf_thermal *t;
 *   ionf_thermal_create_from_file("thermal.yaml", NULL, 0, IONF_COMM_WORLD, &t);
 *   ionf_thermal_cell_range(t, &first, &count);          (this rank's cells)
 *   for each flow step:
 *     ionf_thermal_solve(t, T, NULL, x_h2o, x_co2, q, q_sigma, IONF_MEMORY_HOST);
 *     ... the flow solver uses q[0..count) for cells first..first+count ...
 *   ionf_thermal_wall_flux(t, face, q_wall, q_wall_sigma, n_patches);
 *   ionf_thermal_destroy(t);
 *
 * Units are SI here, as the keys say: m, K, atm, W/m^3, W/m^2.  Fields are whole-grid
 * arrays of double in C order [nx][ny][nz] (cell (i, j, k) at (i * ny + j) * nz + k, i
 * along x); every rank passes all of them (rays cross the whole grid), and each rank gets
 * the results of its own block of cells (ionf_thermal_cell_range: contiguous in that
 * order).  A result depends only on the config, the medium and the seed: the same bits on
 * any number of ranks.  Errors: ionf_last_error_message(NULL).  Handles and engines alive
 * together share one communicator.  The config is a `problem: thermal` YAML
 * (docs/thermal.md).
 */

/** A thermal-radiation solver. */
typedef struct ionf_thermal ionf_thermal;

/** ionf_thermal_solve's `memory`: the arrays are host memory, or GPU memory of this rank's
    device (the cuda backend only: raytracing.backend cuda, or auto with a GPU). */
#define IONF_MEMORY_HOST 0
#define IONF_MEMORY_DEVICE 1

/**
 * Create a thermal solver from a `problem: thermal` YAML config file, then apply the
 * "section.key=VALUE" overrides (as ionf_engine_create_from_file): the grid, walls, gas,
 * Monte Carlo settings, backend, and the medium the config gives (fields: or setup:), used
 * where a solve passes NULL.  *out receives it (NULL on failure).  Collective over
 * `mpi_comm`.
 */
ionf_status ionf_thermal_create_from_file(const char *path, const char *const *overrides,
                                          int n_overrides, int mpi_comm, ionf_thermal **out);
/** As ionf_thermal_create_from_file, from YAML text (relative paths from the working
    directory).  Collective. */
ionf_status ionf_thermal_create_from_yaml(const char *yaml_text, const char *const *overrides,
                                          int n_overrides, int mpi_comm, ionf_thermal **out);
/** As ionf_thermal_create_from_file, from a built-in thermal problem ("thermal_slab",
    "thermal_cube", ...: `ionfront example`).  Collective. */
ionf_status ionf_thermal_create_builtin(const char *name, const char *const *overrides,
                                        int n_overrides, int mpi_comm, ionf_thermal **out);
/** Free the solver (NULL: nothing).  Collective. */
void ionf_thermal_destroy(ionf_thermal *thermal);

/** Cells per axis cells[3] and cell sizes cell_m[3] [m]; either pointer may be NULL. */
ionf_status ionf_thermal_grid(const ionf_thermal *thermal, int64_t cells[3], double cell_m[3]);
/** This rank's block of cells: [*first, *first + *count) in C order of the whole grid (the
    results ionf_thermal_solve gives this rank).  Either pointer may be NULL. */
ionf_status ionf_thermal_cell_range(const ionf_thermal *thermal, int64_t *first,
                                    int64_t *count);

/**
 * Solve for a medium: t_k [K, >= 0], p_atm [atm, > 0], x_h2o, x_co2 [mole fractions] are
 * whole-grid arrays (nx*ny*nz doubles, C order), read only during the call (the caller
 * keeps them); NULL takes the config's medium for that field (its fields file, setup
 * profile or gas: value).  A grey gas reads T only.  Writes this rank's cells' Q^R
 * (emitted - absorbed, > 0: cooling) into q_w_per_m3[count] and its standard error into
 * q_sigma_w_per_m3[count] (count of ionf_thermal_cell_range; q_sigma may be NULL), and
 * keeps the wall fluxes for ionf_thermal_wall_flux.  memory IONF_MEMORY_HOST: host arrays
 * (T and the others checked: finite, in range); IONF_MEMORY_DEVICE: GPU arrays of this
 * rank's device, inputs and outputs alike (the cuda backend only, else
 * IONF_STATUS_USAGE; q_sigma not NULL; a NULL pressure or mole fraction then stands for the
 * config's uniform gas value only when it is 1 atm or 0, else IONF_STATUS_INPUT: pass the
 * array).  Returns after the results are written (the GPU synchronized).  Collective:
 * every rank passes the same medium.
 */
ionf_status ionf_thermal_solve(ionf_thermal *thermal, const double *t_k, const double *p_atm,
                               const double *x_h2o, const double *x_co2, double *q_w_per_m3,
                               double *q_sigma_w_per_m3, int memory);

/**
 * Face `face` (0..5: x_lo, x_hi, y_lo, y_hi, z_lo, z_hi)'s wall patches: dims[0] x dims[1]
 * in C order of its two other axes (x faces [ny][nz], y faces [nx][nz], z faces [nx][ny]);
 * 0 x 0 on a periodic axis.  dims may be NULL.
 */
ionf_status ionf_thermal_wall_shape(const ionf_thermal *thermal, int face, int64_t dims[2]);
/**
 * The last solve's net radiative flux into face `face`'s wall [W/m^2] (absorbed - emitted,
 * > 0: the wall is heated) and its standard error, every patch (on every rank), copied into
 * host arrays of `count` = dims[0] * dims[1] values (ionf_thermal_wall_shape); q_sigma may
 * be NULL.  Before any solve: IONF_STATUS_USAGE.  Not collective.
 */
ionf_status ionf_thermal_wall_flux(const ionf_thermal *thermal, int face, double *q_w_per_m2,
                                   double *q_sigma_w_per_m2, int64_t count);
/** The last solve's rays (all ranks), cell crossings and wall-clock time [s]; any pointer
    may be NULL. */
ionf_status ionf_thermal_stats(const ionf_thermal *thermal, int64_t *rays, int64_t *steps,
                               double *solve_s);

#ifdef __cplusplus
}
#endif

#endif /* IONFRONT_H */
