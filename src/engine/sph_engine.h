/**
 * @file sph_engine.h
 * @brief The particle engine: C2-Ray's iteration of ray tracing and chemistry
 *        on SPH particles (the mirror of engine.h for grids).
 *
 * One step (docs/design.md, "Particle engine"): x_av := x; repeat { Gamma :=
 * trace(this rank's sources, columns from x_av) (src/sph_trace.h); Allreduce
 * (Gamma, heating); every particle: chem_cell_update(_thermal) (src/chem_k.h, on
 * the host or, with the CUDA tracer, on the GPU: src/sph_chem.h;
 * C2-Ray's time-averaged implicit update with the particle's n_H and n_e) ->
 * x_av, x_end (T_av, T_end) } until sum(x_end), sum(1 - x_end) (and sum(T_end))
 * change by less than convergence_fraction; x := x_end.
 *
 * Every rank holds every particle and its own tree; the sources are shared out
 * in contiguous blocks of equal count (each source's rays cover the whole set,
 * so sources cost alike); chemistry is replicated on every rank, so all ranks
 * hold the same state without further messages.
 */
#ifndef IONF_SPH_ENGINE_H
#define IONF_SPH_ENGINE_H

#include <stdint.h>

#include "particles/bvh.h"
#include "chem/chem_k.h"
#include "engine/engine.h"
#include "particles/particles.h"
#include "rt/photo_tables.h"
#include "config/sph_config.h"
#include "particles/sph_trace.h"

/** A tracer: sph_trace_cpu, sph_trace_cuda, or a test's stand-in. */
typedef ionf_err (*sph_trace_fn)(const struct sph_trace_input *in, struct sph_trace_output *out,
                                 struct sph_trace_stats *stats);

struct sph_engine {
  const struct sph_config *cfg;  /*!< borrowed; must outlive the engine */
  struct particle_set particles;
  struct bvh tree;
  /* per particle */
  double *n_h_cm3;               /*!< X_H rho / m_p */
  double *x_hii, *x_hii_av, *x_hii_end;
  double *temperature_k, *temperature_av_k, *temperature_end_k; /*!< av/end: thermal runs */
  double *gamma_hi_per_s, *heating_erg_per_s;                    /*!< heating: thermal runs */
  /* sources (positions in the particles' frame) */
  int64_t first_source, source_count; /*!< this rank's share */
  struct photo_tables tables;
  struct chem_params chem;
  sph_trace_fn trace;
  const char *tracer_name;       /*!< "cpu", "cuda" or "injected" */
  int chem_on_gpu;               /*!< chemistry by sph_chem_cuda_pass (with the CUDA tracer) */
  int64_t n_rays;                /*!< per source */
  double time_s;
  int64_t step;
  double sum_n_h_atoms;          /*!< mass-weighted means */
  struct engine_timers timers;
  int64_t hits;                  /*!< ray-particle intersections traced by this rank */
  int restarted;                 /*!< state came from a checkpoint (sph_engine_restart) */
  int next_snapshot_index;       /*!< NNNN of the next snapshot after a restart */
  char identity[17];             /*!< the particle set's (io/sph_checkpoint.h); "" until needed */
};

/** Per-step outcome (as for grids). */
struct sph_step_info {
  int iterations;
  int converged;
  double x_mean;                 /*!< mean x_HII over particles */
  double x_mean_mass;            /*!< hydrogen-weighted mean x_HII */
};

/** Rays per source when the config says 0: the tracer's default (sph_rays_default_nside). */
int64_t sph_engine_default_rays(int64_t n_particles);

/**
 * Set up: particles (file or generated), n_H, initial state, the tree, tables
 * and this rank's sources.  trace NULL: the config's backend (auto: CUDA when
 * a GPU is present); else that function (tests).  Collective.
 */
IONF_NODISCARD ionf_err sph_engine_create(const struct sph_config *cfg, sph_trace_fn trace,
                                          struct sph_engine **out);
/** Advance by dt_s (C2-Ray's iteration to convergence).  Collective. */
IONF_NODISCARD ionf_err sph_engine_step(struct sph_engine *e, double dt_s,
                                        struct sph_step_info *info);
/**
 * Run to t_end with snapshots and log.csv; DIR/checkpoint.h5 every
 * output.checkpoint_every steps, and on SIGTERM / SIGUSR1 (engine_stop_requested)
 * a checkpoint and IONF_STOPPED.  After sph_engine_restart it continues the log and
 * the snapshot numbering.  Collective.
 */
IONF_NODISCARD ionf_err sph_engine_run(struct sph_engine *e, struct engine_report *report);
void sph_engine_destroy(struct sph_engine *e);

/** DIR/snapshot_NNNN.h5 of the current state (rank 0 writes); path_out may be NULL. */
IONF_NODISCARD ionf_err sph_engine_write_snapshot(struct sph_engine *e, int index, char *path_out,
                                                  size_t path_out_size);
/**
 * DIR/checkpoint.h5 of the current state (io/sph_checkpoint.h; rank 0 writes through a
 * temporary file renamed into place); next_index: the NNNN of the next snapshot.
 * Collective.
 */
IONF_NODISCARD ionf_err sph_engine_write_checkpoint(struct sph_engine *e, int next_index,
                                                    char *path_out, size_t path_out_size);
/**
 * Continue from checkpoint `path`: x_HII, T, time, step, next snapshot index.  Every
 * rank reads it (the state is replicated), so any rank count continues any
 * checkpoint.  Refused (naming the file and the mismatch) for other particles,
 * tracer settings, a grid checkpoint, or a checkpoint already at time.t_end.
 * Right after sph_engine_create.  Collective.
 */
IONF_NODISCARD ionf_err sph_engine_restart(struct sph_engine *e, const char *path);

#endif /* IONF_SPH_ENGINE_H */
