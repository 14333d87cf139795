/**
 * @file engine_run.c
 * @brief The one run loop: the step-length rule, outputs at their times, log.csv,
 *        progress lines, checkpoints and stop signals, for every kind of domain.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_subgrid.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/domain.h"
#include "engine/engine_eta.h"
#include "engine/sequence.h"
#include "io/output_dir.h"
#include "io/snapshot.h"
#include "mpi/comm.h"

double engine_next_step_length(const struct ionf_config *cfg, double t, double t_tiny) {
  double dt_max = cfg->dt_s;
  if (cfg->sequence.n_redshifts > 0)
    dt_max = sequence_step_s(&cfg->sequence, sequence_interval_at(&cfg->sequence, t, t_tiny));
  double target = cfg->t_end_s;
  for (int i = 0; i < cfg->n_outputs; ++i)
    if (cfg->output_times_s[i] > t + t_tiny) {
      if (cfg->output_times_s[i] < target) target = cfg->output_times_s[i];
      break;
    }
  double dt = dt_max < target - t ? dt_max : target - t;
  if (target - t - dt < t_tiny) dt = target - t;
  return dt;
}

/* ---- stopping on a signal -------------------------------------------------------- */

/* Set by the program's handler; read at the end of each step (async-signal-safe). */
static volatile sig_atomic_t stop_signal = 0;

void engine_note_stop_signal(int sig) { stop_signal = sig; }

ionf_err engine_stop_requested(const struct engine *e, int *signal_out) {
  *signal_out = 0;
  /* debug.signal_after_step (a test hook): a stop from outside, after that step */
  if (e->step == e->cfg->debug.signal_after_step && comm_rank() == 0) stop_signal = SIGUSR1;
  /* every rank stops at the same step if any was signalled */
  return comm_max_int((int)stop_signal, signal_out);
}

ionf_err engine_stopped_error(int sig, int64_t step, double time_s, const char *checkpoint) {
  return ionf_error_set(IONF_STOPPED,
                        "stopped by signal %d after step %lld (t = %.6g Myr); checkpoint "
                        "written to %s; continue with: ionfront run CONFIG --restart %s",
                        sig, (long long)step, time_s / IONF_MYR_S, checkpoint, checkpoint);
}

/* After a step: *checkpoint := 1 when one is due (every checkpoint_every steps, or a
   stop signal arrived) and the run is not `finished`; *stop := the stop signal when the
   run must end now (0: go on).  Collective. */
static ionf_err step_end(const struct engine *e, int finished, int64_t checkpoint_every,
                         int *checkpoint, int *stop) {
  int sig = 0;
  IONF_CALL(engine_stop_requested(e, &sig));
  int due = checkpoint_every > 0 && e->step % checkpoint_every == 0;
  *checkpoint = (sig || due) && !finished;
  *stop = finished ? 0 : sig;
  return IONF_OK;
}

/* ---- the loop ---------------------------------------------------------------------- */

static void format_duration(double s, char *buf, size_t size) {
  if (s < 1.0) snprintf(buf, size, "%.0f ms", 1e3 * s);
  else if (s < 120.0) snprintf(buf, size, "%.1f s", s);
  else if (s < 7200.0) snprintf(buf, size, "%.1f min", s / 60.0);
  else snprintf(buf, size, "%.1f h", s / 3600.0);
}

/* Where a run stands, for the progress lines: the recent steps' wall time (each from the
   previous step's end to its own, outputs and checkpoints included) for the ETA. */
struct run_clock {
  double wall0_s;
  int64_t n_steps_total;
  double mark_s; /* wall clock at the end of the previous step */
  struct engine_eta eta;
  /* the run's steps priced once (run_clock_plan): from step k of this run on, the work
     left, its moment in run time and the largest step; NULL: by simulated time */
  int64_t first_step, n_plan;
  double *work_from, *moment_from, *top_from, *work_of;
};

/* The work of a step that starts at run time t_s (engine_eta_step_work): a production
   run's sources of that interval (its catalogue's count, sequence_check_inputs), else
   today's; the photon radius at the middle of the step (raytracing.mean_free_path, as
   the step takes it), else today's.  A particle run's steps go by their length (no cells to count). */
static double step_work(const struct engine *e, double t_s, double dt_s, double t_tiny) {
  const struct ionf_config *cfg = e->cfg;
  if (e->kind != ENGINE_GRID) return dt_s;
  double sources = (double)e->sources.n, r = e->r_max_cells;
  if (e->seq_sources_by_interval)
    sources = e->seq_sources_by_interval[sequence_interval_at(&cfg->sequence, t_s, t_tiny)];
  if (cfg->cosmological && cfg->mean_free_path.kind != MFP_NONE)
    r = config_subgrid_r_max_cells(
        cfg, cosmology_redshift_at_age(&e->cosmo, e->age_start_s + t_s + 0.5 * dt_s));
  return engine_eta_step_work(sources, e->grid.n, r);
}

