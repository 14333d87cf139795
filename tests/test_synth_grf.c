/**
 * @file test_synth_grf.c
 * @brief Gaussian random fields: the measured power spectrum against the input
 *        P(k) within sampling scatter, the grid variance, the same bits for the
 *        same seed on 1, 2 and 3 threads, another seed another field, and the
 *        log-normal transform (exact form per cell, mean, n_H).
 */
#include <fftw3.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "core/error.h"
#include "synth/synth_density.h"
#include "synth/synth_spectrum.h"
#include "test_util.h"

#define N 48
#define BOX_CMPC 60.0

static double freq(int i, int n) { return (double)(i <= n / 2 ? i : i - n); }

/* Measured V |δ_k|^2 / N^6 per |k| bin against the mean of P over the same modes.
 * Only modes with 0 < k_z < N/2 are used: each is independent, |δ_k|^2 is then
 * exponentially distributed (relative scatter 1), so a bin of m modes scatters
 * by 1/sqrt(m). */
static void test_power(const struct synth_spectrum *s, const double *delta) {
  const int nh = N / 2 + 1;
  fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * N * N * nh);
  double *copy = fftw_malloc(sizeof(double) * N * N * N);
  memcpy(copy, delta, sizeof(double) * N * N * N);
  fftw_plan p = fftw_plan_dft_r2c_3d(N, N, N, copy, c, FFTW_ESTIMATE);
  fftw_execute(p);
  const double box_h = BOX_CMPC * s->cosmo.h, vol = box_h * box_h * box_h;
  const double kf = 2.0 * IONF_PI / box_h, n6 = pow((double)N, 6.0);
  enum { BINS = 24 };
  double meas[BINS] = {0}, model[BINS] = {0};
  int count[BINS] = {0};
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 1; k < N / 2; ++k) {
        double kk = sqrt(freq(i, N) * freq(i, N) + freq(j, N) * freq(j, N) + (double)k * k);
        int b = (int)kk; /* bins of width k_f */
        if (b >= BINS) continue;
        const double *v = c[(i * N + j) * nh + k];
        meas[b] += vol * (v[0] * v[0] + v[1] * v[1]) / n6;
        model[b] += synth_spectrum_power(s, kf * kk);
        ++count[b];
      }
  int checked = 0;
  double chi2 = 0.0;
  for (int b = 1; b < BINS; ++b) {
    if (count[b] < 20) continue;
    double ratio = meas[b] / model[b], tol = 4.0 / sqrt((double)count[b]);
    EXPECT(fabs(ratio - 1.0) < tol, "P(k) bin %d (k = %.3f h/Mpc, %d modes): measured / input "
           "= %.4f, outside 1 +- %.4f", b, kf * (b + 0.5), count[b], ratio, tol);
    chi2 += (ratio - 1.0) * (ratio - 1.0) * count[b];
    ++checked;
  }
  printf("P(k): %d bins from %.3f to %.3f h/Mpc, chi^2 / bins = %.2f\n", checked, kf,
         kf * BINS, chi2 / checked);
  EXPECT(checked >= 15, "only %d bins checked", checked);
  EXPECT(chi2 / checked < 2.5, "chi^2 per bin %.2f (expected about 1)", chi2 / checked);
  fftw_destroy_plan(p);
  fftw_free(c);
  fftw_free(copy);
}

/* The planes k_z = 0 (and k_z = n/2 for even n) hold each mode and its conjugate:
 * the generator makes them Hermitian itself.  Done wrong, FFTW's c2r keeps only the
 * Hermitian part and these modes lose half their power; the measured power over the
 * plane must match P(k) within its sampling scatter. */
