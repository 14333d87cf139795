/**
 * @file convert_pyc2ray_table.c
 * @brief The one table of `ionfront convert`: which key of a pyC²Ray parameter file
 *        becomes which ionfront key, and how (docs/pyc2ray.md explains each choice).
 *
 * pyC²Ray's keys are those its code reads (pyc2ray/c2ray_base.py and its subclasses
 * c2ray_244paper.py, c2ray_cubep3m.py, c2ray_fstar.py; sinks_model.py,
 * source_model.py), plus three that older parameter files keep under Photo.  A key
 * added later is one row: a copy (target), a not-converted reason (note), or a
 * function of its own.  Rows run in order, and a row's function may use the keys of
 * later rows (a model and its parameters): those rows then do nothing.
 *
 * Frames and units (the hand conversion in docs/pyc2ray.md):
 *   Grid.boxsize     Mpc as pyC²Ray uses it (its comments sometimes say Mpc/h);
 *   Material.avg_dens x (1 + zred_0)^3: ionfront's n_H is the proper density at the start;
 *   0 / 1            false / true;
 *   R_max_cMpc, A_mfp "X Mpc" in the box's frame (comoving when cosmological), as pyC²Ray
 *                    counts them in cells of boxsize / meshsize;
 *   clumping fits    fits_cell_size: the size pyC²Ray picks, not ionfront's nearest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/convert_pyc2ray_internal.h"
#include "core/constants.h"
#include "rt/mfp.h"

/* ---- Grid and Material ----------------------------------------------------------- */

static ionf_err fn_box(struct cv_ctx *c, const struct cv_row *row) {
  char value[128];
  snprintf(value, sizeof value, "%s Mpc", cv_text(c, row->section, row->key));
  const char *h = cv_text(c, "Cosmology", "h");
  int cosmological = cv_number(c, "Cosmology", "cosmological", 0) != 0;
  return cv_emit(c, CV_LIVE, "grid.box_size", value,
                 "%s (Mpc, as pyC2Ray uses it; some of its files say Mpc/h: if yours means "
                 "Mpc/h, divide by h = %s; %s)",
                 cv_says(c, row->section, row->key), h ? h : "(unset)",
                 cosmological ? "comoving, as the run is cosmological"
                              : "not cosmological: used as given, as pyC2Ray does");
}

static ionf_err fn_gpu(struct cv_ctx *c, const struct cv_row *row) {
  int gpu = cv_number(c, row->section, row->key, 0) != 0;
  return cv_emit(c, CV_LIVE, "raytracing.backend", "auto", "%s (%s)",
                 cv_says(c, row->section, row->key),
                 gpu ? "auto: the GPU when there is one; cuda insists on it"
                     : "auto uses a GPU when there is one; cpu stays on the host as pyC2Ray did");
}

/* avg_dens x (1 + zred_0)^3: pyC²Ray scales the comoving mean so even when not cosmological. */
static ionf_err fn_n_h(struct cv_ctx *c, const struct cv_row *row) {
  const char *z_text = cv_text(c, "Cosmology", "zred_0");
  IONF_CHECK(z_text, IONF_ERR_CONFIG,
             "%s:%d: %s.%s = %s needs Cosmology.zred_0, which the file does not set: "
             "ionfront's material.n_H is avg_dens x (1 + zred_0)^3, the proper density at the "
             "start",
             cv_name(c), cv_line(c, row->section, row->key), row->section, row->key,
             cv_text(c, row->section, row->key));
  double z = cv_number(c, "Cosmology", "zred_0", 0.0);
  double a3 = (1.0 + z) * (1.0 + z) * (1.0 + z);
  char value[64], f[64];
  cv_format(cv_number(c, row->section, row->key, 0.0) * a3, value, sizeof value);
  return cv_emit(c, CV_LIVE, "material.n_H", value,
                 "%s (x (1 + zred_0)^3 = %s with Cosmology.zred_0 = %s: the proper density in "
                 "cm^-3 at the start, %s)",
                 cv_says(c, row->section, row->key), cv_format(a3, f, sizeof f), z_text,
                 cv_number(c, "Cosmology", "cosmological", 0) != 0
                     ? "diluted as (1 + z)^3 from there, as pyC2Ray does"
                     : "as pyC2Ray scales it even when not cosmological");
}

/* Output.results_basename without pyC²Ray's trailing '/' (ionfront adds its own). */
static ionf_err fn_directory(struct cv_ctx *c, const struct cv_row *row) {
  char dir[1024], quoted[2100];
  snprintf(dir, sizeof dir, "%s", cv_text(c, row->section, row->key));
  for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; --n) dir[n - 1] = '\0';
  return cv_emit(c, CV_LIVE, "output.directory", cv_quote(dir, quoted, sizeof quoted),
                 "%s (snapshots, log.csv and ifront.csv go there)",
                 cv_says(c, row->section, row->key));
}

/* ---- CGS: C²-Ray's constants, fixed in ionfront ----------------------------------- */

/* `row->note` starts with ionfront's value: the same value, or a warning that it differs. */
static ionf_err fn_fixed(struct cv_ctx *c, const struct cv_row *row) {
  double fixed = strtod(row->note, NULL);
  double v = cv_number(c, row->section, row->key, fixed);
  int same = fabs(v - fixed) <= 1e-9 * fabs(fixed);
  return cv_skip(c, row->section, row->key, same ? "the same as ionfront's fixed %s"
                                                 : "DIFFERS from ionfront's fixed %s: not used",
                 row->note);
}

/* ---- Abundances ------------------------------------------------------------------- */