/* Most steps a run's ETA prices one by one (beyond: by simulated time). */
#define RUN_CLOCK_PLAN_MAX 1000000

/* Price every step of the run once, from the engine's time to t_end (the steps
   engine_next_step_length makes), with suffix sums for the progress lines.  Without
   memory, or for more than RUN_CLOCK_PLAN_MAX steps, the ETA goes by simulated time. */
static void run_clock_plan(struct run_clock *clk, const struct engine *e, double t_tiny) {
  const struct ionf_config *cfg = e->cfg;
  int64_t n = clk->n_steps_total - e->step;
  clk->first_step = e->step;
  clk->n_plan = 0;
  if (n < 1 || n > RUN_CLOCK_PLAN_MAX) return;
  size_t bytes = (size_t)(n + 1) * sizeof(double);
  clk->work_from = malloc(bytes);
  clk->moment_from = malloc(bytes);
  clk->top_from = malloc(bytes);
  clk->work_of = malloc(bytes);
  if (!clk->work_from || !clk->moment_from || !clk->top_from || !clk->work_of) return;
  double *mid = clk->moment_from; /* the steps' middles, until the sums replace them */
  int64_t k = 0;
  for (double t = e->time_s; t < cfg->t_end_s - t_tiny && k < n; ++k) {
    double dt = engine_next_step_length(cfg, t, t_tiny);
    clk->work_of[k] = step_work(e, t, dt, t_tiny);
    mid[k] = t + 0.5 * dt;
    t += dt;
  }
  double sum = 0.0, moment = 0.0, top = 0.0;
  clk->work_from[k] = clk->moment_from[k] = clk->top_from[k] = 0.0;
  for (int64_t j = k - 1; j >= 0; --j) {
    sum += clk->work_of[j];
    moment += clk->work_of[j] * mid[j];
    if (clk->work_of[j] > top) top = clk->work_of[j];
    clk->work_from[j] = sum;
    clk->moment_from[j] = moment; /* mid[j] is read before it is overwritten */
    clk->top_from[j] = top;
  }
  clk->n_plan = k;
}

static void run_clock_free(struct run_clock *clk) {
  free(clk->work_from);
  free(clk->moment_from);
  free(clk->top_from);
  free(clk->work_of);
}

static void progress_line(const struct engine *e, struct run_clock *clk,
                          const struct engine_step_info *info, double dt, double step_wall) {
  const struct ionf_config *cfg = e->cfg;
  double now = ionf_wtime();
  /* this step's work as the plan priced it (the same source counts as the steps left) */
  int64_t k = e->step - clk->first_step; /* steps of this run done, this one included */
  int planned = k >= 1 && k <= clk->n_plan;
  double work = planned ? clk->work_of[k - 1] : dt;
  engine_eta_add(&clk->eta, e->time_s, dt, now - clk->mark_s, work);
  clk->mark_s = now;
  double left = cfg->t_end_s - e->time_s, t_mean = NAN, largest = 0.0;
  if (planned) {
    left = clk->work_from[k];
    t_mean = left > 0.0 ? clk->moment_from[k] / left : NAN;
    largest = clk->top_from[k];
  }
  double eta = engine_eta_estimate(&clk->eta, cfg->t_end_s, left, t_mean);
  char eta_text[32], wall_text[32], z_text[32] = "";
  format_duration(eta, eta_text, sizeof eta_text);
  /* no step measured yet stands for the work to come (sources still to appear) */
  if (engine_eta_recent_max_work(&clk->eta) < 0.01 * largest) snprintf(eta_text, sizeof eta_text, "-");
  format_duration(step_wall, wall_text, sizeof wall_text);
  if (cfg->cosmological) snprintf(z_text, sizeof z_text, "  z = %.3f", engine_redshift(e));
  ionf_message0("step %4lld/%-4lld t = %8.3f Myr%s  iterations %3d  <x_HII> = %.5f (mass %.5f)  "
                "wall %s  ETA %s",
                (long long)e->step, (long long)clk->n_steps_total, e->time_s / IONF_MYR_S, z_text,
                info->iterations, info->x_mean_volume, info->x_mean_mass, wall_text, eta_text);
}

