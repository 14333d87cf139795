/**
 * @file config_halo_model.c
 * @brief sequence.halos.model: how halo masses become photon rates (grid/halo_model.h):
 *        the stellar-to-halo relation, the escape fraction, the photons per stellar
 *        baryon and the source lifetime.  pyC²Ray's stochastic models are refused by
 *        name.
 *
 *   model:
 *     f_star:    {model: f_gamma}                     (sequence.halos.f_gamma)
 *              | {model: dpl, f0, M_t, M_p, g1, g2, g3, g4}
 *     f_esc:     {model: constant, f0} | {model: power | power_obs, f0, M_p, alpha}
 *     N_ion:     photons per stellar baryon (1 by default with f_gamma; required with dpl)
 *     accretion: {model: constant} (sequence.halos.t_source)
 *              | {model: exponential, alpha_h}
 *     bursty:    none
 */
#include "config/config_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Case-insensitive equality of a and the first `len` characters of b (len 0: all of b). */
static int same_word(const char *a, const char *b, size_t len) {
  size_t i = 0;
  for (; a[i] && b[i] && (len == 0 || i < len); ++i)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return 0;
  return len ? i == len : a[i] == b[i];
}

/* Refuse pyC²Ray's models that ionfront has not: `n` names one of refused[] (a name
   ending in '*' matches any value it begins). */
static ionf_err refuse_unsupported(const struct config_section *s, const struct param_node *n,
                                   const char *const *refused, size_t n_refused,
                                   const char *what, const char *supported) {
  if (!n || n->kind != PARAM_SCALAR || !n->scalar) return IONF_OK;
  for (size_t i = 0; i < n_refused; ++i) {
    size_t len = strlen(refused[i]);
    int prefix = len > 0 && refused[i][len - 1] == '*';
    if (!same_word(n->scalar, refused[i], prefix ? len - 1 : 0)) continue;
    return ionf_error_set(IONF_ERR_UNSUPPORTED,
                          "%s: %s = %s: pyC2Ray's %s model '%s' is not supported (it draws "
                          "random numbers; ionfront has the deterministic models only: %s)",
                          s->ctx->name, s->path, n->scalar, what, n->scalar, supported);
  }
  return IONF_OK;
}

/* A number; required when `def` is NULL; > 0 when `positive`. */
static ionf_err model_number(struct config_section *s, const char *key, const char *def,
                             const char *what, int positive, double *out) {
  struct param_node *n;
  IONF_CALL(config_take(s, key, def, &n));
  IONF_CALL(config_require(s, n, what));
  IONF_CALL(config_number(s->ctx, s->path, n, "a number", out));
  if (positive && !(*out > 0.0)) return config_range(s->ctx, s->path, n, "must be > 0");
  return IONF_OK;
}

/* Keys of `s` that its model does not use are refused by name. */
static ionf_err refuse_keys(const struct config_section *s, const char *const *keys,
                            size_t n_keys, const char *model) {
  for (size_t i = 0; i < n_keys; ++i)
    IONF_CHECK(!params_get(s->user, keys[i]), IONF_ERR_CONFIG,
               "%s: %s.%s is not a parameter of model %s; leave it out", s->ctx->name, s->name,
               keys[i], model);
  return IONF_OK;
}

/* A sub-mapping of model: (absent: its defaults), attached to `parent`'s effective tree. */
static ionf_err open_part(struct config_section *parent, const char *key, const char *name,
                          const char *const *keys, size_t n_keys, struct config_section *s) {
  const struct param_node *u = params_get(parent->user, key);
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(!u || u->kind == PARAM_NULL || u->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: %s = %s: expected a mapping such as {model: NAME, ...}", parent->ctx->name,
             name, config_text(u, t, sizeof t));
  IONF_CALL(config_open(parent->ctx, u, name, keys, n_keys, s));
  IONF_CALL(params_map_set(parent->eff, key, s->eff));
  return IONF_OK;
}

/* model.f_star */
static ionf_err model_f_star(struct config_section *ms, struct halo_model *m) {
  static const char *const keys[] = {"model", "f0", "M_t", "M_p", "g1", "g2", "g3", "g4"};
  static const char *const names[] = {"f_gamma", "dpl"};
  static const char *const refused[] = {"lognorm", "Muv", "spice*", "lognormal", "gaussian"};
  struct config_section s;
  struct param_node *n;
  int which = 0;
  IONF_CALL(open_part(ms, "f_star", "sequence.halos.model.f_star", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "model", "f_gamma", &n));
  IONF_CALL(refuse_unsupported(&s, n, refused, CONFIG_N(refused), "stellar-to-halo",
                               "f_gamma, dpl"));
  IONF_CALL(config_enum(s.ctx, s.path, n, names, CONFIG_N(names), &which));
  m->f_star = which ? HALO_FSTAR_DPL : HALO_FSTAR_F_GAMMA;
  if (m->f_star == HALO_FSTAR_F_GAMMA) return refuse_keys(&s, keys + 1, CONFIG_N(keys) - 1, "f_gamma");
  IONF_CALL(model_number(&s, "f0", NULL, "the amplitude of the double power law", 1, &m->dpl_f0));
  IONF_CALL(model_number(&s, "M_t", NULL, "the suppression mass [Msun]", 1, &m->dpl_m_t_msun));
  IONF_CALL(model_number(&s, "M_p", NULL, "the pivot mass [Msun]", 1, &m->dpl_m_p_msun));
  IONF_CALL(model_number(&s, "g1", NULL, "the slope below M_p", 0, &m->dpl_g1));
  IONF_CALL(model_number(&s, "g2", NULL, "the slope above M_p", 0, &m->dpl_g2));
  IONF_CALL(model_number(&s, "g3", NULL, "the suppression slope (0: none)", 0, &m->dpl_g3));
  IONF_CALL(model_number(&s, "g4", NULL, "the suppression power (0: none)", 0, &m->dpl_g4));
  return IONF_OK;
}