static ionf_err fn_helium(struct cv_ctx *c, const struct cv_row *row) {
  double he = cv_number(c, row->section, row->key, 0.0);
  double h = cv_number(c, "Abundances", "abu_h", 1.0 - he);
  if (!(he > 0.0)) {
    IONF_CALL(cv_skip(c, "Abundances", "abu_h", "no helium in this file: hydrogen alone"));
    return cv_skip(c, row->section, row->key, "no helium: hydrogen alone, ionfront's default");
  }
  char value[64], mu[64];
  cv_format(he / h, value, sizeof value);
  const char *says_h = cv_has(c, "Abundances", "abu_h") ? cv_says(c, "Abundances", "abu_h")
                                                        : "Abundances.abu_h unset: 1 - abu_he";
  return cv_emit(c, CV_COMMENTED, "material.abundance_He", value,
                 "%s, %s (n_He / n_H = abu_he / abu_h; uncomment for helium as three absorbing "
                 "species: pyC2Ray's chemistry follows hydrogen alone and uses abu_he only in "
                 "the mean mass per nucleus, mu = abu_h + 4 abu_he = %s)",
                 cv_says(c, row->section, row->key), says_h,
                 cv_format(h + 4.0 * he, mu, sizeof mu));
}

/* ---- Photo ------------------------------------------------------------------------ */

/* Photo.grey and Photo.SourceType together make spectrum.type. */
static ionf_err fn_spectrum(struct cv_ctx *c, const struct cv_row *row) {
  (void)row;
  const char *grey = cv_text(c, "Photo", "grey");
  const char *kind = cv_text(c, "Photo", "SourceType");
  if (!grey) return cv_skip(c, "Photo", "SourceType", "used with Photo.grey, which is not set");
  if (!strcmp(grey, "1")) {
    char also[160] = "";
    if (kind) snprintf(also, sizeof also, ", %s", cv_says(c, "Photo", "SourceType"));
    return cv_emit(c, CV_LIVE, "spectrum.type", "grey",
                   "%s%s (one cross-section for every photon: the rates depend on the photon "
                   "count alone, whatever the spectrum)",
                   cv_says(c, "Photo", "grey"), also);
  }
  if (kind && !strcmp(kind, "blackbody"))
    return cv_emit(c, CV_LIVE, "spectrum.type", "blackbody",
                   "%s, %s (pyC2Ray's black body spans 13.6 eV to 10 x 54.4 eV: ionfront's "
                   "spectrum.E_max, 544 eV by default)",
                   cv_says(c, "Photo", "grey"), cv_says(c, "Photo", "SourceType"));
  IONF_CALL(cv_skip(c, "Photo", "grey", "a frequency-dependent spectrum of Photo.SourceType"));
  if (!kind) return IONF_OK;
  return cv_skip(c, "Photo", "SourceType",
                 !strcmp(kind, "powerlaw")
                     ? "pyC2Ray does not implement it (its code passes); ionfront's "
                       "spectrum.type: powerlaw takes spectrum.index"
                     : "no counterpart: pyC2Ray's own spectra (Zackrisson et al. 2011's "
                       "Yggdrasil tables); ionfront's spectrum.type: table reads its own format");
}

static ionf_err fn_heating(struct cv_ctx *c, const struct cv_row *row) {
  return cv_emit(c, CV_LIVE, "material.isothermal", "true",
                 "%s (pyC2Ray's chemistry keeps T fixed, heating rates or not: isothermal "
                 "reproduces it; false evolves T with photo-heating and cooling)",
                 cv_says(c, row->section, row->key));
}

/* Older files' Photo.R_max_cMpc, Photo.Teff, Photo.cross_section_pl_index. */
static ionf_err fn_older(struct cv_ctx *c, const struct cv_row *row) {
  int radius = !strcmp(row->target, "raytracing.R_max");
  const char *mfp = cv_text(c, "Sinks", "mfp_model");
  if (radius && mfp && strcmp(mfp, "constant")) /* pyC2Ray's newer classes read Sinks */
    return cv_skip(c, row->section, row->key,
                   "older pyC2Ray files' place of the radius: with Sinks.mfp_model %s the radius "
                   "follows that model, and a raytracing.R_max would cap it",
                   mfp);
  if (cv_emitted(c, row->target))
    return cv_skip(c, row->section, row->key,
                   "older pyC2Ray files' place of a key this file also sets (%s): that one is "
                   "converted",
                   row->target);
  if (!radius) return cv_copy(c, row);
  char value[128];
  snprintf(value, sizeof value, "%s Mpc", cv_text(c, row->section, row->key));
  return cv_emit(c, CV_LIVE, row->target, value,
                 "%s (older files' key; comoving Mpc, in the box's frame as pyC2Ray counts it "
                 "in cells of boxsize / meshsize)",
                 cv_says(c, row->section, row->key));
}

/* ---- Sinks ------------------------------------------------------------------------ */

/* pyC²Ray's choice of Bianco et al. 2021's fits (sinks_model.py): the first size of its
   tables/clumping/resolutions.txt, in that file's order, whose 0.7 x size is nearest to
   boxsize / meshsize (np.argmin: the first of equals).  Its tables are for cMpc, its box
   in cMpc/h with h = 0.7. */
static double pyc2ray_fits_cell_mpc(double cell) {
  static const double sizes[] = {2.094, 2.024, 1.518, 1.162, 1.012};
  double best = sizes[0];
  for (size_t i = 1; i < sizeof sizes / sizeof sizes[0]; ++i)
    if (fabs(0.7 * sizes[i] - cell) < fabs(0.7 * best - cell)) best = sizes[i];
  return best;
}

