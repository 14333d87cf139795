/**
 * @file config_synthetic.c
 * @brief synthetic: the input files a run makes when they do not exist yet.
 */
#include "config/config_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/constants.h"

/* synthetic.kind = eor: the files sequence: names, made by synth_write_eor_sequence. */
static ionf_err config_synthetic_eor(struct config_ctx *ctx, struct config_section *s,
                                     struct ionf_config *cfg) {
  struct synthetic_config *syn = &cfg->synthetic;
  static const char *const iliev4_only[] = {"redshift", "peaks", "min_separation", "f_gamma",
                                            "t_source"};
  for (size_t k = 0; k < CONFIG_N(iliev4_only); ++k)
    IONF_CHECK(!params_get(s->user, iliev4_only[k]), IONF_ERR_CONFIG,
               "%s: synthetic.%s applies to kind iliev4 only (kind eor takes the redshifts from "
               "sequence.redshifts and f_gamma, t_source from sequence.halos)",
               ctx->name, iliev4_only[k]);
  IONF_CALL(config_positive(s, "min_halo_mass", "1e8",
                            "the smallest halo of the collapsed fraction [Msun]",
                            &syn->min_halo_mass_msun));
  char m_text[64];
  snprintf(m_text, sizeof m_text, "%.17g", syn->min_halo_mass_msun);
  IONF_CALL(config_positive(s, "min_source_mass", m_text,
                            "the collapsed mass a cell needs to hold a halo [Msun]",
                            &syn->min_source_mass_msun));
  const struct sequence_config *seq = &cfg->sequence;
  IONF_CHECK(seq->density_pattern[0] && seq->halo_pattern[0], IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor makes the density grids and halo catalogues of "
             "sequence:, so sequence.density and sequence.halos must both be given",
             ctx->name);
  IONF_CHECK(seq->density_format == SEQUENCE_DENSITY_HDF5, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes ionfront's HDF5 density files, but "
             "sequence.density.format is not hdf5",
             ctx->name);
  IONF_CHECK(strcmp(seq->density_dataset, "n_H") == 0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes the density as dataset 'n_H', but "
             "sequence.density.dataset = '%s'",
             ctx->name, seq->density_dataset);
  IONF_CHECK(seq->halo_format == HALO_FORMAT_IONFRONT, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes ionfront's halo catalogues, but "
             "sequence.halos.format is not ionfront",
             ctx->name);
  IONF_CHECK(fabs(seq->halo_position_unit_cm / IONF_MPC_CM - 1.0) < 1e-9, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor writes halo positions in comoving Mpc, but "
             "sequence.halos.position_unit is %g Mpc",
             ctx->name, seq->halo_position_unit_cm / IONF_MPC_CM);
  IONF_CHECK(cfg->omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = eor: haloes emit f_gamma photons per baryon, so "
             "cosmology.Omega_b must be > 0",
             ctx->name);
  return IONF_OK;
}

