/**
 * @file synth_inputs.c
 * @brief Making a run's missing synthetic input files from its config.
 */
#define _POSIX_C_SOURCE 200809L

#include "synth_inputs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "constants.h"
#include "cosmology.h"
#include "synth.h"
#include "synth_files.h"

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

ionf_err synth_inputs_make(const struct ionf_config *cfg) {
  const struct synthetic_config *syn = &cfg->synthetic;
  if (syn->kind == SYNTHETIC_NONE) return IONF_OK;

  struct synth_iliev4_request req;
  memset(&req, 0, sizeof req);
  req.n = cfg->n_cells_1d;
  req.redshift = syn->redshift;
  /* grid.box_size is proper at the density's redshift unless the run is cosmological */
  req.box_cmpc = cfg->box_size_cm / IONF_MPC_CM * (cfg->cosmological ? 1.0 : 1.0 + syn->redshift);
  req.cosmo = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  req.sigma_8 = syn->sigma_8;
  req.n_s = syn->n_s;
  req.seed = syn->seed;
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
                (long long)req.n, req.redshift, (unsigned long long)req.seed, res.n_sources,
                res.ndot_min, res.ndot_max, ionf_wtime() - t0);
  return IONF_OK;
}
