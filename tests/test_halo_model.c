/**
 * @file test_halo_model.c
 * @brief Halo masses to photon rates (grid/halo_model.h) against values worked out by
 *        hand (a Python session with the formulas written out, quoted below):
 *  - the f_gamma model is Eq. 20 bit for bit (and io_halos_ndot_per_s with it);
 *  - dpl f_star, constant / power / power_obs f_esc, N_ion, constant and exponential
 *    accretion, the low-mass class;
 *  - C2-Ray's suppression criterion (x > 0.1, not >=);
 *  - halo lists to sources: zero masses dropped, merged per cell, suppressed low-mass
 *    haloes left out and counted;
 *  - halo_model_check refuses values out of range, naming the parameter.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/constants.h"
#include "core/error.h"
#include "cosmo/cosmology.h"
#include "grid/halo_model.h"
#include "io/io_halos.h"
#include "test_util.h"

/* Written out in the order of the original io_halos_ndot_per_s. */
static double eq20(double f_gamma, double m_msun, const struct cosmology *c, double t_s) {
  return f_gamma * (m_msun * IONF_M_SUN_G) * c->omega_b /
         (c->omega_m * IONF_PROTON_MASS_G * t_s);
}

static void expect_check_fails(const struct halo_model *m, const struct cosmology *c,
                               const char *frag, const char *what) {
  ionf_err rc = halo_model_check(m, c, "test");
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_CONFIG && strstr(msg, frag), "%s: rc %d, message '%s' lacks '%s'", what,
         (int)rc, msg, frag);
  printf("  %s -> %s\n", what, msg);
  ionf_error_clear();
}

static void test_f_gamma(const struct cosmology *c) {
  const double t_s = 10.0 * IONF_MYR_S;
  struct halo_model m = halo_model_f_gamma(20.0, t_s);
  EXPECT(halo_model_check(&m, c, "f_gamma") == IONF_OK, "f_gamma model refused: %s",
         ionf_error_message());
  for (double mass = 1e7; mass < 1e13; mass *= 3.7) {
    double want = eq20(20.0, mass, c, t_s);
    EXPECT(halo_model_ndot_per_s(&m, c, mass, t_s) == want, "f_gamma model at M = %g: %.17g, "
           "Eq. 20 gives %.17g (must be the same bits)", mass,
           halo_model_ndot_per_s(&m, c, mass, t_s), want);
    EXPECT(io_halos_ndot_per_s(mass, 20.0, t_s, c) == want, "io_halos_ndot_per_s at M = %g", mass);
  }
  /* Python: 20*3e10*Msun*Ob/(Om*mp*10*Myr) */
  EXPECT_REL(halo_model_ndot_per_s(&m, c, 3e10, t_s), 3.599757398281847e+53, 1e-14,
             "f_gamma 20, M 3e10 Msun, 10 Myr");
  EXPECT_REL(halo_model_f_star(&m, c, 3e10), 20.0 * 0.043 / 0.27, 1e-15, "f_star = f_gamma f_b");
  EXPECT(halo_model_lifetime_s(&m, c, 9.0) == t_s, "constant accretion: t_s");
  /* the low-mass class; Python: 150*5e8*Msun*Ob/(Om*mp*10*Myr) */
  m.f_gamma_low_mass = 150.0;
  EXPECT_REL(halo_model_low_mass_ndot_per_s(&m, c, 5e8, t_s), 4.499696747852309e+52, 1e-14,
             "low-mass class f_gamma 150, M 5e8 Msun");
}

/* dpl with every factor away from 1: f0 0.1, M_p 4e9, g1 -0.5, g2 0.5, M_t 1e9, g3 1, g4 -1
   at M = 1e9: x = 1/4, x^g1 + x^g2 = 2 + 1/2, g = 2 0.1 / 2.5 (1 + 1)^-1 = 0.04 exactly. */
static struct halo_model dpl_model(void) {
  struct halo_model m = halo_model_f_gamma(0.0, 0.0);
  m.f_star = HALO_FSTAR_DPL;
  m.dpl_f0 = 0.1;
  m.dpl_m_p_msun = 4e9;
  m.dpl_g1 = -0.5;
  m.dpl_g2 = 0.5;
  m.dpl_m_t_msun = 1e9;
  m.dpl_g3 = 1.0;
  m.dpl_g4 = -1.0;
  m.n_ion = 2000.0;
  m.accretion = HALO_ACCRETION_EXPONENTIAL;
  m.alpha_h = 0.79;
  return m;
}

