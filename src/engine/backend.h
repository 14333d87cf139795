/**
 * @file backend.h
 * @brief Where a run's working fields live: on the host, or in one GPU's memory
 *        for the whole ray-tracing <-> chemistry iteration (PETSc-style ops table).
 *
 * The engine keeps the host fields (fields/fields.h); a backend holds the working
 * copies the tracers (rt/tracer.h) and the chemistry (chem/chem.h) compute on, and
 * moves fields between the two only when asked (outputs, the MPI sum of the rates).
 * The CPU backend's working copies are the host arrays themselves; the CUDA backend
 * (gpu/engine/backend_cuda.cu) allocates them on its device, with the rate tables,
 * one stream for every kernel of the run, and the NCCL sum of the rates when it loads.
 * Calls are coarse (one per pass), so a table of function pointers costs nothing
 * and lets CPU and CUDA be chosen at run time.
 */
#ifndef IONF_BACKEND_H
#define IONF_BACKEND_H

#include <stdint.h>

#include "config/config.h" /* enum backend_kind */
#include "core/error.h"
#include "fields/fields.h"
#include "grid/decomp.h"
#include "rt/bands.h"
#include "rt/photo_k.h"
#include "rt/photo_tables.h"

/**
 * Fields moved by upload / download (bit mask).  X, X_AV, X_END, GAMMA and HEAT
 * are per species (fields/fields.h): a range [first, first + count) of cells moves
 * for every species.
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

/** Whether a field bit holds one block per species. */
static inline int backend_field_per_species(unsigned bit) {
  return (bit & (FIELD_X | FIELD_X_AV | FIELD_X_END | FIELD_GAMMA | FIELD_HEAT)) != 0;
}

/** The array of field `bit` in a set of fields (NULL for a thermal field of an isothermal run). */
double *backend_field_array(const struct fields *f, unsigned bit);

/**
 * The copies that start a step (at_end 0: x_av := x, x_end := x, and T_av := T, T_end := T
 * when the temperature evolves) or end it (at_end 1: x := x_end, T := T_end) in a set of
 * fields: n pairs dst[i] := src[i] of count[i] doubles (n returned, at most 4).
 */
int backend_step_copies(const struct fields *f, int at_end, double **dst, const double **src,
                        int64_t *count);

/** What a backend works on; the pointed-to data must outlive the backend. */
struct backend_setup {
  struct fields *host;               /*!< the engine's host fields */
  const struct photo_tables *tables; /*!< the rate tables (the CUDA backend copies them) */
  const struct bands *bands;         /*!< with helium: the band tables (copied likewise); else NULL */
  int want_device_sum;               /*!< set up sum_rates if possible (collective) */
};

struct backend;

struct backend_ops {
  /** Take the fields and tables: allocate the working copies (not filled: upload). */
  ionf_err (*setup)(struct backend *be, const struct backend_setup *s);
  /** Host -> working copies of the fields in `mask`, cells [first, first + count). */
  ionf_err (*upload)(struct backend *be, unsigned mask, int64_t first, int64_t count);
  /** Working copies -> host fields in `mask`, cells [first, first + count). */
  ionf_err (*download)(struct backend *be, unsigned mask, int64_t first, int64_t count);
  /** Start a step: x_av := x, x_end := x (and T_av, T_end := T). */
  ionf_err (*step_begin)(struct backend *be);
  /** End a step: x := x_end (and T := T_end). */
  ionf_err (*step_end)(struct backend *be);
  /** Multiply the working n_H by `factor` (dilution of an expanding box). */
  ionf_err (*scale_density)(struct backend *be, double factor);
  /**
   * Sum the rates over the MPI ranks where they live (NCCL in GPU memory); NULL when
   * the backend cannot (the engine then stages through the host).
   */
  ionf_err (*sum_rates)(struct backend *be);
  /** out[m] = working field `bit`'s value at cell first + m * stride, m < count (a line). */
  ionf_err (*read_strided)(struct backend *be, unsigned bit, int64_t first, int64_t stride,
                           int64_t count, double *out);
  /** Release everything the backend holds. */
  void (*destroy)(struct backend *be);
  /**
   * A grid split into slabs (grid/decomp.h), in the backend's memory: add 0: every
   * halo plane of the fields in `mask` := its owner's (d->recv from d->send); add 1:
   * every owned plane += the peers' halo copies of it, in the order of d->send.  NULL:
   * the engine moves them through the host (engine/engine_halo.c).  Collective among
   * neighbours.
   */
  ionf_err (*halo)(struct backend *be, const struct decomp *d, unsigned mask, int add);
};

struct backend {
  const char *type_name;          /*!< "cpu" or "cuda" */
  struct backend_ops ops;
  void *impl;                     /*!< implementation-private state */
  struct fields work;             /*!< the working copies (after setup), in the backend's memory */
  struct photo_table_view tables; /*!< the rate tables, in the backend's memory */
  struct bands_view bands;        /*!< with helium: the band tables there (bands_view_built) */
  void *stream;                   /*!< CUDA: the cudaStream_t of every kernel of the run */
  int device;                     /*!< CUDA device; -1 on the CPU */
  char description[480];          /*!< for the start-up log (device name, threads) */
};

/**
 * Create the backend asked for.  AUTO picks CUDA when this build has it and a GPU is
 * present, else CPU (and says why in the description).  CUDA takes GPU (local_rank
 * mod the device count).  Asking for CUDA without a GPU (or in a CPU-only build) is
 * IONF_ERR_UNSUPPORTED with a message saying which.
 */
IONF_NODISCARD ionf_err backend_create(enum backend_kind kind, int local_rank,
                                       struct backend **out);
void backend_destroy(struct backend *be);

/** Implementations. */
IONF_NODISCARD ionf_err backend_create_cpu(struct backend **out);
IONF_NODISCARD ionf_err backend_create_cuda(int local_rank, struct backend **out);

#endif
