/**
 * @file engine.c
 * @brief The engine's compute set-up and its time step, for every kind of domain:
 *        ray tracing and chemistry iterated to convergence (C2-Ray's scheme).
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/domain.h"
#include "config/config_compare.h"
#include "config/config_views.h"
#include "engine/engine_reduce.h"
#include "io/checkpoint.h"
#include "io/io_sed.h"
#include "io/output_dir.h"
#include "mpi/comm.h"

ionf_err engine_setup_compute(struct engine *e, enum backend_kind fields_on) {
  const struct ionf_config *cfg = e->cfg;
  IONF_CALL(backend_create(fields_on, comm_local_rank(), &e->backend));
  int on_gpu = strcmp(e->backend->type_name, "cuda") == 0;
  struct backend_setup setup;
  setup.host = &e->fields;
  setup.tables = &e->tables;
  setup.bands = bands_built(&e->bands) ? &e->bands : NULL;
  setup.want_device_sum =
      on_gpu && (cfg->reduction == REDUCTION_AUTO || cfg->reduction == REDUCTION_NCCL);
  IONF_CALL(e->backend->ops.setup(e->backend, &setup));
  /* the way ranks sum the rates, as measured best (benchmarks/RESULTS.md) where asked for
     'auto'; particle fields live on the host: their chemistry split by blocks of particles */
  e->reduction = cfg->reduction;
  if (e->reduction == REDUCTION_AUTO ||
      (e->kind == ENGINE_PARTICLES && e->reduction == REDUCTION_NCCL)) /* (NCCL: the split's sums) */
    e->reduction = e->kind == ENGINE_PARTICLES || !on_gpu ? REDUCTION_SCATTER
                   : e->backend->ops.sum_rates            ? REDUCTION_NCCL
                                                          : REDUCTION_ALLREDUCE;
  if (e->reduction == REDUCTION_NCCL && !e->backend->ops.sum_rates) {
    if (comm_size() > 1)
      ionf_warning("mpi.reduction = nccl, but NCCL is not usable here (%s); summing through the host",
                   on_gpu ? "see the backend line" : "the CPU backend");
    e->reduction = REDUCTION_ALLREDUCE;
  }
  IONF_CALL(e->backend->ops.upload(e->backend, FIELD_ALL, 0, e->fields.cells));
  IONF_CALL(e->domain->make_compute(e));
  return engine_share_sources(e);
}

ionf_err engine_share_sources(struct engine *e) {
  IONF_CALL(e->domain->share_sources(e));
  e->ndot_total_per_s = sources_total_ndot(&e->sources);
  struct tracer_sources ts = {&e->sources, e->first_source, e->source_count};
  for (int t = 0; t < e->n_tracers; ++t) IONF_CALL(tracer_set_sources(e->tracers[t], &ts));
  return IONF_OK;
}

ionf_err engine_helium_make(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  e->chem_he_now = config_views_chem_he(cfg);
  if (e->fields.n_species == 1) return IONF_OK;
  struct sed table;
  memset(&table, 0, sizeof table);
  if (cfg->spectrum == SPECTRUM_TABLE) IONF_CALL(io_sed_read(cfg->spectrum_file, &table));
  struct bands_setup setup = config_views_bands(cfg, &table);
  ionf_err rc = bands_build(&setup, &e->bands);
  sed_free(&table);
  return rc;
}

void engine_destroy(struct engine *e) {
  if (!e) return;
  for (int t = 0; t < e->n_tracers; ++t) tracer_destroy(e->tracers[t]);
  chem_solver_destroy(e->chem_solver);
  backend_destroy(e->backend);
  if (e->domain && e->domain->destroy) e->domain->destroy(e);
  photo_tables_free(&e->tables);
  bands_free(&e->bands);
  sources_free(&e->sources);
  free(e->seq_suppressed_cells);
  free(e->seq_sources_by_interval);
  fields_free(&e->fields);
  free(e);
}

void engine_describe(const struct engine *e, char *buf, size_t size) {
  size_t used = (size_t)snprintf(buf, size, "%s", e->backend ? e->backend->description : "");
  for (int t = 0; t < e->n_tracers && used < size; ++t)
    if (e->tracers[t]->description[0])
      used += (size_t)snprintf(buf + used, size - used, "; %s: %s", e->tracers[t]->name,
                               e->tracers[t]->description);
}

ionf_err engine_trace_pass(struct engine *e, struct trace_stats *stats) {
  const struct fields *w = &e->backend->work;
  struct tracer_fields f = {.cells = w->cells,
                            .n_species = w->n_species,
                            .abundance_he = w->abundance_he,
                            .n_h_cm3 = w->n_h_cm3,
                            .x_ion_av = w->x_ion_av,
                            .temperature_k = w->temperature_k,
                            .cell_cm = e->grid.cell_cm,
                            .r_max_cells = e->r_max_cells};
  memset(stats, 0, sizeof *stats);
  return tracer_pass(e->tracers, e->n_tracers, &f, w->gamma_per_s, w->heating_erg_per_s, stats);
}

/* One pass of the domain's tracers.  A rank whose tracing fails (GPU memory, ...) must
   not leave the others waiting in the reduction: every rank agrees first. */