static void test_hermitian_planes(const struct synth_spectrum *s, int n) {
  const int nh = n / 2 + 1;
  double *d = fftw_malloc(sizeof(double) * n * n * n);
  fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * n * n * nh);
  EXPECT(synth_density_linear(n, BOX_CMPC, s, 12, d) == IONF_OK, "field n = %d", n);
  fftw_plan p = fftw_plan_dft_r2c_3d(n, n, n, d, c, FFTW_ESTIMATE);
  fftw_execute(p);
  const double box_h = BOX_CMPC * s->cosmo.h, vol = box_h * box_h * box_h;
  const double kf = 2.0 * IONF_PI / box_h, n6 = pow((double)n, 6.0);
  const int planes[2] = {0, n / 2};
  for (int pl = 0; pl < (n % 2 == 0 ? 2 : 1); ++pl) {
    double sum = 0.0;
    int m = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if ((n - i) % n == i && (n - j) % n == j) continue; /* self-conjugate: real */
        double kk = sqrt(freq(i, n) * freq(i, n) + freq(j, n) * freq(j, n) +
                         (double)planes[pl] * planes[pl]);
        const double *v = c[(i * n + j) * nh + planes[pl]];
        sum += vol * (v[0] * v[0] + v[1] * v[1]) / n6 / synth_spectrum_power(s, kf * kk);
        ++m;
      }
    /* |δ_k|^2 / P is exponential with mean 1; each pair counts twice: m/2 of them */
    double ratio = sum / m, tol = 4.0 / sqrt(0.5 * m);
    printf("n = %d, plane k_z = %d: measured / input power %.4f (+- %.4f)\n", n, planes[pl],
           ratio, tol / 4.0);
    EXPECT(fabs(ratio - 1.0) < tol, "n = %d plane k_z = %d: power ratio %.4f", n, planes[pl],
           ratio);
  }
  fftw_destroy_plan(p);
  fftw_free(c);
  fftw_free(d);
}

/* Grid variance against the sum of P(k)/V over the box's modes (full k space). */
static void test_variance(const struct synth_spectrum *s, const double *delta) {
  const double box_h = BOX_CMPC * s->cosmo.h, vol = box_h * box_h * box_h;
  const double kf = 2.0 * IONF_PI / box_h;
  double expect = 0.0, got = 0.0, mean = 0.0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        double kk = sqrt(freq(i, N) * freq(i, N) + freq(j, N) * freq(j, N) + freq(k, N) * freq(k, N));
        if (kk > 0) expect += synth_spectrum_power(s, kf * kk) / vol;
      }
  for (int q = 0; q < N * N * N; ++q) {
    mean += delta[q];
    got += delta[q] * delta[q];
  }
  mean /= N * N * N;
  got /= N * N * N;
  printf("grid variance %.5f, expected %.5f, mean %.2e\n", got, expect, mean);
  EXPECT(fabs(mean) < 1e-12, "the field's mean %g is not 0", mean);
  /* scatter of the variance: dominated by the few large modes; 10% is many sigmas here */
  EXPECT(fabs(got / expect - 1.0) < 0.1, "grid variance %g vs expected %g", got, expect);
}

static void test_determinism(const struct synth_spectrum *s, const double *ref) {
  const size_t bytes = sizeof(double) * N * N * N;
  double *other = malloc(bytes);
  int max_threads = omp_get_max_threads();
  for (int t = 1; t <= 3; ++t) {
    omp_set_num_threads(t);
    EXPECT(synth_density_linear(N, BOX_CMPC, s, 4, other) == IONF_OK, "field on %d threads", t);
    EXPECT(memcmp(other, ref, bytes) == 0, "seed 4 on %d thread(s) gives other bits", t);
    struct synth_lognormal_stats st;
    double *ln = malloc(bytes), *ln1 = malloc(bytes);
    EXPECT(synth_density_lognormal(N, other, 0.13, ln, &st) == IONF_OK, "lognormal");
    omp_set_num_threads(1);
    EXPECT(synth_density_lognormal(N, other, 0.13, ln1, &st) == IONF_OK, "lognormal 1 thread");
    EXPECT(memcmp(ln, ln1, bytes) == 0, "log-normal on %d threads differs from 1 thread", t);
    free(ln);
    free(ln1);
  }
  /* 128^3: large enough for FFTW's threaded plans */
  const size_t big = sizeof(double) * 128 * 128 * 128;
  double *b1 = malloc(big), *b2 = malloc(big);
  omp_set_num_threads(1);
  EXPECT(synth_density_linear(128, 100.0, s, 7, b1) == IONF_OK, "128^3 on 1 thread");
  omp_set_num_threads(2);
  EXPECT(synth_density_linear(128, 100.0, s, 7, b2) == IONF_OK, "128^3 on 2 threads");
  EXPECT(memcmp(b1, b2, big) == 0, "128^3: 1 and 2 threads give other bits");
  free(b1);
  free(b2);
  omp_set_num_threads(max_threads);
  printf("FFTW threads %s; same bits on 1, 2 and 3 threads\n",
         synth_density_fft_threaded() ? "on" : "off");
  EXPECT(synth_density_linear(N, BOX_CMPC, s, 5, other) == IONF_OK, "seed 5");
  size_t same = 0;
  for (size_t q = 0; q < (size_t)N * N * N; ++q) same += other[q] == ref[q];
  EXPECT(same < 10, "seeds 4 and 5 share %zu cells", same);
  free(other);
}

