/**
 * @file halo_model.c
 * @brief Halo masses to ionizing photon rates (halo_model.h): the models, their checks,
 *        and halo lists turned into merged point sources.
 */
#include "grid/halo_model.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"

ionf_err halo_cells_alloc(int64_t n, int with_low_mass, struct halo_cells *h) {
  memset(h, 0, sizeof *h);
  IONF_CHECK(n >= 0, IONF_ERR_INTERNAL, "halo_cells_alloc: negative count %lld", (long long)n);
  IONF_CHECK((uint64_t)n <= SIZE_MAX / (3 * sizeof(int32_t) + 2 * sizeof(double)), IONF_ERR_MEM,
             "%lld halos do not fit in memory", (long long)n);
  size_t count = n > 0 ? (size_t)n : 1; /* never malloc(0) */
  h->ijk = ionf_malloc(count * 3 * sizeof(int32_t), "halo cells");
  h->mass_msun = ionf_malloc(count * sizeof(double), "halo masses");
  if (with_low_mass) h->mass_low_msun = ionf_malloc(count * sizeof(double), "low-mass halo masses");
  if (!h->ijk || !h->mass_msun || (with_low_mass && !h->mass_low_msun)) {
    halo_cells_free(h);
    return IONF_ERR_MEM;
  }
  h->n = n;
  return IONF_OK;
}

void halo_cells_free(struct halo_cells *h) {
  if (!h) return;
  free(h->ijk);
  free(h->mass_msun);
  free(h->mass_low_msun);
  memset(h, 0, sizeof *h);
}

struct halo_model halo_model_f_gamma(double f_gamma, double t_source_s) {
  struct halo_model m;
  memset(&m, 0, sizeof m);
  m.f_star = HALO_FSTAR_F_GAMMA;
  m.f_gamma = f_gamma;
  m.f_esc = HALO_FESC_CONSTANT;
  m.fesc_f0 = 1.0;
  m.n_ion = 1.0;
  m.accretion = HALO_ACCRETION_CONSTANT;
  m.t_source_s = t_source_s;
  return m;
}

/* ---- checks ------------------------------------------------------------------------ */

static ionf_err check_positive(const char *origin, const char *name, double v) {
  IONF_CHECK(isfinite(v) && v > 0.0, IONF_ERR_CONFIG, "%s: %s = %g; must be finite and > 0",
             origin, name, v);
  return IONF_OK;
}

static ionf_err check_finite(const char *origin, const char *name, double v) {
  IONF_CHECK(isfinite(v), IONF_ERR_CONFIG, "%s: %s = %g; must be finite", origin, name, v);
  return IONF_OK;
}

