/**
 * @file test_synth_halos.c
 * @brief Synthetic haloes: Test 4 peaks (order, separation, periodic 3^3 masses)
 *        on a hand-made field; the conditional EPS collapsed fraction (limits,
 *        clamping, its mean over Gaussian cells = the unconditional Press-Schechter
 *        fraction); EPS haloes on a random field (global fraction, each halo in its
 *        cell with its cell's mass, same bits on any thread count, positions kept
 *        across redshifts); bad masses.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosmo/cosmology.h"
#include "core/error.h"
#include "synth/synth_density.h"
#include "synth/synth_growth.h"
#include "synth/synth_halos.h"
#include "synth/synth_spectrum.h"
#include "test_util.h"

static size_t at(int n, int i, int j, int k) { return ((size_t)i * n + j) * n + k; }

static void test_peaks(void) {
  enum { n = 16 };
  static double f[n * n * n];
  for (size_t q = 0; q < (size_t)n * n * n; ++q) f[q] = 1.0;
  /* five bumps: the two at (8,8,8) and (8,10,8) are 2 cells apart */
  f[at(n, 8, 8, 8)] = 10.0;
  f[at(n, 8, 10, 8)] = 9.0;  /* too close to the first: dropped with min_sep 4 */
  f[at(n, 0, 0, 15)] = 8.0;  /* at the corner: its 3^3 block wraps */
  f[at(n, 15, 1, 0)] = 7.0;  /* 1 cell from (0,0,15) across the wrap: dropped */
  f[at(n, 3, 12, 4)] = 6.0;
  f[at(n, 3, 12, 5)] = 2.0;  /* a neighbour of the peak above: not a maximum itself */
  struct synth_peaks p;
  EXPECT(synth_halos_peaks(n, f, 3, 4, 2.0, &p) == IONF_OK, "peaks: %s", ionf_error_message());
  EXPECT(p.n == 3, "found %d peaks, want 3", p.n);
  const int want[3][3] = {{8, 8, 8}, {0, 0, 15}, {3, 12, 4}};
  for (int s = 0; s < p.n && s < 3; ++s) {
    EXPECT(p.ijk[3 * s] == want[s][0] && p.ijk[3 * s + 1] == want[s][1] &&
               p.ijk[3 * s + 2] == want[s][2],
           "peak %d at (%d, %d, %d), want (%d, %d, %d)", s, p.ijk[3 * s], p.ijk[3 * s + 1],
           p.ijk[3 * s + 2], want[s][0], want[s][1], want[s][2]);
  }
  /* masses: cell mass 2 times the 3^3 sums (26 ones + the peak; (0,0,15) also holds 7) */
  EXPECT_REL(p.mass_msun[0], 2.0 * (26.0 + 10.0), 1e-14, "mass of peak 0");
  EXPECT_REL(p.mass_msun[1], 2.0 * (25.0 + 8.0 + 7.0), 1e-14, "mass of the wrapped peak");
  EXPECT_REL(p.mass_msun[2], 2.0 * (25.0 + 6.0 + 2.0), 1e-14, "mass of peak 2");
  EXPECT(p.rho_over_mean[0] == 10.0 && p.rho_over_mean[2] == 6.0, "peak values");
  synth_halos_peaks_free(&p);
  /* separation 0 keeps the close one; (15,1,0) touches (0,0,15) across the wrap and is
   * no maximum; then come plateau cells of the flat background (>= all neighbours) */
  EXPECT(synth_halos_peaks(n, f, 10, 0, 1.0, &p) == IONF_OK, "peaks sep 0");
  const double values[] = {10.0, 9.0, 8.0, 6.0, 1.0};
  EXPECT(p.n == 10, "separation 0: %d peaks, want 10", p.n);
  for (int k = 0; k < 5 && k < p.n; ++k)
    EXPECT(p.rho_over_mean[k] == values[k], "separation 0: peak %d has %g, want %g", k,
           p.rho_over_mean[k], values[k]);
  synth_halos_peaks_free(&p);
  EXPECT(synth_halos_peaks(n, f, 0, 4, 1.0, &p) == IONF_ERR_CONFIG, "0 peaks accepted");
  ionf_error_clear();
}

