/**
 * @file test_synth_files.c
 * @brief Synthetic files read back by the engine's readers: density grids
 *        (io_density_read, bit for bit, attributes), halo catalogues
 *        (io_halos_read: cells and Eq. 20 rates), source lists in both formats
 *        (io_sources_read), signatures; the EoR sequence (one linear field grown
 *        with D(z), all files, bad requests) and the iliev4 stand-in (sources on
 *        density maxima).  Files go to a fresh temporary directory.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "core/error.h"
#include "io/io_density.h"
#include "io/io_halos.h"
#include "io/io_sources.h"
#include "grid/sources.h"
#include "synth/synth.h"
#include "io/synth_files.h"
#include "synth/synth_growth.h"
#include "test_util.h"

static char tmp_root[64];

static const char *path_in(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/%s", tmp_root, name);
  return buf;
}

static double read_root_double(const char *path, const char *name) {
  double v = NAN;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return v;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  if (a >= 0) {
    H5Aread(a, H5T_NATIVE_DOUBLE, &v);
    H5Aclose(a);
  }
  H5Fclose(f);
  return v;
}

/* No ".*.tmp" left anywhere under dir (one level of subfolders). */
static int count_tmp(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 4 && e->d_name[0] == '.' && !strcmp(e->d_name + len - 4, ".tmp")) ++found;
  }
  closedir(d);
  return found;
}

static void test_density_halos_sources(void) {
  char p[256];
  const int64_t n = 6;
  double grid[216];
  for (int q = 0; q < 216; ++q) grid[q] = 1e-4 * (1.0 + 0.37 * q);
  /* density: a new subfolder, a dataset in a group */
  path_in(p, sizeof p, "sub/dir/density.h5");
  EXPECT(synth_files_write_density(p, "/fields/n_H", n, grid, 9.0, 0.714, "sig-d", "desc") ==
             IONF_OK,
         "write density: %s", ionf_error_message());
  double back[216];
  EXPECT(io_density_read(p, "/fields/n_H", n, back) == IONF_OK, "read density: %s",
         ionf_error_message());
  EXPECT(memcmp(back, grid, sizeof grid) == 0, "density not read back bit for bit");
  EXPECT(read_root_double(p, "redshift") == 9.0, "redshift attribute");
  EXPECT(read_root_double(p, "box_size_cmpc") == 0.714, "box attribute");
  char sig[256];
  int found = 0;
  EXPECT(synth_files_signature(p, sig, sizeof sig, &found) == IONF_OK && found &&
             !strcmp(sig, "sig-d"),
         "density signature '%s' (found %d)", sig, found);
  char sub[256];
  EXPECT(count_tmp(path_in(sub, sizeof sub, "sub/dir")) == 0, "temporary file left");

  /* halos: two in one cell are merged by the reader; rates follow Eq. 20 */
  const double box = 10.0;
  const double pos[] = {1.0, 2.0, 3.0, 1.2, 2.4, 3.6, 9.9, 0.1, 5.0};
  const double mass[] = {1e9, 2e9, 5e8};
  path_in(p, sizeof p, "halos.h5");
  EXPECT(synth_files_write_halos(p, 3, pos, mass, 8.5, box, "sig-h", NULL) == IONF_OK,
         "write halos: %s", ionf_error_message());
  struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  struct source_list s;
  EXPECT(io_halos_read(p, box, 8, 250.0, 3.0 * IONF_MYR_S, &c, &s) == IONF_OK, "read halos: %s",
         ionf_error_message());
  EXPECT(s.n == 2, "%lld sources from 3 halos in 2 cells", (long long)s.n);
  if (s.n == 2) {
    EXPECT(s.ijk[0] == 0 && s.ijk[1] == 1 && s.ijk[2] == 2 && s.ijk[3] == 7 && s.ijk[4] == 0 &&
               s.ijk[5] == 4,
           "halo cells");
    EXPECT_REL(s.ndot_per_s[0], io_halos_ndot_per_s(3e9, 250.0, 3.0 * IONF_MYR_S, &c), 1e-14,
               "merged Ndot");
  }
  sources_free(&s);
  EXPECT(read_root_double(p, "redshift") == 8.5, "halo redshift attribute");
  /* an empty catalogue is a valid file */
  path_in(p, sizeof p, "halos_empty.h5");
  EXPECT(synth_files_write_halos(p, 0, NULL, NULL, 20.0, box, "sig", NULL) == IONF_OK,
         "write empty halos: %s", ionf_error_message());
  EXPECT(io_halos_read(p, box, 8, 250.0, 3.0 * IONF_MYR_S, &c, &s) == IONF_OK && s.n == 0,
         "read empty halos: %s", ionf_error_message());
  sources_free(&s);

  /* sources: text (1-based) and HDF5 (0-based) read back exactly */
  const int32_t ijk[] = {0, 1, 2, 5, 5, 5, 3, 0, 4};
  const double ndot[] = {1.2345678901234567e51, 3e50, 7.5e49};
  const char *names[] = {"src.txt", "src.h5"};
  for (int f = 0; f < 2; ++f) {
    path_in(p, sizeof p, names[f]);
    EXPECT(synth_files_write_sources(p, SOURCE_FORMAT_AUTO, 3, ijk, ndot, mass, "sig-s",
                                     "line one\nline two") == IONF_OK,
           "write %s: %s", names[f], ionf_error_message());
    EXPECT(io_sources_read(p, SOURCE_FORMAT_AUTO, &s) == IONF_OK, "read %s: %s", names[f],
           ionf_error_message());
    EXPECT(s.n == 3 && !memcmp(s.ijk, ijk, sizeof ijk) && !memcmp(s.ndot_per_s, ndot, sizeof ndot),
           "%s not read back exactly", names[f]);
    sources_free(&s);
    EXPECT(synth_files_signature(p, sig, sizeof sig, &found) == IONF_OK && found &&
               !strcmp(sig, "sig-s"),
           "%s signature '%s'", names[f], sig);
  }
  /* a file that is not ours has no signature */
  path_in(p, sizeof p, "plain.txt");
  FILE *pf = fopen(p, "w");
  fputs("1\n1 1 1 1e50\n", pf);
  fclose(pf);
  EXPECT(synth_files_signature(p, sig, sizeof sig, &found) == IONF_OK && !found,
         "a plain file has a signature");
  EXPECT(count_tmp(tmp_root) == 0, "temporary file left");
  /* an unwritable place: an error naming the file */
  EXPECT(synth_files_write_density("/proc/nope/d.h5", "n_H", n, grid, 9, 1, "s", NULL) ==
             IONF_ERR_IO,
         "writing under /proc succeeded");
  printf("  unwritable: %s\n", ionf_error_message());
  ionf_error_clear();
}