static ionf_err fn_clumping(struct cv_ctx *c, const struct cv_row *row) {
  const char *model = cv_text(c, row->section, row->key);
  if (!strcmp(model, "constant")) {
    IONF_CALL(cv_require(c, row->section, row->key, "clumping", "the clumping factor"));
    double C = cv_number(c, "Sinks", "clumping", 1.0);
    return cv_emit(c, C == 1.0 ? CV_COMMENTED : CV_LIVE, "chemistry.clumping",
                   cv_text(c, "Sinks", "clumping"), "%s, %s (%s)",
                   cv_says(c, row->section, row->key), cv_says(c, "Sinks", "clumping"),
                   C == 1.0 ? "1: no clumping, ionfront's default"
                            : "recombinations x C, as pyC2Ray's uniform clumping");
  }
  int density = !strcmp(model, "density");
  if (!density && strcmp(model, "redshift"))
    return cv_skip(c, row->section, row->key,
                   "no counterpart (pyC2Ray's stochastic clumping is not implemented either)");
  IONF_CHECK(cv_has(c, "Grid", "boxsize"), IONF_ERR_CONFIG,
             "%s:%d: %s.%s = %s needs Grid.boxsize (the cell size picks the fit), which the "
             "file does not set",
             cv_name(c), cv_line(c, row->section, row->key), row->section, row->key, model);
  int placeholder = !cv_has(c, "Grid", "meshsize");
  double n = cv_number(c, "Grid", "meshsize", 128.0); /* grid.N's placeholder */
  double cell = cv_number(c, "Grid", "boxsize", 0.0) / n;
  char value[128], size[32], cell_text[32];
  cv_format(pyc2ray_fits_cell_mpc(cell), size, sizeof size);
  snprintf(value, sizeof value, "{model: %s%s, fits_cell_size: %s}", model,
           density ? ", x: 1+n/mean" : "", size);
  return cv_emit(c, CV_LIVE, "chemistry.clumping", value,
                 "%s (Bianco et al. 2021's fit%s; fits_cell_size: pyC2Ray's pick, the size of "
                 "2.094, 2.024, 1.518, 1.162, 1.012 Mpc whose 0.7 x size is nearest to boxsize / "
                 "meshsize = %s%s, as its tables are in cMpc and its box in cMpc/h with h = "
                 "0.7%s)",
                 cv_says(c, row->section, row->key), density ? "s" : "",
                 cv_format(cell, cell_text, sizeof cell_text),
                 placeholder ? " (with grid.N's placeholder: recheck it)" : "",
                 density ? "; x: 1+n/mean, what pyC2Ray's sinks_model.py computes" : "");
}

/* A file that is not cosmological: pyC²Ray sets R from the model at zred_0 and changes it
   only in cosmo_evolve (c2ray_base.py), which its static test scripts do not call; ionfront's
   raytracing.mean_free_path needs a cosmological run, so R(zred_0) becomes raytracing.R_max. */
static ionf_err mfp_static(struct cv_ctx *c, const struct cv_row *row, int worseck, int modified,
                           const char *says_all, const char *extra) {
  const char *z_text = cv_text(c, "Cosmology", "zred_0"); /* not marked: its own row's key */
  IONF_CHECK(z_text, IONF_ERR_CONFIG,
             "%s:%d: %s.%s = %s in a run that is not cosmological needs Cosmology.zred_0, which "
             "the file does not set: the radius is the model's at zred_0",
             cv_name(c), cv_line(c, row->section, row->key), row->section, row->key,
             cv_text(c, row->section, row->key));
  struct mfp_model m = {worseck ? MFP_WORSECK2014 : MFP_CHOUDHURY09,
                        cv_number(c, "Sinks", "A_mfp", 0.0) * IONF_MPC_CM,
                        cv_number(c, "Sinks", "eta_mfp", 0.0),
                        modified ? cv_number(c, "Sinks", "z1_mfp", 0.0) : 6.0, /* ionfront's */
                        modified ? cv_number(c, "Sinks", "eta1_mfp", 0.0) : 9.0}; /* defaults */
  char r[64], value[96];
  cv_format(mfp_comoving_cm(&m, cv_number(c, "Cosmology", "zred_0", 0.0)) / IONF_MPC_CM, r,
            sizeof r);
  snprintf(value, sizeof value, "%s Mpc", r);
  return cv_emit(c, CV_LIVE, "raytracing.R_max", value,
                 "%s (the run is not cosmological: R at Cosmology.zred_0 = %s, held fixed, as "
                 "pyC2Ray sets it at the start and changes it only in cosmo_evolve; ionfront's "
                 "raytracing.mean_free_path needs a cosmological run; A in the box's Mpc%s)",
                 says_all, z_text, extra);
}

/* Sinks.mfp_model and its parameters: raytracing.R_max (constant), or
   raytracing.mean_free_path.  R_max_cMpc and A_mfp are in the box's frame and unit: pyC²Ray
   turns both into cells with meshsize / boxsize (sinks_model.py, c2ray_base.py), as ionfront
   does with grid.box_size ("X Mpc"; comoving when cosmological). */
