/**
 * @file test_convert_pyc2ray.c
 * @brief `ionfront convert`'s table (src/config/convert_pyc2ray*.c): a file holding every
 *        key of the table, plus unknown ones, loses none (each is named by a converted
 *        line's comment or in the not-converted list, and the counts add up to the keys);
 *        the units and frames of docs/pyc2ray.md (n_H = avg_dens (1 + zred_0)^3, the box
 *        in Mpc, 0/1 as false/true, R_max_cMpc in Mpc); the sequence is a commented
 *        template; the clumping fits pyC²Ray picks (the size of 2.094, 2.024, 1.518, 1.162,
 *        1.012 Mpc whose 0.7 x size is nearest to boxsize / meshsize), the mean free path
 *        without an R_max that would cap it, and in a run that is not cosmological R_max =
 *        R(zred_0) by hand; the halo models' keys where pyC²Ray's models use them, and the
 *        template's file names (placeholders when the file has none); a value of the wrong type is refused naming the file, key and
 *        value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/convert_pyc2ray.h"
#include "config/convert_pyc2ray_internal.h"
#include "core/params.h"
#include "core/units.h"
#include "test_util.h"

/* A value of the row's type ("constant" for every word: a model ionfront converts). */
static const char *value_of(const struct cv_row *row) {
  if (!strcmp(row->key, "zred_0")) return "7.0";
  if (!strcmp(row->key, "avg_dens")) return "2.0e-7";
  switch (row->type) {
  case CV_NUMBER: return "2.5";
  case CV_INTEGER: return "16";
  case CV_BOOL: return "1";
  default: return "constant";
  }
}

/* Every key of the table, by section, a key pyC2Ray does not know (Raytracing.r_RT) and
   a section it does not know (Grid2). */
static char *all_keys_yaml(int *n_keys) {
  size_t cap = 16384, len = 0;
  char *y = malloc(cap);
  *n_keys = 0;
  for (size_t i = 0; i < convert_pyc2ray_n_rows && y; ++i) {
    const struct cv_row *r = &convert_pyc2ray_rows[i];
    int seen = 0; /* rows of one section may be apart in the table (older Photo keys) */
    for (size_t j = 0; j < i; ++j)
      if (!strcmp(convert_pyc2ray_rows[j].section, r->section)) seen = 1;
    if (seen) continue;
    len += (size_t)snprintf(y + len, cap - len, "%s:\n", r->section);
    for (size_t j = i; j < convert_pyc2ray_n_rows; ++j)
      if (!strcmp(convert_pyc2ray_rows[j].section, r->section)) {
        len += (size_t)snprintf(y + len, cap - len, "  %s: %s\n", convert_pyc2ray_rows[j].key,
                                value_of(&convert_pyc2ray_rows[j]));
        ++*n_keys;
      }
    if (!strcmp(r->section, "Raytracing")) {
      len += (size_t)snprintf(y + len, cap - len, "  r_RT: 40\n");
      ++*n_keys;
    }
  }
  if (y) len += (size_t)snprintf(y + len, cap - len, "Grid2:\n  size: 3\n");
  ++*n_keys;
  return y;
}

static const struct param_node *at(const struct param_node *root, const char *a, const char *b) {
  const struct param_node *s = params_get(root, a);
  return b ? params_get(s, b) : s;
}