static void test_dpl_and_f_esc(const struct cosmology *c) {
  struct halo_model m = dpl_model();
  m.f_esc = HALO_FESC_CONSTANT;
  m.fesc_f0 = 0.1;
  EXPECT(halo_model_check(&m, c, "dpl") == IONF_OK, "dpl refused: %s", ionf_error_message());
  EXPECT_REL(halo_model_g(&m, 1e9), 0.04, 1e-15, "dpl g at M = 1e9");
  EXPECT_REL(halo_model_f_star(&m, c, 1e9), 0.00637037037037037, 1e-15, "dpl f_star at M = 1e9");
  /* at M = M_p with g1 = g2 and no suppression the double power law is f0 f_b */
  struct halo_model flat = m;
  flat.dpl_g1 = flat.dpl_g2 = -0.3;
  flat.dpl_g3 = flat.dpl_g4 = 0.0;
  EXPECT_REL(halo_model_f_star(&flat, c, 4e9), 0.1 * 0.043 / 0.27, 1e-15, "dpl f_star at M_p");
  /* exponential accretion at z = 9: H = 3.7326363958356065e-17 /s, t_s = 1/(0.79 10 H) */
  EXPECT_REL(cosmology_hubble_per_s(c, 9.0), 3.7326363958356065e-17, 1e-14, "H(z = 9)");
  double t_s = halo_model_lifetime_s(&m, c, 9.0);
  EXPECT_REL(t_s, 3391229818747864.5, 1e-14, "exponential accretion: t_s at z = 9");
  /* Ndot = N_ion f_esc f_star M Msun / (m_p t_s); Python: 4.4664113077406e+50 */
  EXPECT_REL(halo_model_ndot_per_s(&m, c, 1e9, t_s), 4.4664113077406e+50, 1e-13,
             "dpl, f_esc 0.1, N_ion 2000, exponential accretion, M 1e9, z 9");
  /* power: 0.02 (1e6 / 1e10)^-0.25 = 0.2; at 1e2 Msun it would be 2: clipped to 1 */
  m.f_esc = HALO_FESC_POWER;
  m.fesc_f0 = 0.02;
  m.fesc_m_p_msun = 1e10;
  m.fesc_alpha = -0.25;
  EXPECT_REL(halo_model_f_esc(&m, c, 1e6), 0.2, 1e-15, "f_esc power at 1e6 Msun");
  EXPECT(halo_model_f_esc(&m, c, 1e2) == 1.0, "f_esc power clipped to 1: %g",
         halo_model_f_esc(&m, c, 1e2));
  EXPECT_REL(halo_model_photons_per_baryon(&m, c, 1e6), 2000.0 * 0.2 * halo_model_g(&m, 1e6),
             1e-15, "eff = N_ion f_esc g");
  /* power_obs: at the stellar mass f_star M = 6370370.37 Msun: 0.12588930182450464 */
  m.f_esc = HALO_FESC_POWER_OBS;
  EXPECT_REL(halo_model_f_esc(&m, c, 1e9), 0.12588930182450464, 1e-14,
             "f_esc power_obs at M = 1e9 (stellar mass 6.37e6)");
}

static void test_suppression_criterion(void) {
  EXPECT(!halo_model_low_mass_suppressed(0.1), "x = 0.1 is still neutral (C2-Ray: x > 0.1)");
  EXPECT(halo_model_low_mass_suppressed(nextafter(0.1, 1.0)), "x just above 0.1 suppresses");
  EXPECT(!halo_model_low_mass_suppressed(1.2e-3), "x = 1.2e-3 does not suppress");
  EXPECT(halo_model_low_mass_suppressed(1.0), "x = 1 suppresses");
}

/* Four records in three cells of a 4^3 grid: (1,2,3) twice, (0,0,0) massless, (3,3,3)
   with only low-mass haloes; high masses with f_gamma 10, low with 150. */
