/**
 * @file synth.c
 * @brief The Test 4 stand-in and the EoR sequence as files.
 */
#include "synth/synth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/io_halos.h"
#include "synth/synth_density.h"
#include "io/synth_files.h"
#include "synth/synth_growth.h"
#include "synth/synth_halos.h"
#include "synth/synth_spectrum.h"

#define SYNTH_N_MAX 4096

static ionf_err synth_check_grid(int64_t n, double box_cmpc, const char *what) {
  IONF_CHECK(n >= 3 && n <= SYNTH_N_MAX, IONF_ERR_CONFIG, "%s: N = %lld is out of range (3..%d)",
             what, (long long)n, SYNTH_N_MAX);
  IONF_CHECK(isfinite(box_cmpc) && box_cmpc > 0.0, IONF_ERR_CONFIG,
             "%s: box size %g comoving Mpc must be finite and > 0", what, box_cmpc);
  return IONF_OK;
}

/* ---- the EoR sequence --------------------------------------------------------------- */

static ionf_err eor_check(const struct synth_eor_request *req) {
  static const char what[] = "EoR sequence";
  IONF_CHECK(req, IONF_ERR_INTERNAL, "synth_write_eor_sequence: NULL request");
  IONF_CALL(synth_check_grid(req->field.n, req->field.box_cmpc, what));
  IONF_CHECK(req->n_redshifts >= 1 && req->redshifts, IONF_ERR_CONFIG,
             "%s: no redshifts given", what);
  for (int r = 0; r < req->n_redshifts; ++r) {
    double z = req->redshifts[r];
    IONF_CHECK(isfinite(z) && z >= 0.0 && z < 1000.0, IONF_ERR_CONFIG,
               "%s: redshift %d = %g is out of range [0, 1000)", what, r, z);
    IONF_CHECK(r == 0 || z < req->redshifts[r - 1], IONF_ERR_CONFIG,
               "%s: redshifts must descend (the run goes forward in time): %g follows %g", what,
               z, req->redshifts[r - 1]);
  }
  IONF_CHECK(isfinite(req->min_halo_mass_msun) && req->min_halo_mass_msun > 0.0, IONF_ERR_CONFIG,
             "%s: the minimum halo mass %g Msun must be finite and > 0", what,
             req->min_halo_mass_msun);
  IONF_CHECK(isfinite(req->min_source_mass_msun) && req->min_source_mass_msun > 0.0,
             IONF_ERR_CONFIG, "%s: the minimum source mass %g Msun must be finite and > 0", what,
             req->min_source_mass_msun);
  /* Every file name must exist and be different (a pattern like %.0f could merge 8.2, 8.4). */
  const char *patterns[2] = {req->density_pattern, req->halo_pattern};
  const char *names[2] = {"density", "halo"};
  for (int p = 0; p < 2; ++p) {
    char probe[IONF_PATH_MAX];
    io_halos_series_name(probe, sizeof probe, patterns[p], 1.0);
    IONF_CHECK(patterns[p] && probe[0], IONF_ERR_CONFIG,
               "%s: the %s file pattern '%s' must hold exactly one floating-point conversion "
               "for the redshift, e.g. 'dir/%s_z%%.3f.h5'",
               what, names[p], patterns[p] ? patterns[p] : "(none)", names[p]);
  }
  int total = 2 * req->n_redshifts;
  char(*all)[IONF_PATH_MAX] = malloc((size_t)total * sizeof *all);
  IONF_CHECK(all, IONF_ERR_MEM, "out of memory for the file names");
  for (int r = 0; r < req->n_redshifts; ++r)
    for (int p = 0; p < 2; ++p)
      io_halos_series_name(all[2 * r + p], IONF_PATH_MAX, patterns[p], req->redshifts[r]);
  for (int a = 0; a < total; ++a)
    for (int b = a + 1; b < total; ++b)
      if (strcmp(all[a], all[b]) == 0) {
        ionf_err rc = ionf_error_set(
            IONF_ERR_CONFIG,
            "%s: two files would be named '%s' (redshifts %g and %g): give the patterns more "
            "decimals or different names",
            what, all[a], req->redshifts[a / 2], req->redshifts[b / 2]);
        free(all);
        return rc;
      }
  free(all);
  return IONF_OK;
}