static void test_eor(void) {
  char dpat[256], hpat[256];
  path_in(dpat, sizeof dpat, "eor/density_z%.3f.h5");
  path_in(hpat, sizeof hpat, "eor/halos_z%.3f.h5");
  const double zs[] = {12.0, 9.5, 7.0};
  struct synth_eor_request req = {
      {16, 40.0, cosmology_flat(0.7, 0.27, 0.043, 2.725), 0.8, 0.96, 5}, 3, zs, 1e8, 1e9,
      dpat, hpat};
  struct synth_eor_step steps[3];
  EXPECT(synth_write_eor_sequence_steps(&req, steps) == IONF_OK, "eor: %s", ionf_error_message());
  const size_t cells = 16 * 16 * 16;
  double *ln[3];
  for (int r = 0; r < 3; ++r) {
    ln[r] = malloc(cells * sizeof(double));
    char dp[256], hp[256];
    io_halos_series_name(dp, sizeof dp, dpat, zs[r]);
    io_halos_series_name(hp, sizeof hp, hpat, zs[r]);
    EXPECT(!strcmp(dp, steps[r].density_file) && !strcmp(hp, steps[r].halo_file), "file names");
    EXPECT(io_density_read(dp, "n_H", 16, ln[r]) == IONF_OK, "read %s: %s", dp,
           ionf_error_message());
    EXPECT(read_root_double(dp, "redshift") == zs[r], "%s: redshift attribute", dp);
    double mean = 0.0;
    for (size_t q = 0; q < cells; ++q) mean += ln[r][q];
    mean /= cells;
    EXPECT_REL(mean, cosmology_mean_hydrogen_cm3(&req.field.cosmo, zs[r], 0.76), 1e-12,
               "mean n_H at the redshift");
    for (size_t q = 0; q < cells; ++q) ln[r][q] = log(ln[r][q]);
    struct source_list s;
    EXPECT(io_halos_read(hp, 40.0, 16, 10.0, IONF_MYR_S, &req.field.cosmo, &s) == IONF_OK,
           "read %s: %s", hp, ionf_error_message());
    EXPECT(s.n == steps[r].n_halos, "%s: %lld sources, %lld haloes written", hp,
           (long long)s.n, (long long)steps[r].n_halos);
    sources_free(&s);
  }
  /* one linear field: ln n_H - <ln n_H> scales as D(z) from one redshift to another */
  double worst = 0.0;
  for (int r = 1; r < 3; ++r) {
    double m0 = 0.0, m1 = 0.0;
    for (size_t q = 0; q < cells; ++q) {
      m0 += ln[0][q];
      m1 += ln[r][q];
    }
    m0 /= cells;
    m1 /= cells;
    double ratio = steps[r].growth / steps[0].growth;
    for (size_t q = 0; q < cells; ++q) {
      worst = test_worst(worst, test_abs_diff(ln[r][q] - m1, ratio * (ln[0][q] - m0)));
    }
  }
  EXPECT(worst < 1e-10, "the fields are not one linear field grown with D: off by %g", worst);
  EXPECT(steps[0].n_halos < steps[1].n_halos && steps[1].n_halos < steps[2].n_halos,
         "halo counts %lld %lld %lld do not grow", (long long)steps[0].n_halos,
         (long long)steps[1].n_halos, (long long)steps[2].n_halos);
  printf("eor: haloes %lld, %lld, %lld at z = 12, 9.5, 7; f_coll %.3e .. %.3e\n",
         (long long)steps[0].n_halos, (long long)steps[1].n_halos, (long long)steps[2].n_halos,
         steps[0].fcoll_mass, steps[2].fcoll_mass);
  for (int r = 0; r < 3; ++r) free(ln[r]);
  char eor_dir[256];
  EXPECT(count_tmp(path_in(eor_dir, sizeof eor_dir, "eor")) == 0, "temporary file left");

  /* bad requests: named clearly */
  const double up[] = {7.0, 9.0};
  struct synth_eor_request bad = req;
  bad.redshifts = up;
  bad.n_redshifts = 2;
  EXPECT(synth_write_eor_sequence(&bad) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "must descend"),
         "ascending redshifts: %s", ionf_error_message());
  ionf_error_clear();
  bad = req;
  bad.halo_pattern = "halos.h5";
  EXPECT(synth_write_eor_sequence(&bad) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "halo file pattern"),
         "pattern without a conversion: %s", ionf_error_message());
  ionf_error_clear();
  const double close_z[] = {8.4, 8.2};
  bad = req;
  bad.redshifts = close_z;
  bad.n_redshifts = 2;
  bad.density_pattern = "d_z%.0f.h5";
  EXPECT(synth_write_eor_sequence(&bad) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "two files would be named"),
         "colliding names: %s", ionf_error_message());
  ionf_error_clear();
  bad = req;
  bad.min_halo_mass_msun = 1e15;
  EXPECT(synth_write_eor_sequence(&bad) == IONF_ERR_CONFIG, "M_min above the cell mass");
  ionf_error_clear();
}

