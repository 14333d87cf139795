/**
 * @file engine_eta.h
 * @brief The estimated time to the end of a run, for the progress lines: from the
 *        wall time per unit of simulated time of the recent steps, extrapolated
 *        along its trend when steps grow dearer (more sources, more ionized gas).
 *        Pure functions, no I/O.
 */
#ifndef IONF_ENGINE_ETA_H
#define IONF_ENGINE_ETA_H

/** How many recent steps the estimate looks at. */
#define ENGINE_ETA_WINDOW 16

/** The recent steps (a ring of the last ENGINE_ETA_WINDOW). Zero it to start. */
struct engine_eta {
  double end_time_s[ENGINE_ETA_WINDOW]; /*!< simulated time at each step's end */
  double dt_s[ENGINE_ETA_WINDOW];       /*!< each step's length */
  double wall_s[ENGINE_ETA_WINDOW];     /*!< each step's wall time, its outputs included */
  double sum_dt_s, sum_wall_s;          /*!< over every step added */
  int n;                                /*!< steps held (<= ENGINE_ETA_WINDOW) */
  int next;                             /*!< where the next step goes */
};

/** Record a step that ended at simulated time `end_time_s`, `dt_s` long, that took
    `wall_s` of wall time. */
void engine_eta_add(struct engine_eta *eta, double end_time_s, double dt_s, double wall_s);

/** Wall seconds until simulated time `t_end_s` (0 when there; NAN before any step). */
double engine_eta_estimate(const struct engine_eta *eta, double t_end_s);

#endif /* IONF_ENGINE_ETA_H */