static void check_all_keys(void) {
  int n_keys = 0;
  char *yaml = all_keys_yaml(&n_keys);
  EXPECT(yaml, "out of memory");
  if (!yaml) return;
  struct convert_pyc2ray_result res;
  ionf_err rc = convert_pyc2ray_string(yaml, "all.yml", NULL, &res);
  EXPECT(rc == IONF_OK, "converting every key: %s", ionf_error_message());
  if (rc != IONF_OK) {
    free(yaml);
    return;
  }
  /* no key lost: each named in a comment ("Section.key: ") or the list ("Section.key = ") */
  for (size_t i = 0; i < convert_pyc2ray_n_rows; ++i) {
    char said[128], listed[128];
    snprintf(said, sizeof said, "%s.%s: ", convert_pyc2ray_rows[i].section,
             convert_pyc2ray_rows[i].key);
    snprintf(listed, sizeof listed, "%s.%s = ", convert_pyc2ray_rows[i].section,
             convert_pyc2ray_rows[i].key);
    EXPECT(strstr(res.text, said) || strstr(res.text, listed), "%s.%s is not in the output",
           convert_pyc2ray_rows[i].section, convert_pyc2ray_rows[i].key);
  }
  EXPECT(strstr(res.text, "Grid2.size = 3 \xe2\x80\x94 unknown"), "unknown section not listed");
  EXPECT(strstr(res.text, "Raytracing.r_RT = 40 \xe2\x80\x94 unknown"), "unknown key not listed");
  EXPECT(res.n_unknown == 2, "%d unknown keys, expected 2", res.n_unknown);
  EXPECT(res.n_converted + res.n_not_converted == n_keys,
         "%d converted + %d listed != %d keys in the file", res.n_converted,
         res.n_not_converted, n_keys);
  /* the text is YAML, and its sequence a commented template */
  struct param_node *root = NULL;
  EXPECT(params_load_string(res.text, "converted", &root) == IONF_OK, "not YAML: %s",
         ionf_error_message());
  EXPECT(root && !params_get(root, "sequence"), "the sequence is live, not a template");
  EXPECT(strstr(res.text, "\n# sequence:\n"), "no commented sequence template");
  params_free(root);
  free(res.text);
  free(yaml);
}

/* docs/pyc2ray.md's frames and units on an I-front file. */
static void check_units(void) {
  static const char *yaml =
      "Grid: {boxsize: 0.8, meshsize: 32, gpu: 1}\n"
      "Material: {temp0: 1e4, xh0: 1.0e-3, avg_dens: 2.0e-7}\n"
      "Sinks: {clumping_model: constant, clumping: 1.0, mfp_model: constant, R_max_cMpc: 0.5}\n"
      "Cosmology: {cosmological: 0, h: 0.7, zred_0: 7.0}\n"
      "Output: {results_basename: ./out/}\n";
  struct convert_pyc2ray_options opt = {"src.txt", "2 Myr", "20 Myr"};
  struct convert_pyc2ray_result res;
  ionf_err rc = convert_pyc2ray_string(yaml, "ifront.yml", &opt, &res);
  EXPECT(rc == IONF_OK, "converting: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  struct param_node *root = NULL;
  EXPECT(params_load_string(res.text, "converted", &root) == IONF_OK, "not YAML: %s",
         ionf_error_message());
  const struct param_node *n = at(at(root, "material", NULL), "n_H", NULL);
  double n_h = 0.0;
  EXPECT(n && n->scalar && units_parse_number(n->scalar, &n_h), "no material.n_H");
  /* 2e-7 x (1 + 7)^3 = 1.024e-4 cm^-3, to the %.10g of the text */
  EXPECT(test_rel_diff(n_h, 1.024e-4, 0.0) <= 1e-9, "n_H = %g, expected 1.024e-4", n_h);
  n = at(at(root, "grid", NULL), "box_size", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "0.8 Mpc"), "box_size = %s", n ? n->scalar : "-");
  n = at(at(root, "raytracing", NULL), "R_max", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "0.5 Mpc"), "R_max = %s", n ? n->scalar : "-");
  n = at(at(root, "cosmology", NULL), "cosmological", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "false"), "cosmological = %s", n ? n->scalar : "-");
  n = at(at(root, "chemistry", NULL), "clumping", NULL);
  EXPECT(!n, "clumping 1 written live (it is the default: a comment)");
  n = at(at(root, "sources", NULL), "file", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "src.txt"), "sources.file = %s", n ? n->scalar : "-");
  n = at(at(root, "time", NULL), "dt", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "2 Myr"), "time.dt = %s", n ? n->scalar : "-");
  n = at(at(root, "output", NULL), "directory", NULL);
  EXPECT(n && n->scalar && !strcmp(n->scalar, "./out"), "directory = %s", n ? n->scalar : "-");
  EXPECT(!strstr(res.text, "PLACEHOLDER"), "placeholders left though the options gave them");
  params_free(root);
  free(res.text);
}

