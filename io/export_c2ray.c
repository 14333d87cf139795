/**
 * @file export_c2ray.c
 * @brief Writing and reading C2-Ray's Fortran unformatted grid files
 *        (layout in export_c2ray.h).
 *
 * The transposition between our C order and Fortran order goes through a
 * buffer of EXPORT_C2RAY_BLOCK planes of constant k: for each (i, j) the block's
 * k values are contiguous in the C-order array, so every cache line read (or
 * written) is used whole, and the buffer stays small (26 MB at the largest n a
 * float64 file can hold).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/export_c2ray.h"
#include "io/output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The largest byte count an int32 record marker holds. */
#define EXPORT_C2RAY_MAX_RECORD_BYTES 2147483647LL
/* Planes of constant k transposed at a time (8 doubles = one 64-byte line). */
#define EXPORT_C2RAY_BLOCK 8
/* Every n past this gives a record over 2^31 - 1 bytes even in float32, so
 * checking it first keeps n^3 * size from overflowing. */
#define EXPORT_C2RAY_N_LIMIT 2048

/* Bytes of the data record for n^3 values of `elem` bytes, as a double (for
 * messages; exact below 2^53). */
static double export_c2ray_record_bytes_f(int64_t n, size_t elem) {
  return (double)n * (double)n * (double)n * (double)elem;
}

/* 1 when the data record of n^3 values of `elem` bytes fits an int32 marker;
 * then *bytes is its size. */
static int export_c2ray_record_fits(int64_t n, size_t elem, int64_t *bytes) {
  if (n <= 0 || n > EXPORT_C2RAY_N_LIMIT) return 0;
  int64_t b = n * n * n * (int64_t)elem;
  if (b > EXPORT_C2RAY_MAX_RECORD_BYTES) return 0;
  *bytes = b;
  return 1;
}

/* ---- writing --------------------------------------------------------------------- */

/* Fill `buf` with planes k0 .. k0+nk-1 of the C-order field in Fortran order
 * (position i + n*j + n*n*(k - k0)), as float64 or float32. */
static void export_c2ray_pack(const double *field, int64_t n, int64_t k0, int64_t nk,
                              void *buf, int as_float32) {
  const int64_t plane = n * n;
  double *b64 = (double *)buf;
  float *b32 = (float *)buf;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double *src = field + (i * n + j) * n + k0;
      const int64_t pos = i + n * j;
      if (as_float32) {
        for (int64_t kk = 0; kk < nk; ++kk) b32[pos + plane * kk] = (float)src[kk];
      } else {
        for (int64_t kk = 0; kk < nk; ++kk) b64[pos + plane * kk] = src[kk];
      }
    }
  }
}

/* Write everything to the open temporary file; 0 on success, else errno (or EIO). */
static int export_c2ray_write_records(FILE *f, int64_t n, const double *field, int as_float32,
                                      int32_t record_bytes, void *buf) {
  const size_t elem = as_float32 ? sizeof(float) : sizeof(double);
  const int32_t header[5] = {12, (int32_t)n, (int32_t)n, (int32_t)n, 12};
  errno = 0;
  if (fwrite(header, sizeof header[0], 5, f) != 5) return errno ? errno : EIO;
  if (fwrite(&record_bytes, sizeof record_bytes, 1, f) != 1) return errno ? errno : EIO;
  for (int64_t k0 = 0; k0 < n; k0 += EXPORT_C2RAY_BLOCK) {
    const int64_t nk = (n - k0 < EXPORT_C2RAY_BLOCK) ? n - k0 : EXPORT_C2RAY_BLOCK;
    const size_t count = (size_t)(n * n * nk);
    export_c2ray_pack(field, n, k0, nk, buf, as_float32);
    if (fwrite(buf, elem, count, f) != count) return errno ? errno : EIO;
  }
  if (fwrite(&record_bytes, sizeof record_bytes, 1, f) != 1) return errno ? errno : EIO;
  if (fflush(f) != 0) return errno ? errno : EIO;
  /* on storage before the rename makes the file visible */
  if (fsync(fileno(f)) != 0) return errno ? errno : EIO;
  return 0;
}

