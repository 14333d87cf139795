/**
 * @file synth_density.c
 * @brief Gaussian random field (GSL draws, FFTW c2r), log-normal transform, n_H.
 */
#include "synth/synth_density.h"

#include <fftw3.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/constants.h"

#define SYNTH_DENSITY_N_MAX 4096

int synth_density_fft_threaded(void) {
#ifdef IONF_HAVE_FFTW_OMP
  return 1;
#else
  return 0;
#endif
}

/* FFTW's planner is not thread-safe: callers plan from one thread (ionfront does).  The
   planner's thread count is process-wide state: it is set for our plan and put back
   (returns the caller's count, -1 when FFTW's threads are not there). */
static int density_fft_threads(void) {
#ifdef IONF_HAVE_FFTW_OMP
  static int initialised = 0;
  if (!initialised) initialised = fftw_init_threads() ? 1 : -1;
  if (initialised > 0) {
    int before = fftw_planner_nthreads();
    fftw_plan_with_nthreads(omp_get_max_threads());
    return before;
  }
#endif
  return -1;
}

static void density_fft_threads_restore(int before) {
#ifdef IONF_HAVE_FFTW_OMP
  if (before > 0) fftw_plan_with_nthreads(before);
#endif
}

/* Signed frequency index of FFT bin i of n (n/2 counts as +n/2; |k| is the same). */
static double density_freq(int64_t i, int64_t n) { return (double)(i <= n / 2 ? i : i - n); }

/* The planes k = 0 and k = n/2 hold every mode and its conjugate: make them
 * Hermitian (the mode drawn first keeps its value) and self-conjugate modes real,
 * with the variance of one complex mode.  (i, j) pairs with (-i, -j) mod n. */
static void density_hermitian_plane(fftw_complex *c, int64_t n, int64_t nh, int64_t kk) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t ip = (n - i) % n, jp = (n - j) % n;
      int64_t own = i * n + j, partner = ip * n + jp;
      fftw_complex *v = &c[own * nh + kk];
      if (own == partner) {
        (*v)[0] *= sqrt(2.0);
        (*v)[1] = 0.0;
      } else if (own > partner) {
        const fftw_complex *w = &c[partner * nh + kk];
        (*v)[0] = (*w)[0];
        (*v)[1] = -(*w)[1];
      }
    }
}

ionf_err synth_density_linear(int64_t n, double box_cmpc, const struct synth_spectrum *s,
                              uint64_t seed, double *delta) {
  IONF_CHECK(s && delta, IONF_ERR_INTERNAL, "synth_density_linear: NULL argument");
  IONF_CHECK(n >= 2 && n <= SYNTH_DENSITY_N_MAX, IONF_ERR_CONFIG,
             "a synthetic density grid needs 2..%d cells per side (got %lld)",
             SYNTH_DENSITY_N_MAX, (long long)n);
  IONF_CHECK(isfinite(box_cmpc) && box_cmpc > 0.0, IONF_ERR_CONFIG,
             "synthetic density: box size %g comoving Mpc must be finite and > 0", box_cmpc);
  const int64_t nh = n / 2 + 1;
  const size_t modes = (size_t)n * (size_t)n * (size_t)nh;
  fftw_complex *c = fftw_malloc(modes * sizeof *c);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!c || !rng) {
    fftw_free(c);
    if (rng) gsl_rng_free(rng);
    return ionf_error_set(IONF_ERR_MEM, "cannot allocate %.3g GB for the Fourier modes of a %lld^3 "
                          "density field", (double)(modes * sizeof *c) / 1e9, (long long)n);
  }
  /* Unit Gaussians in one fixed order: the field is the same on any thread count. */
  gsl_rng_set(rng, (unsigned long)((seed ^ (seed >> 32)) & 0xffffffffu));
  for (size_t m = 0; m < modes; ++m) {
    c[m][0] = gsl_ran_gaussian_ziggurat(rng, 1.0);
    c[m][1] = gsl_ran_gaussian_ziggurat(rng, 1.0);
  }
  gsl_rng_free(rng);

  /* <|c_k|^2> = P(k) / V: the c2r sum of c_k e^{ikx} is δ(x) = (1/V) Σ δ_k e^{ikx}. */
  const double box_h_mpc = box_cmpc * s->cosmo.h;
  const double volume = box_h_mpc * box_h_mpc * box_h_mpc, kf = 2.0 * IONF_PI / box_h_mpc;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < nh; ++k) {
        double kx = density_freq(i, n), ky = density_freq(j, n), kz = (double)k;
        double kmag = kf * sqrt(kx * kx + ky * ky + kz * kz);
        double amp = sqrt(synth_spectrum_power(s, kmag) / (2.0 * volume));
        fftw_complex *v = &c[(i * n + j) * nh + k];
        (*v)[0] *= amp;
        (*v)[1] *= amp;
      }
  density_hermitian_plane(c, n, nh, 0);
  if (n % 2 == 0) density_hermitian_plane(c, n, nh, n / 2);
  c[0][0] = c[0][1] = 0.0; /* the mean */

  int planner_threads = density_fft_threads();
  fftw_plan plan = fftw_plan_dft_c2r_3d((int)n, (int)n, (int)n, c, delta, FFTW_ESTIMATE);
  density_fft_threads_restore(planner_threads);
  if (!plan) {
    fftw_free(c);
    return ionf_error_set(IONF_ERR_INTERNAL, "FFTW could not plan a %lld^3 c2r transform",
                          (long long)n);
  }
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  fftw_free(c);
  return IONF_OK;
}

