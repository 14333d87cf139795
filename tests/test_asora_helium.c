/**
 * @file test_asora_helium.c
 * @brief ASORA with hydrogen and helium (three absorbers, band tables): photons are
 *        conserved along every axis and diagonal ray of a partly ionized H + He box,
 *        summed over the three absorbers (absorbed + escaped = entered, as
 *        test_photon_conservation.c for hydrogen), the source cell absorbs
 *        Ndot (1 - thick(half a cell)), every absorber takes its share, and the
 *        columns written are those of each absorber; and all of it band by band (the
 *        tables of one band alone: each band's photons are conserved on their own).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/atomic_k.h"
#include "rt/bands.h"
#include "test_physics_common.h"
#include "test_util.h"

static struct bands tables;

/* Surviving fraction of a source's photons after columns col[3]. */
static double thick_all(const struct bands_view *v, const double col[3]) {
  double sum = 0.0;
  for (int b = 0; b < v->n_bins; ++b) {
    double tau = 0.0;
    for (int s = 0; s < 3; ++s) tau += v->sigma_cm2[3 * b + s] * col[s];
    sum += bands_thick(v, b, tau);
  }
  return sum;
}

/* The view of band `band`'s sub-bins alone (a spectrum with that band's photons only). */
static struct bands_view band_view(struct bands_view v, const int n_sub[3], int band) {
  int k0 = 0;
  for (int b = 0; b < band; ++b) k0 += n_sub[b];
  const long long at = (long long)k0 * BANDS_NODES * BANDS_NODE_VALUES;
  v.n_bins = n_sub[band];
  v.sigma_cm2 += 3 * k0;
  v.table += at;
  if (v.e_table) v.e_table += at;
  v.first_xray_bin = v.first_xray_bin > k0 ? v.first_xray_bin - k0 : 0;
  return v;
}

int main(void) {
  struct bands_setup setup = {.type = BANDS_BLACKBODY, .t_eff_k = 1e5,
                              .e_max_ev = 10.0 * IONF_E_HEII_EV, .n_sub = {1, 8, 8},
                              .heating = 1};
  if (bands_build(&setup, &tables) != IONF_OK) {
    fprintf(stderr, "FAIL: bands: %s\n", ionf_error_message());
    return 1;
  }
  struct bands_view view = bands_view_of(&tables);
  const int64_t n = 41, cells = n * n * n;
  const int32_t src[3] = {20, 20, 20};
  const double cell = 0.05 * IONF_KPC_CM, ndot = 5e50, n_h = 3e-2, a_he = 0.08;
  const double x[3] = {0.1, 0.3, 0.1}; /* x_HII, x_HeII, x_HeIII */
  double *nh, *x1;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, 0, n_h, x[0], src, ndot, &nh, &x1, &s, &in);
  double *xs = malloc(sizeof(double) * 3 * (size_t)cells);
  for (int sp = 0; sp < 3; ++sp)
    for (int64_t c = 0; c < cells; ++c) xs[sp * cells + c] = x[sp];
  in.x_ion_av = xs;
  in.n_species = 3;
  in.abundance_he = a_he;
  for (int sp = 0; sp < 3; ++sp) in.tables.sp[sp].sigma0_cm2 = atomic_sigma_cm2(sp, atomic_threshold_ev(sp));
  double *gamma = calloc(3 * (size_t)cells, sizeof(double));
  double *heat = calloc(3 * (size_t)cells, sizeof(double));
  double *column = calloc(3 * (size_t)cells, sizeof(double));
  static const char *const names[4] = {"all bands", "band HI-HeI", "band HeI-HeII", "band above HeII"};
  for (int band = -1; band < 3; ++band) {
    struct bands_view bv = band < 0 ? view : band_view(view, setup.n_sub, band);
    in.bands = bv;
    memset(gamma, 0, sizeof(double) * 3 * (size_t)cells);
    memset(heat, 0, sizeof(double) * 3 * (size_t)cells);
    memset(column, 0, sizeof(double) * 3 * (size_t)cells);
    in.column_out = column;
    in.heating_out = heat;
    struct trace_stats st;
    EXPECT(asora_cpu_trace(&in, gamma, &st, NULL) == IONF_OK, "trace: %s", ionf_error_message());
    double n_abs[3];
    for (int sp = 0; sp < 3; ++sp) n_abs[sp] = species_absorber_density(sp, n_h, x, a_he);
    /* the source cell: Ndot (1 - thick(half a cell)), shared by the three absorbers */
    int64_t c0 = grid_index(n, 20, 20, 20);
    double half[3], absorbed0 = 0.0;
    for (int sp = 0; sp < 3; ++sp) {
      half[sp] = n_abs[sp] * 0.5 * cell;
      absorbed0 += gamma[sp * cells + c0] * n_abs[sp] * cell * cell * cell;
      /* a band's photons ionize the absorbers whose thresholds lie below it, none else */
      if (band < 0 || sp <= band)
        EXPECT(gamma[sp * cells + c0] > 0.0 && heat[sp * cells + c0] > 0.0,
               "%s: absorber %d takes nothing in the source cell", names[band + 1], sp);
      else
        EXPECT(gamma[sp * cells + c0] == 0.0, "%s: absorber %d ionized below its threshold",
               names[band + 1], sp);
    }
    EXPECT_REL(absorbed0, ndot * (thick_all(&bv, (double[3]){0.0, 0.0, 0.0}) - thick_all(&bv, half)),
               1e-9, names[band + 1]);
    const int dirs[][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
                           {1, 1, 1}, {-1, 1, 1}, {1, -1, -1}, {-1, -1, -1}};
    double worst = 0.0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; ++d) {
      double len2 = (double)(dirs[d][0] * dirs[d][0] + dirs[d][1] * dirs[d][1] + dirs[d][2] * dirs[d][2]);
      double along = 0.0, entering[3], last[3];
      for (int sp = 0; sp < 3; ++sp) entering[sp] = n_abs[sp] * 0.5 * cell * sqrt(len2);
      for (int step = 1; step <= 20; ++step) {
        int64_t idx = grid_index(n, 20 + step * dirs[d][0], 20 + step * dirs[d][1], 20 + step * dirs[d][2]);
        double v_shell = 4.0 * IONF_PI * len2 * step * step * cell * cell * sqrt(len2) * cell;
        for (int sp = 0; sp < 3; ++sp) {
          along += gamma[sp * cells + idx] * n_abs[sp] * v_shell;
          last[sp] = column[sp * cells + idx];
        }
        /* the columns are each absorber's own: n_s times the path from the source */
        for (int sp = 0; sp < 3 && step == 20 && d < 6; ++sp)
          EXPECT_REL(last[sp], n_abs[sp] * (step + 0.5) * cell, 1e-12, "axis column of an absorber");
      }
      double in_flow = ndot * thick_all(&bv, entering), escaped = ndot * thick_all(&bv, last);
      double e = fabs((along + escaped) / in_flow - 1.0);
      worst = e > worst || e != e ? e : worst;
    }
    printf("%s: photons along the rays: worst |absorbed + escaped - entered| / entered = %.2e\n",
           names[band + 1], worst);
    /* per ray the shares add up to what the band tables lose, to rounding (measured 4.4e-16) */
    EXPECT(worst < 1e-12, "%s: photons not conserved along a ray: %.3g", names[band + 1], worst);
  }
  free(gamma);
  free(heat);
  free(column);
  free(xs);
  free(nh);
  free(x1);
  free(s.ijk);
  free(s.ndot_per_s);
  bands_free(&tables);
  TEST_RETURN();
}