static ionf_err fn_mfp(struct cv_ctx *c, const struct cv_row *row) {
  const char *model = cv_text(c, row->section, row->key);
  const char *says = cv_says(c, row->section, row->key);
  char value[384];
  if (!strcmp(model, "constant")) {
    IONF_CALL(cv_require(c, row->section, row->key, "R_max_cMpc", "the photons' reach"));
    snprintf(value, sizeof value, "%s Mpc", cv_text(c, "Sinks", "R_max_cMpc"));
    return cv_emit(c, CV_LIVE, "raytracing.R_max", value,
                   "%s, %s (comoving Mpc, in the box's frame: pyC2Ray counts it in cells of "
                   "boxsize / meshsize, as ionfront does)",
                   says, cv_says(c, "Sinks", "R_max_cMpc"));
  }
  int worseck = !strcmp(model, "Worseck2014");
  if (!worseck && strcmp(model, "Choudhury09"))
    return cv_skip(c, row->section, row->key, "no counterpart for this model");
  IONF_CALL(cv_require(c, row->section, row->key, "A_mfp", "the mean free path at z = 4"));
  IONF_CALL(cv_require(c, row->section, row->key, "eta_mfp", "its power of (1 + z)"));
  int cosmological = cv_number(c, "Cosmology", "cosmological", 0) != 0;
  if (cv_has(c, "Sinks", "R_max_cMpc"))
    IONF_CALL(cv_skip(c, "Sinks", "R_max_cMpc",
                      cosmological ? "with Sinks.mfp_model %s the radius follows R(z): a "
                                     "raytracing.R_max would cap it"
                                   : "with Sinks.mfp_model %s the radius is R(zred_0), "
                                     "raytracing.R_max above",
                      model));
  char says_all[1024], extra[160] = "";
  int len = snprintf(value, sizeof value, "{model: %s, A: \"%s Mpc\", eta: %s", model,
                     cv_text(c, "Sinks", "A_mfp"), cv_text(c, "Sinks", "eta_mfp"));
  int slen = snprintf(says_all, sizeof says_all, "%s, %s, %s", says, cv_says(c, "Sinks", "A_mfp"),
                      cv_says(c, "Sinks", "eta_mfp"));
  /* pyC2Ray's modification of the Worseck et al. (2014) fit; older files lack it */
  int modified = worseck && cv_has(c, "Sinks", "z1_mfp") && cv_has(c, "Sinks", "eta1_mfp");
  if (modified && len > 0 && (size_t)len < sizeof value && slen > 0 && (size_t)slen < sizeof says_all) {
    snprintf(value + len, sizeof value - (size_t)len, ", z1: %s, eta1: %s}",
             cv_text(c, "Sinks", "z1_mfp"), cv_text(c, "Sinks", "eta1_mfp"));
    snprintf(says_all + slen, sizeof says_all - (size_t)slen, ", %s, %s",
             cv_says(c, "Sinks", "z1_mfp"), cv_says(c, "Sinks", "eta1_mfp"));
  } else if (len > 0 && (size_t)len < sizeof value) {
    snprintf(value + len, sizeof value - (size_t)len, "}");
  }
  if (worseck && !modified)
    snprintf(extra, sizeof extra, "; no z1_mfp and eta1_mfp, which today's pyC2Ray requires: "
                                  "ionfront's defaults z1 6, eta1 9");
  if (cosmological)
    return cv_emit(c, CV_LIVE, "raytracing.mean_free_path", value,
                   "%s (A in comoving Mpc, in the box's frame: pyC2Ray turns R into cells with "
                   "meshsize / boxsize%s)",
                   says_all, extra);
  return mfp_static(c, row, worseck, modified, says_all, extra);
}

/* ---- Sources (of haloes: the sequence) ------------------------------------------- */

/* pyC²Ray's mean mass per nucleus in m_p: mu = abu_h + 4 abu_he. */
static double pyc2ray_mu(struct cv_ctx *c) {
  double he = cv_number(c, "Abundances", "abu_he", 0.0);
  return cv_number(c, "Abundances", "abu_h", 1.0 - he) + 4.0 * he;
}

/* f_gamma: pyC²Ray's Ndot = f_gamma M Omega_b / (Omega_m mu m_p t_s), mu = abu_h + 4 abu_he;
   ionfront's has m_p alone (grid/halo_model.c), so the same photons need f_gamma / mu.  A file
   with fstar_kind is for C2Ray_fstar, which does not read it (its fgamma kind takes f0). */
static ionf_err fn_f_gamma(struct cv_ctx *c, const struct cv_row *row) {
  const char *kind = cv_text(c, row->section, "fstar_kind");
  if (kind)
    return cv_skip(c, row->section, row->key,
                   "C2Ray_CubeP3M's efficiency: C2Ray_fstar, whose Sources.fstar_kind (%s) this "
                   "file sets, does not read it",
                   kind);
  double mu = pyc2ray_mu(c);
  char value[64], m[64];
  cv_format(cv_number(c, row->section, row->key, 0.0) / mu, value, sizeof value);
  return cv_emit(c, CV_LIVE, row->target, value,
                 "%s (/ mu = %s: pyC2Ray's Ndot divides M Omega_b / Omega_m by mu m_p, the mean "
                 "mass per nucleus; ionfront's by m_p)",
                 cv_says(c, row->section, row->key), cv_format(mu, m, sizeof m));
}

/* Sources.ts: C2Ray_CubeP3M's t_s (ionfront's t_source).  C2Ray_fstar, the class of files with
   fstar_kind, does not read it: its t_s is its time step (constant accretion) or from
   alpha_h (EXP); fn_accretion writes the first as a placeholder. */
static ionf_err fn_t_source(struct cv_ctx *c, const struct cv_row *row) {
  const char *kind = cv_text(c, row->section, "fstar_kind");
  if (kind)
    return cv_skip(c, row->section, row->key,
                   "C2Ray_CubeP3M's source lifetime: C2Ray_fstar, whose Sources.fstar_kind (%s) "
                   "this file sets, takes its time step (constant accretion) or alpha_h (EXP)",
                   kind);
  char value[96];
  snprintf(value, sizeof value, "%s Myr", cv_text(c, row->section, row->key));
  return cv_emit(c, CV_LIVE, row->target, value, "%s (Myr)", cv_says(c, row->section, row->key));
}

/* A model key with several parameters: `keys` (pyC²Ray) become `names` (ionfront). */
static ionf_err fn_model_of(struct cv_ctx *c, const struct cv_row *row, const char *model,
                            const char *const *keys, const char *const *names, int n,
                            const char *units_note) {
  char value[512], says[768];
  int len = snprintf(value, sizeof value, "{model: %s", model);
  int slen = snprintf(says, sizeof says, "%s", cv_says(c, row->section, row->key));
  for (int i = 0; i < n; ++i) {
    IONF_CALL(cv_require(c, row->section, row->key, keys[i], "a parameter of the model"));
    if (len > 0 && (size_t)len < sizeof value)
      len += snprintf(value + len, sizeof value - (size_t)len, ", %s: %s", names[i],
                      cv_text(c, row->section, keys[i]));
    if (slen > 0 && (size_t)slen < sizeof says)
      slen += snprintf(says + slen, sizeof says - (size_t)slen, ", %s",
                       cv_says(c, row->section, keys[i]));
  }
  if (len > 0 && (size_t)len < sizeof value) snprintf(value + len, sizeof value - (size_t)len, "}");
  return cv_emit(c, CV_LIVE, row->target, value, "%s%s", says, units_note);
}

