/**
 * @file test_io.c
 * @brief Snapshots, output directory, step log, density reader, source readers
 *        and the source-list helpers, all in a fresh temporary directory.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */

#include <dirent.h>
#include <ftw.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/constants.h"
#include "core/error.h"
#include "grid/grid.h"
#include "core/ionf_config.h" /* generated: IONF_VERSION */
#include "io/io_density.h"
#include "io/io_sources.h"
#include "io/output_dir.h"
#include "io/snapshot.h"
#include "grid/sources.h"
#include "test_util.h"

#define N 8
#define PATH_BUF 256 /* test paths: tmp_root (< 64) plus a short name */

static char tmp_root[64];

/* ---- small helpers ------------------------------------------------------------ */

static void join(char *out, size_t size, const char *a, const char *b) {
  snprintf(out, size, "%s/%s", a, b);
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(p);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

/* Expect code `want` and every fragment in the message; then clear the record. */
static void expect_error(ionf_err got, ionf_err want, const char *frag1, const char *frag2,
                         const char *what) {
  const char *msg = ionf_error_message();
  if (getenv("IONF_TEST_VERBOSE")) printf("%-26s -> %s\n", what, msg);
  EXPECT(got == want, "%s: code %d, expected %d (message: %s)", what, (int)got, (int)want, msg);
  EXPECT(!frag1 || strstr(msg, frag1), "%s: message '%s' lacks '%s'", what, msg, frag1);
  EXPECT(!frag2 || strstr(msg, frag2), "%s: message '%s' lacks '%s'", what, msg, frag2);
  ionf_error_clear();
}

/* Create `path` with one dataset `name` (parents created) of file/memory type `type`. */
static void h5_write_dataset(const char *path, const char *name, hid_t type, int rank,
                             const hsize_t *dims, const void *data, int append) {
  hid_t file = append ? H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT)
                      : H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dset = H5Dcreate2(file, name, type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0 || dset < 0 || H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    fprintf(stderr, "test setup: cannot write %s:%s\n", path, name);
    exit(1);
  }
  H5Dclose(dset);
  H5Sclose(space);
  H5Pclose(lcpl);
  H5Fclose(file);
}

static double attr_double(hid_t obj, const char *name) {
  double v = NAN;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0 || H5Aread(a, H5T_NATIVE_DOUBLE, &v) < 0) v = NAN;
  if (a >= 0) H5Aclose(a);
  return v;
}

static int64_t attr_int64(hid_t obj, const char *name) {
  int64_t v = -999;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0 || H5Aread(a, H5T_NATIVE_INT64, &v) < 0) v = -999;
  if (a >= 0) H5Aclose(a);
  return v;
}

/* A string attribute (variable or fixed length) as a malloc'd copy; NULL if absent. */
static char *attr_string(hid_t obj, const char *name) {
  char *copy = NULL;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0) return NULL;
  hid_t ftype = H5Aget_type(a);
  if (H5Tget_class(ftype) == H5T_STRING) {
    if (H5Tis_variable_str(ftype) > 0) {
      /* Same character set as the file: HDF5 does not convert ASCII <-> UTF-8. */
      hid_t mtype = H5Tcopy(H5T_C_S1);
      H5Tset_size(mtype, H5T_VARIABLE);
      H5Tset_cset(mtype, H5Tget_cset(ftype));
      char *s = NULL;
      if (H5Aread(a, mtype, &s) >= 0 && s) {
        copy = strdup(s);
        H5free_memory(s);
      }
      H5Tclose(mtype);
    } else {
      size_t size = H5Tget_size(ftype);
      copy = calloc(size + 1, 1);
      if (copy && H5Aread(a, ftype, copy) < 0) {
        free(copy);
        copy = NULL;
      }
    }
  }
  H5Tclose(ftype);
  H5Aclose(a);
  return copy;
}

static void expect_attr_string(hid_t obj, const char *name, const char *want, const char *where) {
  char *s = attr_string(obj, name);
  EXPECT(s && strcmp(s, want) == 0, "%s attribute %s = '%s', expected '%s'", where, name,
         s ? s : "(missing)", want);
  free(s);
}

/* No ".snapshot_*.tmp" left behind in `dir`. */
static int count_tmp_files(const char *dir) {
  int count = 0;
  DIR *d = opendir(dir);
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d));)
    if (strstr(e->d_name, ".tmp")) ++count;
  closedir(d);
  return count;
}