static void test_sources(const struct cosmology *c) {
  const double t_s = 10.0 * IONF_MYR_S;
  struct halo_model m = halo_model_f_gamma(10.0, t_s);
  m.f_gamma_low_mass = 150.0;
  struct halo_cells h;
  EXPECT(halo_cells_alloc(4, 1, &h) == IONF_OK, "alloc");
  const int32_t ijk[12] = {1, 2, 3, 0, 0, 0, 3, 3, 3, 1, 2, 3};
  const double high[4] = {1e9, 0.0, 0.0, 2e9}, low[4] = {1e8, 0.0, 4e8, 3e8};
  memcpy(h.ijk, ijk, sizeof ijk);
  memcpy(h.mass_msun, high, sizeof high);
  memcpy(h.mass_low_msun, low, sizeof low);
  struct source_list s;
  int64_t n_supp = -1;
  ionf_err rc = halo_model_sources(&m, c, t_s, &h, NULL, 4, &s, &n_supp);
  EXPECT(rc == IONF_OK && s.n == 2 && n_supp == 0, "sources: rc %d, %lld sources, %lld suppressed",
         (int)rc, (long long)s.n, (long long)n_supp);
  if (rc == IONF_OK && s.n == 2) {
    /* ordered by cell: (1,2,3) = 27 before (3,3,3) = 63 */
    EXPECT(s.ijk[0] == 1 && s.ijk[1] == 2 && s.ijk[2] == 3 && s.ijk[3] == 3, "cell order");
    double want0 = (eq20(10.0, 1e9, c, t_s) + eq20(150.0, 1e8, c, t_s)) +
                   (eq20(10.0, 2e9, c, t_s) + eq20(150.0, 3e8, c, t_s));
    EXPECT(s.ndot_per_s[0] == want0, "cell (1,2,3): %.17g, expected %.17g", s.ndot_per_s[0], want0);
    EXPECT(s.ndot_per_s[1] == eq20(150.0, 4e8, c, t_s), "cell (3,3,3): low-mass haloes only");
  }
  sources_free(&s);
  /* the records of (1,2,3) and (3,3,3) suppressed: the high-mass haloes of (1,2,3) remain */
  const unsigned char flag[4] = {1, 1, 1, 1};
  rc = halo_model_sources(&m, c, t_s, &h, flag, 4, &s, &n_supp);
  EXPECT(rc == IONF_OK && s.n == 1 && n_supp == 3, "suppressed: rc %d, %lld sources, %lld "
         "suppressed records (expected 1 and 3)", (int)rc, (long long)s.n, (long long)n_supp);
  if (rc == IONF_OK && s.n == 1)
    EXPECT(s.ndot_per_s[0] == eq20(10.0, 1e9, c, t_s) + eq20(10.0, 2e9, c, t_s),
           "suppressed: the high-mass haloes of (1,2,3) alone");
  sources_free(&s);
  /* f_gamma_low_mass 0: the low-mass column is ignored, nothing counts as suppressed */
  m.f_gamma_low_mass = 0.0;
  rc = halo_model_sources(&m, c, t_s, &h, flag, 4, &s, &n_supp);
  EXPECT(rc == IONF_OK && s.n == 1 && n_supp == 0, "no low-mass class: %lld sources, %lld "
         "suppressed", (long long)s.n, (long long)n_supp);
  sources_free(&s);
  halo_cells_free(&h);
}

static void test_checks(const struct cosmology *c) {
  printf("refusals:\n");
  struct halo_model m = dpl_model();
  m.fesc_f0 = 1.5;
  expect_check_fails(&m, c, "f_esc = 1.5", "constant f_esc above 1");
  m = dpl_model();
  m.n_ion = 0.0;
  expect_check_fails(&m, c, "N_ion", "N_ion 0");
  m = dpl_model();
  m.dpl_g2 = NAN;
  expect_check_fails(&m, c, "g2", "g2 NaN");
  m = dpl_model();
  m.alpha_h = -1.0;
  expect_check_fails(&m, c, "alpha_h", "alpha_h < 0");
  m = halo_model_f_gamma(20.0, 10.0 * IONF_MYR_S);
  m.f_gamma_low_mass = -1.0;
  expect_check_fails(&m, c, "f_gamma_low_mass", "negative f_gamma_low_mass");
  m = halo_model_f_gamma(20.0, 10.0 * IONF_MYR_S);
  struct cosmology no_baryons = cosmology_flat(0.7, 0.27, 0.0, 2.725);
  expect_check_fails(&m, &no_baryons, "omega_b", "Omega_b 0");
}

int main(void) {
  const struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  test_f_gamma(&c);
  test_dpl_and_f_esc(&c);
  test_suppression_criterion();
  test_sources(&c);
  test_checks(&c);
  TEST_RETURN();
}