static ionf_err fn_f_star(struct cv_ctx *c, const struct cv_row *row) {
  static const char *const keys[] = {"f0", "Mt", "Mp", "g1", "g2", "g3", "g4"};
  static const char *const names[] = {"f0", "M_t", "M_p", "g1", "g2", "g3", "g4"};
  const char *kind = cv_text(c, row->section, row->key);
  if (!strcmp(kind, "dpl"))
    return fn_model_of(c, row, "dpl", keys, names, 7,
                       " (double power law of Schneider, Giri & Mirocha 2021; masses in Msun)");
  if (!strcmp(kind, "fgamma")) { /* C2Ray_fstar: f_star = f0 Omega_b / Omega_m, over m_p */
    IONF_CALL(cv_require(c, row->section, row->key, "f0", "its efficiency"));
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.f_gamma", cv_text(c, row->section, "f0"),
                      "%s (fstar_kind fgamma: f_star = f0 Omega_b / Omega_m, divided by m_p; "
                      "pyC2Ray multiplies it by M twice, its TODO: ionfront by M once)",
                      cv_says(c, row->section, "f0")));
    return fn_model_of(c, row, "f_gamma", keys, names, 0, " (a fixed efficiency)");
  }
  return cv_skip(c, row->section, row->key,
                 "no counterpart (stochastic, UV-magnitude and SPICE star formation)");
}

static ionf_err fn_f_esc(struct cv_ctx *c, const struct cv_row *row) {
  static const char *const keys[] = {"f0_esc", "Mp_esc", "al_esc"};
  static const char *const names[] = {"f0", "M_p", "alpha"};
  const char *kind = cv_text(c, row->section, row->key);
  if (!strcmp(kind, "constant")) return fn_model_of(c, row, "constant", keys, names, 1, "");
  if (!strcmp(kind, "power") || !strcmp(kind, "power_obs"))
    return fn_model_of(c, row, kind, keys, names, 3,
                       strcmp(kind, "power") ? " (M_p in Msun; at the stellar mass f_star M)"
                                             : " (M_p in Msun)");
  return cv_skip(c, row->section, row->key,
                 "no counterpart (UV-magnitude and THESAN escape fractions)");
}

static ionf_err fn_accretion(struct cv_ctx *c, const struct cv_row *row) {
  static const char *const keys[] = {"alpha_h"};
  const char *kind = cv_text(c, row->section, row->key);
  if (!strcmp(kind, "constant")) {
    if (!cv_emitted(c, "sequence.halos.t_source")) /* C2Ray_fstar's t_s is its time step */
      IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.t_source", "10 Myr",
                        "PLACEHOLDER: pyC2Ray's C2Ray_fstar takes its time step as t_s (the "
                        "slices' interval over its steps between them)"));
    return fn_model_of(c, row, "constant", keys, keys, 0, "");
  }
  if (!strcmp(kind, "EXP"))
    return fn_model_of(c, row, "exponential", keys, keys, 1, " (M(z) ~ exp(-alpha_h z))");
  return cv_skip(c, row->section, row->key, "no counterpart for this accretion model");
}

/* ---- Output: the input files of a sequence ---------------------------------------- */

/* `dir` + `file`, with a '/' between them when `dir` lacks one. */
static void path_join(char *out, size_t cap, const char *dir, const char *sub, const char *file) {
  size_t n = strlen(dir);
  snprintf(out, cap, "%s%s%s%s", dir, n && dir[n - 1] != '/' ? "/" : "", sub, file);
}

/* Output.inputs_basename, density_basename, sources_basename: the sequence's file names
   (pyC²Ray's runs: CubeP3M densities, DIR/coarser_densities/%.3fn_all.dat, and its HDF5
   halo lists, DIR/sources_hdf5/%.3f-coarsest_wsubgrid_sources.hdf5). */
static ionf_err fn_inputs(struct cv_ctx *c, const struct cv_row *row) {
  static const char *const keys[] = {"inputs_basename", "density_basename", "sources_basename"};
  if (cv_number(c, "Cosmology", "cosmological", 0) == 0) {
    for (int i = 0; i < 3; ++i)
      if (cv_has(c, row->section, keys[i]))
        IONF_CALL(cv_skip(c, row->section, keys[i],
                          "the run is not cosmological: no sequence of input files"));
    return IONF_OK;
  }
  const char *in = cv_text(c, row->section, "inputs_basename");
  const char *dens = cv_text(c, row->section, "density_basename");
  const char *src = cv_text(c, row->section, "sources_basename");
  char path[1200], value[1400], quoted[1300], x_h[64];
  if (in)
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.redshifts", "[REDSHIFTS]",
                      "PLACEHOLDER: the redshifts of the files, zred_0 first (pyC2Ray's scripts "
                      "read them from %sredshift_checkpoints.txt); %s",
                      in, cv_says(c, row->section, "inputs_basename")));
  if (dens || in) {
    path_join(path, sizeof path, dens ? dens : in, dens ? "" : "coarser_densities/",
              "%.3fn_all.dat");
    snprintf(value, sizeof value,
             "{pattern: %s, format: cubep3m, fine_mesh: 8000, hydrogen_mass_fraction: %s}",
             cv_quote(path, quoted, sizeof quoted), cv_format(1.0 / pyc2ray_mu(c), x_h, sizeof x_h));
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.density", value,
                      "%s (PLACEHOLDER name: CubeP3M grids, as pyC2Ray's cubep3m runs read them; "
                      "PLACEHOLDER fine_mesh: CubeP3M's fine mesh, tools21cm's 8000 for the "
                      "244/h Mpc box; hydrogen_mass_fraction 1 / mu gives pyC2Ray's n_H: "
                      "docs/inputs.md)",
                      dens ? cv_says(c, row->section, "density_basename")
                           : cv_says(c, row->section, "inputs_basename")));
  }
  if (src || in) {
    path_join(path, sizeof path, src ? src : in, src ? "" : "sources_hdf5/",
              "%.3f-coarsest_wsubgrid_sources.hdf5");
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.pattern", cv_quote(path, quoted, sizeof quoted),
                      "%s (PLACEHOLDER name: pyC2Ray's HDF5 halo lists)",
                      src ? cv_says(c, row->section, "sources_basename")
                          : cv_says(c, row->section, "inputs_basename")));
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.format", "pyc2ray_hdf5",
                      "pyC2Ray's HDF5 halo lists; c2ray: C2-Ray's text lists"));
  }
  return IONF_OK;
}

