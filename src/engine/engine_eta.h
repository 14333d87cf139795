/**
 * @file engine_eta.h
 * @brief The estimated time to the end of a run, for the progress lines: the work left
 *        (sources x cells each traces, step by step to the end: a production run's later
 *        catalogues hold more sources) times the recent steps' wall time per unit of work,
 *        extrapolated along its trend when the work grows dearer (more iterations as the
 *        ionized gas grows).  Until a recent step's work is at least 1% of the largest step
 *        left's (a production run before its sources appear: nothing measured stands for
 *        what is coming), the progress line shows no ETA.  Pure functions, no I/O.
 */
#ifndef IONF_ENGINE_ETA_H
#define IONF_ENGINE_ETA_H

#include <stdint.h>

/** How many recent steps the estimate looks at. */
#define ENGINE_ETA_WINDOW 16

/** The recent steps (a ring of the last ENGINE_ETA_WINDOW). Zero it to start. */
struct engine_eta {
  double end_time_s[ENGINE_ETA_WINDOW]; /*!< simulated time at each step's end */
  double dt_s[ENGINE_ETA_WINDOW];       /*!< each step's length */
  double wall_s[ENGINE_ETA_WINDOW];     /*!< each step's wall time, its outputs included */
  double work[ENGINE_ETA_WINDOW];       /*!< each step's work (engine_eta_step_work) */
  int n;                                /*!< steps held (<= ENGINE_ETA_WINDOW) */
  int next;                             /*!< where the next step goes */
};

/**
 * The work of one tracing pass, in source x cell visits: `sources` each tracing the cells
 * within r_max_cells of it, (4/3) pi r^3, at most the n^3 cells of the grid (r <= 0: all of
 * them).  At least 1, so that a step without sources still counts.
 */
double engine_eta_step_work(double sources, int64_t n, double r_max_cells);

/** The largest work of the steps held (0 before any). */
double engine_eta_recent_max_work(const struct engine_eta *eta);

/** Record a step that ended at simulated time `end_time_s`, `dt_s` long, that took
    `wall_s` of wall time for `work` > 0 (engine_eta_step_work; or dt_s, to go by
    simulated time). */
void engine_eta_add(struct engine_eta *eta, double end_time_s, double dt_s, double wall_s,
                    double work);

/** Wall seconds for `work_left` (in the unit of the steps' work) of the run that ends at
    simulated time t_end_s, that work's mean simulated time (weighted by work) being
    t_work_s (NAN: halfway from now to t_end_s): 0 when there (or no work is left), NAN
    before any step. */
double engine_eta_estimate(const struct engine_eta *eta, double t_end_s, double work_left,
                           double t_work_s);

#endif /* IONF_ENGINE_ETA_H */