ionf_err export_c2ray_write(const char *path, int64_t n, const double *field_c_order,
                            int as_float32) {
  IONF_CHECK(path && path[0], IONF_ERR_INPUT, "cannot write a C2-Ray file: no file name given");
  IONF_CHECK(n > 0, IONF_ERR_INPUT, "cannot write C2-Ray file '%s': grid size n = %lld is not positive",
             path, (long long)n);
  const size_t elem = as_float32 ? sizeof(float) : sizeof(double);
  int64_t record_bytes = 0;
  IONF_CHECK(export_c2ray_record_fits(n, elem, &record_bytes), IONF_ERR_UNSUPPORTED,
             "cannot write C2-Ray file '%s': n = %lld gives a data record of %.0f bytes (n^3 %s "
             "values), more than the 2^31 - 1 bytes an int32 Fortran record marker can hold; "
             "C2-Ray's gfortran would split such a record into subrecords, which this writer "
             "does not produce (largest n: 645 in float64, 812 in float32)",
             path, (long long)n, export_c2ray_record_bytes_f(n, elem),
             as_float32 ? "float32" : "float64");
  IONF_CHECK(field_c_order, IONF_ERR_INPUT, "cannot write C2-Ray file '%s': no field given", path);

  const size_t path_len = strlen(path);
  char *tmp = ionf_malloc(path_len + 5, "C2-Ray export temporary file name");
  if (!tmp) return IONF_ERR_MEM;
  memcpy(tmp, path, path_len);
  memcpy(tmp + path_len, ".tmp", 5);

  const int64_t nk = n < EXPORT_C2RAY_BLOCK ? n : EXPORT_C2RAY_BLOCK;
  void *buf = ionf_malloc((size_t)(n * n * nk) * elem, "C2-Ray export transposition buffer");
  if (!buf) {
    free(tmp);
    return IONF_ERR_MEM;
  }

  ionf_err rc = IONF_OK;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    rc = ionf_error_set(IONF_ERR_IO, "cannot write C2-Ray file '%s': cannot create '%s': %s", path,
                        tmp, strerror(errno));
    goto done;
  }
  int err = export_c2ray_write_records(f, n, field_c_order, as_float32, (int32_t)record_bytes, buf);
  errno = 0;
  if (fclose(f) != 0 && err == 0) err = errno ? errno : EIO;
  if (err != 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write C2-Ray file '%s': writing '%s': %s", path, tmp,
                        strerror(err));
  rc = output_file_commit(rc, tmp, path, "C2-Ray file");
done:
  free(buf);
  free(tmp);
  return rc;
}

/* ---- reading --------------------------------------------------------------------- */

/* Read exactly `count` items of `size` bytes; a short read is IONF_ERR_IO on a
 * read error, IONF_ERR_INPUT (truncated file) at the end of the file. */
static ionf_err export_c2ray_fread(void *dst, size_t size, size_t count, FILE *f,
                                   const char *path, const char *what) {
  errno = 0;
  if (fread(dst, size, count, f) == count) return IONF_OK;
  if (ferror(f))
    return ionf_error_set(IONF_ERR_IO, "cannot read C2-Ray file '%s': reading %s: %s", path, what,
                          strerror(errno ? errno : EIO));
  return ionf_error_set(IONF_ERR_INPUT, "C2-Ray file '%s' is truncated: it ends inside %s", path,
                        what);
}

/* Swap the bytes of a 32-bit value (to recognise big-endian files). */
static uint32_t export_c2ray_bswap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* Scatter planes k0 .. k0+nk-1 from Fortran order in `buf` into the C-order field. */
static void export_c2ray_unpack(double *field, int64_t n, int64_t k0, int64_t nk,
                                const void *buf, int as_float32) {
  const int64_t plane = n * n;
  const double *b64 = (const double *)buf;
  const float *b32 = (const float *)buf;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double *dst = field + (i * n + j) * n + k0;
      const int64_t pos = i + n * j;
      if (as_float32) {
        for (int64_t kk = 0; kk < nk; ++kk) dst[kk] = (double)b32[pos + plane * kk];
      } else {
        for (int64_t kk = 0; kk < nk; ++kk) dst[kk] = b64[pos + plane * kk];
      }
    }
  }
}

