/**
 * @file test_exports.c
 * @brief Exports for other codes: C2-Ray grid files (round trip, byte layout,
 *        names, errors), the 21-cm brightness temperature (viewer sidecars:
 *        test_sidecars.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "io/export_c2ray.h"
#include "cosmo/tb21.h"
#include "cosmo/tb21_k.h"
#include "test_util.h"

#define N 5
#define NCELL (N * N * N)

static char tmp_dir[64];

/* Whole file into a malloc'd buffer (NULL on failure). */
static unsigned char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)*size + 1);
  if (buf && fread(buf, 1, (size_t)*size, f) != (size_t)*size) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[*size] = 0;
  fclose(f);
  return buf;
}

static int32_t get_i32(const unsigned char *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* A value per cell, distinct, not representable in float32. */
static double cell_value(int i, int j, int k) {
  return 1.0 + 100.0 * i + 10.0 * j + k + 1.0 / 3.0 + 1e-9 * ((i * N + j) * N + k);
}

static void test_c2ray_precision(const double *field, int as_float32) {
  char path[128];
  snprintf(path, sizeof path, "%s/field_%s.bin", tmp_dir, as_float32 ? "f32" : "f64");
  ionf_error_clear();
  EXPECT(export_c2ray_write(path, N, field, as_float32) == IONF_OK, "write: %s",
         ionf_error_message());
  char tmp[160];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  EXPECT(!file_exists(tmp), "temporary file '%s' left behind", tmp);

  /* bytes: 12 | 5 5 5 | 12 | B | data | B */
  const long elem = as_float32 ? 4 : 8;
  const long bytes = NCELL * elem;
  long size = 0;
  unsigned char *raw = slurp(path, &size);
  EXPECT(raw != NULL, "cannot read back '%s'", path);
  if (!raw) return;
  EXPECT(size == 20 + 4 + bytes + 4, "file size %ld, expected %ld", size, 28 + bytes);
  if (size == 28 + bytes) {
    EXPECT(get_i32(raw + 0) == 12, "first marker %d", get_i32(raw + 0));
    EXPECT(get_i32(raw + 4) == N && get_i32(raw + 8) == N && get_i32(raw + 12) == N,
           "dims %d %d %d", get_i32(raw + 4), get_i32(raw + 8), get_i32(raw + 12));
    EXPECT(get_i32(raw + 16) == 12, "header closing marker %d", get_i32(raw + 16));
    EXPECT(get_i32(raw + 20) == bytes, "data marker %d, expected %ld", get_i32(raw + 20), bytes);
    EXPECT(get_i32(raw + 24 + bytes) == bytes, "trailing marker %d",
           get_i32(raw + 24 + bytes));
    /* Fortran order: (i,j,k) at i + n j + n^2 k; check a few known elements */
    const int probe[4][3] = {{0, 0, 0}, {1, 0, 0}, {3, 1, 2}, {4, 2, 1}};
    for (int p = 0; p < 4; ++p) {
      const int i = probe[p][0], j = probe[p][1], k = probe[p][2];
      const long pos = i + N * j + (long)N * N * k;
      const unsigned char *at = raw + 24 + pos * elem;
      double got;
      if (as_float32) {
        float v;
        memcpy(&v, at, sizeof v);
        got = v;
        EXPECT(got == (double)(float)cell_value(i, j, k), "f32 element (%d,%d,%d) = %.9g", i, j,
               k, got);
      } else {
        memcpy(&got, at, sizeof got);
        EXPECT(got == cell_value(i, j, k), "f64 element (%d,%d,%d) = %.17g", i, j, k, got);
      }
    }
    /* element (1,0,0) is the second value in the file, (0,1,0) the sixth */
    if (!as_float32) {
      double second, sixth;
      memcpy(&second, raw + 24 + 8, 8);
      memcpy(&sixth, raw + 24 + 5 * 8, 8);
      EXPECT(second == field[(1 * N + 0) * N + 0], "second value %.17g", second);
      EXPECT(sixth == field[(0 * N + 1) * N + 0], "sixth value %.17g", sixth);
    }
  }
  free(raw);

  /* round trip */
  int64_t n_back = 0;
  double *back = NULL;
  ionf_error_clear();
  EXPECT(export_c2ray_read(path, &n_back, &back, as_float32) == IONF_OK, "read: %s",
         ionf_error_message());
  EXPECT(n_back == N, "n read back %lld", (long long)n_back);
  if (back && n_back == N) {
    int bad = 0;
    for (int c = 0; c < NCELL; ++c) {
      const double want = as_float32 ? (double)(float)field[c] : field[c];
      if (back[c] != want) ++bad;
    }
    EXPECT(bad == 0, "%d of %d values differ after the %s round trip", bad, NCELL,
           as_float32 ? "float32" : "float64");
  }
  free(back);

  /* the wrong precision is refused, naming the file */
  back = NULL;
  ionf_error_clear();
  EXPECT(export_c2ray_read(path, &n_back, &back, !as_float32) == IONF_ERR_INPUT,
         "reading with the wrong precision should fail");
  EXPECT(back == NULL, "no field on failure");
  EXPECT(strstr(ionf_error_message(), path) != NULL, "message names the file: %s",
         ionf_error_message());
  EXPECT(strstr(ionf_error_message(), as_float32 ? "float32 values for n" : "float64 values for n") != NULL,
         "message says what the file holds: %s", ionf_error_message());
}

/* Corrupt one int32 of a copy of a good file, and the reader must refuse it. */
static void test_c2ray_corrupt(const char *good, long offset, int32_t value, const char *what) {
  long size = 0;
  unsigned char *raw = slurp(good, &size);
  EXPECT(raw != NULL, "cannot read '%s'", good);
  if (!raw) return;
  char bad[128];
  snprintf(bad, sizeof bad, "%s/corrupt.bin", tmp_dir);
  if (offset >= 0) {
    memcpy(raw + offset, &value, sizeof value);
  } else {
    size += offset; /* truncate */
  }
  FILE *f = fopen(bad, "wb");
  EXPECT(f && fwrite(raw, 1, (size_t)size, f) == (size_t)size, "cannot write '%s'", bad);
  if (f) fclose(f);
  free(raw);
  int64_t n = -1;
  double *field = NULL;
  ionf_error_clear();
  const ionf_err rc = export_c2ray_read(bad, &n, &field, 0);
  EXPECT(rc == IONF_ERR_INPUT || rc == IONF_ERR_UNSUPPORTED, "%s: accepted (rc %d)", what, rc);
  EXPECT(field == NULL, "%s: field returned", what);
  EXPECT(strstr(ionf_error_message(), bad) != NULL, "%s: message names the file: %s", what,
         ionf_error_message());
  free(field);
  unlink(bad);
}

static void test_c2ray(void) {
  double field[NCELL];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) field[(i * N + j) * N + k] = cell_value(i, j, k);
  test_c2ray_precision(field, 0);
  test_c2ray_precision(field, 1);

  char good[128];
  snprintf(good, sizeof good, "%s/field_f64.bin", tmp_dir);
  const long data_end = 24 + NCELL * 8;
  test_c2ray_corrupt(good, 0, 13, "first marker");
  test_c2ray_corrupt(good, 16, 11, "header closing marker");
  test_c2ray_corrupt(good, 8, 4, "non-cubic dims");
  test_c2ray_corrupt(good, 20, NCELL * 8 - 8, "data marker");
  test_c2ray_corrupt(good, data_end, NCELL * 8 + 8, "trailing marker");
  test_c2ray_corrupt(good, -4, 0, "truncated");
  test_c2ray_corrupt(good, 0, 0x0C000000, "big-endian");

  /* missing file: IONF_ERR_IO naming it */
  int64_t n = 0;
  double *none = NULL;
  char missing[128];
  snprintf(missing, sizeof missing, "%s/no_such.bin", tmp_dir);
  ionf_error_clear();
  EXPECT(export_c2ray_read(missing, &n, &none, 0) == IONF_ERR_IO, "missing file");
  EXPECT(strstr(ionf_error_message(), missing) != NULL, "names the file: %s",
         ionf_error_message());

  /* unwritable place: IONF_ERR_IO naming the path, nothing left behind */
  char nodir[128], nodir_tmp[160];
  snprintf(nodir, sizeof nodir, "%s/no_dir/x.bin", tmp_dir);
  snprintf(nodir_tmp, sizeof nodir_tmp, "%s.tmp", nodir);
  ionf_error_clear();
  EXPECT(export_c2ray_write(nodir, N, field, 0) == IONF_ERR_IO, "write into a missing directory");
  EXPECT(strstr(ionf_error_message(), nodir) != NULL, "names the path: %s", ionf_error_message());
  EXPECT(!file_exists(nodir_tmp), "temporary file left behind");

  /* records past 2^31 - 1 bytes: refused before touching the data */
  const int64_t too_big[2] = {646, 813}; /* float64, float32 */
  for (int p = 0; p < 2; ++p) {
    char big[128];
    snprintf(big, sizeof big, "%s/big.bin", tmp_dir);
    ionf_error_clear();
    EXPECT(export_c2ray_write(big, too_big[p], field, p) == IONF_ERR_UNSUPPORTED,
           "n = %lld in %s should be unsupported", (long long)too_big[p], p ? "float32" : "float64");
    const char *msg = ionf_error_message();
    EXPECT(strstr(msg, big) && strstr(msg, "subrecord"), "message names the file and "
           "subrecords: %s", msg);
    char nstr[16];
    snprintf(nstr, sizeof nstr, "%lld", (long long)too_big[p]);
    EXPECT(strstr(msg, nstr) != NULL, "message names n: %s", msg);
    EXPECT(!file_exists(big), "nothing written");
  }
  ionf_error_clear();
  EXPECT(export_c2ray_write(good, 0, field, 0) == IONF_ERR_INPUT, "n = 0");
  ionf_error_clear();
}