static void test_iliev4(void) {
  char dp[256], sp[256];
  path_in(dp, sizeof dp, "t4/density.h5");
  path_in(sp, sizeof sp, "t4/sources.txt");
  struct synth_iliev4_request req;
  memset(&req, 0, sizeof req);
  req.field.n = 32;
  req.field.box_cmpc = 0.5 / 0.7;
  req.redshift = 9.0;
  req.field.cosmo = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  req.field.sigma_8 = 0.8;
  req.field.n_s = 1.0;
  req.field.seed = 4;
  req.n_sources = 8;
  req.min_separation_cells = 4;
  req.f_gamma = 250.0;
  req.t_source_s = 3.0 * IONF_MYR_S;
  req.density_path = dp;
  req.density_dataset = "n_H";
  req.sources_path = sp;
  req.sources_format = SOURCE_FORMAT_AUTO;
  struct synth_iliev4_result res;
  EXPECT(synth_write_iliev4(&req, &res) == IONF_OK, "iliev4: %s", ionf_error_message());
  EXPECT(res.n_sources == 8, "%d sources", res.n_sources);
  static double nh[32 * 32 * 32];
  EXPECT(io_density_read(dp, "n_H", 32, nh) == IONF_OK, "read: %s", ionf_error_message());
  struct source_list s;
  EXPECT(io_sources_read(sp, SOURCE_FORMAT_AUTO, &s) == IONF_OK, "read sources: %s",
         ionf_error_message());
  EXPECT(s.n == 8, "%lld sources read", (long long)s.n);
  /* every source on a local maximum of the density file (the 1-based text layout holds) */
  for (int64_t k = 0; k < s.n; ++k) {
    int i = s.ijk[3 * k], j = s.ijk[3 * k + 1], l = s.ijk[3 * k + 2], ok = 1;
    double v = nh[(i * 32 + j) * 32 + l];
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        for (int dl = -1; dl <= 1; ++dl)
          ok &= nh[(((i + di + 32) % 32) * 32 + (j + dj + 32) % 32) * 32 + (l + dl + 32) % 32] <= v;
    EXPECT(ok, "source %lld at (%d, %d, %d) is not on a density maximum", (long long)k, i, j, l);
    EXPECT(k == 0 || s.ndot_per_s[k] > 0.0, "Ndot");
  }
  sources_free(&s);
  char want_d[1024], want_s[1024], got[1024];
  synth_iliev4_signatures(&req, want_d, want_s, sizeof want_d);
  int found = 0;
  EXPECT(synth_files_signature(dp, got, sizeof got, &found) == IONF_OK && found &&
             !strcmp(got, want_d),
         "density signature '%s'", got);
  EXPECT(synth_files_signature(sp, got, sizeof got, &found) == IONF_OK && found &&
             !strcmp(got, want_s),
         "sources signature '%s'", got);
  /* more peaks than a small grid holds */
  req.field.n = 8;
  req.n_sources = 100;
  req.density_path = req.sources_path = NULL;
  EXPECT(synth_write_iliev4(&req, &res) == IONF_ERR_CONFIG &&
             strstr(ionf_error_message(), "only"),
         "100 peaks on 8^3: %s", ionf_error_message());
  ionf_error_clear();
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/ionf_synth_XXXXXX");
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  test_density_halos_sources();
  test_eor();
  test_iliev4();
  if (test_failures == 0) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_root);
  } else {
    fprintf(stderr, "files kept in %s\n", tmp_root);
  }
  TEST_RETURN();
}
