/**
 * @file engine_eta.c
 * @brief The estimated time to the end of a run (engine_eta.h).
 */
#include "engine/engine_eta.h"

#include <math.h>

void engine_eta_add(struct engine_eta *eta, double end_time_s, double dt_s, double wall_s) {
  eta->end_time_s[eta->next] = end_time_s;
  eta->dt_s[eta->next] = dt_s;
  eta->wall_s[eta->next] = wall_s;
  eta->next = (eta->next + 1) % ENGINE_ETA_WINDOW;
  if (eta->n < ENGINE_ETA_WINDOW) eta->n++;
  eta->sum_dt_s += dt_s;
  eta->sum_wall_s += wall_s;
}

double engine_eta_estimate(const struct engine_eta *eta, double t_end_s) {
  if (eta->n == 0 || !(eta->sum_dt_s > 0.0)) return NAN;
  int last = (eta->next + ENGINE_ETA_WINDOW - 1) % ENGINE_ETA_WINDOW;
  double left_s = t_end_s - eta->end_time_s[last];
  if (!(left_s > 0.0)) return 0.0;
  /* the recent steps: wall time per unit of simulated time r_i at the middle m_i of each,
     weighted by its length; their mean R at the mean time M, and the slope b of a
     straight-line fit r(t) = R + b (t - M) */
  double w = 0.0, m = 0.0, r = 0.0;
  for (int i = 0; i < eta->n; ++i) {
    w += eta->dt_s[i];
    m += eta->dt_s[i] * (eta->end_time_s[i] - 0.5 * eta->dt_s[i]);
    r += eta->wall_s[i];
  }
  if (!(w > 0.0)) return NAN;
  m /= w;
  r /= w;
  double sxx = 0.0, sxy = 0.0;
  for (int i = 0; i < eta->n; ++i) {
    double dm = eta->end_time_s[i] - 0.5 * eta->dt_s[i] - m;
    sxx += eta->dt_s[i] * dm * dm;
    sxy += dm * (eta->wall_s[i] - eta->dt_s[i] * r);
  }
  double b = eta->n >= 3 && sxx > 0.0 ? sxy / sxx : 0.0;
  /* steps growing dearer (more sources, more ionized gas): the trend goes on to the end;
     otherwise the recent rate (a cost that falls is not extrapolated to below it) */
  if (!(b > 0.0)) b = 0.0;
  double now_s = eta->end_time_s[last];
  return left_s * (r + b * (0.5 * (now_s + t_end_s) - m));
}