/* model.f_esc */
static ionf_err model_f_esc(struct config_section *ms, struct halo_model *m) {
  static const char *const keys[] = {"model", "f0", "M_p", "alpha"};
  static const char *const names[] = {"constant", "power", "power_obs"};
  static const char *const refused[] = {"Gelli2024", "thesan"};
  struct config_section s;
  struct param_node *n;
  int which = 0;
  IONF_CALL(open_part(ms, "f_esc", "sequence.halos.model.f_esc", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "model", "constant", &n));
  IONF_CALL(refuse_unsupported(&s, n, refused, CONFIG_N(refused), "escape fraction",
                               "constant, power, power_obs"));
  IONF_CALL(config_enum(s.ctx, s.path, n, names, CONFIG_N(names), &which));
  m->f_esc = which == 2 ? HALO_FESC_POWER_OBS : (which ? HALO_FESC_POWER : HALO_FESC_CONSTANT);
  if (m->f_esc == HALO_FESC_CONSTANT) {
    IONF_CALL(model_number(&s, "f0", "1", "the escape fraction", 1, &m->fesc_f0));
    if (!(m->fesc_f0 <= 1.0))
      return config_range(s.ctx, s.path, params_get(s.eff, "f0"), "an escape fraction is <= 1");
    return refuse_keys(&s, keys + 2, 2, "constant");
  }
  IONF_CALL(model_number(&s, "f0", NULL, "the escape fraction at M_p", 1, &m->fesc_f0));
  IONF_CALL(model_number(&s, "M_p", NULL, "the pivot mass [Msun]", 1, &m->fesc_m_p_msun));
  IONF_CALL(model_number(&s, "alpha", NULL, "the slope", 0, &m->fesc_alpha));
  return IONF_OK;
}

/* model.accretion */
static ionf_err model_accretion(struct config_section *ms, struct halo_model *m) {
  static const char *const keys[] = {"model", "alpha_h"};
  static const char *const names[] = {"constant", "exponential"};
  struct config_section s;
  struct param_node *n;
  int which = 0;
  IONF_CALL(open_part(ms, "accretion", "sequence.halos.model.accretion", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "model", "constant", &n));
  IONF_CALL(config_enum(s.ctx, s.path, n, names, CONFIG_N(names), &which));
  m->accretion = which ? HALO_ACCRETION_EXPONENTIAL : HALO_ACCRETION_CONSTANT;
  if (!which) return refuse_keys(&s, keys + 1, 1, "constant (sequence.halos.t_source)");
  return model_number(&s, "alpha_h", NULL, "the accretion rate parameter of M(z) ~ exp(-alpha_h z)",
                      1, &m->alpha_h);
}

/* model.bursty: pyC²Ray's bursty star formation draws nothing at random but switches
   haloes on and off with cycles not modelled here: only `none`. */
static ionf_err model_bursty(struct config_section *ms) {
  static const char *const names[] = {"none"};
  static const char *const refused[] = {"instant", "integrate"};
  struct param_node *n;
  int which = 0;
  IONF_CALL(config_take(ms, "bursty", "none", &n));
  if (n && n->kind == PARAM_SCALAR && n->scalar)
    for (size_t i = 0; i < CONFIG_N(refused); ++i)
      IONF_CHECK(!same_word(n->scalar, refused[i], 0), IONF_ERR_UNSUPPORTED,
                 "%s: %s = %s: pyC2Ray's bursty star formation (bursty_sfr '%s') is not "
                 "supported; only 'none'",
                 ms->ctx->name, ms->path, n->scalar, n->scalar);
  return config_enum(ms->ctx, ms->path, n, names, CONFIG_N(names), &which);
}

/* The parts of model:, in the order the effective config shows them. */
static ionf_err model_parts(struct config_section *ms, struct halo_model *m) {
  IONF_CALL(model_f_star(ms, m));
  IONF_CALL(model_f_esc(ms, m));
  IONF_CALL(model_number(ms, "N_ion", m->f_star == HALO_FSTAR_F_GAMMA ? "1" : NULL,
                         "ionizing photons per stellar baryon, e.g. 2000 (pyC2Ray's Nion)", 1,
                         &m->n_ion));
  IONF_CALL(model_accretion(ms, m));
  return model_bursty(ms);
}

ionf_err config_halo_model(struct config_section *halos, struct halo_model *m,
                           struct param_node **eff) {
  static const char *const keys[] = {"f_star", "f_esc", "N_ion", "accretion", "bursty"};
  const struct param_node *u = params_get(halos->user, "model");
  *m = halo_model_f_gamma(0.0, 0.0); /* f_gamma and t_source: the caller's */
  *eff = NULL;
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  char t[CONFIG_TEXT_MAX];
  IONF_CHECK(u->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: sequence.halos.model = %s: expected a mapping {f_star: ..., f_esc: ..., N_ion: "
             "..., accretion: ...}",
             halos->ctx->name, config_text(u, t, sizeof t));
  struct config_section ms;
  IONF_CALL(config_open(halos->ctx, u, "sequence.halos.model", keys, CONFIG_N(keys), &ms));
  ionf_err rc = model_parts(&ms, m);
  if (rc != IONF_OK) {
    params_free(ms.eff);
    return rc;
  }
  *eff = ms.eff;
  return IONF_OK;
}
