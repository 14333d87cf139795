/**
 * @file engine_eta.c
 * @brief The estimated time to the end of a run (engine_eta.h).
 */
#include "engine/engine_eta.h"

#include <math.h>

double engine_eta_step_work(double sources, int64_t n, double r_max_cells) {
  double cells = (double)n * (double)n * (double)n;
  if (r_max_cells > 0.0) {
    double ball = 4.0 / 3.0 * 3.14159265358979323846 * r_max_cells * r_max_cells * r_max_cells;
    if (ball < cells) cells = ball;
  }
  double work = sources * cells;
  return work >= 1.0 ? work : 1.0;
}

double engine_eta_recent_max_work(const struct engine_eta *eta) {
  double m = 0.0;
  for (int i = 0; i < eta->n; ++i)
    if (eta->work[i] > m) m = eta->work[i];
  return m;
}

void engine_eta_add(struct engine_eta *eta, double end_time_s, double dt_s, double wall_s,
                    double work) {
  eta->end_time_s[eta->next] = end_time_s;
  eta->dt_s[eta->next] = dt_s;
  eta->wall_s[eta->next] = wall_s;
  eta->work[eta->next] = work > 0.0 ? work : dt_s;
  eta->next = (eta->next + 1) % ENGINE_ETA_WINDOW;
  if (eta->n < ENGINE_ETA_WINDOW) eta->n++;
}

double engine_eta_estimate(const struct engine_eta *eta, double t_end_s, double work_left,
                           double t_work_s) {
  if (eta->n == 0) return NAN;
  int last = (eta->next + ENGINE_ETA_WINDOW - 1) % ENGINE_ETA_WINDOW;
  double now_s = eta->end_time_s[last];
  if (!(t_end_s - now_s > 0.0) || !(work_left > 0.0)) return 0.0;
  /* the recent steps: wall time per unit of work r_i at the middle m_i of each, weighted
     by its work; their mean R at the mean time M, and the slope b of a straight-line fit
     r(t) = R + b (t - M) */
  double w = 0.0, m = 0.0, r = 0.0;
  for (int i = 0; i < eta->n; ++i) {
    w += eta->work[i];
    m += eta->work[i] * (eta->end_time_s[i] - 0.5 * eta->dt_s[i]);
    r += eta->wall_s[i];
  }
  if (!(w > 0.0)) return NAN;
  m /= w;
  r /= w;
  double sxx = 0.0, sxy = 0.0;
  for (int i = 0; i < eta->n; ++i) {
    double dm = eta->end_time_s[i] - 0.5 * eta->dt_s[i] - m;
    sxx += eta->work[i] * dm * dm;
    sxy += dm * (eta->wall_s[i] - eta->work[i] * r);
  }
  double b = eta->n >= 3 && sxx > 0.0 ? sxy / sxx : 0.0;
  /* work growing dearer (more iterations as more gas is ionized): the trend goes on to the
     end; otherwise the recent rate (a cost that falls is not extrapolated to below it) */
  if (!(b > 0.0)) b = 0.0;
  double t_mean = isnan(t_work_s) ? 0.5 * (now_s + t_end_s) : t_work_s;
  return work_left * (r + b * (t_mean - m));
}