static void test_names(void) {
  char buf[256];
  export_c2ray_name(buf, sizeof buf, "out", "xfrac3D", 8.636, 123.0);
  EXPECT(strcmp(buf, "out/xfrac3D_8.636.bin") == 0, "got '%s'", buf);
  export_c2ray_name(buf, sizeof buf, "out/", "IonRates3D", 10.0, 0.0);
  EXPECT(strcmp(buf, "out/IonRates3D_10.000.bin") == 0, "got '%s'", buf);
  export_c2ray_name(buf, sizeof buf, "out", "xfrac3D", -1.0, 12.5);
  EXPECT(strcmp(buf, "out/xfrac3D_t12.500Myr.bin") == 0, "got '%s'", buf);
  export_c2ray_name(buf, sizeof buf, "", "Temper3D", -1.0, 500.0);
  EXPECT(strcmp(buf, "Temper3D_t500.000Myr.bin") == 0, "got '%s'", buf);
  export_c2ray_name(buf, 8, "out", "xfrac3D", 8.636, 0.0); /* truncated, terminated */
  EXPECT(strcmp(buf, "out/xfr") == 0, "got '%s'", buf);
}

static void test_tb21(void) {
  const double om = 0.27, ob = 0.043, h = 0.7, z = 9.0;
  /* independent: (1+z)/10 = 1 at z = 9, h^2 = 0.49 */
  const double expected = 27.0 * sqrt(0.15 / (0.27 * 0.49)) * (0.043 * 0.49 / 0.023);
  EXPECT_REL(tb21_dtb_mk(0.0, 1.0, om, ob, h, z), expected, 1e-14, "neutral mean-density cell");
  EXPECT(fabs(expected - 26.337) < 0.001, "expected value %.6f (about 26.337 mK)", expected);
  EXPECT(tb21_dtb_mk(1.0, 1.0, om, ob, h, z) == 0.0, "fully ionized cell");
  EXPECT(tb21_dtb_mk(1.0, 3.7, om, ob, h, z) == 0.0, "fully ionized overdense cell");
  EXPECT_REL(tb21_dtb_mk(0.25, 2.0, om, ob, h, z), expected * 0.75 * 2.0, 1e-14,
             "x = 0.25, 1 + delta = 2");
  /* (1+z)^(1/2) scaling: z = 19 is sqrt(2) times z = 9 */
  EXPECT_REL(tb21_dtb_mk(0.0, 1.0, om, ob, h, 19.0), expected * sqrt(2.0), 1e-14, "z scaling");

  /* the field: a uniform neutral medium is the neutral mean-density value */
  const int64_t nc = 1000;
  double *x = malloc((size_t)nc * sizeof *x), *nh = malloc((size_t)nc * sizeof *nh);
  double *out = malloc((size_t)nc * sizeof *out);
  EXPECT(x && nh && out, "allocation");
  if (x && nh && out) {
    for (int64_t c = 0; c < nc; ++c) {
      x[c] = 0.0;
      nh[c] = 2e-4;
    }
    tb21_field(nc, x, nh, om, ob, h, z, out);
    int bad = 0;
    for (int64_t c = 0; c < nc; ++c) bad += fabs(out[c] - expected) > 1e-13 * expected;
    EXPECT(bad == 0, "%d cells of a uniform neutral medium differ from %.12g", bad, expected);

    /* varied cells: the field matches the per-cell function with n_H / mean(n_H) */
    double sum = 0.0;
    for (int64_t c = 0; c < nc; ++c) {
      x[c] = (double)(c % 11) / 10.0; /* 0, 0.1, ..., 1 */
      nh[c] = 1e-4 * (1.0 + 0.9 * sin(0.37 * (double)c));
      sum += nh[c];
    }
    const double mean = sum / (double)nc;
    tb21_field(nc, x, nh, om, ob, h, z, out);
    bad = 0;
    int zeros = 0;
    for (int64_t c = 0; c < nc; ++c) {
      const double want = tb21_dtb_mk(x[c], nh[c] / mean, om, ob, h, z);
      if (!(test_abs_diff(out[c], want) <= 1e-12 * fabs(want) + 1e-300)) ++bad; /* NaN: bad */
      if (x[c] == 1.0) zeros += out[c] != 0.0;
    }
    EXPECT(bad == 0, "%d cells differ from the per-cell function", bad);
    EXPECT(zeros == 0, "%d ionized cells are not 0", zeros);

    /* no density field: uniform medium */
    tb21_field(nc, x, NULL, om, ob, h, z, out);
    bad = 0;
    for (int64_t c = 0; c < nc; ++c)
      bad += fabs(out[c] - tb21_dtb_mk(x[c], 1.0, om, ob, h, z)) > 1e-14 * expected;
    EXPECT(bad == 0, "%d cells differ with n_h = NULL", bad);
  }
  free(x);
  free(nh);
  free(out);
}

int main(void) {
  snprintf(tmp_dir, sizeof tmp_dir, "/tmp/ionf_test_exports_XXXXXX");
  if (!mkdtemp(tmp_dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_c2ray();
  test_names();
  test_tb21();

  /* clean up */
  const char *files[] = {"field_f64.bin", "field_f32.bin"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
    char p[128];
    snprintf(p, sizeof p, "%s/%s", tmp_dir, files[f]);
    unlink(p);
  }
  EXPECT(rmdir(tmp_dir) == 0, "temporary directory '%s' not empty", tmp_dir);
  TEST_RETURN();
}
