/**
 * @file api_cosmology.c
 * @brief The public C API's redshifts and cosmology (include/ionfront.h): the run's
 *        background, time <-> redshift, H(z), and a density given at a redshift.
 *
 * A grid run's config always holds a flat LCDM (cosmology:, validated by the config
 * layer) and z_initial; these calls use it whether or not the box expands, so that a
 * static run's times have dates too (as pyC2Ray's test runs).  src/cosmo/ does the maths.
 */
#include "ionfront.h"

#include <math.h>

#include "api/api_internal.h"
#include "core/error.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"

/* The grid run behind a live handle, or why not (a particle run is static). */
static ionf_err grid_run(const ionf_engine *e, const struct engine **core) {
  IONF_CALL(api_check_engine(e));
  const struct engine *c = api_engine_core((ionf_engine *)e);
  IONF_CHECK(c->kind == ENGINE_GRID, IONF_ERR_USAGE,
             "a particle run is static, in proper units: it has no cosmology or redshift");
  *core = c;
  return IONF_OK;
}

static struct cosmology run_cosmology(const struct engine *c) {
  const struct ionf_config *cfg = c->cfg;
  return cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
}

static ionf_err check_redshift(double z, const char *what) {
  IONF_CHECK(isfinite(z) && z > -1.0, IONF_ERR_INPUT, "%s: redshift z = %g must be finite and > -1",
             what, z);
  return IONF_OK;
}

ionf_status ionf_engine_cosmology(const ionf_engine *e, int *cosmological, double *h,
                                  double *omega_m, double *omega_b, double *omega_lambda,
                                  double *t_cmb0_k, double *z_initial) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  struct cosmology cosmo = run_cosmology(c);
  if (cosmological) *cosmological = c->cfg->cosmological ? 1 : 0;
  if (h) *h = cosmo.h;
  if (omega_m) *omega_m = cosmo.omega_m;
  if (omega_b) *omega_b = cosmo.omega_b;
  if (omega_lambda) *omega_lambda = cosmo.omega_lambda;
  if (t_cmb0_k) *t_cmb0_k = cosmo.t_cmb0_k;
  if (z_initial) *z_initial = c->cfg->z_initial;
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_redshift(const ionf_engine *e, double *z) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc == IONF_OK && !z) rc = ionf_error_set(IONF_ERR_INPUT, "the redshift pointer is NULL");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  if (c->time_s == 0.0) { /* the start: exactly the config's */
    *z = c->cfg->z_initial;
  } else if (c->cfg->cosmological) { /* the engine's own (a production run's listed redshifts) */
    *z = engine_redshift(c);
  } else {
    struct cosmology cosmo = run_cosmology(c);
    *z = cosmology_redshift_at_age(&cosmo, cosmology_age_s(&cosmo, c->cfg->z_initial) + c->time_s);
  }
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_age_at_redshift(const ionf_engine *e, double z, double *age_s) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc == IONF_OK) rc = check_redshift(z, "ionf_engine_age_at_redshift");
  if (rc == IONF_OK && !age_s) rc = ionf_error_set(IONF_ERR_INPUT, "the age pointer is NULL");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  struct cosmology cosmo = run_cosmology(c);
  *age_s = cosmology_age_s(&cosmo, z);
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_redshift_at_age(const ionf_engine *e, double age_s, double *z) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc == IONF_OK && !(isfinite(age_s) && age_s > 0.0))
    rc = ionf_error_set(IONF_ERR_INPUT, "ionf_engine_redshift_at_age: cosmic age %g s must be "
                        "finite and > 0", age_s);
  if (rc == IONF_OK && !z) rc = ionf_error_set(IONF_ERR_INPUT, "the redshift pointer is NULL");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  struct cosmology cosmo = run_cosmology(c);
  *z = cosmology_redshift_at_age(&cosmo, age_s);
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_hubble(const ionf_engine *e, double z, double *hubble_per_s) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc == IONF_OK) rc = check_redshift(z, "ionf_engine_hubble");
  if (rc == IONF_OK && !hubble_per_s) rc = ionf_error_set(IONF_ERR_INPUT, "the H(z) pointer is NULL");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  struct cosmology cosmo = run_cosmology(c);
  *hubble_per_s = cosmology_hubble_per_s(&cosmo, z);
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_set_density(ionf_engine *e, const double *n_h_cm3, int64_t count,
                                    double z) {
  api_begin();
  const struct engine *c = NULL;
  ionf_err rc = grid_run(e, &c);
  if (rc == IONF_OK) rc = check_redshift(z, "ionf_engine_set_density");
  if (rc != IONF_OK) return api_end(e, rc);
  /* the values checked and taken in (n_H as it was if refused; the message kept) */
  ionf_status status = ionf_engine_set_field(e, "n_H", n_h_cm3, count);
  if (status != IONF_STATUS_OK) return status;
  /* the next step dilutes from here (src/engine/grid_domain.c, cosmology_step) */
  struct engine *core = api_engine_core(e);
  if (core->cfg->cosmological) core->z_density = z;
  return IONF_STATUS_OK;
}