ionf_err synth_density_lognormal(int64_t n, const double *delta_z0, double growth,
                                 double *rho_over_mean, struct synth_lognormal_stats *stats) {
  IONF_CHECK(delta_z0 && rho_over_mean && n > 0, IONF_ERR_INTERNAL,
             "synth_density_lognormal: bad arguments");
  IONF_CHECK(isfinite(growth) && growth > 0.0, IONF_ERR_INTERNAL,
             "synth_density_lognormal: growth factor %g must be > 0", growth);
  const size_t plane = (size_t)n * (size_t)n;
  const double cells = (double)plane * (double)n;
  /* Per-plane partial sums, added in plane order: no dependence on threads. */
  double *part = malloc(4 * (size_t)n * sizeof *part);
  IONF_CHECK(part, IONF_ERR_MEM, "out of memory for the log-normal sums");
  double *s1 = part, *s2 = part + n, *lo = part + 2 * n, *hi = part + 3 * n;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double a = 0.0, b = 0.0;
    for (size_t q = (size_t)i * plane; q < (size_t)(i + 1) * plane; ++q) {
      double d = growth * delta_z0[q];
      a += d;
      b += d * d;
    }
    s1[i] = a;
    s2[i] = b;
  }
  double sum1 = 0.0, sum2 = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    sum1 += s1[i];
    sum2 += s2[i];
  }
  double mean = sum1 / cells, var = sum2 / cells - mean * mean;
  if (var < 0.0) var = 0.0;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double a = 0.0;
    for (size_t q = (size_t)i * plane; q < (size_t)(i + 1) * plane; ++q) {
      double v = exp(growth * delta_z0[q] - 0.5 * var);
      rho_over_mean[q] = v;
      a += v;
    }
    s1[i] = a;
  }
  double raw = 0.0;
  for (int64_t i = 0; i < n; ++i) raw += s1[i];
  raw /= cells;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double mn = INFINITY, mx = -INFINITY;
    for (size_t q = (size_t)i * plane; q < (size_t)(i + 1) * plane; ++q) {
      double v = rho_over_mean[q] / raw;
      rho_over_mean[q] = v;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    lo[i] = mn;
    hi[i] = mx;
  }
  if (stats) {
    stats->sigma_lin = sqrt(var);
    stats->raw_mean = raw;
    stats->min_over_mean = INFINITY;
    stats->max_over_mean = -INFINITY;
    for (int64_t i = 0; i < n; ++i) {
      if (lo[i] < stats->min_over_mean) stats->min_over_mean = lo[i];
      if (hi[i] > stats->max_over_mean) stats->max_over_mean = hi[i];
    }
  }
  free(part);
  return IONF_OK;
}

void synth_density_hydrogen(int64_t n, const double *rho_over_mean, const struct cosmology *c,
                            double z, double *n_h_cm3) {
  const double mean = cosmology_mean_hydrogen_cm3(c, z, SYNTH_DENSITY_X_H);
  const size_t cells = (size_t)n * (size_t)n * (size_t)n;
#pragma omp parallel for schedule(static)
  for (size_t q = 0; q < cells; ++q) n_h_cm3[q] = mean * rho_over_mean[q];
}