/* ---- snapshots ------------------------------------------------------------------ */

static double value_of(int field, int64_t c) {
  switch (field) {
    case 0: return (double)(c + 1) / 1024.0;           /* x_HII in (0, 1) */
    case 1: return 1e-12 * (double)(c + 1) + 3e-15;    /* Gamma_HI */
    case 2: return 1e-3 * (double)(c * 7 % 101) + 0.1; /* n_H */
    default: return 1e4 + 0.5 * (double)c;             /* T */
  }
}

static void check_snapshot_file(const char *path, const struct fields *f,
                                const char *yaml, double time_s, double redshift) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT(file >= 0, "cannot open snapshot %s", path);
  if (file < 0) return;

  EXPECT(attr_double(file, "time_s") == time_s, "time_s = %g", attr_double(file, "time_s"));
  EXPECT_REL(attr_double(file, "time_Myr"), time_s / IONF_MYR_S, 1e-15, "time_Myr");
  EXPECT(attr_double(file, "box_size_cm") == 2.5e22, "box_size_cm = %g",
         attr_double(file, "box_size_cm"));
  EXPECT(attr_int64(file, "N") == N, "N = %lld", (long long)attr_int64(file, "N"));
  EXPECT(attr_int64(file, "step") == 42, "step = %lld", (long long)attr_int64(file, "step"));
  htri_t has_z = H5Aexists(file, "redshift");
  if (redshift < 0)
    EXPECT(has_z == 0, "redshift attribute present for a non-cosmological run");
  else
    EXPECT(has_z > 0 && attr_double(file, "redshift") == redshift, "redshift missing/wrong");
  expect_attr_string(file, "config", yaml, "root");
  expect_attr_string(file, "config_name", "test.yaml", "root");
  expect_attr_string(file, "ionfront_version", IONF_VERSION, "root");
  char *created = attr_string(file, "created");
  EXPECT(created && strlen(created) == 20 && created[10] == 'T' && created[19] == 'Z',
         "created = '%s' is not ISO-8601 UTC", created ? created : "(missing)");
  free(created);

  const char *names[4] = {"/Grid/x_HII", "/Grid/Gamma_HI", "/Grid/n_H", "/Grid/T"};
  const char *units[4] = {"1", "s^-1", "cm^-3", "K"};
  const double *arrays[4] = {f->x_ion, f->gamma_per_s, /* HI: the first species */ f->n_h_cm3, f->temperature_k};
  double *buf = malloc(sizeof(double) * N * N * N);
  for (int q = 0; q < 4; ++q) {
    hid_t d = H5Dopen2(file, names[q], H5P_DEFAULT);
    EXPECT(d >= 0, "dataset %s missing", names[q]);
    if (d < 0) continue;
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    hsize_t dims[3] = {0, 0, 0};
    EXPECT(H5Sget_simple_extent_ndims(space) == 3, "%s rank", names[q]);
    H5Sget_simple_extent_dims(space, dims, NULL);
    EXPECT(dims[0] == N && dims[1] == N && dims[2] == N, "%s shape (%llu, %llu, %llu)",
           names[q], (unsigned long long)dims[0], (unsigned long long)dims[1],
           (unsigned long long)dims[2]);
    EXPECT(H5Tequal(type, H5T_IEEE_F64LE) > 0, "%s is not float64", names[q]);
    hid_t dcpl = H5Dget_create_plist(d);
    EXPECT(H5Pget_layout(dcpl) == H5D_CHUNKED, "%s is not chunked", names[q]);
    EXPECT(H5Pget_nfilters(dcpl) == 0, "%s has filters", names[q]);
    H5Pclose(dcpl);
    expect_attr_string(d, "units", units[q], names[q]);
    char *desc = attr_string(d, "description");
    EXPECT(desc && desc[0], "%s has no description", names[q]);
    free(desc);
    int bad = 0;
    if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) bad = -1;
    for (int64_t c = 0; c < N * N * N && bad == 0; ++c)
      if (buf[c] != arrays[q][c]) {
        fprintf(stderr, "%s[%lld] = %.17g, expected %.17g\n", names[q], (long long)c, buf[c],
                arrays[q][c]);
        bad = 1;
      }
    EXPECT(bad == 0, "%s values differ from what was written", names[q]);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(d);
  }
  free(buf);
  H5Fclose(file);
}