static void test_fcoll(const struct synth_spectrum *s) {
  double smin = 0.0, scell = 0.0;
  EXPECT(synth_spectrum_sigma_mass(s, 1e8, &smin) == IONF_OK, "sigma(1e8)");
  EXPECT(synth_spectrum_sigma_mass(s, 1e11, &scell) == IONF_OK, "sigma(1e11)");
  const double s2min = smin * smin, s2cell = scell * scell, d = 0.12;
  /* a cell at the threshold: erfc(0) = 1; far above: clamped to 1; far below: 0 */
  EXPECT(synth_halos_fcoll_conditional(SYNTH_HALOS_DELTA_C / d, d, s2min, s2cell) == 1.0,
         "f_coll at the threshold");
  EXPECT(synth_halos_fcoll_conditional(3.0 * SYNTH_HALOS_DELTA_C / d, d, s2min, s2cell) == 1.0,
         "f_coll clamped to 1");
  EXPECT(synth_halos_fcoll_conditional(-1e3, d, s2min, s2cell) == 0.0, "f_coll of a deep void");
  EXPECT_REL(synth_halos_fcoll_conditional(0.0, d, s2min, s2cell),
             erfc(SYNTH_HALOS_DELTA_C / (d * sqrt(2.0 * (s2min - s2cell)))), 1e-15,
             "f_coll at delta = 0");
  double prev = -1.0;
  for (double x = -20.0; x < 20.0; x += 0.5) {
    double v = synth_halos_fcoll_conditional(x, d, s2min, s2cell);
    EXPECT(v >= prev && v >= 0.0 && v <= 1.0, "f_coll not monotone in [0, 1] at %g", x);
    prev = v;
  }
  EXPECT(isnan(synth_halos_fcoll_conditional(0.0, d, s2cell, s2min)), "cell below M_min");

  /* Mean over cells δ ~ N(0, σ²(M_cell)) = unconditional PS (exact without the clamp,
   * which here bites with probability ~1e-9) */
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r, 3);
  const int m = 400000;
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < m; ++i) {
    double v = synth_halos_fcoll_conditional(gsl_ran_gaussian(r, scell), d, s2min, s2cell);
    sum += v;
    sum2 += v * v;
  }
  gsl_rng_free(r);
  double mean = sum / m, se = sqrt((sum2 / m - mean * mean) / m);
  double ps = synth_halos_fcoll_unconditional(smin, d);
  printf("EPS over Gaussian cells: %.5e +- %.1e, Press-Schechter %.5e\n", mean, se, ps);
  EXPECT(fabs(mean - ps) < 4.0 * se, "mean conditional f_coll %.5e vs PS %.5e (se %.1e)", mean,
         ps, se);
}