static void test_lognormal(const struct cosmology *c, const double *delta) {
  const size_t cells = (size_t)N * N * N;
  double *rho = malloc(cells * sizeof *rho);
  struct synth_lognormal_stats st;
  const double g = 0.8;
  EXPECT(synth_density_lognormal(N, delta, g, rho, &st) == IONF_OK, "lognormal");
  /* exact form: ln(ρ/ρ̄) = g δ − σ²/2 − ln(raw mean), σ² the grid variance of g δ */
  double s1 = 0.0, s2 = 0.0, mean = 0.0, worst = 0.0;
  for (size_t q = 0; q < cells; ++q) {
    s1 += g * delta[q];
    s2 += g * delta[q] * g * delta[q];
  }
  double var = s2 / cells - (s1 / cells) * (s1 / cells);
  EXPECT_REL(st.sigma_lin, sqrt(var), 1e-10, "sigma_lin");
  for (size_t q = 0; q < cells; ++q) {
    double want = g * delta[q] - 0.5 * var - log(st.raw_mean);
    worst = test_worst(worst, test_abs_diff(log(rho[q]), want));
    mean += rho[q];
  }
  mean /= cells;
  EXPECT(worst < 1e-10, "ln(rho/mean) off the log-normal form by %g", worst);
  EXPECT(fabs(mean - 1.0) < 1e-12, "mean of rho/mean = %.15g", mean);
  printf("log-normal: sigma %.4f, raw mean %.5f, rho/mean in [%.3g, %.3g]\n", st.sigma_lin,
         st.raw_mean, st.min_over_mean, st.max_over_mean);

  /* The raw mean of exp(δ − σ²/2) is 1 up to sampling: white noise of σ = 1 on N^3
   * cells has a standard error sqrt((e^1 − 1) / N^3). */
  double *white = malloc(cells * sizeof *white);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r, 11);
  for (size_t q = 0; q < cells; ++q) white[q] = gsl_ran_gaussian(r, 1.0);
  gsl_rng_free(r);
  EXPECT(synth_density_lognormal(N, white, 1.0, rho, &st) == IONF_OK, "white lognormal");
  double se = sqrt((exp(1.0) - 1.0) / (double)cells);
  EXPECT(fabs(st.raw_mean - 1.0) < 5.0 * se, "white noise: raw mean %.6f, 1 +- %.6f",
         st.raw_mean, 5.0 * se);

  /* proper n_H: the cosmic mean at z, exactly, and (1+z)^3 */
  double *nh = malloc(cells * sizeof *nh);
  synth_density_hydrogen(N, rho, c, 9.0, nh);
  double sum = 0.0;
  for (size_t q = 0; q < cells; ++q) sum += nh[q];
  EXPECT_REL(sum / cells, cosmology_mean_hydrogen_cm3(c, 9.0, 0.76), 1e-12, "mean n_H(z = 9)");
  EXPECT_REL(cosmology_mean_hydrogen_cm3(c, 9.0, 0.76), 1.798e-4, 1e-3,
             "n_H(z = 9) for h = 0.7, Omega_b = 0.043, X = 0.76");
  free(nh);
  free(white);
  free(rho);
}

static void test_errors(const struct synth_spectrum *s) {
  double v[8];
  EXPECT(synth_density_linear(1, BOX_CMPC, s, 1, v) == IONF_ERR_CONFIG, "n = 1 accepted");
  EXPECT(synth_density_linear(2, -1.0, s, 1, v) == IONF_ERR_CONFIG, "box < 0 accepted");
}

int main(void) {
  struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  struct synth_spectrum s;
  if (synth_spectrum_init(&s, &c, 0.8, 0.96) != IONF_OK) {
    fprintf(stderr, "spectrum: %s\n", ionf_error_message());
    return 1;
  }
  double *delta = malloc(sizeof(double) * N * N * N);
  EXPECT(synth_density_linear(N, BOX_CMPC, &s, 4, delta) == IONF_OK, "field: %s",
         ionf_error_message());
  test_power(&s, delta);
  test_variance(&s, delta);
  test_hermitian_planes(&s, 48);
  test_hermitian_planes(&s, 45);
  test_determinism(&s, delta);
  test_lognormal(&c, delta);
  test_errors(&s);
  free(delta);
  TEST_RETURN();
}