static void test_snapshot(void) {
  struct fields f;
  if (fields_alloc((int64_t)N * N * N, 0, 1, &f) != IONF_OK) {
    EXPECT(0, "grid_fields_alloc");
    return;
  }
  double *arrays[4] = {f.x_ion, f.gamma_per_s, /* HI: the first species */ f.n_h_cm3, f.temperature_k};
  for (int q = 0; q < 4; ++q)
    for (int64_t c = 0; c < N * N * N; ++c) arrays[q][c] = value_of(q, c);

  char out_dir[IONF_PATH_MAX];
  join(out_dir, sizeof out_dir, tmp_root, "out/run1"); /* parent missing too */
  char yaml[] = "grid:\n  N: 8\n  box_size: 0.0081 # Mpc\nsources:\n  - {position: [1, 2, 3], "
                "Ndot: 1e50}\n";
  struct snapshot_run run = {out_dir, 2.5e22, yaml, "test.yaml"};
  struct grid g = {N, 2.5e22 / N, 0, grid_box_whole(N)};
  struct snapshot_meta meta = {3, 42, 1.5e13, -1.0, 0, 0, -1.0, 0.0, NULL, -1, 0, NULL};

  EXPECT(output_dir_prepare(out_dir) == IONF_OK, "output_dir_prepare: %s",
         ionf_error_message());
  struct stat st;
  EXPECT(stat(out_dir, &st) == 0 && S_ISDIR(st.st_mode), "output dir not created");
  EXPECT(output_dir_prepare(out_dir) == IONF_OK, "output_dir_prepare twice: %s",
         ionf_error_message());

  char path[IONF_PATH_MAX + 64], want[IONF_PATH_MAX + 64];
  join(want, sizeof want, out_dir, "snapshot_0003.h5");
  ionf_err rc = snapshot_write(&run, &g, &f, &meta, path, sizeof path);
  EXPECT(rc == IONF_OK, "snapshot_write: %s", ionf_error_message());
  EXPECT(strcmp(path, want) == 0, "path_out '%s', expected '%s'", path, want);
  check_snapshot_file(want, &f, yaml, 1.5e13, -1.0);
  EXPECT(count_tmp_files(out_dir) == 0, "a .tmp file remains");

  /* Overwrite the same index: cosmological, NULL YAML written as "". */
  meta.redshift = 6.5;
  run.config_yaml = NULL;
  rc = snapshot_write(&run, &g, &f, &meta, NULL, 0);
  EXPECT(rc == IONF_OK, "snapshot_write (overwrite): %s", ionf_error_message());
  check_snapshot_file(want, &f, "", 1.5e13, 6.5);
  EXPECT(count_tmp_files(out_dir) == 0, "a .tmp file remains after overwrite");
  run.config_yaml = yaml;

  /* A config beyond HDF5's 64 KiB limit for compact attributes. */
  size_t big_len = 100000;
  char *big = malloc(big_len + 1);
  for (size_t c = 0; c < big_len; ++c) big[c] = c % 61 == 60 ? '\n' : (char)('a' + c % 26);
  big[big_len] = '\0';
  run.config_yaml = big;
  meta.index = 5;
  rc = snapshot_write(&run, &g, &f, &meta, path, sizeof path);
  EXPECT(rc == IONF_OK, "snapshot_write (100 kB config): %s", ionf_error_message());
  hid_t file5 = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  char *cfg5 = file5 >= 0 ? attr_string(file5, "config") : NULL;
  EXPECT(cfg5 && strcmp(cfg5, big) == 0, "100 kB config attribute did not round-trip");
  free(cfg5);
  if (file5 >= 0) H5Fclose(file5);
  free(big);
  run.config_yaml = yaml;
  meta.index = 3;

  /* A failing write must leave the existing good snapshot of that name alone:
   * a directory squatting on the temporary name makes H5Fcreate fail. */
  char squat[IONF_PATH_MAX + 64];
  join(squat, sizeof squat, out_dir, ".snapshot_0003.h5.tmp");
  mkdir(squat, 0700);
  meta.time_s = 9.9e13;
  rc = snapshot_write(&run, &g, &f, &meta, path, sizeof path);
  expect_error(rc, IONF_ERR_IO, "snapshot_0003.h5", "temporary file", "write onto a directory");
  rmdir(squat);
  check_snapshot_file(want, &f, "", 1.5e13, 6.5); /* still the earlier one */

  /* Output "directory" below a regular file. */
  char afile[PATH_BUF], bad_dir[PATH_BUF + 16];
  join(afile, sizeof afile, tmp_root, "afile");
  write_text(afile, "not a directory\n");
  join(bad_dir, sizeof bad_dir, afile, "sub");
  expect_error(output_dir_prepare(bad_dir), IONF_ERR_IO, "cannot create output directory",
               bad_dir, "output_dir_prepare below a file");
  expect_error(output_dir_prepare(afile), IONF_ERR_IO, "cannot create output directory", afile,
               "output_dir_prepare on a file");
  run.output_dir = bad_dir;
  meta.index = 4;
  rc = snapshot_write(&run, &g, &f, &meta, path, sizeof path);
  expect_error(rc, IONF_ERR_IO, bad_dir, "snapshot_0004.h5", "snapshot_write below a file");

  fields_free(&f);
}

