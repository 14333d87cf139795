/**
 * @file test_asora_cutoff.c
 * @brief raytracing.transmission_cutoff on the CPU tracer (the GPU's function, which ends a
 *        source at its first opaque shell: test_backend_agreement case 2b):
 *        (1) photo_tables_cut: grey tau = -ln cutoff exactly; a black body's column is the
 *        first table node from which on all four tables are at most cutoff times their
 *        value at tau = 0, and the node before it is not; cutoff 0 leaves
 *        PHOTO_MAX_COLUMN_CM2;
 *        (2) a trace with the cutoff: every rate is the uncut one bit for bit, or 0 in a cell
 *        whose outgoing column is beyond the cut; some cells are cut; the photons those cells
 *        took are at most ~cutoff of the source's.
 */
#include <stdlib.h>

#include "rt/photo_tables.h"
#include "test_physics_common.h"
#include "test_util.h"

static struct photo_tables tables_of(enum spectrum_type type, double t_eff_k, int heating) {
  struct photo_spectrum spectrum = {type, t_eff_k, 2000, -20.0, 4.0};
  struct species_data species[IONF_MAX_SPECIES];
  struct species_params p = {.sigma0_cm2 = IONF_SIGMA_HI_CM2, .sigma_power_law_index = 2.8};
  species_table(&p, species);
  struct photo_tables t;
  if (photo_tables_build(&spectrum, species, heating, &t) != IONF_OK) {
    fprintf(stderr, "photo_tables_build: %s\n", ionf_error_message());
    exit(1);
  }
  return t;
}

static void check_cut_columns(void) {
  struct photo_tables grey = tables_of(SPECTRUM_GREY, 0.0, 0);
  EXPECT(grey.sp[SPECIES_HI].opaque_cm2 == PHOTO_MAX_COLUMN_CM2, "no cut after the build: %g",
         grey.sp[SPECIES_HI].opaque_cm2);
  photo_tables_cut(&grey, 1e-10);
  EXPECT_REL(grey.sp[SPECIES_HI].opaque_cm2 * IONF_SIGMA_HI_CM2, -log(1e-10), 1e-15,
             "grey: tau at the cut");
  photo_tables_cut(&grey, 0.0);
  EXPECT(grey.sp[SPECIES_HI].opaque_cm2 == PHOTO_MAX_COLUMN_CM2, "cutoff 0: no cut (%g)",
         grey.sp[SPECIES_HI].opaque_cm2);
  photo_tables_free(&grey);

  struct photo_tables bb = tables_of(SPECTRUM_BLACKBODY, 5e4, 1);
  const double cutoff = 1e-12;
  photo_tables_cut(&bb, cutoff);
  const struct photo_species_tables *sp = &bb.sp[SPECIES_HI];
  const double tau_cut = sp->opaque_cm2 * sp->sigma0_cm2;
  EXPECT(tau_cut > 1.0 && tau_cut < 1e4, "black body: tau at the cut %g", tau_cut);
  const double *tab[4] = {sp->thick, sp->thin, sp->heat_thick, sp->heat_thin};
  int below_ok = 1, before_above = 0;
  for (int i = 0; i <= bb.num_tau; ++i) {
    const double tau = photo_table_tau(i, bb.min_log_tau, bb.dlog_tau);
    const int beyond = tau >= tau_cut * (1.0 - 1e-12);
    const double next = photo_table_tau(i + 1, bb.min_log_tau, bb.dlog_tau);
    const int just_before = !beyond && next >= tau_cut * (1.0 - 1e-12);
    for (int q = 0; q < 4; ++q) {
      if (beyond && !(tab[q][i] <= cutoff * tab[q][0])) below_ok = 0;
      if (just_before && tab[q][i] > cutoff * tab[q][0]) before_above = 1;
    }
  }
  EXPECT(below_ok, "black body: a table above %g of its tau = 0 value beyond the cut", cutoff);
  EXPECT(before_above, "black body: the cut is not the first such node");
  photo_tables_free(&bb);
}

struct traced {
  double *gamma, *column;
};

/* One source at the centre of a uniform 41^3 box (n_H 1e-3: tau ~ 1 a cell), traced with
   `tables`. */
static struct traced trace(struct photo_table_view tables, double n_h, double *n_hi_cm3,
                           double *cell_cm) {
  const int64_t n = 41, cells = n * n * n;
  const int32_t src[3] = {20, 20, 20};
  const double cell = 0.05 * IONF_KPC_CM, x0 = 1e-3;
  double *nh, *x;
  struct source_list s;
  struct trace_input in;
  test_uniform_setup(n, cell, 0, n_h, x0, src, 1e50, &nh, &x, &s, &in);
  in.tables = tables;
  struct traced out = {calloc((size_t)cells, sizeof(double)), calloc((size_t)cells, sizeof(double))};
  in.column_out = out.column;
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, out.gamma, &st, NULL) == IONF_OK, "trace: %s", ionf_error_message());
  *n_hi_cm3 = n_h * (1.0 - x0);
  *cell_cm = cell;
  free(nh);
  free(x);
  free(s.ijk);
  free(s.ndot_per_s);
  return out;
}

static void check_cut_trace(enum spectrum_type type, double cutoff, double n_h,
                            const char *what) {
  struct photo_tables t = tables_of(type, 5e4, 0);
  double n_hi, cell;
  struct traced full = trace(photo_tables_view(&t), n_h, &n_hi, &cell);
  photo_tables_cut(&t, cutoff);
  struct traced cut = trace(photo_tables_view(&t), n_h, &n_hi, &cell);
  const double opaque = t.sp[SPECIES_HI].opaque_cm2;
  const int64_t cells = 41 * 41 * 41;
  int64_t dropped = 0, wrong = 0;
  double photons_dropped = 0.0;
  for (int64_t c = 0; c < cells; ++c) {
    if (cut.gamma[c] == full.gamma[c]) continue;
    if (cut.gamma[c] == 0.0 && cut.column[c] >= opaque) {
      ++dropped;
      photons_dropped += full.gamma[c] * n_hi * cell * cell * cell;
    } else {
      ++wrong;
    }
  }
  printf("%s: cutoff %g, tau %.4g: %lld cells cut, their photons %.3g of the source's\n", what,
         cutoff, opaque * t.sp[SPECIES_HI].sigma0_cm2, (long long)dropped, photons_dropped / 1e50);
  EXPECT(wrong == 0, "%s: %lld cells neither the uncut rate nor cut behind the column", what,
         (long long)wrong);
  EXPECT(dropped > 1000, "%s: only %lld cells cut", what, (long long)dropped);
  /* photons beyond the cut: at most the cutoff of every ray's (2: the cells' volumes are
     not the shells' of the rates) */
  EXPECT(photons_dropped <= 2.0 * cutoff * 1e50, "%s: the cut cells took %.3g of the photons",
         what, photons_dropped / 1e50);
  free(full.gamma), free(full.column), free(cut.gamma), free(cut.column);
  photo_tables_free(&t);
}

int main(void) {
  check_cut_columns();
  check_cut_trace(SPECTRUM_GREY, 1e-6, 1e-3, "grey");
  /* a black body's hard photons go far: tau ~ 1e3 at 1e-8, so 100 a cell */
  check_cut_trace(SPECTRUM_BLACKBODY, 1e-8, 0.1, "black body 5e4 K");
  TEST_RETURN();
}