ionf_err halo_model_check(const struct halo_model *m, const struct cosmology *c,
                          const char *origin) {
  IONF_CHECK(m && c && origin, IONF_ERR_INTERNAL, "halo_model_check: NULL argument");
  if (m->f_star == HALO_FSTAR_F_GAMMA) {
    IONF_CALL(check_positive(origin, "f_gamma", m->f_gamma));
  } else {
    IONF_CALL(check_positive(origin, "f_star f0", m->dpl_f0));
    IONF_CALL(check_positive(origin, "f_star M_t [Msun]", m->dpl_m_t_msun));
    IONF_CALL(check_positive(origin, "f_star M_p [Msun]", m->dpl_m_p_msun));
    IONF_CALL(check_finite(origin, "f_star g1", m->dpl_g1));
    IONF_CALL(check_finite(origin, "f_star g2", m->dpl_g2));
    IONF_CALL(check_finite(origin, "f_star g3", m->dpl_g3));
    IONF_CALL(check_finite(origin, "f_star g4", m->dpl_g4));
  }
  IONF_CALL(check_positive(origin, "f_esc f0", m->fesc_f0));
  if (m->f_esc == HALO_FESC_CONSTANT)
    IONF_CHECK(m->fesc_f0 <= 1.0, IONF_ERR_CONFIG,
               "%s: constant f_esc = %g; an escape fraction must be <= 1", origin, m->fesc_f0);
  else {
    IONF_CALL(check_positive(origin, "f_esc M_p [Msun]", m->fesc_m_p_msun));
    IONF_CALL(check_finite(origin, "f_esc alpha", m->fesc_alpha));
  }
  IONF_CALL(check_positive(origin, "N_ion", m->n_ion));
  if (m->accretion == HALO_ACCRETION_CONSTANT)
    IONF_CALL(check_positive(origin, "source lifetime t_s [s]", m->t_source_s));
  else
    IONF_CALL(check_positive(origin, "accretion alpha_h", m->alpha_h));
  IONF_CHECK(isfinite(m->f_gamma_low_mass) && m->f_gamma_low_mass >= 0.0, IONF_ERR_CONFIG,
             "%s: f_gamma_low_mass = %g; must be finite and >= 0", origin, m->f_gamma_low_mass);
  IONF_CALL(cosmology_validate(c, origin));
  IONF_CHECK(c->omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: omega_b = %g; halos emit nothing unless omega_b > 0", origin, c->omega_b);
  return IONF_OK;
}

/* ---- the per-halo maths --------------------------------------------------------------- */

double halo_model_g(const struct halo_model *m, double mass_msun) {
  if (m->f_star == HALO_FSTAR_F_GAMMA) return m->f_gamma;
  double x = mass_msun / m->dpl_m_p_msun;
  double dpl = 2.0 * m->dpl_f0 / (pow(x, m->dpl_g1) + pow(x, m->dpl_g2));
  double suppression = pow(1.0 + pow(m->dpl_m_t_msun / mass_msun, m->dpl_g3), m->dpl_g4);
  return dpl * suppression;
}

double halo_model_f_star(const struct halo_model *m, const struct cosmology *c,
                         double mass_msun) {
  return halo_model_g(m, mass_msun) * c->omega_b / c->omega_m;
}

/* clip(f0 (M / M_p)^alpha, 0, 1) */
static double fesc_power(const struct halo_model *m, double mass_msun) {
  double f = m->fesc_f0 * pow(mass_msun / m->fesc_m_p_msun, m->fesc_alpha);
  return f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
}

double halo_model_f_esc(const struct halo_model *m, const struct cosmology *c, double mass_msun) {
  switch (m->f_esc) {
    case HALO_FESC_POWER: return fesc_power(m, mass_msun);
    case HALO_FESC_POWER_OBS: return fesc_power(m, halo_model_f_star(m, c, mass_msun) * mass_msun);
    case HALO_FESC_CONSTANT: break;
  }
  return m->fesc_f0;
}

double halo_model_photons_per_baryon(const struct halo_model *m, const struct cosmology *c,
                                     double mass_msun) {
  /* N_ion 1 and f_esc 1 leave g = f_gamma exact: Eq. 20 bit for bit */
  return m->n_ion * halo_model_f_esc(m, c, mass_msun) * halo_model_g(m, mass_msun);
}

double halo_model_lifetime_s(const struct halo_model *m, const struct cosmology *c, double z) {
  if (m->accretion == HALO_ACCRETION_CONSTANT) return m->t_source_s;
  return 1.0 / (m->alpha_h * (1.0 + z) * cosmology_hubble_per_s(c, z));
}

/* Eq. 20 with the efficiency `eff`; the operations in the order of the original
   f_gamma * M * Ω_b / (Ω_m m_p t_s), so that eff = f_gamma gives the same bits. */
static double eq20(double eff, double mass_msun, const struct cosmology *c, double t_s) {
  return eff * (mass_msun * IONF_M_SUN_G) * c->omega_b / (c->omega_m * IONF_PROTON_MASS_G * t_s);
}

double halo_model_ndot_per_s(const struct halo_model *m, const struct cosmology *c,
                             double mass_msun, double t_s) {
  return eq20(halo_model_photons_per_baryon(m, c, mass_msun), mass_msun, c, t_s);
}

double halo_model_low_mass_ndot_per_s(const struct halo_model *m, const struct cosmology *c,
                                      double mass_msun, double t_s) {
  return eq20(m->f_gamma_low_mass, mass_msun, c, t_s);
}

int halo_model_low_mass_suppressed(double x_hii) {
  return x_hii > HALO_MODEL_LOW_MASS_X_SUPPRESS;
}

void halo_model_describe(const struct halo_model *m, char *buf, size_t size) {
  if (!buf || size == 0) return;
  char f_star[160], f_esc[96], t_s[96], low[96] = "";
  if (m->f_star == HALO_FSTAR_F_GAMMA)
    snprintf(f_star, sizeof f_star, "f_star f_gamma %g x Omega_b/Omega_m", m->f_gamma);
  else
    snprintf(f_star, sizeof f_star,
             "f_star dpl (f0 %g, M_t %g Msun, M_p %g Msun, g1 %g, g2 %g, g3 %g, g4 %g)",
             m->dpl_f0, m->dpl_m_t_msun, m->dpl_m_p_msun, m->dpl_g1, m->dpl_g2, m->dpl_g3,
             m->dpl_g4);
  if (m->f_esc == HALO_FESC_CONSTANT)
    snprintf(f_esc, sizeof f_esc, "f_esc %g", m->fesc_f0);
  else
    snprintf(f_esc, sizeof f_esc, "f_esc %s (f0 %g, M_p %g Msun, alpha %g)",
             m->f_esc == HALO_FESC_POWER ? "power" : "power_obs", m->fesc_f0, m->fesc_m_p_msun,
             m->fesc_alpha);
  if (m->accretion == HALO_ACCRETION_CONSTANT)
    snprintf(t_s, sizeof t_s, "t_s %g Myr", m->t_source_s / IONF_MYR_S);
  else
    snprintf(t_s, sizeof t_s, "t_s 1 / (%g (1+z) H(z))", m->alpha_h);
  if (m->f_gamma_low_mass > 0.0)
    snprintf(low, sizeof low, "; low-mass haloes f_gamma %g, none where x_HII > %g",
             m->f_gamma_low_mass, HALO_MODEL_LOW_MASS_X_SUPPRESS);
  snprintf(buf, size, "%s, %s, N_ion %g, %s%s", f_star, f_esc, m->n_ion, t_s, low);
}

/* ---- halo lists to sources -------------------------------------------------------------- */

/* Halo q's photon rate in *ndot; returns whether it emits (a mass > 0 of a class that is
   on: its rate is then checked by sources_validate); *was_suppressed when its low-mass
   haloes would have emitted but its cell is ionized. */
static int halo_ndot(const struct halo_model *m, const struct cosmology *c, double t_s,
                     const struct halo_cells *h, const unsigned char *suppressed, int64_t q,
                     double *ndot, int *was_suppressed) {
  int high = h->mass_msun[q] > 0.0, low = 0;
  *ndot = high ? halo_model_ndot_per_s(m, c, h->mass_msun[q], t_s) : 0.0;
  *was_suppressed = 0;
  if (h->mass_low_msun && h->mass_low_msun[q] > 0.0 && m->f_gamma_low_mass > 0.0) {
    if (suppressed && suppressed[q]) {
      *was_suppressed = 1;
    } else {
      double ndot_low = halo_model_low_mass_ndot_per_s(m, c, h->mass_low_msun[q], t_s);
      *ndot = high ? *ndot + ndot_low : ndot_low;
      low = 1;
    }
  }
  return high || low;
}

ionf_err halo_model_sources(const struct halo_model *m, const struct cosmology *c, double t_s,
                            const struct halo_cells *h, const unsigned char *suppressed,
                            int64_t n_cells_1d, struct source_list *out, int64_t *n_suppressed) {
  IONF_CHECK(m && c && h && out, IONF_ERR_INTERNAL, "halo_model_sources: NULL argument");
  memset(out, 0, sizeof *out);
  if (n_suppressed) *n_suppressed = 0;
  IONF_CHECK(isfinite(t_s) && t_s > 0.0, IONF_ERR_CONFIG,
             "the source lifetime t_s = %g s must be finite and > 0", t_s);
  int64_t n_emit = 0, n_supp = 0;
  for (int64_t q = 0; q < h->n; ++q) {
    int s = 0;
    double ndot;
    n_emit += halo_ndot(m, c, t_s, h, suppressed, q, &ndot, &s);
    n_supp += s;
  }
  IONF_CALL(sources_alloc(n_emit, out));
  int64_t k = 0;
  for (int64_t q = 0; q < h->n && k < n_emit; ++q) {
    int s = 0;
    double ndot;
    if (!halo_ndot(m, c, t_s, h, suppressed, q, &ndot, &s)) continue;
    memcpy(out->ijk + 3 * k, h->ijk + 3 * q, 3 * sizeof(int32_t));
    out->ndot_per_s[k++] = ndot;
  }
  ionf_err rc = sources_merge_same_cell(out, n_cells_1d);
  if (rc != IONF_OK) {
    sources_free(out);
    return rc;
  }
  if (n_suppressed) *n_suppressed = n_supp;
  return IONF_OK;
}