/* ---- step log -------------------------------------------------------------------- */

static void test_step_log(void) {
  char dir[IONF_PATH_MAX];
  join(dir, sizeof dir, tmp_root, "out/run1");
  struct step_log log;
  EXPECT(step_log_open(&log, dir, -1) == IONF_OK, "step_log_open: %s", ionf_error_message());
  EXPECT(step_log_row(&log, 1, 3.15576e13, 7, 0.25, 0.5, 1.25, -1.0, 1, 5e48) == IONF_OK, "row 1");
  EXPECT(step_log_row(&log, 2, 6.31152e13, 3, 0.375, 0.625, 0.5, 8.5, 0, 0.0) == IONF_OK, "row 2");
  /* Rows are flushed: readable before close. */
  FILE *f = fopen(log.path, "r");
  char line[512];
  int lines = 0;
  long long step = -1;
  int iters = -1;
  double t = 0, tmyr = 0, xv = 0, xm = 0, wall = 0, z = 0, ndot = 0;
  long long n_src = -1;
  char z_text[16] = "";
  while (f && fgets(line, sizeof line, f)) {
    ++lines;
    if (lines == 1)
      EXPECT(strcmp(line, "step,time_s,time_Myr,iterations,x_HII_mean_volume,x_HII_mean_mass,"
                          "wall_s,redshift,n_sources,Ndot_total_per_s\n") == 0,
             "header '%s'", line);
    if (lines == 2)
      EXPECT(sscanf(line, "%lld,%lf,%lf,%d,%lf,%lf,%lf,%15[^,],%lld,%lf", &step, &t, &tmyr,
                    &iters, &xv, &xm, &wall, z_text, &n_src, &ndot) == 10,
             "row '%s'", line);
    if (lines == 3)
      EXPECT(sscanf(line, "%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%lf", &z) == 1 &&
                 z == 8.5,
             "row 2: redshift in '%s'", line);
  }
  if (f) fclose(f);
  EXPECT(lines == 3, "log has %d lines, expected 3", lines);
  EXPECT(step == 1 && iters == 7 && xv == 0.25 && xm == 0.5 && wall == 1.25, "row 1 fields");
  EXPECT(strcmp(z_text, "nan") == 0 && n_src == 1 && ndot == 5e48,
         "row 1: no redshift (static run), 1 source of 5e48/s: got %s, %lld, %g", z_text, n_src,
         ndot);
  EXPECT_REL(t, 3.15576e13, 1e-9, "log time_s");
  EXPECT_REL(tmyr, 1.0, 1e-9, "log time_Myr");
  step_log_close(&log);
  step_log_close(&log); /* closing twice is harmless */
}

/* ---- density reader ---------------------------------------------------------------- */

