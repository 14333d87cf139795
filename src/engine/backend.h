/**
 * @file backend.h
 * @brief The compute backend boundary: ray tracing and chemistry behind an
 *        ops table, one implementation per device kind (PETSc-style).
 *
 * A backend holds the working copies of the fields: the CPU backend works on
 * the engine's host arrays directly; the CUDA backend keeps them in GPU memory
 * for the whole ray-tracing <-> chemistry iteration and copies to or from the
 * host only when asked (outputs, the MPI sum of Gamma).  Calls are coarse (one
 * per pass), so a table of function pointers costs nothing and lets CPU and
 * CUDA be chosen at run time.
 */
#ifndef IONF_BACKEND_H
#define IONF_BACKEND_H

#include "rt/asora/asora.h"
#include "chem/chem.h"
#include "config/config.h"
#include "core/error.h"
#include "grid/grid.h"
#include "rt/mc/mc.h"
#include "rt/photo_tables.h"
#include "rt/planar/planar_k.h"

/**
 * Fields moved by upload / download (bit mask).  X, X_AV, X_END, GAMMA and HEAT
 * are per species ([species][n^3], grid.h): a range [first, first + count) of
 * cells moves for every species.
 */
enum backend_field {
  FIELD_N_H = 1,
  FIELD_X = 2,       /*!< start-of-step ion fractions */
  FIELD_X_AV = 4,
  FIELD_X_END = 8,
  FIELD_T = 16,
  FIELD_GAMMA = 32,
  FIELD_T_AV = 64,   /*!< thermal runs only */
  FIELD_T_END = 128, /*!< thermal runs only */
  FIELD_HEAT = 256,  /*!< photo-heating rate, thermal runs only */
  FIELD_ALL = 511
};

/** Whether a field bit holds one n^3 block per species. */
static inline int backend_field_per_species(unsigned bit) {
  return (bit & (FIELD_X | FIELD_X_AV | FIELD_X_END | FIELD_GAMMA | FIELD_HEAT)) != 0;
}

/** What a backend works on; the pointed-to data must outlive the backend. */
struct backend_setup {
  struct grid grid;
  struct grid_fields *host;          /*!< the engine's host fields */
  const struct source_list *sources; /*!< all sources */
  int64_t first_source, source_count;/*!< this rank's share */
  const struct photo_tables *tables;
  struct chem_params chem;
  double r_max_cells;                /*!< photon radius [cells]; <= 0: whole box */
  int64_t source_batch_size;         /*!< GPU sources in flight; 0 = automatic */
  const struct planar_source *planes;/*!< plane-parallel sources this rank traces */
  int n_planes;                      /*!< (0 on every rank but one: they are summed once) */
  int want_device_sum;               /*!< set up gamma_allreduce if possible (collective) */
  struct mc_state *mc;               /*!< raytracing.method montecarlo: packets instead of
                                          ASORA (the engine's; its gamma_sq receives the
                                          tallies on download of FIELD_GAMMA); NULL: ASORA */
};

/** What changes from step to step in an expanding universe. */
struct backend_step_params {
  double cell_cm;               /*!< proper cell size [cm] */
  double density_factor;        /*!< multiply n_H by this (dilution; 1 = unchanged) */
  struct chem_params chem;      /*!< rate parameters (T_CMB, H(z) for the thermal terms) */
};

struct rt_backend;

struct rt_backend_ops {
  /** Apply a step's geometry, dilution and chemistry parameters (cosmological runs). */
  ionf_err (*set_step)(struct rt_backend *be, const struct backend_step_params *p);
  /** Take the problem: allocate working fields, copy sources and tables. */
  ionf_err (*setup)(struct rt_backend *be, const struct backend_setup *s);
  /**
   * Replace the sources (a new halo catalogue of a production run): all sources
   * `sources` (must outlive the backend or the next call), this rank's share
   * [first, first + count), possibly empty.  Fields and tables stay.
   */
  ionf_err (*set_sources)(struct rt_backend *be, const struct source_list *sources,
                          int64_t first_source, int64_t source_count);
  /** Host -> working copies of the fields in `mask`, cells [first, first + count). */
  ionf_err (*upload)(struct rt_backend *be, unsigned mask, int64_t first, int64_t count);
  /** Working copies -> host fields in `mask`, cells [first, first + count). */
  ionf_err (*download)(struct rt_backend *be, unsigned mask, int64_t first, int64_t count);
  /** Start a step: x_av := x, x_end := x. */
  ionf_err (*step_begin)(struct rt_backend *be);
  /** Gamma := the rates of this rank's point and plane sources at the current x_av. */
  ionf_err (*trace)(struct rt_backend *be, struct trace_stats *stats);
  /**
   * Sum Gamma over the MPI ranks where it lives (NCCL in GPU memory); NULL
   * when the backend cannot (then the engine stages through the host).
   */
  ionf_err (*gamma_allreduce)(struct rt_backend *be);
  /** One chemistry pass over cells [first, first + count) with the current Gamma. */
  ionf_err (*chemistry)(struct rt_backend *be, double dt_s, int64_t first, int64_t count,
                        struct chem_pass_result *result);
  /** End a step: x := x_end. */
  ionf_err (*step_end)(struct rt_backend *be);
  /** x_HII[i][j][k] for i = 0..n-1 (a line through the grid), into out. */
  ionf_err (*read_x_line)(struct rt_backend *be, int64_t j, int64_t k, double *out);
  /** Release everything the backend holds. */
  void (*destroy)(struct rt_backend *be);
};

struct rt_backend {
  const char *type_name;          /*!< "cpu" or "cuda" */
  struct rt_backend_ops ops;
  void *impl;                     /*!< implementation-private state */
  char description[480];          /*!< for the start-up log (device name, threads) */
  long long inflight_sources;     /*!< sources traced at once (GPU batch; CPU threads) */
  double column_bytes_per_source; /*!< column-buffer bytes of one in-flight source */
};

/**
 * Create the backend the config asks for.  AUTO picks CUDA when this build
 * has it and a GPU is present, else CPU (and says why in the description).
 * Asking for CUDA without a GPU (or in a CPU-only build) is
 * IONF_ERR_UNSUPPORTED with a message saying which.
 */
IONF_NODISCARD ionf_err rt_backend_create(enum backend_kind kind, struct rt_backend **out);
void rt_backend_destroy(struct rt_backend *be);

/** Implementations. */
IONF_NODISCARD ionf_err rt_backend_create_cpu(struct rt_backend **out);
IONF_NODISCARD ionf_err rt_backend_create_cuda(struct rt_backend **out);
/** Number of usable CUDA devices (0 in a CPU-only build or without a GPU). */
int rt_backend_cuda_device_count(void);

#endif