/* The checks and the data, on an open file; *field set only on success. */
static ionf_err export_c2ray_read_open(FILE *f, const char *path, int as_float32, int64_t *n_out,
                                       double **field_out) {
  const size_t elem = as_float32 ? sizeof(float) : sizeof(double);
  const size_t other = as_float32 ? sizeof(double) : sizeof(float);
  const char *type = as_float32 ? "float32" : "float64";

  int32_t header[5];
  IONF_CALL(export_c2ray_fread(header, sizeof header[0], 5, f, path,
                               "the first record (the grid dimensions)"));
  IONF_CHECK(export_c2ray_bswap32((uint32_t)header[0]) != 12u, IONF_ERR_UNSUPPORTED,
             "C2-Ray file '%s' was written in the other byte order (big-endian); convert it first",
             path);
  IONF_CHECK(header[0] == 12 && header[4] == 12, IONF_ERR_INPUT,
             "'%s' is not a C2-Ray grid file: the first record's markers are %ld and %ld, "
             "expected 12 and 12 (three int32 grid dimensions)",
             path, (long)header[0], (long)header[4]);
  IONF_CHECK(header[1] > 0 && header[2] > 0 && header[3] > 0, IONF_ERR_INPUT,
             "C2-Ray file '%s': grid dimensions %ld x %ld x %ld are not positive", path,
             (long)header[1], (long)header[2], (long)header[3]);
  IONF_CHECK(header[1] == header[2] && header[2] == header[3], IONF_ERR_UNSUPPORTED,
             "C2-Ray file '%s': the grid is %ld x %ld x %ld; only cubic grids are supported",
             path, (long)header[1], (long)header[2], (long)header[3]);
  const int64_t n = header[1];

  int32_t marker = 0;
  IONF_CALL(export_c2ray_fread(&marker, sizeof marker, 1, f, path,
                               "the second record's opening marker"));
  IONF_CHECK(marker >= 0, IONF_ERR_UNSUPPORTED,
             "C2-Ray file '%s': the data record is split into gfortran subrecords (marker %ld); "
             "only records under 2^31 bytes are supported",
             path, (long)marker);
  int64_t expected = 0;
  IONF_CHECK(export_c2ray_record_fits(n, elem, &expected), IONF_ERR_INPUT,
             "C2-Ray file '%s': a %lld^3 grid of %s values needs a %.0f-byte record, "
             "but the file's record marker says %ld bytes",
             path, (long long)n, type, export_c2ray_record_bytes_f(n, elem), (long)marker);
  IONF_CHECK(!((double)marker == export_c2ray_record_bytes_f(n, other)), IONF_ERR_INPUT,
             "C2-Ray file '%s': the data record holds %ld bytes, %s values for n = %lld, "
             "but %s values were asked for (%lld bytes)",
             path, (long)marker, as_float32 ? "float64" : "float32", (long long)n, type,
             (long long)expected);
  IONF_CHECK(marker == expected, IONF_ERR_INPUT,
             "C2-Ray file '%s': the data record holds %ld bytes, expected %lld (n = %lld, %s)",
             path, (long)marker, (long long)expected, (long long)n, type);

  double *field = ionf_malloc((size_t)(n * n * n) * sizeof(double), "C2-Ray field");
  if (!field) return IONF_ERR_MEM;
  const int64_t nk_max = n < EXPORT_C2RAY_BLOCK ? n : EXPORT_C2RAY_BLOCK;
  void *buf = ionf_malloc((size_t)(n * n * nk_max) * elem, "C2-Ray read transposition buffer");
  if (!buf) {
    free(field);
    return IONF_ERR_MEM;
  }
  ionf_err rc = IONF_OK;
  for (int64_t k0 = 0; k0 < n && rc == IONF_OK; k0 += EXPORT_C2RAY_BLOCK) {
    const int64_t nk = (n - k0 < EXPORT_C2RAY_BLOCK) ? n - k0 : EXPORT_C2RAY_BLOCK;
    rc = export_c2ray_fread(buf, elem, (size_t)(n * n * nk), f, path, "the data record");
    if (rc == IONF_OK) export_c2ray_unpack(field, n, k0, nk, buf, as_float32);
  }
  free(buf);
  int32_t closing = 0;
  if (rc == IONF_OK)
    rc = export_c2ray_fread(&closing, sizeof closing, 1, f, path,
                            "the data record's closing marker");
  if (rc == IONF_OK && closing != marker)
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "C2-Ray file '%s': the data record's closing marker is %ld, its opening "
                        "marker %ld",
                        path, (long)closing, (long)marker);
  if (rc == IONF_OK && fgetc(f) != EOF)
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "C2-Ray file '%s': unexpected data after the second record (a C2-Ray "
                        "grid file holds the dimensions and one data record)",
                        path);
  if (rc != IONF_OK) {
    free(field);
    return rc;
  }
  *n_out = n;
  *field_out = field;
  return IONF_OK;
}

ionf_err export_c2ray_read(const char *path, int64_t *n_out, double **field_c_order_out,
                           int as_float32) {
  IONF_CHECK(n_out && field_c_order_out, IONF_ERR_INTERNAL,
             "export_c2ray_read: no place for the result");
  *n_out = 0;
  *field_c_order_out = NULL;
  IONF_CHECK(path && path[0], IONF_ERR_INPUT, "cannot read a C2-Ray file: no file name given");
  FILE *f = fopen(path, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open C2-Ray file '%s': %s", path, strerror(errno));
  ionf_err rc = export_c2ray_read_open(f, path, as_float32, n_out, field_c_order_out);
  fclose(f);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

/* ---- names ----------------------------------------------------------------------- */

void export_c2ray_name(char *buf, size_t size, const char *dir, const char *stem,
                       double redshift, double time_myr) {
  if (!buf || size == 0) return;
  const char *d = dir ? dir : "";
  const char *sep = (d[0] && d[strlen(d) - 1] != '/') ? "/" : "";
  const char *s = stem ? stem : "";
  if (redshift >= 0.0)
    snprintf(buf, size, "%s%s%s_%.3f.bin", d, sep, s, redshift);
  else
    snprintf(buf, size, "%s%s%s_t%.3fMyr.bin", d, sep, s, time_myr);
}