static void test_density(void) {
  char path[PATH_BUF];
  hsize_t dims[3] = {N, N, N};
  double *data = malloc(sizeof(double) * N * N * N);
  double *out = malloc(sizeof(double) * N * N * N);
  int32_t *idata = malloc(sizeof(int32_t) * N * N * N);
  for (int64_t c = 0; c < N * N * N; ++c) {
    data[c] = 1e-4 * (double)c + 1.0 / 3.0;
    idata[c] = (int32_t)(c % 17);
  }

  join(path, sizeof path, tmp_root, "density.h5");
  h5_write_dataset(path, "/fields/n_H", H5T_NATIVE_DOUBLE, 3, dims, data, 0);
  h5_write_dataset(path, "counts", H5T_NATIVE_INT32, 3, dims, idata, 1);
  hsize_t small[3] = {N, N, 4};
  h5_write_dataset(path, "/fields/small", H5T_NATIVE_DOUBLE, 3, small, data, 1);

  ionf_err rc = io_density_read(path, "/fields/n_H", N, out);
  EXPECT(rc == IONF_OK, "io_density_read: %s", ionf_error_message());
  EXPECT(memcmp(out, data, sizeof(double) * N * N * N) == 0, "density values differ");
  rc = io_density_read(path, "fields/n_H", N, out); /* relative name */
  EXPECT(rc == IONF_OK, "io_density_read relative name: %s", ionf_error_message());
  rc = io_density_read(path, "counts", N, out); /* int32 converted to double */
  EXPECT(rc == IONF_OK, "io_density_read int32: %s", ionf_error_message());
  int bad = 0;
  for (int64_t c = 0; c < N * N * N; ++c) bad += out[c] != (double)idata[c];
  EXPECT(bad == 0, "int32 density converted wrongly in %d cells", bad);

  expect_error(io_density_read(path, "/fields/small", N, out), IONF_ERR_INPUT,
               "has shape (8, 8, 4); the grid needs (8, 8, 8)", path, "wrong shape");
  expect_error(io_density_read(path, "/nope", N, out), IONF_ERR_INPUT,
               "has no dataset '/nope'", path, "missing dataset");
  expect_error(io_density_read(path, "/nogroup/n_H", N, out), IONF_ERR_INPUT,
               "has no dataset '/nogroup/n_H'", path, "missing group");
  expect_error(io_density_read(path, "/fields", N, out), IONF_ERR_INPUT, "not a dataset", path,
               "group instead of dataset");

  /* NaN at (1, 2, 3), negative at (0, 0, 1): the first bad cell in C order is named. */
  data[grid_index(N, 1, 2, 3)] = NAN;
  h5_write_dataset(path, "/nan", H5T_NATIVE_DOUBLE, 3, dims, data, 1);
  char where[PATH_BUF + 128];
  snprintf(where, sizeof where, "%s:/nan: cell (1, 2, 3)", path);
  expect_error(io_density_read(path, "/nan", N, out), IONF_ERR_INPUT, where, "finite and >= 0",
               "NaN cell");
  data[grid_index(N, 0, 0, 1)] = -1e-5;
  h5_write_dataset(path, "/neg", H5T_NATIVE_DOUBLE, 3, dims, data, 1);
  snprintf(where, sizeof where, "%s:/neg: cell (0, 0, 1)", path);
  expect_error(io_density_read(path, "/neg", N, out), IONF_ERR_INPUT, where, "n_H = -1e-05",
               "negative cell");

  char missing[PATH_BUF], text[PATH_BUF];
  join(missing, sizeof missing, tmp_root, "no_such.h5");
  expect_error(io_density_read(missing, "/n_H", N, out), IONF_ERR_IO, "cannot open HDF5 file",
               missing, "missing file");
  join(text, sizeof text, tmp_root, "plain.txt");
  write_text(text, "this is not HDF5\n");
  expect_error(io_density_read(text, "/n_H", N, out), IONF_ERR_IO, "cannot open HDF5 file", text,
               "not an HDF5 file");

  free(data);
  free(out);
  free(idata);
}

/* ---- sources ----------------------------------------------------------------------- */

static void expect_source(const struct source_list *s, int64_t q, int i, int j, int k,
                          double ndot, const char *what) {
  EXPECT(q < s->n && s->ijk[3 * q] == i && s->ijk[3 * q + 1] == j && s->ijk[3 * q + 2] == k &&
             fabs(s->ndot_per_s[q] - ndot) <= 1e-15 * ndot,
         "%s: source %lld is (%d, %d, %d) %g, expected (%d, %d, %d) %g", what, (long long)q,
         q < s->n ? s->ijk[3 * q] : -1, q < s->n ? s->ijk[3 * q + 1] : -1,
         q < s->n ? s->ijk[3 * q + 2] : -1, q < s->n ? s->ndot_per_s[q] : 0.0, i, j, k, ndot);
}

