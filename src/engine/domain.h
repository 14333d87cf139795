/**
 * @file domain.h
 * @brief What the one engine loop asks of a kind of domain (internal to src/engine).
 *
 * The engine (engine.c, engine_run.c, engine_reduce.c) does everything that does not
 * depend on what the cells are: the iteration of tracers and chemistry, the sums
 * over ranks, convergence, the step-length rule, the run loop, logs, checkpoints and
 * stop signals.  A domain supplies the rest:
 *
 * | op                 | grid (grid_domain.c, grid_output.c)              | particles (particle_domain.c, particle_output.c) |
 * |--------------------|--------------------------------------------------|--------------------------------------------------|
 * | make_compute       | ASORA or Monte Carlo, plane sources; on the backend's device | the particle tracer (CPU, CUDA, a test's); CPU or staged CUDA chemistry |
 * | share_sources      | by tracing cost (engine/partition.h)             | contiguous blocks                                |
 * | step_prepare       | a production run's interval; dilution, T_CMB, H  | nothing                                          |
 * | step_means         | by volume, and by mass from n_H                  | by particle, and by hydrogen atoms               |
 * | step_done          | Monte Carlo: packets for the next step           | nothing                                          |
 * | sync_host          | Monte Carlo's error of Gamma                     | nothing                                          |
 * | write_output       | snapshot, XDMF, C2-Ray binaries, I-front record  | particle snapshot (Gadget layout)                |
 * | write_checkpoint   | the snapshot layout as DIR/checkpoint.h5         | the particle snapshot with its identity          |
 * | restart            | x, T (n_H in expanding boxes), the interval      | x, T after checking the particle set's identity  |
 * | run_begin/step_record/run_end | ifront.csv                            | nothing                                          |
 */
#ifndef IONF_DOMAIN_H
#define IONF_DOMAIN_H

#include <stdio.h>

#include "engine/engine.h"

struct domain_ops {
  const char *name; /*!< "grid", "particles" */
  /** The tracers (e->tracers) and the chemistry (e->chem_solver), once e->backend holds
      the fields: on its device, or as the domain chooses. */
  ionf_err (*make_compute)(struct engine *e);
  /** Share e->sources among the ranks: set first_source, source_count, source_imbalance. */
  ionf_err (*share_sources)(struct engine *e);
  /** Before a step of dt_s starts from e->time_s (before x_av := x). */
  ionf_err (*step_prepare)(struct engine *e, double dt_s);
  /** The step's means from the last chemistry pass (after x := x_end). */
  void (*step_means)(const struct engine *e, const struct chem_pass_result *cr,
                     struct engine_step_info *info);
  /** After a step (time and step already advanced); NULL: nothing. */
  ionf_err (*step_done)(struct engine *e);
  /** After the host fields were made current (engine_sync_to_host); NULL: nothing. */
  ionf_err (*sync_host)(struct engine *e);
  /** Snapshot NNNN = index of the current state (collective); its path into report. */
  ionf_err (*write_output)(struct engine *e, int index, struct engine_report *report);
  /** DIR/checkpoint.h5 of the current state, with the next snapshot's number (collective). */
  ionf_err (*write_checkpoint)(struct engine *e, int next_index, char *path, size_t size);
  /** Continue from a checkpoint (collective). */
  ionf_err (*restart)(struct engine *e, const char *path);
  /** Per-run files beside the log (rank 0 only), a row after each step, closing. NULL: none. */
  ionf_err (*run_begin)(struct engine *e, FILE **file);
  ionf_err (*step_record)(struct engine *e, FILE *file);
  /** Release the domain's own state. */
  void (*destroy)(struct engine *e);
};

extern const struct domain_ops grid_domain_ops;
extern const struct domain_ops particle_domain_ops;

/**
 * What both kinds of run do after their own set-up (fields, sources, tables): the
 * backend of kind `fields_on` with the working fields, the domain's tracers and
 * chemistry (make_compute), the reduction mode, the sources shared and handed out.
 * Collective.
 */
IONF_NODISCARD ionf_err engine_setup_compute(struct engine *e, enum backend_kind fields_on);

#endif