/* ---- the table -------------------------------------------------------------------- */

#define NOT_BURSTY "bursty star formation's parameter: no counterpart"
#define SUBBOX "the sub-box tracer's; ionfront traces ASORA's shells, clipped to R_max, on CPU and GPU alike"
#define COLLISIONS "(in C2-Ray's collisional ionization of H, src/chem/species.c; chemistry.collisional_ionization: false turns it off)"

const struct cv_row convert_pyc2ray_rows[] = {
    {"Grid", "boxsize", CV_NUMBER, NULL, fn_box, NULL},
    {"Grid", "meshsize", CV_INTEGER, "grid.N", NULL, "cells per side"},
    {"Grid", "gpu", CV_BOOL, NULL, fn_gpu, NULL},
    {"Grid", "mpi", CV_BOOL, NULL, NULL,
     "start ionfront with mpirun -np P: sources are shared among ranks (grid.decomposition "
     "splits a large grid too)"},
    {"Grid", "resume", CV_BOOL, NULL, NULL,
     "continue a run with ionfront run CONFIG --restart DIR/checkpoint.h5"},
    {"Material", "avg_dens", CV_NUMBER, NULL, fn_n_h, NULL},
    {"Material", "temp0", CV_NUMBER, "material.temperature", NULL, "K"},
    {"Material", "xh0", CV_NUMBER, "material.x_HII_initial", NULL, NULL},
    {"CGS", "bh00", CV_NUMBER, "chemistry.alpha_B", NULL, "case B at 1e4 K, cm^3/s"},
    {"CGS", "albpow", CV_NUMBER, "chemistry.alpha_B_power", NULL, "alpha_B (T / 1e4 K)^power"},
    {"CGS", "alcpow", CV_NUMBER, NULL, NULL,
     "helium's recombination follows Hui & Gnedin (1997) in runs with helium"},
    {"CGS", "eth0", CV_NUMBER, NULL, fn_fixed, "13.598 eV (hydrogen's threshold)"},
    {"CGS", "ethe0", CV_NUMBER, NULL, fn_fixed, "24.587 eV (He I's threshold)"},
    {"CGS", "ethe1", CV_NUMBER, NULL, fn_fixed, "54.416 eV (He II's threshold)"},
    {"CGS", "xih0", CV_NUMBER, NULL, fn_fixed, "1.0 " COLLISIONS},
    {"CGS", "fh0", CV_NUMBER, NULL, fn_fixed, "0.83 " COLLISIONS},
    {"CGS", "colh0_fact", CV_NUMBER, NULL, fn_fixed, "1.3e-8 " COLLISIONS},
    {"Abundances", "abu_he", CV_NUMBER, NULL, fn_helium, NULL},
    {"Abundances", "abu_h", CV_NUMBER, NULL, NULL, "used with Abundances.abu_he, which is not set"},
    {"Abundances", "abu_c", CV_NUMBER, "chemistry.abu_c", NULL, "electrons from carbon"},
    {"Photo", "grey", CV_BOOL, NULL, fn_spectrum, NULL},
    {"Photo", "SourceType", CV_STRING, NULL, fn_spectrum, NULL},
    {"Photo", "sigma_HI_at_ion_freq", CV_NUMBER, "spectrum.sigma_0", NULL, "cm^2"},
    {"Photo", "NumTau", CV_INTEGER, "spectrum.num_tau", NULL, NULL},
    {"Photo", "minlogtau", CV_NUMBER, "spectrum.min_log_tau", NULL, NULL},
    {"Photo", "maxlogtau", CV_NUMBER, "spectrum.max_log_tau", NULL, NULL},
    {"Photo", "compute_heating_rates", CV_BOOL, NULL, fn_heating, NULL},
    {"Photo", "sed_table", CV_STRING, NULL, NULL,
     "pyC2Ray's SED table of SourceType Zackrisson2011: no counterpart"},
    {"Sinks", "clumping_model", CV_STRING, NULL, fn_clumping, NULL},
    {"Sinks", "clumping", CV_NUMBER, NULL, NULL,
     "used only with Sinks.clumping_model: constant, which this file does not choose"},
    {"Sinks", "mfp_model", CV_STRING, NULL, fn_mfp, NULL},
    {"Sinks", "R_max_cMpc", CV_NUMBER, NULL, NULL,
     "used only with Sinks.mfp_model: constant, which this file does not choose"},
    {"Sinks", "A_mfp", CV_NUMBER, NULL, NULL, "used only by the mfp_models Choudhury09 and Worseck2014"},
    {"Sinks", "eta_mfp", CV_NUMBER, NULL, NULL, "used only by the mfp_models Choudhury09 and Worseck2014"},
    {"Sinks", "z1_mfp", CV_NUMBER, NULL, NULL, "used only by the mfp_model Worseck2014"},
    {"Sinks", "eta1_mfp", CV_NUMBER, NULL, NULL, "used only by the mfp_model Worseck2014"},
    {"BlackBodySource", "Teff", CV_NUMBER, "spectrum.T_eff", NULL, "K"},
    {"BlackBodySource", "cross_section_pl_index", CV_NUMBER, "spectrum.power_law_index", NULL,
     "sigma ~ nu^-index"},
    {"Photo", "R_max_cMpc", CV_NUMBER, "raytracing.R_max", fn_older, NULL},
    {"Photo", "Teff", CV_NUMBER, "spectrum.T_eff", fn_older, "K; older files' key"},
    {"Photo", "cross_section_pl_index", CV_NUMBER, "spectrum.power_law_index", fn_older,
     "older files' key"},
    {"Sources", "fgamma_hm", CV_NUMBER, "sequence.halos.f_gamma", fn_f_gamma, NULL},
    {"Sources", "fgamma_lm", CV_NUMBER, NULL, NULL,
     "pyC2Ray reads the high-mass haloes alone (its TODO in read_sources); ionfront's "
     "sequence.halos.f_gamma_low_mass adds C2-Ray's low-mass ones from format c2ray lists"},
    {"Sources", "ts", CV_NUMBER, "sequence.halos.t_source", fn_t_source, NULL},
    {"Sources", "Nion", CV_NUMBER, "sequence.halos.model.N_ion", NULL, "photons per stellar baryon"},
    {"Sources", "fstar_kind", CV_STRING, "sequence.halos.model.f_star", fn_f_star, NULL},
    {"Sources", "fesc_model", CV_STRING, "sequence.halos.model.f_esc", fn_f_esc, NULL},
    {"Sources", "accretion_model", CV_STRING, "sequence.halos.model.accretion", fn_accretion, NULL},
    {"Sources", "f0", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "Mt", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "Mp", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "g1", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "g2", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "g3", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "g4", CV_NUMBER, NULL, NULL, "used only by fstar_kind: dpl"},
    {"Sources", "a_s", CV_NUMBER, NULL, NULL, "fstar_kind Muv's parameter: no counterpart"},
    {"Sources", "b_s", CV_NUMBER, NULL, NULL, "fstar_kind Muv's parameter: no counterpart"},
    {"Sources", "f0_esc", CV_NUMBER, NULL, NULL,
     "used only by fesc_model: constant, power, power_obs"},
    {"Sources", "Mp_esc", CV_NUMBER, NULL, NULL, "used only by fesc_model: power, power_obs"},
    {"Sources", "al_esc", CV_NUMBER, NULL, NULL, "used only by fesc_model: power, power_obs"},
    {"Sources", "alpha_h", CV_NUMBER, NULL, NULL, "used only by accretion_model: EXP"},
    {"Sources", "bursty_sfr", CV_STRING, NULL, NULL,
     "bursty star formation: no counterpart ('no', steady haloes, is what ionfront does)"},
    {"Sources", "beta1", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Sources", "beta2", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Sources", "tB0", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Sources", "tQ_frac", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Sources", "z0", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Sources", "t_rnd", CV_NUMBER, NULL, NULL, NOT_BURSTY},
    {"Cosmology", "cosmological", CV_BOOL, "cosmology.cosmological", NULL, NULL},
    {"Cosmology", "h", CV_NUMBER, "cosmology.h", NULL, NULL},
    {"Cosmology", "Omega0", CV_NUMBER, "cosmology.Omega_m", NULL, NULL},
    {"Cosmology", "Omega_B", CV_NUMBER, "cosmology.Omega_b", NULL, NULL},
    {"Cosmology", "cmbtemp", CV_NUMBER, "cosmology.T_cmb", NULL, "K"},
    {"Cosmology", "zred_0", CV_NUMBER, "cosmology.z_initial", NULL,
     "the start; with a sequence, its first redshift"},
    {"Output", "results_basename", CV_STRING, NULL, fn_directory, NULL},
    {"Output", "inputs_basename", CV_STRING, NULL, fn_inputs, NULL},
    {"Output", "density_basename", CV_STRING, NULL, fn_inputs, NULL},
    {"Output", "sources_basename", CV_STRING, NULL, fn_inputs, NULL},
    {"Output", "logfile", CV_STRING, NULL, NULL,
     "ionfront prints to the terminal and writes DIR/log.csv"},
    {"Raytracing", "source_batch_size", CV_INTEGER, "raytracing.source_batch_size", NULL,
     "sources traced at once on a GPU; 0 chooses from the GPU"},
    {"Raytracing", "convergence_fraction", CV_NUMBER, "raytracing.convergence_fraction", NULL,
     "the same test"},
    {"Raytracing", "loss_fraction", CV_NUMBER, NULL, NULL, SUBBOX},
    {"Raytracing", "subboxsize", CV_INTEGER, NULL, NULL, SUBBOX},
    {"Raytracing", "max_subbox", CV_INTEGER, NULL, NULL, SUBBOX},
};
const size_t convert_pyc2ray_n_rows = sizeof convert_pyc2ray_rows / sizeof convert_pyc2ray_rows[0];

/* ionfront keys pyC²Ray has no key for, written unless a row wrote them. */
const struct cv_fixed convert_pyc2ray_fixed[] = {
    {"grid.N", "128",
     "PLACEHOLDER: no Grid.meshsize in this file (older pyC2Ray scripts pass the mesh size): "
     "the cells per side"},
    {"grid.periodic", "true",
     "(pyC2Ray's ray tracing is periodic: ASORA is built with -DPERIODIC, C2-Ray's wraps too)"},
    {"material.isothermal", "true", "(pyC2Ray's chemistry keeps T fixed)"},
    {"chemistry.collisional_ionization", "true",
     "(pyC2Ray's chemistry includes it: CGS.colh0_fact, fh0, xih0)"},
};
const size_t convert_pyc2ray_n_fixed = sizeof convert_pyc2ray_fixed / sizeof convert_pyc2ray_fixed[0];

const struct cv_section convert_pyc2ray_sections[] = {
    {"grid", 0},       {"material", 0}, {"chemistry", 0}, {"spectrum", 0}, {"raytracing", 0},
    {"cosmology", 0},  {"sources", 0},  {"time", 0},      {"sequence", 1}, {"output", 0},
};
const size_t convert_pyc2ray_n_sections =
    sizeof convert_pyc2ray_sections / sizeof convert_pyc2ray_sections[0];

const char *const convert_pyc2ray_layout[] = {
    "grid.N", "grid.box_size", "grid.periodic",
    "material.n_H", "material.temperature", "material.x_HII_initial", "material.isothermal",
    "material.abundance_He",
    "chemistry.alpha_B", "chemistry.alpha_B_power", "chemistry.clumping",
    "chemistry.collisional_ionization", "chemistry.abu_c",
    "spectrum.type", "spectrum.T_eff", "spectrum.sigma_0", "spectrum.power_law_index",
    "spectrum.num_tau", "spectrum.min_log_tau", "spectrum.max_log_tau",
    "raytracing.R_max", "raytracing.mean_free_path", "raytracing.convergence_fraction",
    "raytracing.source_batch_size", "raytracing.backend",
    "cosmology.cosmological", "cosmology.h", "cosmology.Omega_m", "cosmology.Omega_b",
    "cosmology.T_cmb", "cosmology.z_initial",
    "time.dt", "time.t_end",
    "sequence.redshifts", "sequence.density", "sequence.halos.pattern", "sequence.halos.format",
    "sequence.halos.f_gamma", "sequence.halos.f_gamma_low_mass", "sequence.halos.t_source",
    "sequence.halos.model.N_ion", "sequence.halos.model.f_star", "sequence.halos.model.f_esc",
    "sequence.halos.model.accretion",
};
const size_t convert_pyc2ray_n_layout = sizeof convert_pyc2ray_layout / sizeof convert_pyc2ray_layout[0];

/* ---- what the driving script supplies --------------------------------------------- */

static ionf_err script_time(struct cv_ctx *c, const struct convert_pyc2ray_options *opt) {
  if (opt && opt->dt) IONF_CALL(cv_emit(c, CV_LIVE, "time.dt", opt->dt, "--dt"));
  else
    IONF_CALL(cv_emit(c, CV_LIVE, "time.dt", "10 Myr",
                      "PLACEHOLDER: the driving script's time step (--dt TIME)"));
  if (opt && opt->t_end) return cv_emit(c, CV_LIVE, "time.t_end", opt->t_end, "--t-end");
  return cv_emit(c, CV_LIVE, "time.t_end", "500 Myr",
                 "PLACEHOLDER: the driving script's end (--t-end TIME)");
}

ionf_err convert_pyc2ray_script_keys(struct cv_ctx *c, const struct convert_pyc2ray_options *opt) {
  char quoted[1100], value[1200];
  if (opt && opt->sources_file) {
    snprintf(value, sizeof value, "{file: %s, format: text}",
             cv_quote(opt->sources_file, quoted, sizeof quoted));
    IONF_CALL(cv_emit(c, CV_LIVE, "sources", value,
                      "--sources: a C2-Ray source list, the count and then 'i j k Ndot 1' per "
                      "source (1-based cells, photons/s); a relative name is read from this "
                      "config's folder"));
  } else {
    IONF_CALL(cv_note(c, "sources", "PLACEHOLDER: pyC2Ray's driving script reads the sources. "
                                    "Write them to sources.txt (next to"));
    IONF_CALL(cv_note(c, "sources", "this config) as a C2-Ray source list: the number of "
                                    "sources on the first line, then"));
    IONF_CALL(cv_note(c, "sources", "'i j k Ndot 1' per source (1-based cells, Ndot in "
                                    "photons/s); or convert with --sources FILE."));
    IONF_CALL(cv_emit(c, CV_LIVE, "sources", "{file: sources.txt, format: text}",
                      "PLACEHOLDER"));
  }
  IONF_CALL(script_time(c, opt));
  if (!cv_section_used(c, "sequence")) return IONF_OK;
  if (!cv_emitted(c, "sequence.redshifts"))
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.redshifts", "[REDSHIFTS]",
                      "PLACEHOLDER: the redshifts of the input files, zred_0 first"));
  if (!cv_emitted(c, "sequence.halos.pattern")) { /* the halo models without file names */
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.pattern",
                      "'%.3f-coarsest_wsubgrid_sources.hdf5'",
                      "PLACEHOLDER: the halo lists (no Output.inputs_basename or "
                      "sources_basename in this file)"));
    IONF_CALL(cv_emit(c, CV_LIVE, "sequence.halos.format", "pyc2ray_hdf5",
                      "pyC2Ray's HDF5 halo lists; c2ray: C2-Ray's text lists"));
  }
  int density = cv_emitted(c, "sequence.density"); /* else material.n_H stays, diluted */
  IONF_CALL(cv_note(c, "sequence", "A template, commented out: pyC2Ray's driving script walks "
                                   "through the redshifts of its"));
  IONF_CALL(cv_note(c, "sequence", "%s files.  To do the same, uncomment it, list the "
                                   "redshifts, check the file",
                    density ? "density and halo" : "halo"));
  IONF_CALL(cv_note(c, "sequence", "names, and delete %ssources:, time.t_end and "
                                   "cosmology.z_initial above",
                    density ? "material.n_H, " : ""));
  return cv_note(c, "sequence", "(the sequence gives them).");
}
