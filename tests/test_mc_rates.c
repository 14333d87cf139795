/**
 * @file test_mc_rates.c
 * @brief The CPU Monte Carlo pass (mc_cpu.c) against exact answers:
 *        - optically thin: Gamma of every cell at r >= 4 cells equals the cell average
 *          of Ndot sigma / (4 pi r^2) within the estimated error, and the estimate is
 *          right (mean of z^2 ~ 1, z = (Gamma - exact) / sqrt(sum w^2));
 *        - optically thick: the photons absorbed, sum Gamma n_HI V, equal Ndot (no
 *          packet leaves the box) to rounding;
 *        - with the diffuse field (case A re-emission) in a thick, ionized-enough medium:
 *          sum Gamma n_HI V = Ndot + the cells' ground-state recombinations, to the
 *          noise of the random rounding of the packet counts;
 *        - the same tallies for 1 thread and many, and for the sources traced in one
 *          pass or in two (as two ranks would), to rounding.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "rt/mc/mc.h"
#include "test_util.h"

enum { N = 32 };
#define CELLS ((int64_t)N * N * N)

static void pass(const struct mc_state *st, double cell_cm, const double *n_h, const double *x,
                 const struct source_list *src, int64_t first, int64_t count, double *gamma,
                 double *sq) {
  struct mc_pass p;
  memset(&p, 0, sizeof p);
  p.grid.n = N;
  p.grid.cell_cm = cell_cm;
  p.grid.periodic = 0;
  p.grid.box = grid_box_whole(N);
  p.n_h_cm3 = n_h;
  p.x_hii_av = x;
  p.sources = src;
  p.first_source = first;
  p.source_count = count;
  p.r_max_cells = 0.0;
  p.st = st;
  p.gamma = gamma;
  p.gamma_sq = sq;
  int64_t crossed = 0;
  if (mc_cpu_trace(&p, &crossed) != IONF_OK) abort();
}

int main(void) {
  double *n_h = calloc(CELLS, sizeof(double)), *x = calloc(CELLS, sizeof(double));
  double *g = calloc(CELLS, sizeof(double)), *sq = calloc(CELLS, sizeof(double));
  double *g2 = calloc(CELLS, sizeof(double)), *sq2 = calloc(CELLS, sizeof(double));
  struct source_list src;
  if (!n_h || !x || !g || !sq || !g2 || !sq2 || sources_alloc(2, &src) != IONF_OK) return 1;
  int32_t ijk[6] = {16, 16, 16, 9, 20, 13};
  memcpy(src.ijk, ijk, sizeof ijk);
  src.ndot_per_s[0] = 5e48;
  src.ndot_per_s[1] = 2e48;
  struct mc_state st;
  memset(&st, 0, sizeof st);
  st.seed = 42u;
  st.step = 3;
  st.packets_per_source = 1000000;
  st.sigma0_cm2 = IONF_SIGMA_HI_CM2;
  const double cell_cm = 1.6e20, vol = cell_cm * cell_cm * cell_cm;

  /* thin: n_HI sigma dx = 1e-12 per cell */
  for (int64_t c = 0; c < CELLS; ++c) n_h[c] = 1e-12 / (IONF_SIGMA_HI_CM2 * cell_cm);
  pass(&st, cell_cm, n_h, x, &src, 0, 1, g, sq);
  double z_sum = 0.0, z2_sum = 0.0;
  int64_t n_cells = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        double di = i - 16, dj = j - 16, dk = k - 16;
        double r = sqrt(di * di + dj * dj + dk * dk);
        if (r < 4.0 || r > 12.0) continue;
        /* cell average of 1/r^2 [cells^-2]: midpoints of 8^3 sub-cells */
        double avg = 0.0;
        for (int a = 0; a < 8; ++a)
          for (int b = 0; b < 8; ++b)
            for (int e = 0; e < 8; ++e) {
              double px = di + (a + 0.5) / 8.0 - 0.5, py = dj + (b + 0.5) / 8.0 - 0.5,
                     pz = dk + (e + 0.5) / 8.0 - 0.5;
              avg += 1.0 / (px * px + py * py + pz * pz);
            }
        avg /= 512.0;
        double exact = 5e48 * IONF_SIGMA_HI_CM2 * avg / (4.0 * IONF_PI * cell_cm * cell_cm);
        int64_t c = ((int64_t)i * N + j) * N + k;
        double z = (g[c] - exact) / sqrt(sq[c]);
        z_sum += z;
        z2_sum += z * z;
        ++n_cells;
      }
  double z_mean = z_sum / (double)n_cells, z2_mean = z2_sum / (double)n_cells;
  printf("thin: %lld cells, <z> = %.4f, <z^2> = %.4f\n", (long long)n_cells, z_mean, z2_mean);
  /* independent cells: <z> has standard error 1/sqrt(n) (0.012 here), <z^2> sqrt(2/n) */
  EXPECT(fabs(z_mean) < 5.0 / sqrt((double)n_cells), "biased: <z> = %g", z_mean);
  EXPECT(fabs(z2_mean - 1.0) < 0.15, "error estimate off: <z^2> = %g", z2_mean);

  /* thick: tau = 4 per cell; 9.5 cells to the nearest face: at most e^-38 escapes */
  for (int64_t c = 0; c < CELLS; ++c) {
    n_h[c] = 4.0 / (IONF_SIGMA_HI_CM2 * cell_cm);
    x[c] = 0.0;
    g[c] = sq[c] = 0.0;
  }
  st.packets_per_source = 20000;
  pass(&st, cell_cm, n_h, x, &src, 0, 2, g, sq);
  double absorbed = 0.0;
  for (int64_t c = 0; c < CELLS; ++c) absorbed += g[c] * n_h[c] * vol;
  EXPECT_REL(absorbed, 7e48, 1e-11, "photons absorbed = emitted");

  /* the diffuse field: x = 0.3 in the central 8^3 cells (tau = 2.8 per cell there),
     neutral outside (x = 0: no emission), so that no emitted photon escapes the box */
  double *t_k = calloc(CELLS, sizeof(double));
  if (!t_k) return 1;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        int64_t c = ((int64_t)i * N + j) * N + k;
        int inner = i >= 12 && i < 20 && j >= 12 && j < 20 && k >= 12 && k < 20;
        x[c] = inner ? 0.3 : 0.0;
        t_k[c] = 1e4 * (1.0 + 0.3 * sin((double)c));
        g[c] = sq[c] = 0.0;
      }
  st.recombination_emission = 1;
  st.recombination_packets = 1000000;
  st.alpha_a_1e4_cm3_s = 4.18e-13;
  st.alpha_b_1e4_cm3_s = 2.59e-13;
  st.alpha_power = -0.7;
  st.abu_c = 7.1e-7;
  st.ranks = 1;
  struct grid grid = {N, cell_cm, 0, grid_box_whole(N)};
  double r_total = mc_recombination_total(&st, &grid, n_h, x, t_k);
  {
    struct mc_pass p;
    memset(&p, 0, sizeof p);
    p.grid = grid;
    p.n_h_cm3 = n_h, p.x_hii_av = x, p.temperature_k = t_k, p.sources = &src;
    p.first_source = 0, p.source_count = 2, p.st = &st, p.gamma = g, p.gamma_sq = sq;
    int64_t crossed = 0;
    if (mc_cpu_trace(&p, &crossed) != IONF_OK) return 1;
  }
  absorbed = 0.0;
  for (int64_t c = 0; c < CELLS; ++c) absorbed += g[c] * n_h[c] * (1.0 - x[c]) * vol;
  printf("diffuse field: %.6g photons/s of recombinations, absorbed - Ndot = %.6g\n", r_total,
         absorbed - 7e48);
  /* the sources' part is exact to ~1e-11 of 7e48: far below 1e-3 of the diffuse field */
  EXPECT(r_total > 1e-5 * 7e48, "weak diffuse field %g: the check would be empty", r_total);
  /* the packet counts are rounded at random: standard deviation <= sqrt(cells / 4) packets
     of r_total / 1e6 each, 9e-5 of r_total; allow 1e-3 */
  EXPECT_REL(absorbed - 7e48, r_total, 1e-3, "diffuse photons absorbed = emitted");
  st.recombination_emission = 0;
  free(t_k);

  /* a partly ionized medium: 1 thread vs all, one pass vs two */
  st.packets_per_source = 20000;
  for (int64_t c = 0; c < CELLS; ++c) {
    n_h[c] = 0.05 / (IONF_SIGMA_HI_CM2 * cell_cm) * (1.0 + 0.5 * sin(0.3 * (double)c));
    x[c] = 0.5 + 0.4 * cos(0.7 * (double)c);
    g[c] = sq[c] = g2[c] = sq2[c] = 0.0;
  }
  int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  pass(&st, cell_cm, n_h, x, &src, 0, 2, g, sq);
  omp_set_num_threads(threads > 1 ? threads : 2);
  pass(&st, cell_cm, n_h, x, &src, 0, 1, g2, sq2);
  pass(&st, cell_cm, n_h, x, &src, 1, 1, g2, sq2);
  double worst = 0.0, total = 0.0;
  for (int64_t c = 0; c < CELLS; ++c) {
    worst = test_worst(worst, test_rel_diff(g2[c], g[c], 1.0)); /* relative above 1, else absolute */
    total += g[c];
  }
  printf("1 thread, one pass vs %d threads, two passes: largest relative difference %.3g\n",
         threads > 1 ? threads : 2, worst);
  EXPECT(total > 0.0, "no rates");
  EXPECT(worst < 1e-12, "results depend on threads or the split of sources: %g", worst);
  /* another seed gives other packets */
  st.seed = 43u;
  memset(g2, 0, sizeof(double) * CELLS);
  memset(sq2, 0, sizeof(double) * CELLS);
  pass(&st, cell_cm, n_h, x, &src, 0, 2, g2, sq2);
  int differ = 0;
  for (int64_t c = 0; c < CELLS; ++c) differ += g2[c] != g[c];
  EXPECT(differ > CELLS / 2, "seed does not change the packets (%d cells differ)", differ);
  sources_free(&src);
  free(n_h), free(x), free(g), free(sq), free(g2), free(sq2);
  TEST_RETURN();
}
