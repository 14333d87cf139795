/**
 * @file test_engine_eta.c
 * @brief The ETA of the progress lines on synthetic runs: a production run whose sources
 *        triple halfway (by work: exact; by simulated time: short); steps of constant cost and
 *        of linearly growing cost, as in an EoR run (exact, where the mean since the
 *        start is 5x short a quarter of the way in), quadratically growing and shrinking
 *        costs (bounded errors; never short when costs fall), and the edge cases (no
 *        step yet, at t_end).
 */
#include <math.h>
#include <stdio.h>

#include "engine/engine_eta.h"
#include "test_util.h"

/* A run of n steps of dt from t = 0; the wall time of step i is cost(t at its middle).
   After every step from `check_from` on, the estimate against the true remaining wall
   time: the smallest and largest (estimate - truth) / truth in *lo, *hi. */
static void errors(int n, double dt, double (*cost)(double), int check_from, double *lo,
                   double *hi) {
  struct engine_eta eta = {0};
  double total = 0.0, done = 0.0;
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int i = 0; i < n; ++i) total += cost((i + 0.5) * dt);
  for (int i = 0; i < n - 1; ++i) {
    double w = cost((i + 0.5) * dt);
    done += w;
    engine_eta_add(&eta, (i + 1) * dt, dt, w, dt); /* by simulated time */
    double est = engine_eta_estimate(&eta, n * dt, (n - i - 1) * dt, NAN), truth = total - done;
    double err = (est - truth) / truth;
    if (i + 1 < check_from) continue;
    if (!(err >= *lo)) *lo = err; /* NaN counts as the worst either way */
    if (!(err <= *hi)) *hi = err;
  }
  printf("relative errors from step %d on: %.3g .. %.3g\n", check_from, *lo, *hi);
}

/* 60 steps of 1; sources 100, then 300 from step 30 on (a new catalogue), each source
   costing 0.01 s a step.  by_work: the steps' work is their sources; else their length.
   The largest |estimate - truth| / truth over the steps before the change. */
static double production(int by_work) {
  struct engine_eta eta = {0};
  const int n = 60;
  double worst = 0.0;
  for (int i = 0; i < 29; ++i) {
    double sources = 100.0, wall = 0.01 * sources;
    engine_eta_add(&eta, i + 1.0, 1.0, wall, by_work ? sources : 1.0);
    double truth = 0.0, left = 0.0, moment = 0.0;
    for (int j = i + 1; j < n; ++j) {
      double sj = j < 30 ? 100.0 : 300.0, wj = by_work ? sj : 1.0;
      truth += 0.01 * sj;
      left += wj;
      moment += wj * (j + 0.5);
    }
    double est = engine_eta_estimate(&eta, n, left, moment / left);
    double err = fabs(est - truth) / truth;
    if (!(err <= worst)) worst = err; /* NaN counts as the worst */
  }
  printf("production run, by %s: largest relative error %.3g\n", by_work ? "work" : "time", worst);
  return worst;
}

static double constant(double t) { return 0.5 + 0.0 * t; }
/* an EoR run: each step dearer than the last (sources appear, the ionized volume grows) */
static double growing(double t) { return 0.01 + 0.02 * t; }
static double quadratic(double t) { return 0.01 + 0.002 * t * t; }
static double shrinking(double t) { return 2.0 / (1.0 + 0.05 * t); }

int main(void) {
  double lo, hi;
  /* measured (after a quarter of the run, step 38 of 150):
       cost            this estimator        the mean since the start (before)
       constant        0 (rounding)          0
       linear growth   within 1e-15          -0.79 (the ETA 5x too short)
       quadratic       -0.52 .. -0.002       -0.95
       shrinking       +0.05 .. +1.10        up to +1.92
     limits: exact to 1e-9 where exact, else the measured value with a 10% margin;
     a cost that falls is not extrapolated: the estimate errs on the long side */
  errors(150, 1.0, constant, 1, &lo, &hi);
  EXPECT(fabs(lo) <= 1e-12 && fabs(hi) <= 1e-12, "constant cost: errors %.3g .. %.3g", lo, hi);
  errors(150, 1.0, growing, 38, &lo, &hi);
  EXPECT(fabs(lo) <= 1e-9 && fabs(hi) <= 1e-9, "linearly growing cost: errors %.3g .. %.3g", lo,
         hi);
  errors(150, 1.0, quadratic, 38, &lo, &hi);
  EXPECT(lo >= -0.57 && hi <= 0.0, "quadratically growing cost: errors %.3g .. %.3g", lo, hi);
  errors(150, 1.0, shrinking, 38, &lo, &hi);
  EXPECT(lo >= 0.0 && hi <= 1.21, "shrinking cost: errors %.3g .. %.3g (never short)", lo, hi);

  /* a production run whose later catalogues hold more sources: the wall time follows the
     work; by work the estimate is exact at every step, by simulated time it is short */
  EXPECT(production(1) <= 1e-12, "by work: largest relative error %.3g", production(1));
  EXPECT(production(0) >= 0.5, "by simulated time: largest relative error %.3g (short)",
         production(0));
  /* the work of a pass: sources x the cells within the radius, at most the grid */
  EXPECT(fabs(engine_eta_step_work(10.0, 64, 2.0) - 10.0 * 4.0 / 3.0 * 3.14159265358979323846 * 8.0) < 1e-9,
         "a pass's work within the radius: %g", engine_eta_step_work(10.0, 64, 2.0));
  EXPECT(engine_eta_step_work(10.0, 8, 100.0) == 5120.0 && engine_eta_step_work(3.0, 8, 0.0) == 1536.0,
         "a pass's work over the whole grid");
  EXPECT(engine_eta_step_work(0.0, 8, 0.0) == 1.0, "a pass without sources counts as 1");

  struct engine_eta eta = {0};
  EXPECT(isnan(engine_eta_estimate(&eta, 10.0, 9.0, NAN)), "an estimate before any step");
  engine_eta_add(&eta, 1.0, 1.0, 2.0, 1.0);
  EXPECT(engine_eta_estimate(&eta, 10.0, 9.0, NAN) == 18.0, "one step of 2 s per unit: %g",
         engine_eta_estimate(&eta, 10.0, 9.0, NAN));
  EXPECT(engine_eta_estimate(&eta, 1.0, 9.0, NAN) == 0.0, "at t_end: %g",
         engine_eta_estimate(&eta, 1.0, 9.0, NAN));
  EXPECT(engine_eta_estimate(&eta, 10.0, 0.0, NAN) == 0.0, "no work left");
  /* the largest work held: the progress line shows no ETA while it is below 1% of the
     largest step left */
  engine_eta_add(&eta, 2.0, 1.0, 2.0, 7.0);
  engine_eta_add(&eta, 3.0, 1.0, 2.0, 3.0);
  EXPECT(engine_eta_recent_max_work(&eta) == 7.0, "largest recent work %g",
         engine_eta_recent_max_work(&eta));
  for (int i = 0; i < ENGINE_ETA_WINDOW; ++i) engine_eta_add(&eta, 4.0 + i, 1.0, 2.0, 2.0);
  EXPECT(engine_eta_recent_max_work(&eta) == 2.0, "the window forgets: %g",
         engine_eta_recent_max_work(&eta));
  TEST_RETURN();
}