/* Snapshot NNNN = index now (the domain's writer), counted in the report. */
static ionf_err write_output(struct engine *e, int index, struct engine_report *report) {
  double t0 = ionf_wtime();
  IONF_CALL(e->domain->write_output(e, index, report));
  report->n_snapshots++;
  e->timers.io_s += ionf_wtime() - t0;
  return IONF_OK;
}

/* After a phase only some ranks ran (rank 0's log row and record): every rank learns
   whether any failed, so that none waits in the next collective for a rank that left
   the loop; the others return IONF_ERR_PEER.  Collective. */
static ionf_err run_agree(ionf_err rc, const char *what) {
  ionf_err any = IONF_OK;
  ionf_err agreed = comm_agree(rc, &any);
  if (rc != IONF_OK) return rc;
  IONF_CALL(agreed);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank failed %s (it says why)", what);
  return IONF_OK;
}

/* Rank 0's row of log.csv (debug.fail_log_step: an injected failure). */
static ionf_err run_log_row(const struct engine *e, struct step_log *log,
                            const struct engine_step_info *info, double step_wall) {
  if (comm_rank() != 0 || !log->file) return IONF_OK;
  IONF_CHECK(e->step != e->cfg->debug.fail_log_step, IONF_ERR_IO,
             "cannot write step log '%s': injected fault (debug.fail_log_step = %lld)", log->path,
             (long long)e->step);
  return step_log_row(log, e->step, e->time_s, info->iterations, info->x_mean_volume,
                      info->x_mean_mass, step_wall, engine_redshift(e), e->sources.n,
                      e->ndot_total_per_s);
}

/* One step of the loop and what follows it: the log row, the domain's record, the
   progress line, an output when due, a checkpoint when due; *stop on a signal.  On a
   failure *agreed = 1 when every rank failed at the same point with the state of the
   last finished step (so a checkpoint of it can be written), else 0. */
static ionf_err run_step(struct engine *e, struct step_log *log, FILE *record,
                         struct run_clock *clk, int *next_output, int *index,
                         struct engine_report *report, int *stop, int *agreed) {
  const struct ionf_config *cfg = e->cfg;
  const double t_tiny = 1e-9 * cfg->dt_s;
  while (*next_output < cfg->n_outputs && cfg->output_times_s[*next_output] <= e->time_s + t_tiny)
    (*next_output)++;
  double dt = engine_next_step_length(cfg, e->time_s, t_tiny);
  double s0 = ionf_wtime();
  struct engine_step_info info;
  *agreed = 0;
  ionf_err rc = engine_step(e, dt, &info);
  if (rc != IONF_OK) { /* its inputs unreadable (every rank knows): nothing changed yet */
    *agreed = !e->mid_step;
    IONF_CALL(rc);
  }
  double step_wall = ionf_wtime() - s0;
  rc = run_log_row(e, log, &info, step_wall);
  if (rc == IONF_OK && e->domain->step_record) rc = e->domain->step_record(e, record);
  *agreed = 1; /* from here on every failure is every rank's, after a finished step */
  IONF_CALL(run_agree(rc, "to write the step log or the I-front record"));
  if (!info.converged)
    ionf_warning("step %lld: not converged after %d iterations (raytracing.max_iterations)",
                 (long long)e->step, info.iterations);
  if (cfg->progress) progress_line(e, clk, &info, dt, step_wall);
  if (*next_output < cfg->n_outputs && fabs(e->time_s - cfg->output_times_s[*next_output]) <= t_tiny) {
    IONF_CALL(write_output(e, *index, report)); /* collective, agreed by the writers */
    (*index)++; /* a failed one keeps its number: the restart writes it (run_missed_output) */
    (*next_output)++;
  }
  int checkpoint = 0;
  *agreed = 0; /* a failing stop check or checkpoint: no second try */
  IONF_CALL(step_end(e, e->time_s >= cfg->t_end_s - t_tiny, cfg->checkpoint_every,
                     &checkpoint, stop));
  if (checkpoint) {
    double t0 = ionf_wtime();
    IONF_CALL(e->domain->write_checkpoint(e, *index, report->checkpoint, sizeof report->checkpoint));
    e->timers.io_s += ionf_wtime() - t0;
  }
  return IONF_OK;
}

/* A restart from the checkpoint written after an output failed (run_failed_checkpoint):
   the checkpoint is at that output's time, and its snapshot number is the next one.
   Write it first, so that no snapshot is missing. */
int engine_output_missed_at(const struct ionf_config *cfg, double time_s, int next_index) {
  for (int k = 0; k < cfg->n_outputs; ++k)
    if (fabs(cfg->output_times_s[k] - time_s) <= 1e-9 * cfg->dt_s && next_index == k + 1)
      return 1;
  return 0;
}

