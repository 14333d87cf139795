/**
 * @file config_cosmology.c
 * @brief cosmology: (flat LCDM, the starting redshift).
 */
#include "config/config_internal.h"

#include "cosmo/cosmology.h"

ionf_err config_cosmology(struct config_ctx *ctx, const struct param_node *root,
                          struct ionf_config *cfg) {
  static const char *const keys[] = {"cosmological", "h", "Omega_m", "Omega_b", "T_cmb",
                                     "z_initial"};
  struct config_section s;
  struct param_node *n;
  IONF_CALL(config_open_section(ctx, root, "cosmology", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "cosmological", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->cosmological));
  IONF_CALL(config_positive(&s, "h", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_H), "the Hubble parameter H0 / (100 km/s/Mpc)",
                            &cfg->hubble_h));
  IONF_CALL(config_positive(&s, "Omega_m", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_OMEGA_M), "the matter density parameter",
                            &cfg->omega_m));
  IONF_CALL(config_positive(&s, "Omega_b", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_OMEGA_B), "the baryon density parameter",
                            &cfg->omega_b));
  IONF_CALL(config_positive(&s, "T_cmb", COSMOLOGY_TEXT(COSMOLOGY_DEFAULT_T_CMB_K), "the CMB temperature today in K",
                            &cfg->t_cmb0_k));
  /* with a sequence the first redshift is the default (config_sequence) */
  IONF_CALL(config_take(&s, "z_initial", ctx->seq_given ? NULL : "9.0", &n));
  ctx->cosmo_eff = s.eff;
  ctx->z_initial_given = n != NULL;
  if (n) {
    IONF_CALL(config_number(ctx, s.path, n, "a redshift", &cfg->z_initial));
    if (!(cfg->z_initial >= 0.0 && cfg->z_initial < 1e4))
      return config_range(ctx, s.path, n, "must be a redshift in [0, 1e4)");
  }
  if (cfg->write_dtb && !cfg->cosmological)
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: output.dTb needs a redshift: set cosmology.cosmological: true",
                          ctx->name);
  if (!(cfg->omega_m <= 1.0 && cfg->omega_b <= cfg->omega_m))
    return ionf_error_set(IONF_ERR_CONFIG,
                          "%s: cosmology: need Omega_b <= Omega_m <= 1 (flat LCDM), got "
                          "Omega_b = %g, Omega_m = %g",
                          ctx->name, cfg->omega_b, cfg->omega_m);
  return IONF_OK;
}
