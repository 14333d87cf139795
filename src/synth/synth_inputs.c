/**
 * @file synth_inputs.c
 * @brief Making a run's missing synthetic input files from its config.
 */
#define _POSIX_C_SOURCE 200809L

#include "synth/synth_inputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "io/io_halos.h"
#include "synth/synth.h"
#include "io/synth_files.h"

/* 1: `path` exists (any kind of file). */
static int inputs_exist(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* An existing file: its signature must be the expected one, or absent. */
static ionf_err inputs_check_existing(const char *path, const char *key, const char *expected,
                                      int *foreign) {
  char got[1024];
  int found = 0;
  IONF_CALL(synth_files_signature(path, got, sizeof got, &found));
  *foreign = !found;
  IONF_CHECK(!found || strcmp(got, expected) == 0, IONF_ERR_INPUT,
             "%s = '%s' exists but was made with other parameters:\n  file:   %s\n  config: %s\n"
             "delete it to make it anew from the config, or name another file",
             key, path, got, expected);
  return IONF_OK;
}

/* The random field of the config's synthetic: section, in a comoving box of box_cmpc. */
static struct synth_field inputs_field(const struct ionf_config *cfg, double box_cmpc) {
  const struct synthetic_config *syn = &cfg->synthetic;
  struct synth_field f = {cfg->n_cells_1d, box_cmpc,
                          cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k),
                          syn->sigma_8, syn->n_s, syn->seed};
  return f;
}

/* kind eor: every density grid and halo catalogue sequence: names (all redshifts, the
   last one too, so the folder is a complete sequence). */
static ionf_err make_eor(const struct ionf_config *cfg) {
  const struct synthetic_config *syn = &cfg->synthetic;
  const struct sequence_config *seq = &cfg->sequence;
  struct synth_eor_request req;
  memset(&req, 0, sizeof req);
  req.field = inputs_field(cfg, cfg->box_size_cm / IONF_MPC_CM); /* sequences are cosmological */
  req.n_redshifts = seq->n_redshifts;
  req.redshifts = seq->redshifts;
  req.min_halo_mass_msun = syn->min_halo_mass_msun;
  req.min_source_mass_msun = syn->min_source_mass_msun;
  req.density_pattern = seq->density_pattern;
  req.halo_pattern = seq->halo_pattern;

  int missing = 0, foreign = 0;
  char first_missing[IONF_PATH_MAX] = "";
  for (int r = 0; r < seq->n_redshifts; ++r) {
    char sig[1024], path[2][IONF_PATH_MAX];
    synth_eor_signature(&req, seq->redshifts[r], sig, sizeof sig);
    io_halos_series_name(path[0], sizeof path[0], seq->density_pattern, seq->redshifts[r]);
    io_halos_series_name(path[1], sizeof path[1], seq->halo_pattern, seq->redshifts[r]);
    for (int f = 0; f < 2; ++f) {
      if (!inputs_exist(path[f])) {
        if (!missing++) snprintf(first_missing, sizeof first_missing, "%s", path[f]);
        continue;
      }
      int not_ours = 0;
      IONF_CALL(inputs_check_existing(path[f], f ? "sequence.halos.pattern" : "sequence.density.pattern",
                                      sig, &not_ours));
      foreign += not_ours;
    }
  }
  if (!missing) {
    ionf_message0("synthetic eor: the %d density grids and halo catalogues exist%s; not made "
                  "again", seq->n_redshifts,
                  foreign ? " (some not made by ionfront: used as they are)"
                          : " with this config's parameters");
    return IONF_OK;
  }
  IONF_CHECK(!foreign, IONF_ERR_INPUT,
             "%s is missing, but %d other file(s) of the sequence were not made by ionfront: "
             "synthetic files would not match them; give all the files or none",
             first_missing, foreign);
  double t0 = ionf_wtime();
  IONF_CALL(synth_write_eor_sequence(&req));
  ionf_message0("synthetic eor: made %d density grids (%s) and halo catalogues (%s), %lld^3, "
                "z = %g..%g, seed %llu, in %.1f s",
                seq->n_redshifts, seq->density_pattern, seq->halo_pattern, (long long)req.field.n,
                seq->redshifts[0], seq->redshifts[seq->n_redshifts - 1],
                (unsigned long long)req.field.seed, ionf_wtime() - t0);
  return IONF_OK;
}

ionf_err synth_inputs_make(const struct ionf_config *cfg) {
  const struct synthetic_config *syn = &cfg->synthetic;
  if (syn->kind == SYNTHETIC_NONE) return IONF_OK;
  if (syn->kind == SYNTHETIC_EOR) return make_eor(cfg);

  struct synth_iliev4_request req;
  memset(&req, 0, sizeof req);
  /* grid.box_size is proper at the density's redshift unless the run is cosmological */
  req.field = inputs_field(cfg, cfg->box_size_cm / IONF_MPC_CM *
                                    (cfg->cosmological ? 1.0 : 1.0 + syn->redshift));
  req.redshift = syn->redshift;
  req.n_sources = syn->peaks;
  req.min_separation_cells = syn->min_separation_cells;
  req.f_gamma = syn->f_gamma;
  req.t_source_s = syn->t_source_s;
  req.density_dataset = cfg->n_h_cm3.dataset;
  req.sources_format = cfg->source_format;

  char dsig[1024], ssig[1024];
  synth_iliev4_signatures(&req, dsig, ssig, sizeof dsig);
  const char *dpath = cfg->n_h_cm3.file, *spath = cfg->source_file;
  int d_there = inputs_exist(dpath), s_there = inputs_exist(spath);
  int d_foreign = 0, s_foreign = 0;
  if (d_there) IONF_CALL(inputs_check_existing(dpath, "material.n_H.file", dsig, &d_foreign));
  if (s_there) IONF_CALL(inputs_check_existing(spath, "sources.file", ssig, &s_foreign));
  /* One file ours to make, the other foreign: the two would not belong together. */
  IONF_CHECK(!(d_there && d_foreign && !s_there) && !(s_there && s_foreign && !d_there),
             IONF_ERR_INPUT,
             "%s exists but was not made by ionfront, and %s is missing: the synthetic %s would "
             "not match it; give both files or neither",
             d_there ? dpath : spath, d_there ? spath : dpath, d_there ? "sources" : "density");
  if (d_there && s_there) {
    ionf_message0("synthetic iliev4: %s and %s exist%s; not made again", dpath, spath,
                  d_foreign || s_foreign ? " (not made by ionfront: used as they are)"
                                         : " with this config's parameters");
    return IONF_OK;
  }
  req.density_path = d_there ? NULL : dpath;
  req.sources_path = s_there ? NULL : spath;
  struct synth_iliev4_result res;
  double t0 = ionf_wtime();
  IONF_CALL(synth_write_iliev4(&req, &res));
  ionf_message0("synthetic iliev4: made %s%s%s (%lld^3 log-normal field at z = %g, seed %llu; %d "
                "sources, Ndot %.3g..%.3g 1/s) in %.1f s",
                d_there ? "" : dpath, !d_there && !s_there ? " and " : "", s_there ? "" : spath,
                (long long)req.field.n, req.redshift, (unsigned long long)req.field.seed, res.n_sources,
                res.ndot_min, res.ndot_max, ionf_wtime() - t0);
  return IONF_OK;
}