static void test_eps_grid(const struct synth_spectrum *s, const struct cosmology *c) {
  const int n = 32;
  const double box = 80.0;
  const size_t cells = (size_t)n * n * n, bytes = cells * sizeof(double);
  double *delta = malloc(bytes), *rho = malloc(bytes);
  EXPECT(synth_density_linear(n, box, s, 9, delta) == IONF_OK, "field");
  const double z = 9.0, g = synth_growth_factor(c, z);
  EXPECT(synth_density_lognormal(n, delta, g, rho, NULL) == IONF_OK, "lognormal");
  struct synth_eps_request req = {n, box, delta, rho, g, 1e8, 1e9, 21};
  struct synth_halo_list h;
  struct synth_eps_stats st;
  EXPECT(synth_halos_eps(&req, s, &h, &st) == IONF_OK, "eps: %s", ionf_error_message());

  /* The global fraction: averaging the conditional formula over the grid's δ, whose
   * variance S_grid differs from σ²(M_cell), gives erfc(δ_c / (D sqrt(2 (S_min − S_cell
   * + S_grid)))) (the same identity as above); within the sampling of 32^3 cells. */
  double s2 = 0.0;
  for (size_t q = 0; q < cells; ++q) s2 += delta[q] * delta[q];
  s2 /= cells;
  double expect = erfc(SYNTH_HALOS_DELTA_C /
                       (g * sqrt(2.0 * (st.sigma_min * st.sigma_min -
                                        st.sigma_cell * st.sigma_cell + s2))));
  printf("EPS on 32^3 at z = 9: f_coll volume %.4e (expected %.4e), mass %.4e, PS %.4e; "
         "%lld haloes, sigma_cell %.3f (grid rms %.3f)\n",
         st.fcoll_volume, expect, st.fcoll_mass, st.fcoll_ps, (long long)h.n, st.sigma_cell,
         sqrt(s2));
  EXPECT(fabs(st.fcoll_volume / expect - 1.0) < 0.03, "volume f_coll %.6e vs %.6e",
         st.fcoll_volume, expect);
  EXPECT(st.fcoll_volume > 0.5 * st.fcoll_ps && st.fcoll_volume < 2.0 * st.fcoll_ps,
         "volume f_coll %.4e is not within a factor 2 of Press-Schechter %.4e", st.fcoll_volume,
         st.fcoll_ps);
  EXPECT(st.fcoll_mass >= st.fcoll_volume, "mass-weighted %.4e below volume-weighted %.4e",
         st.fcoll_mass, st.fcoll_volume);

  /* Each halo: in [0, box), in the middle of a cell whose collapsed mass it carries */
  const double cell = box / n, m_cell = synth_halos_cell_mass_msun(s, box, n);
  const double s2min = st.sigma_min * st.sigma_min, s2cell = st.sigma_cell * st.sigma_cell;
  int64_t above = 0;
  for (size_t q = 0; q < cells; ++q)
    above += synth_halos_fcoll_conditional(delta[q], g, s2min, s2cell) * m_cell * rho[q] >= 1e9;
  EXPECT(h.n == above && h.n > 0, "%lld haloes, %lld cells above 1e9 Msun", (long long)h.n,
         (long long)above);
  double total = 0.0;
  int64_t bad = 0;
  for (int64_t k = 0; k < h.n; ++k) {
    int64_t idx[3];
    for (int d = 0; d < 3; ++d) {
      double p = h.position_cmpc[3 * k + d];
      idx[d] = (int64_t)floor(p / box * n);
      double frac = p / cell - (double)idx[d];
      if (!(p >= 0.0 && p < box && frac >= 0.05 - 1e-9 && frac <= 0.95 + 1e-9)) ++bad;
    }
    size_t q = at(n, (int)idx[0], (int)idx[1], (int)idx[2]);
    double m = synth_halos_fcoll_conditional(delta[q], g, s2min, s2cell) * m_cell * rho[q];
    if (!(h.mass_msun[k] == m && m >= 1e9)) ++bad;
    total += h.mass_msun[k];
  }
  EXPECT(bad == 0, "%lld halo coordinates or masses off their cells", (long long)bad);
  EXPECT_REL(total, st.in_halos_msun, 1e-10, "mass in haloes");

  /* same bits on 1 and 2 threads; a later redshift keeps the cells' points */
  struct synth_halo_list h1, h7;
  omp_set_num_threads(1);
  EXPECT(synth_halos_eps(&req, s, &h1, NULL) == IONF_OK, "eps 1 thread");
  omp_set_num_threads(2);
  EXPECT(h1.n == h.n && !memcmp(h1.position_cmpc, h.position_cmpc, 3 * h.n * sizeof(double)) &&
             !memcmp(h1.mass_msun, h.mass_msun, h.n * sizeof(double)),
         "haloes differ between thread counts");
  const double g7 = synth_growth_factor(c, 7.0);
  EXPECT(synth_density_lognormal(n, delta, g7, rho, NULL) == IONF_OK, "lognormal z = 7");
  req.growth = g7;
  EXPECT(synth_halos_eps(&req, s, &h7, &st) == IONF_OK, "eps z = 7");
  EXPECT(h7.n > h.n, "z = 7 has %lld haloes, z = 9 %lld", (long long)h7.n, (long long)h.n);
  int64_t moved = 0, j = 0;
  for (int64_t k = 0; k < h.n; ++k) { /* both lists run in cell order */
    while (j < h7.n && floor(h7.position_cmpc[3 * j] / cell) * n * n +
                               floor(h7.position_cmpc[3 * j + 1] / cell) * n +
                               floor(h7.position_cmpc[3 * j + 2] / cell) <
                           floor(h.position_cmpc[3 * k] / cell) * n * n +
                               floor(h.position_cmpc[3 * k + 1] / cell) * n +
                               floor(h.position_cmpc[3 * k + 2] / cell))
      ++j;
    if (j >= h7.n || memcmp(h7.position_cmpc + 3 * j, h.position_cmpc + 3 * k, 3 * sizeof(double)))
      ++moved;
  }
  EXPECT(moved == 0, "%lld haloes of z = 9 are not at the same point at z = 7", (long long)moved);
  synth_halos_list_free(&h1);
  synth_halos_list_free(&h7);
  synth_halos_list_free(&h);

  /* M_min at or above a cell's mass */
  req.min_halo_mass_msun = 2.0 * m_cell;
  EXPECT(synth_halos_eps(&req, s, &h, NULL) == IONF_ERR_CONFIG, "M_min > M_cell accepted");
  EXPECT(strstr(ionf_error_message(), "not below the mass of a cell") != NULL, "message: %s",
         ionf_error_message());
  ionf_error_clear();
  req.min_halo_mass_msun = 1e8;
  req.min_source_mass_msun = -1.0;
  EXPECT(synth_halos_eps(&req, s, &h, NULL) == IONF_ERR_CONFIG, "negative source mass accepted");
  ionf_error_clear();
  free(delta);
  free(rho);
}

int main(void) {
  struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  struct synth_spectrum s;
  if (synth_spectrum_init(&s, &c, 0.8, 0.96) != IONF_OK) {
    fprintf(stderr, "spectrum: %s\n", ionf_error_message());
    return 1;
  }
  test_peaks();
  test_fcoll(&s);
  test_eps_grid(&s, &c);
  TEST_RETURN();
}
