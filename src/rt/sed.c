/**
 * @file sed.c
 * @brief A tabulated source spectrum (see sed.h).
 */
#include "rt/sed.h"

#include <math.h>
#include <stdlib.h>

double sed_photons_at(const struct sed *s, double e_ev) {
  if (!s || s->n < 2 || !(e_ev >= s->energy_ev[0]) || e_ev > s->energy_ev[s->n - 1]) return 0.0;
  int64_t lo = 0, hi = s->n - 1; /* energy_ev[lo] <= e < energy_ev[hi] */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (s->energy_ev[mid] <= e_ev) lo = mid; else hi = mid;
  }
  double y0 = s->photons[lo], y1 = s->photons[hi];
  if (y0 <= 0.0 || y1 <= 0.0) { /* a zero: linear, as log-log cannot */
    double t = (e_ev - s->energy_ev[lo]) / (s->energy_ev[hi] - s->energy_ev[lo]);
    return y0 + t * (y1 - y0);
  }
  double t = log(e_ev / s->energy_ev[lo]) / log(s->energy_ev[hi] / s->energy_ev[lo]);
  return exp(log(y0) + t * log(y1 / y0));
}

void sed_free(struct sed *s) {
  if (!s) return;
  free(s->energy_ev);
  free(s->photons);
  s->energy_ev = s->photons = NULL;
  s->n = 0;
}