/* synthetic: only when given (absent: no section in the effective config). */
ionf_err config_synthetic(struct config_ctx *ctx, const struct param_node *root,
                          struct ionf_config *cfg) {
  static const char *const keys[] = {"kind",          "seed",           "sigma_8", "n_s",
                                     "redshift",      "peaks",          "min_separation",
                                     "f_gamma",       "t_source",       "min_halo_mass",
                                     "min_source_mass"};
  static const char *const kinds[] = {"iliev4", "eor"};
  static const enum synthetic_kind kind_of[] = {SYNTHETIC_ILIEV4, SYNTHETIC_EOR};
  const struct param_node *u = params_get(root, "synthetic");
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  struct synthetic_config *syn = &cfg->synthetic;
  struct config_section s;
  struct param_node *n;
  int which = 0;
  int64_t v = 0;
  IONF_CALL(config_open_section(ctx, root, "synthetic", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "kind", NULL, &n));
  IONF_CALL(config_require(&s, n, "what to make: iliev4 (the Iliev et al. 2006 Test 4 stand-in) "
                                  "or eor (the density and halo files of sequence:)"));
  IONF_CALL(config_enum(ctx, s.path, n, kinds, CONFIG_N(kinds), &which));
  syn->kind = kind_of[which];
  const int eor = syn->kind == SYNTHETIC_EOR;

  IONF_CALL(config_take(&s, "seed", eor ? "1" : "4", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 4294967295LL, &v));
  syn->seed = (uint64_t)v;
  IONF_CALL(config_positive(&s, "sigma_8", "0.8", "the rms linear overdensity in 8 Mpc/h spheres",
                            &syn->sigma_8));
  if (!(syn->sigma_8 < 10.0))
    return config_range(ctx, s.path, params_get(s.eff, "sigma_8"), "must be in (0, 10)");
  IONF_CALL(config_positive(&s, "n_s", "1.0", "the primordial spectral index", &syn->n_s));
  if (!(syn->n_s < 2.0))
    return config_range(ctx, s.path, params_get(s.eff, "n_s"), "must be in (0, 2)");
  if (eor) return config_synthetic_eor(ctx, &s, cfg);
  static const char *const eor_only[] = {"min_halo_mass", "min_source_mass"};
  for (size_t k = 0; k < CONFIG_N(eor_only); ++k)
    IONF_CHECK(!params_get(s.user, eor_only[k]), IONF_ERR_CONFIG,
               "%s: synthetic.%s applies to kind eor only (this is kind iliev4)", ctx->name,
               eor_only[k]);

  /* The density's redshift: a cosmological run starts at its own. */
  char z_text[64];
  snprintf(z_text, sizeof z_text, "%.17g", cfg->z_initial);
  int user_z = params_get(s.user, "redshift") != NULL;
  IONF_CALL(config_take(&s, "redshift", cfg->cosmological ? z_text : "9", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a redshift", &syn->redshift));
  if (!(syn->redshift >= 0.0 && syn->redshift < 1000.0))
    return config_range(ctx, s.path, n, "must be a redshift in [0, 1000)");
  IONF_CHECK(!(cfg->cosmological && user_z && syn->redshift != cfg->z_initial), IONF_ERR_CONFIG,
             "%s: synthetic.redshift = %s differs from cosmology.z_initial = %g: a cosmological "
             "run starts from the density at z_initial (leave synthetic.redshift out)",
             ctx->name, n->scalar, cfg->z_initial);

  IONF_CALL(config_take(&s, "peaks", "16", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 100000, &v));
  syn->peaks = (int)v;
  IONF_CALL(config_take(&s, "min_separation", "4", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, cfg->n_cells_1d, &v));
  syn->min_separation_cells = (int)v;
  IONF_CALL(config_positive(&s, "f_gamma", "250", "ionizing photons per baryon of a source",
                            &syn->f_gamma));
  IONF_CALL(config_take(&s, "t_source", "3 Myr", &n));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_TIME, IONF_MYR_S, 0.0, &syn->t_source_s));
  if (!(syn->t_source_s > 0)) return config_range(ctx, s.path, n, "must be > 0");

  /* iliev4 writes the two files the run reads. */
  IONF_CHECK(cfg->n_h_cm3.from_file, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 makes the density file, so material.n_H must be "
             "{file: PATH, dataset: NAME} (it is a number)",
             ctx->name);
  IONF_CHECK(cfg->source_file[0], IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 makes the source file, so sources must be "
             "{file: PATH} (it is a list of sources)",
             ctx->name);
  IONF_CHECK(cfg->n_cells_1d >= 3, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4 needs grid.N >= 3 (got %lld)", ctx->name,
             (long long)cfg->n_cells_1d);
  IONF_CHECK(cfg->omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: synthetic.kind = iliev4: sources emit f_gamma photons per baryon, so "
             "cosmology.Omega_b must be > 0",
             ctx->name);
  return IONF_OK;
}
