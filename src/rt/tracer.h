/**
 * @file tracer.h
 * @brief The tracer interface: fields and sources in, photoionization (and
 *        photo-heating) rates per species out.
 *
 * One ops table, implemented by every way ionfront carries photons, each on the
 * CPU and on CUDA (the per-cell maths shared through *_k.h headers):
 *
 * | tracer       | CPU                            | CUDA                          |
 * |--------------|--------------------------------|-------------------------------|
 * | `asora`      | rt/asora/asora_tracer.c         | gpu/rt/asora/asora_cuda.cu    |
 * | `planar`     | rt/planar/planar_tracer.c       | gpu/rt/planar/planar_cuda.cu  |
 * | `montecarlo` | rt/mc/mc_tracer.c               | gpu/rt/mc/mc_trace.cu         |
 * | `sph`        | particles/sph_tracer.c (CPU)    | particles/sph_tracer.c (CUDA pass gpu/particles) |
 *
 * A domain (engine/domain.h) holds a list of tracers; one pass calls them in
 * order on the same rates (tracer_pass): the first sets every cell (clearing
 * what it does not reach), the later ones add.  A tracer's arrays live in its
 * `memory`: on the host, or in GPU memory next to the CUDA backend's fields
 * (engine/backend.h), so that a grid iteration never leaves the GPU.
 * Constructors take each implementation's own set-up struct (geometry, tables,
 * R_max, ...); everything that changes from pass to pass comes through here.
 */
#ifndef IONF_TRACER_H
#define IONF_TRACER_H

#include <stdint.h>

#include "core/error.h"
#include "grid/sources.h"

/** Where a tracer's field and rate arrays live. */
enum tracer_memory { TRACER_HOST = 0, TRACER_DEVICE = 1 };

/** What a pass reads, in the tracer's memory: the state at the iteration's averages. */
struct tracer_fields {
  int64_t cells;              /*!< cells (or particles) held: the stride between species */
  int n_species;              /*!< species blocks of x_ion_av and the rates (species_k.h) */
  double abundance_he;        /*!< n_He / n_H (0: hydrogen alone) */
  const double *n_h_cm3;      /*!< [cells] */
  const double *x_ion_av;     /*!< [species][cells] time-averaged ion fractions */
  const double *temperature_k;/*!< [cells] start-of-step temperature (Monte Carlo's diffuse field) */
  double cell_cm;             /*!< grids: the proper cell size of this step (expanding boxes) */
  double r_max_cells;         /*!< grids: this step's photon radius [cells] (<= 0: the whole
                                   box); at most the radius the tracer was made with, which
                                   sized its buffers (raytracing.mean_free_path changes it) */
};

/** Whether a pass's photon radius fits what a tracer was made with (`made` <= 0: any). */
static inline int tracer_radius_fits(double pass_cells, double made_cells) {
  return !(made_cells > 0.0) || (pass_cells > 0.0 && pass_cells <= made_cells);
}

/** What a pass writes, in the tracer's memory. */
struct tracer_rates {
  double *gamma_per_s;        /*!< [species][cells] photoionization rate per absorber [1/s] */
  double *heating_erg_per_s;  /*!< [species][cells] photo-heating per absorber [erg/s]; NULL: none */
  int accumulate;             /*!< 0: set every cell (zero where no photons arrive); 1: add */
};

/** The point sources a tracer carries: this rank's share of a list. */
struct tracer_sources {
  const struct source_list *list; /*!< all sources (must outlive the tracer or the next call) */
  int64_t first, count;           /*!< this rank's: [first, first + count), possibly empty */
};

/** What a pass did, for logs and benchmarks (added to). */
struct trace_stats {
  int64_t cells_traced;       /*!< (source, cell) pairs visited (grids) */
  int64_t rays;               /*!< rays traced (particles) */
  int64_t hits;               /*!< ray-particle intersections (particles) */
};

struct tracer;

struct tracer_ops {
  /** After t->sources changed (tracer_set_sources): what the tracer must do with them
      (copy them to the GPU, check them); NULL: nothing. */
  ionf_err (*set_sources)(struct tracer *t, const struct tracer_sources *s);
  /** One pass: rates from the fields (see struct tracer_rates for set or add). */
  ionf_err (*trace)(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                    struct trace_stats *stats);
  /** Bring what the tracer tallies beside the rates to the host (Monte Carlo's sum of
      w^2 per cell); NULL when it keeps nothing. */
  ionf_err (*sync_host)(struct tracer *t);
  void (*destroy)(struct tracer *t);
};

struct tracer {
  const char *name;           /*!< "asora", "planar", "montecarlo", "sph" */
  enum tracer_memory memory;  /*!< where its fields and rates live */
  struct tracer_ops ops;
  struct tracer_sources sources; /*!< this rank's share of the point sources (tracer_set_sources) */
  void *impl;                 /*!< implementation-private state */
  char description[256];      /*!< for the start-up log ("" when there is nothing to say) */
  int64_t inflight_sources;   /*!< sources traced at once (GPU batch; 0: not applicable) */
  double column_bytes_per_source; /*!< column-buffer bytes of one in-flight source */
};

/** Allocate a tracer with its ops and private state of `impl_size` bytes (zeroed). */
IONF_NODISCARD ionf_err tracer_alloc(const char *name, enum tracer_memory memory,
                                     const struct tracer_ops *ops, size_t impl_size,
                                     struct tracer **out);
/**
 * For a host tracer's trace op: when `r` is the pass's first (not accumulate), zero its
 * rates of every species (OpenMP), the heating too when `heating` (a tracer that heats).
 */
void tracer_clear_host(const struct tracer_fields *f, const struct tracer_rates *r, int heating);
/** Hand a tracer this rank's share of the point sources (then its set_sources op). */
IONF_NODISCARD ionf_err tracer_set_sources(struct tracer *t, const struct tracer_sources *s);
/** Release a tracer (its destroy op, then the struct; NULL is fine). */
void tracer_destroy(struct tracer *t);

/**
 * One pass of a domain's tracers, in order, on the same rates: the first sets, the
 * rest add.  Stops at the first failure.
 */
IONF_NODISCARD ionf_err tracer_pass(struct tracer *const *tracers, int n_tracers,
                                    const struct tracer_fields *f, double *gamma_per_s,
                                    double *heating_erg_per_s, struct trace_stats *stats);

#endif /* IONF_TRACER_H */