static ionf_err run_missed_output(struct engine *e, int *index, struct engine_report *report) {
  if (engine_output_missed_at(e->cfg, e->time_s, *index)) {
    IONF_CALL(write_output(e, *index, report));
    (*index)++;
  }
  return IONF_OK;
}

/* A run failed after a finished step, every rank knowing it (run_step's *agreed): write a
   checkpoint of that step, so that the run can go on once the cause is fixed, and say so
   in the message.  Collective.  Returns rc (its message extended). */
static ionf_err run_failed_checkpoint(struct engine *e, ionf_err rc, int index,
                                      struct engine_report *report) {
  char cause[2048];
  snprintf(cause, sizeof cause, "%s", ionf_error_message());
  ionf_error_clear();
  double t0 = ionf_wtime();
  ionf_err ck = e->domain->write_checkpoint(e, index, report->checkpoint, sizeof report->checkpoint);
  e->timers.io_s += ionf_wtime() - t0;
  char why[1024] = "";
  if (ck != IONF_OK) snprintf(why, sizeof why, "%s", ionf_error_message());
  ionf_error_clear();
  if (ck == IONF_OK)
    return ionf_error_set(rc, "%s; checkpoint of step %lld (t = %.6g Myr) written to %s: "
                          "continue with --restart %s once the cause is fixed",
                          cause, (long long)e->step, e->time_s / IONF_MYR_S, report->checkpoint,
                          report->checkpoint);
  report->checkpoint[0] = '\0';
  return ionf_error_set(rc, "%s; no checkpoint of step %lld could be written either: %s", cause,
                        (long long)e->step, why);
}

ionf_err engine_run(struct engine *e, struct engine_report *report) {
  const struct ionf_config *cfg = e->cfg;
  memset(report, 0, sizeof *report);
  struct run_clock clk;
  memset(&clk, 0, sizeof clk);
  clk.wall0_s = clk.mark_s = ionf_wtime();
  clk.n_steps_total = e->step;
  struct step_log log = {0};
  /* a new run, or a restart into another folder, refuses (or with output.overwrite
     removes) an earlier run's files; a restart in the checkpoint's folder, or an engine
     that has already stepped, continues its own */
  int own = e->restarted ? e->restart_in_place : e->step > 0;
  IONF_CALL(output_dir_claim_all(cfg->output_dir, own              ? OUTPUT_DIR_CONTINUE
                                                  : cfg->overwrite ? OUTPUT_DIR_OVERWRITE
                                                                   : OUTPUT_DIR_NEW));
  ionf_err rc = comm_rank() == 0 ? step_log_open(&log, cfg->output_dir, e->restarted ? e->step : -1)
                                 : IONF_OK;
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  if (rc != IONF_OK) return rc;
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 could not open the step log in '%s'",
             cfg->output_dir);
  FILE *record = NULL;
  rc = e->domain->run_begin ? e->domain->run_begin(e, &record) : IONF_OK;
  rc = run_agree(rc, "to open the files beside the step log");
  int index = e->restarted ? e->next_snapshot_index : 1, next_output = 0, stop = 0, agreed = 0;
  const int64_t first_step = e->step;
  if (rc == IONF_OK && !e->restarted) rc = write_output(e, 0, report);
  if (rc == IONF_OK && e->restarted && e->step == first_step)
    rc = run_missed_output(e, &index, report);
  const double t_tiny = 1e-9 * cfg->dt_s;
  for (double t = e->time_s; t < cfg->t_end_s - t_tiny; ++clk.n_steps_total)
    t += engine_next_step_length(cfg, t, t_tiny);
  run_clock_plan(&clk, e, t_tiny);
  while (rc == IONF_OK && e->time_s < cfg->t_end_s - t_tiny) {
    rc = run_step(e, &log, record, &clk, &next_output, &index, report, &stop, &agreed);
    if (rc == IONF_OK && stop) rc = engine_stopped_error(stop, e->step, e->time_s, report->checkpoint);
  }
  if (rc != IONF_OK && rc != IONF_STOPPED && agreed && e->step > first_step)
    rc = run_failed_checkpoint(e, rc, index, report);
  if (log.file) step_log_close(&log);
  if (record && fclose(record) != 0 && rc == IONF_OK)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write a file beside the log in '%s'", cfg->output_dir);
  run_clock_free(&clk);
  report->wall_s = ionf_wtime() - clk.wall0_s;
  report->steps = e->step;
  return rc;
}