static ionf_err trace_pass(struct engine *e) {
  double t0 = ionf_wtime();
  struct trace_stats ts;
  ionf_err rc = engine_trace_pass(e, &ts);
  if (rc == IONF_OK && e->cfg->debug.fail_trace_rank == comm_rank()) /* debug: test hook */
    rc = ionf_error_set(IONF_ERR_GPU_MEM, "rank %d: ray tracing failed (injected fault)",
                        comm_rank());
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank failed while ray tracing");
  e->cells_traced += ts.cells_traced;
  e->hits += ts.hits;
  e->timers.trace_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err engine_step(struct engine *e, double dt_s, struct engine_step_info *info) {
  const struct ionf_config *cfg = e->cfg;
  struct backend *be = e->backend;
  e->mid_step = 1; /* sequence_load resets it when the inputs could not be read */
  IONF_CALL(e->domain->step_prepare(e, dt_s));
  IONF_CALL(be->ops.step_begin(be));

  /* C2-Ray's global criterion: few cells still changing, or sums settled. */
  double cells = (double)e->global_cells;
  double tol = cfg->convergence_fraction;
  int64_t by_count = (int64_t)(tol * cells);
  int64_t by_sources = (e->sources.n - 1) / 3;
  int64_t conv_cells = by_count < by_sources ? by_count : by_sources;
  double prev_sum_ion = 2.0 * cells, prev_sum_neutral = 2.0 * cells, prev_sum_t = -1.0;
  int thermal = e->fields.temperature_av_k != NULL;
  struct chem_pass_result cr;
  memset(&cr, 0, sizeof cr);
  info->converged = 0;
  for (info->iterations = 1; info->iterations <= cfg->max_iterations; ++info->iterations) {
    IONF_CALL(trace_pass(e));
    IONF_CALL(engine_sum_rates_and_update(e, dt_s, &cr));
    double rel_ion = fabs(cr.sum_x_end - prev_sum_ion) / cr.sum_x_end;
    double rel_neutral = fabs(cr.sum_x_neutral_end - prev_sum_neutral) / cr.sum_x_neutral_end;
    /* with an evolving temperature, the sum of T must settle too (C2-Ray's |dT/T|) */
    int t_settled = !thermal || (prev_sum_t > 0.0 && fabs(cr.sum_t_end - prev_sum_t) <
                                                         tol * cr.sum_t_end);
    prev_sum_ion = cr.sum_x_end;
    prev_sum_neutral = cr.sum_x_neutral_end;
    prev_sum_t = cr.sum_t_end;
    if (cr.unconverged_cells < conv_cells || (rel_ion < tol && rel_neutral < tol && t_settled)) {
      info->converged = 1;
      break;
    }
  }
  if (info->iterations > cfg->max_iterations) info->iterations = cfg->max_iterations;
  IONF_CALL(engine_share_end_state(e));
  IONF_CALL(be->ops.step_end(be));
  e->time_s += dt_s;
  e->step++;
  if (e->domain->step_done) IONF_CALL(e->domain->step_done(e));
  e->domain->step_means(e, &cr, info);
  e->mid_step = 0;
  return IONF_OK;
}

ionf_err engine_sync_to_host(struct engine *e) {
  IONF_CALL(e->backend->ops.download(e->backend, FIELD_X | FIELD_GAMMA | FIELD_T | FIELD_N_H, 0,
                                     e->fields.cells));
  /* After a step the rates are complete only where they were summed: make them whole. */
  IONF_CALL(engine_complete_rates(e));
  if (e->domain->sync_host) IONF_CALL(e->domain->sync_host(e));
  return IONF_OK;
}

ionf_err engine_write_snapshot(struct engine *e, int index, char *path, size_t size) {
  IONF_CALL(output_dir_prepare_all(e->cfg->output_dir));
  struct engine_report report;
  memset(&report, 0, sizeof report);
  IONF_CALL(e->domain->write_output(e, index, &report));
  if (path && size > 0) snprintf(path, size, "%s", report.last_snapshot);
  return IONF_OK;
}

ionf_err engine_write_checkpoint(struct engine *e, char *path, size_t size) {
  IONF_CALL(output_dir_prepare_all(e->cfg->output_dir));
  char where[IONF_PATH_MAX + 32];
  IONF_CALL(e->domain->write_checkpoint(e, e->next_snapshot_index > 0 ? e->next_snapshot_index : 1,
                                        where, sizeof where));
  if (path && size > 0) snprintf(path, size, "%s", where);
  return IONF_OK;
}

/* The checkpoint's run and this one agree on every key a restart may not change
   (config/config_compare.h); a checkpoint without a stored configuration (an older
   ionfront's) is taken with a warning.  Collective: every rank learns a failure. */
static ionf_err engine_restart_check_config(const struct engine *e, const char *path) {
  char *old_yaml = NULL;
  struct config_compare_diff moved;
  memset(&moved, 0, sizeof moved);
  ionf_err rc = checkpoint_read_config(path, &old_yaml);
  if (rc == IONF_OK && old_yaml)
    rc = config_compare_restart(path, old_yaml, e->cfg->effective_yaml, &moved);
  if (rc == IONF_OK && moved.key[0] && comm_rank() == 0)
    ionf_warning("checkpoint '%s' was written by a run that read %s = %s; this run reads %s: "
                 "the restart takes it for the same file (moved)",
                 path, moved.key, moved.old_value, moved.new_value);
  else if (rc == IONF_OK && comm_rank() == 0)
    ionf_warning("checkpoint '%s' carries no configuration (an older ionfront's): cannot check "
                 "that this run's config matches the one that wrote it",
                 path);
  free(old_yaml);
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank could not check checkpoint '%s'", path);
  return IONF_OK;
}

ionf_err engine_restart(struct engine *e, const char *path) {
  IONF_CHECK(e->step == 0 && !e->restarted, IONF_ERR_USAGE,
             "a restart must come right after the engine's creation (this engine has taken %lld "
             "step(s))",
             (long long)e->step);
  IONF_CALL(e->domain->restart(e, path));
  IONF_CALL(engine_restart_check_config(e, path));
  e->restarted = 1;
  e->restart_in_place = output_dir_holds_file(e->cfg->output_dir, path);
  return IONF_OK;
}