ionf_err synth_write_eor_sequence(const struct synth_eor_request *req) {
  return synth_write_eor_sequence_steps(req, NULL);
}

void synth_eor_signature(const struct synth_eor_request *req, double z, char *out, size_t cap) {
  const struct cosmology *c = &req->field.cosmo;
  snprintf(out, cap,
           "eor N=%lld box_cmpc=%.9g seed=%llu sigma_8=%.9g n_s=%.9g h=%.9g Omega_m=%.9g "
           "Omega_b=%.9g T_cmb=%.9g M_min_msun=%.9g M_source_msun=%.9g z=%.9g",
           (long long)req->field.n, req->field.box_cmpc, (unsigned long long)req->field.seed, req->field.sigma_8,
           req->field.n_s, c->h, c->omega_m, c->omega_b, c->t_cmb0_k, req->min_halo_mass_msun,
           req->min_source_mass_msun, z);
}

ionf_err synth_write_eor_sequence_steps(const struct synth_eor_request *req,
                                        struct synth_eor_step *steps) {
  IONF_CALL(eor_check(req));
  struct synth_spectrum spec;
  IONF_CALL(synth_spectrum_init(&spec, &req->field.cosmo, req->field.sigma_8, req->field.n_s));
  const int64_t n = req->field.n;
  const size_t cells = (size_t)n * (size_t)n * (size_t)n;
  double *delta = malloc(cells * sizeof *delta);
  double *field = malloc(cells * sizeof *field);
  if (!delta || !field) {
    free(delta);
    free(field);
    return ionf_error_set(IONF_ERR_MEM, "EoR sequence: cannot allocate two %lld^3 grids",
                          (long long)n);
  }
  ionf_err rc = synth_density_linear(n, req->field.box_cmpc, &spec, req->field.seed, delta);
  const struct cosmology *c = &req->field.cosmo;
  for (int r = 0; rc == IONF_OK && r < req->n_redshifts; ++r) {
    double z = req->redshifts[r], growth = synth_growth_factor(c, z);
    char sig[768], desc[512], dpath[IONF_PATH_MAX], hpath[IONF_PATH_MAX];
    synth_eor_signature(req, z, sig, sizeof sig);
    io_halos_series_name(dpath, sizeof dpath, req->density_pattern, z);
    io_halos_series_name(hpath, sizeof hpath, req->halo_pattern, z);
    struct synth_lognormal_stats ln;
    rc = synth_density_lognormal(n, delta, growth, field, &ln);
    /* haloes need ρ/ρ̄ (the cells' mass); the density file then gets n_H in place */
    struct synth_halo_list halos = {0};
    struct synth_eps_stats eps;
    if (rc == IONF_OK) {
      struct synth_eps_request er = {n,     req->field.box_cmpc,           delta,
                                     field, growth,                  req->min_halo_mass_msun,
                                     req->min_source_mass_msun, req->field.seed};
      rc = synth_halos_eps(&er, &spec, &halos, &eps);
    }
    if (rc == IONF_OK) {
      snprintf(desc, sizeof desc,
               "ionfront synthetic halo catalogue: extended Press-Schechter collapsed mass per "
               "cell (haloes above %.3g Msun), one halo per cell with at least %.3g Msun, at "
               "z = %g",
               req->min_halo_mass_msun, req->min_source_mass_msun, z);
      rc = synth_files_write_halos(hpath, halos.n, halos.position_cmpc, halos.mass_msun, z,
                                   req->field.box_cmpc, sig, desc);
    }
    double halo_mass = 0.0;
    for (int64_t h = 0; h < halos.n; ++h) halo_mass += halos.mass_msun[h];
    int64_t n_halos = halos.n;
    synth_halos_list_free(&halos);
    if (rc == IONF_OK) {
      synth_density_hydrogen(n, field, c, z, field);
      snprintf(desc, sizeof desc,
               "ionfront synthetic density: log-normal Gaussian random field (Eisenstein & Hu "
               "no-wiggle LCDM spectrum, sigma_8 = %g, n_s = %g) grown to z = %g; proper n_H",
               req->field.sigma_8, req->field.n_s, z);
      rc = synth_files_write_density(dpath, "n_H", n, field, z, req->field.box_cmpc, sig, desc);
    }
    if (rc == IONF_OK && steps) {
      struct synth_eor_step *st = &steps[r];
      st->redshift = z;
      st->growth = growth;
      st->sigma_lin = ln.sigma_lin;
      st->max_over_mean = ln.max_over_mean;
      st->fcoll_mass = eps.fcoll_mass;
      st->fcoll_ps = eps.fcoll_ps;
      st->n_halos = n_halos;
      st->halo_mass_msun = halo_mass;
      snprintf(st->density_file, sizeof st->density_file, "%s", dpath);
      snprintf(st->halo_file, sizeof st->halo_file, "%s", hpath);
    }
  }
  free(delta);
  free(field);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

/* ---- Test 4 stand-in ------------------------------------------------------------------- */

void synth_iliev4_signatures(const struct synth_iliev4_request *req, char *density_sig,
                             char *sources_sig, size_t cap) {
  const struct cosmology *c = &req->field.cosmo;
  char field[512];
  snprintf(field, sizeof field,
           "iliev4 N=%lld box_cmpc=%.9g z=%.9g seed=%llu sigma_8=%.9g n_s=%.9g h=%.9g "
           "Omega_m=%.9g Omega_b=%.9g T_cmb=%.9g",
           (long long)req->field.n, req->field.box_cmpc, req->redshift, (unsigned long long)req->field.seed,
           req->field.sigma_8, req->field.n_s, c->h, c->omega_m, c->omega_b, c->t_cmb0_k);
  if (density_sig) snprintf(density_sig, cap, "%s", field);
  if (sources_sig)
    snprintf(sources_sig, cap, "%s peaks=%d min_separation=%d f_gamma=%.9g t_source_Myr=%.9g",
             field, req->n_sources, req->min_separation_cells, req->f_gamma,
             req->t_source_s / IONF_MYR_S);
}

ionf_err synth_write_iliev4(const struct synth_iliev4_request *req,
                            struct synth_iliev4_result *result) {
  static const char what[] = "iliev4 stand-in";
  IONF_CHECK(req, IONF_ERR_INTERNAL, "synth_write_iliev4: NULL request");
  IONF_CALL(synth_check_grid(req->field.n, req->field.box_cmpc, what));
  IONF_CHECK(isfinite(req->redshift) && req->redshift >= 0.0 && req->redshift < 1000.0,
             IONF_ERR_CONFIG, "%s: redshift %g is out of range [0, 1000)", what, req->redshift);
  IONF_CHECK(req->n_sources >= 1 && req->n_sources <= 1000000, IONF_ERR_CONFIG,
             "%s: the number of sources %d is out of range (1..1000000)", what, req->n_sources);
  IONF_CHECK(isfinite(req->f_gamma) && req->f_gamma > 0.0, IONF_ERR_CONFIG,
             "%s: f_gamma = %g must be > 0", what, req->f_gamma);
  IONF_CHECK(isfinite(req->t_source_s) && req->t_source_s > 0.0, IONF_ERR_CONFIG,
             "%s: the source lifetime %g s must be > 0", what, req->t_source_s);
  IONF_CHECK(req->field.cosmo.omega_b > 0.0, IONF_ERR_CONFIG,
             "%s: Omega_b = %g: sources emit f_gamma photons per baryon, so Omega_b must be > 0",
             what, req->field.cosmo.omega_b);
  struct synth_spectrum spec;
  IONF_CALL(synth_spectrum_init(&spec, &req->field.cosmo, req->field.sigma_8, req->field.n_s));

  const int64_t n = req->field.n;
  const size_t cells = (size_t)n * (size_t)n * (size_t)n;
  double *field = malloc(cells * sizeof *field);
  IONF_CHECK(field, IONF_ERR_MEM, "%s: cannot allocate a %lld^3 grid", what, (long long)n);
  ionf_err rc = synth_density_linear(n, req->field.box_cmpc, &spec, req->field.seed, field);
  struct synth_lognormal_stats ln = {0};
  double growth = synth_growth_factor(&req->field.cosmo, req->redshift);
  if (rc == IONF_OK) rc = synth_density_lognormal(n, field, growth, field, &ln);

  struct synth_peaks peaks = {0};
  double *ndot = NULL;
  char dsig[768], ssig[768];
  synth_iliev4_signatures(req, dsig, ssig, sizeof dsig);
  if (rc == IONF_OK)
    rc = synth_halos_peaks(n, field, req->n_sources, req->min_separation_cells,
                           synth_halos_cell_mass_msun(&spec, req->field.box_cmpc, n), &peaks);
  if (rc == IONF_OK && peaks.n < req->n_sources)
    rc = ionf_error_set(IONF_ERR_CONFIG,
                        "%s: the %lld^3 field has only %d density peaks %d cells apart; %d "
                        "sources were asked for (fewer sources, a smaller separation or a "
                        "larger grid)",
                        what, (long long)n, peaks.n, req->min_separation_cells, req->n_sources);
  if (rc == IONF_OK) {
    ndot = malloc((size_t)peaks.n * sizeof *ndot);
    if (!ndot) rc = ionf_error_set(IONF_ERR_MEM, "out of memory");
  }
  struct synth_iliev4_result res = {0};
  if (rc == IONF_OK) {
    res.n_sources = peaks.n;
    res.ndot_min = INFINITY;
    for (int s = 0; s < peaks.n; ++s) {
      ndot[s] = io_halos_ndot_per_s(peaks.mass_msun[s], req->f_gamma, req->t_source_s,
                                    &req->field.cosmo);
      res.ndot_total += ndot[s];
      if (ndot[s] < res.ndot_min) res.ndot_min = ndot[s];
      if (ndot[s] > res.ndot_max) res.ndot_max = ndot[s];
    }
    res.sigma_lin = ln.sigma_lin;
    res.max_over_mean = ln.max_over_mean;
    res.mean_n_h_cm3 = cosmology_mean_hydrogen_cm3(&req->field.cosmo, req->redshift, SYNTH_DENSITY_X_H);
  }
  if (rc == IONF_OK && req->sources_path) {
    char desc[512];
    snprintf(desc, sizeof desc,
             "Stand-in for Iliev et al. (2006) Test 4: the %d densest peaks (>= %d cells apart) "
             "of a log-normal Gaussian random field,\nNdot = f_gamma M Omega_b / (Omega_m m_p "
             "t_s), f_gamma = %g, t_s = %g Myr, M the matter mass of the 3^3 cells around the "
             "peak.",
             peaks.n, req->min_separation_cells, req->f_gamma, req->t_source_s / IONF_MYR_S);
    rc = synth_files_write_sources(req->sources_path, req->sources_format, peaks.n, peaks.ijk,
                                   ndot, peaks.mass_msun, ssig, desc);
  }
  if (rc == IONF_OK && req->density_path) {
    char desc[512];
    snprintf(desc, sizeof desc,
             "Stand-in for the Iliev et al. (2006) Test 4 density (not the paper's field): "
             "log-normal Gaussian random field, Eisenstein & Hu no-wiggle LCDM spectrum, "
             "sigma_8 = %g, n_s = %g, grown to z = %g; proper n_H",
             req->field.sigma_8, req->field.n_s, req->redshift);
    synth_density_hydrogen(n, field, &req->field.cosmo, req->redshift, field);
    rc = synth_files_write_density(req->density_path,
                                   req->density_dataset ? req->density_dataset : "n_H", n, field,
                                   req->redshift, req->field.box_cmpc, dsig, desc);
  }
  if (rc == IONF_OK && result) *result = res;
  free(ndot);
  synth_halos_peaks_free(&peaks);
  free(field);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}