static void test_sources_text(void) {
  char path[PATH_BUF];
  join(path, sizeof path, tmp_root, "sources.txt");
  write_text(path, "# C2-Ray style source list\n"
                   "3\n"
                   "1 1 1 1.0e52\n"
                   "\n"
                   "  8 8 8   2.5e51 1   # trailing comment\r\n"
                   "4 5 6 3.0D50\n");
  enum source_format formats[2] = {SOURCE_FORMAT_TEXT, SOURCE_FORMAT_AUTO};
  for (int q = 0; q < 2; ++q) {
    struct source_list s;
    ionf_err rc = io_sources_read(path, formats[q], &s);
    EXPECT(rc == IONF_OK, "io_sources_read text: %s", ionf_error_message());
    EXPECT(s.n == 3, "text: %lld sources", (long long)s.n);
    expect_source(&s, 0, 0, 0, 0, 1.0e52, "text");
    expect_source(&s, 1, 7, 7, 7, 2.5e51, "text");
    expect_source(&s, 2, 3, 4, 5, 3.0e50, "text");
    sources_free(&s);
  }

  struct source_list s;
  write_text(path, "3\n1 1 1 1e52\n2 2 2 1e51\nabc\n");
  char where[PATH_BUF + 128];
  snprintf(where, sizeof where, "%s:4: expected 'i j k Ndot', got 'abc'", path);
  expect_error(io_sources_read(path, SOURCE_FORMAT_AUTO, &s), IONF_ERR_INPUT, where, NULL,
               "malformed line");
  EXPECT(s.n == 0 && !s.ijk && !s.ndot_per_s, "list not emptied after an error");

  write_text(path, "3\n1 1 1 1e52\n2 2 2 1e51\n");
  expect_error(io_sources_read(path, SOURCE_FORMAT_TEXT, &s), IONF_ERR_INPUT, path,
               "announces 3 sources but the file has 2", "count mismatch (fewer)");
  write_text(path, "1\n1 1 1 1e52\n2 2 2 1e51\n");
  snprintf(where, sizeof where, "%s:3: more sources than the 1 announced", path);
  expect_error(io_sources_read(path, SOURCE_FORMAT_TEXT, &s), IONF_ERR_INPUT, where, NULL,
               "count mismatch (more)");
  write_text(path, "two\n1 1 1 1e52\n");
  snprintf(where, sizeof where, "%s:1: expected the number of sources, got 'two'", path);
  expect_error(io_sources_read(path, SOURCE_FORMAT_TEXT, &s), IONF_ERR_INPUT, where, NULL,
               "bad count");
  write_text(path, "1\n1 1 1 1e52 0 9\n");
  snprintf(where, sizeof where, "%s:2: expected 'i j k Ndot'", path);
  expect_error(io_sources_read(path, SOURCE_FORMAT_TEXT, &s), IONF_ERR_INPUT, where, NULL,
               "too many columns");

  char missing[PATH_BUF];
  join(missing, sizeof missing, tmp_root, "no_sources.txt");
  expect_error(io_sources_read(missing, SOURCE_FORMAT_AUTO, &s), IONF_ERR_IO,
               "cannot open source file", missing, "missing source file");
}