/* The converted text of `yaml` (NULL on failure, reported); free() it. */
static char *converted(const char *yaml) {
  struct convert_pyc2ray_result res;
  ionf_err rc = convert_pyc2ray_string(yaml, "sinks.yml", NULL, &res);
  EXPECT(rc == IONF_OK, "converting %s: %s", yaml, ionf_error_message());
  return rc == IONF_OK ? res.text : NULL;
}

/* pyC²Ray's pick of the clumping fits: sinks_model.py takes the size s of its resolutions.txt
   whose 0.7 s is nearest to boxsize / meshsize (by hand: 0.7 s = 1.4658, 1.4168, 1.0626,
   0.8134, 0.7084). */
static void check_clumping_fits(void) {
  static const struct {
    const char *grid, *model, *expect;
  } cases[] = {
      {"{boxsize: 50.0, meshsize: 48}", "redshift", "{model: redshift, fits_cell_size: 1.518}"},
      {"{boxsize: 100.0, meshsize: 64}", "density",
       "{model: density, x: 1+n/mean, fits_cell_size: 2.094}"},
      {"{boxsize: 144.0, meshsize: 100}", "redshift", "fits_cell_size: 2.024}"}, /* 1.44 */
      {"{boxsize: 0.9, meshsize: 1}", "density", "fits_cell_size: 1.162}"},      /* 0.9 */
      {"{boxsize: 244.0, meshsize: 250}", "redshift", "fits_cell_size: 1.518}"}, /* 0.976 */
      {"{boxsize: 0.5, meshsize: 1}", "density", "fits_cell_size: 1.012}"},      /* 0.5 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    char yaml[512];
    snprintf(yaml, sizeof yaml,
             "Grid: %s\nSinks: {clumping_model: %s, clumping: 2.0}\n"
             "Cosmology: {cosmological: 1, zred_0: 9.0}\n",
             cases[i].grid, cases[i].model);
    char *text = converted(yaml);
    if (!text) continue;
    char line[160];
    snprintf(line, sizeof line, "\n  clumping: {model: %s", cases[i].model);
    const char *at_line = strstr(text, line);
    EXPECT(at_line && strstr(at_line, cases[i].expect) &&
               strstr(at_line, cases[i].expect) < strchr(at_line + 1, '\n'),
           "Grid %s, %s: no '%s' on the clumping line", cases[i].grid, cases[i].model,
           cases[i].expect);
    EXPECT(strstr(text, "Sinks.clumping = 2.0 \xe2\x80\x94 used only with"),
           "Sinks.clumping not listed with model %s", cases[i].model);
    free(text);
  }
}

/* The mean free path: cosmological, mean_free_path and no R_max (it would cap R(z)), neither
   Sinks' nor Photo's R_max_cMpc; not cosmological, R_max = R(zred_0) (Worseck et al. 2014's
   form with pyC²Ray's high-z term), ionfront's z1 6 and eta1 9 when the file lacks them. */
static void check_mfp(void) {
  static const char *sinks =
      "Grid: {boxsize: 4.0, meshsize: 64}\n"
      "Photo: {R_max_cMpc: 0.18}\n"
      "Sinks: {clumping_model: constant, clumping: 1.0, mfp_model: Worseck2014, R_max_cMpc: "
      "15.0, A_mfp: 225.0, eta_mfp: -8.8%s}\n"
      "Cosmology: {cosmological: %d, zred_0: 9.0}\n";
  for (int cosmological = 0; cosmological <= 1; ++cosmological)
    for (int given = 0; given <= 1; ++given) {
      char yaml[512];
      snprintf(yaml, sizeof yaml, sinks, given ? ", z1_mfp: 5.0, eta1_mfp: 7.0" : "",
               cosmological);
      char *text = converted(yaml);
      if (!text) continue;
      struct param_node *root = NULL;
      EXPECT(params_load_string(text, "converted", &root) == IONF_OK, "not YAML: %s",
             ionf_error_message());
      const struct param_node *rt = at(root, "raytracing", NULL);
      const struct param_node *r_max = at(rt, "R_max", NULL);
      const struct param_node *mfp = at(rt, "mean_free_path", NULL);
      EXPECT(strstr(text, "Sinks.R_max_cMpc = 15.0 \xe2\x80\x94 with Sinks.mfp_model Worseck2014"),
             "Sinks.R_max_cMpc not listed (cosmological %d)", cosmological);
      EXPECT(strstr(text, "Photo.R_max_cMpc = 0.18 \xe2\x80\x94 older pyC2Ray files' place of the "
                          "radius"),
             "Photo.R_max_cMpc not listed (cosmological %d)", cosmological);
      if (cosmological) {
        EXPECT(!r_max, "R_max = %s beside the mean free path", r_max->scalar);
        EXPECT(mfp && mfp->kind == PARAM_MAPPING, "no raytracing.mean_free_path");
        const struct param_node *z1 = at(mfp, "z1", NULL);
        EXPECT(given ? z1 && !strcmp(z1->scalar, "5.0") : !z1, "z1 = %s (given %d)",
               z1 ? z1->scalar : "-", given);
      } else {
        EXPECT(!mfp, "mean_free_path written in a run that is not cosmological");
        double one_z = 10.0, z1 = given ? 5.0 : 6.0, eta1 = given ? 7.0 : 9.0;
        double hand = 225.0 * pow(one_z / 5.0, -8.8) * (1.0 + pow(one_z / (1.0 + z1), eta1));
        double r = 0.0;
        char unit[16] = "";
        EXPECT(r_max && r_max->scalar && sscanf(r_max->scalar, "%lf %15s", &r, unit) == 2 &&
                   !strcmp(unit, "Mpc") && test_rel_diff(r, hand, 0.0) <= 1e-9,
               "R_max = %s, expected %.10g Mpc (z1 %g, eta1 %g)", r_max ? r_max->scalar : "-",
               hand, z1, eta1);
      }
      params_free(root);
      free(text);
    }
}

/* The halo models pyC²Ray's C2Ray_fstar reads (the files with fstar_kind): not fgamma_hm or
   ts (C2Ray_CubeP3M's), fgamma_lm never (pyC²Ray reads the high-mass haloes alone),
   power_obs escape, a placeholder t_source for constant accretion (its t_s is its step),
   its fgamma kind's f0 as f_gamma. */
static void check_halo_models(void) {
  char *text = converted(
      "Grid: {boxsize: 100.0, meshsize: 64}\n"
      "Sources: {fstar_kind: dpl, fgamma_hm: 30, fgamma_lm: 0., f0: 0.1, Mt: 1e8, Mp: 1e10, "
      "g1: -0.3, g2: -0.3, g3: 0, g4: 0, fesc_model: power_obs, f0_esc: 0.02, Mp_esc: 1e10, "
      "al_esc: -0.25, accretion_model: constant, Nion: 2000}\n"
      "Cosmology: {cosmological: 1, zred_0: 9.0}\n"
      "Output: {inputs_basename: ./in/}\n");
  if (!text) return;
  EXPECT(strstr(text, "# f_esc: {model: power_obs, f0: 0.02, M_p: 1e10, alpha: -0.25}"),
         "no power_obs f_esc in the template");
  EXPECT(strstr(text, "# t_source: 10 Myr ") &&
             strstr(text, "# PLACEHOLDER: pyC2Ray's C2Ray_fstar takes its time step"),
         "no placeholder t_source");
  EXPECT(!strstr(text, "# f_gamma:") && !strstr(text, "f_gamma_low_mass:"),
         "f_gamma or f_gamma_low_mass written with fstar_kind dpl");
  EXPECT(strstr(text, "Sources.fgamma_hm = 30 \xe2\x80\x94 C2Ray_CubeP3M's efficiency"),
         "fgamma_hm not listed");
  EXPECT(strstr(text, "Sources.fgamma_lm = 0. \xe2\x80\x94 pyC2Ray reads the high-mass haloes"),
         "fgamma_lm not listed");
  EXPECT(strstr(text, "delete material.n_H, sources:"), "the note keeps material.n_H");
  free(text);
  /* no input folders: a placeholder halo pattern; no density files, so n_H stays */
  text = converted("Sources: {fgamma_hm: 2.0, ts: 20.0}\n"
                   "Cosmology: {cosmological: 1, zred_0: 9.0}\n");
  if (!text) return;
  EXPECT(strstr(text, "# pattern: '%.3f-coarsest_wsubgrid_sources.hdf5'") &&
             strstr(text, "PLACEHOLDER: the halo lists"),
         "no placeholder halo pattern");
  EXPECT(strstr(text, "# format: pyc2ray_hdf5 "), "no halo format");
  EXPECT(strstr(text, "names, and delete sources:, time.t_end"), "the note deletes material.n_H");
  free(text);
  /* C2Ray_fstar's fgamma kind: f_gamma = f0 (its f_star f0 Omega_b / Omega_m, over m_p) */
  text = converted("Sources: {fstar_kind: fgamma, f0: 0.05, fgamma_hm: 30, Nion: 4000, "
                   "accretion_model: constant, ts: 10}\n"
                   "Cosmology: {cosmological: 1, zred_0: 9.0}\n");
  if (!text) return;
  EXPECT(strstr(text, "# f_gamma: 0.05 ") && strstr(text, "# Sources.f0: 0.05 (fstar_kind fgamma"),
         "f_gamma is not Sources.f0");
  EXPECT(strstr(text, "# f_star: {model: f_gamma}"), "no f_star f_gamma");
  EXPECT(strstr(text, "Sources.fgamma_hm = 30 \xe2\x80\x94 C2Ray_CubeP3M's efficiency"),
         "fgamma_hm not listed with fstar_kind fgamma");
  EXPECT(strstr(text, "Sources.ts = 10 \xe2\x80\x94 C2Ray_CubeP3M's source lifetime") &&
             strstr(text, "# PLACEHOLDER: pyC2Ray's C2Ray_fstar takes its time step"),
         "Sources.ts used by a C2Ray_fstar file");
  free(text);
}

/* A wrong type, a bad option: refused, naming what is wrong. */
static void check_refusals(void) {
  struct convert_pyc2ray_result res;
  ionf_err rc = convert_pyc2ray_string("Grid:\n  boxsize: 0.8\n  meshsize: 3.5\n", "bad.yml",
                                       NULL, &res);
  EXPECT(rc == IONF_ERR_CONFIG && !res.text, "meshsize 3.5 accepted (rc %d)", (int)rc);
  EXPECT(strstr(ionf_error_message(), "bad.yml:3: Grid.meshsize = 3.5: expected a whole number"),
         "message: %s", ionf_error_message());
  ionf_error_clear();
  rc = convert_pyc2ray_string("Photo:\n  grey: [1]\n", "bad.yml", NULL, &res);
  EXPECT(rc == IONF_ERR_CONFIG && strstr(ionf_error_message(), "Photo.grey = [...]"),
         "a list for grey: rc %d, %s", (int)rc, ionf_error_message());
  ionf_error_clear();
  struct convert_pyc2ray_options opt = {NULL, "ten", NULL};
  rc = convert_pyc2ray_string("Grid: {boxsize: 1}\n", "ok.yml", &opt, &res);
  EXPECT(rc == IONF_ERR_USAGE && strstr(ionf_error_message(), "--dt") &&
             strstr(ionf_error_message(), "'ten'"), "--dt ten: %d, %s",
         (int)rc, ionf_error_message());
  ionf_error_clear();
}

int main(void) {
  check_all_keys();
  check_units();
  check_clumping_fits();
  check_mfp();
  check_halo_models();
  check_refusals();
  return test_failures ? 1 : 0;
}