static void test_sources_hdf5(void) {
  char path[PATH_BUF];
  join(path, sizeof path, tmp_root, "sources.h5");
  int32_t pos[6] = {0, 1, 2, 7, 6, 5};
  double ndot[2] = {1e50, 2.5e51};
  hsize_t pdims[2] = {2, 3}, ndims[1] = {2};
  h5_write_dataset(path, "/sources/position", H5T_NATIVE_INT32, 2, pdims, pos, 0);
  h5_write_dataset(path, "/sources/Ndot", H5T_NATIVE_DOUBLE, 1, ndims, ndot, 1);

  struct source_list s;
  ionf_err rc = io_sources_read(path, SOURCE_FORMAT_AUTO, &s);
  EXPECT(rc == IONF_OK, "io_sources_read hdf5 (auto): %s", ionf_error_message());
  EXPECT(s.n == 2, "hdf5: %lld sources", (long long)s.n);
  expect_source(&s, 0, 0, 1, 2, 1e50, "hdf5 (0-based, unchanged)");
  expect_source(&s, 1, 7, 6, 5, 2.5e51, "hdf5");
  sources_free(&s);

  /* position with 2 columns; Ndot of the wrong length. */
  hsize_t bad_pdims[2] = {3, 2};
  h5_write_dataset(path, "/sources/position", H5T_NATIVE_INT32, 2, bad_pdims, pos, 0);
  h5_write_dataset(path, "/sources/Ndot", H5T_NATIVE_DOUBLE, 1, ndims, ndot, 1);
  expect_error(io_sources_read(path, SOURCE_FORMAT_HDF5, &s), IONF_ERR_INPUT,
               "'/sources/position'", "has shape (3, 2); expected (n, 3)", "position shape");
  hsize_t three[2] = {1, 3};
  h5_write_dataset(path, "/sources/position", H5T_NATIVE_INT32, 2, three, pos, 0);
  h5_write_dataset(path, "/sources/Ndot", H5T_NATIVE_DOUBLE, 1, ndims, ndot, 1);
  expect_error(io_sources_read(path, SOURCE_FORMAT_AUTO, &s), IONF_ERR_INPUT,
               "'/sources/Ndot'", "has shape (2); expected (1)", "Ndot length");
  h5_write_dataset(path, "/sources/position", H5T_NATIVE_INT32, 2, three, pos, 0);
  expect_error(io_sources_read(path, SOURCE_FORMAT_AUTO, &s), IONF_ERR_INPUT,
               "has no dataset '/sources/Ndot'", path, "Ndot missing");
}

static void test_sources_list(void) {
  struct source_list s;
  EXPECT(sources_alloc(4, &s) == IONF_OK, "sources_alloc");
  int32_t ijk[12] = {1, 2, 3, 0, 0, 0, 1, 2, 3, 0, 0, 200};
  double ndot[4] = {1e50, 2e50, 3e50, 4e50};
  memcpy(s.ijk, ijk, sizeof ijk);
  memcpy(s.ndot_per_s, ndot, sizeof ndot);
  EXPECT_REL(sources_total_ndot(&s), 1e51, 1e-15, "total Ndot");

  expect_error(sources_validate(&s, 128, "sources.txt"), IONF_ERR_INPUT,
               "sources.txt: source 3 at (0, 0, 200) is outside the grid (cell indices must be "
               "in 0..127)",
               NULL, "outside the grid");
  s.ijk[11] = 127;
  s.ndot_per_s[3] = -5e48;
  expect_error(sources_validate(&s, 128, "sources[3]"), IONF_ERR_INPUT,
               "sources[3]: source 3 has Ndot = -5e+48; must be finite and > 0", NULL,
               "negative Ndot");
  s.ndot_per_s[3] = NAN;
  expect_error(sources_validate(&s, 128, "x"), IONF_ERR_INPUT, "source 3 has Ndot = nan", NULL,
               "NaN Ndot");
  s.ndot_per_s[3] = 4e50;
  EXPECT(sources_validate(&s, 128, "ok") == IONF_OK, "valid list: %s", ionf_error_message());

  /* (1,2,3) twice, merged and summed; result ordered by flat cell index. */
  EXPECT(sources_merge_same_cell(&s, 128) == IONF_OK, "merge: %s", ionf_error_message());
  EXPECT(s.n == 3, "merged to %lld sources, expected 3", (long long)s.n);
  expect_source(&s, 0, 0, 0, 0, 2e50, "merge");
  expect_source(&s, 1, 0, 0, 127, 4e50, "merge");
  expect_source(&s, 2, 1, 2, 3, 4e50, "merge");
  EXPECT_REL(sources_total_ndot(&s), 1e51, 1e-15, "total Ndot after merge");
  sources_free(&s);

  EXPECT(sources_alloc(0, &s) == IONF_OK && s.n == 0, "empty list");
  EXPECT(sources_validate(&s, 8, "empty") == IONF_OK, "empty list validates");
  EXPECT(sources_merge_same_cell(&s, 8) == IONF_OK && sources_total_ndot(&s) == 0.0,
         "empty merge");
  sources_free(&s);
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/ionf_test_io_XXXXXX");
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

  test_snapshot();
  test_step_log();
  test_density();
  test_sources_text();
  test_sources_hdf5();
  test_sources_list();

  if (getenv("IONF_TEST_KEEP"))
    printf("kept %s\n", tmp_root);
  else
    nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  TEST_RETURN();
}
