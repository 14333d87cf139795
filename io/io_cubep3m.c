/**
 * @file io_cubep3m.c
 * @brief CubeP3M / C²-Ray density files (io_cubep3m.h): header and size checks, and the
 *        cells of a box read row by row.
 */
#define _POSIX_C_SOURCE 200809L /* fseeko, fileno */

#include "io/io_cubep3m.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "grid/grid.h"

#define CUBEP3M_HEADER_BYTES 12

/* Little-endian 32-bit words, whatever the host's byte order. */
static uint32_t cubep3m_le32(const unsigned char *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t cubep3m_swap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static double cubep3m_float(const unsigned char *b) {
  uint32_t u = cubep3m_le32(b);
  float f;
  memcpy(&f, &u, sizeof f);
  return (double)f;
}

static int64_t cubep3m_wrap(int64_t g, int64_t n) {
  int64_t m = g % n;
  return m < 0 ? m + n : m;
}

/* The header and the size of the open file `f`. */
static ionf_err cubep3m_check_open(FILE *f, const char *file, int64_t n) {
  unsigned char head[CUBEP3M_HEADER_BYTES];
  struct stat st;
  IONF_CHECK(fstat(fileno(f), &st) == 0, IONF_ERR_IO, "cannot read CubeP3M density file '%s': %s",
             file, strerror(errno));
  IONF_CHECK(fread(head, 1, sizeof head, f) == sizeof head, IONF_ERR_INPUT,
             "CubeP3M density file '%s' has %lld bytes: too short for its header of 3 int32 "
             "(the mesh)",
             file, (long long)st.st_size);
  int32_t mesh[3];
  int swapped = 1;
  for (int a = 0; a < 3; ++a) {
    uint32_t u = cubep3m_le32(head + 4 * a);
    memcpy(&mesh[a], &u, sizeof u);
    swapped = swapped && (int64_t)cubep3m_swap32(u) == n;
  }
  IONF_CHECK(!(swapped && mesh[0] != n), IONF_ERR_INPUT,
             "CubeP3M density file '%s': its header reads (%d, %d, %d) little-endian and "
             "(%lld, %lld, %lld) big-endian: a big-endian file, which ionfront does not read "
             "(convert it to little-endian)",
             file, mesh[0], mesh[1], mesh[2], (long long)n, (long long)n, (long long)n);
  IONF_CHECK(mesh[0] == n && mesh[1] == n && mesh[2] == n, IONF_ERR_INPUT,
             "CubeP3M density file '%s': its header (3 int32) gives the mesh (%d, %d, %d); "
             "grid.N is %lld (no resampling: the mesh must be %lld^3)",
             file, mesh[0], mesh[1], mesh[2], (long long)n, (long long)n);
  long long want = CUBEP3M_HEADER_BYTES + 4LL * n * n * n;
  IONF_CHECK((long long)st.st_size == want, IONF_ERR_INPUT,
             "CubeP3M density file '%s' has %lld bytes; a %lld^3 mesh needs 12 + 4 x %lld^3 = "
             "%lld (3 int32, then float32 values)",
             file, (long long)st.st_size, (long long)n, (long long)n, want);
  return IONF_OK;
}

/* One file row (y = j, z = k: n values, x fastest) into `row` (4 n bytes); *at is the
   file position, kept so that consecutive rows are read without a seek. */
static ionf_err cubep3m_read_row(FILE *f, const char *file, int64_t n, int64_t j, int64_t k,
                                 unsigned char *row, long long *at) {
  long long offset = CUBEP3M_HEADER_BYTES + 4LL * n * (j + n * k);
  if (offset != *at)
    IONF_CHECK(fseeko(f, (off_t)offset, SEEK_SET) == 0, IONF_ERR_IO,
               "cannot read CubeP3M density file '%s' at byte %lld: %s", file, offset,
               strerror(errno));
  IONF_CHECK(fread(row, 4, (size_t)n, f) == (size_t)n, IONF_ERR_IO,
             "cannot read CubeP3M density file '%s': the row y = %lld, z = %lld ends early%s%s",
             file, (long long)j, (long long)k, ferror(f) ? ": " : "",
             ferror(f) ? strerror(errno) : "");
  *at = offset + 4LL * n;
  return IONF_OK;
}

/* The box's cells, z planes then y rows in file order; the first bad value stops it. */
static ionf_err cubep3m_read_cells(FILE *f, const char *file, int64_t n,
                                   const struct grid_box *box, double *out) {
  unsigned char *row = malloc((size_t)n * 4);
  IONF_CHECK(row, IONF_ERR_MEM, "out of memory for a row of CubeP3M density file '%s'", file);
  const int64_t *lo = box->lo, *ext = box->extent;
  long long at = CUBEP3M_HEADER_BYTES;
  ionf_err rc = IONF_OK;
  for (int64_t lk = 0; rc == IONF_OK && lk < ext[2]; ++lk) {
    int64_t k = cubep3m_wrap(lo[2] + lk, n);
    for (int64_t lj = 0; rc == IONF_OK && lj < ext[1]; ++lj) {
      int64_t j = cubep3m_wrap(lo[1] + lj, n);
      rc = cubep3m_read_row(f, file, n, j, k, row, &at);
      for (int64_t li = 0; rc == IONF_OK && li < ext[0]; ++li) {
        int64_t i = cubep3m_wrap(lo[0] + li, n);
        double v = cubep3m_float(row + 4 * i);
        if (!(isfinite(v) && v >= 0.0))
          rc = ionf_error_set(IONF_ERR_INPUT,
                              "CubeP3M density file '%s': cell (%lld, %lld, %lld) has density "
                              "%g; densities must be finite and >= 0",
                              file, (long long)i, (long long)j, (long long)k, v);
        out[(li * ext[1] + lj) * ext[2] + lk] = v;
      }
    }
  }
  free(row);
  return rc;
}

/* Open, check, and read the box when `out` is given. */
static ionf_err cubep3m_run(const char *file, int64_t n, const struct grid_box *box, double *out) {
  IONF_CHECK(file && n > 0 && n <= 1 << 20, IONF_ERR_INTERNAL,
             "io_cubep3m: bad arguments (n = %lld)", (long long)n);
  FILE *f = fopen(file, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open CubeP3M density file '%s': %s", file, strerror(errno));
  ionf_err rc = cubep3m_check_open(f, file, n);
  if (rc == IONF_OK && out) rc = cubep3m_read_cells(f, file, n, box, out);
  fclose(f);
  return rc;
}

ionf_err io_cubep3m_check(const char *file, int64_t n) { return cubep3m_run(file, n, NULL, NULL); }

ionf_err io_cubep3m_read_box(const char *file, int64_t n, const struct grid_box *box,
                             double *out) {
  IONF_CHECK(box && out, IONF_ERR_INTERNAL, "io_cubep3m_read_box: no box or no output");
  for (int a = 0; a < 3; ++a)
    IONF_CHECK(box->extent[a] >= 1 && box->extent[a] <= n, IONF_ERR_INTERNAL,
               "io_cubep3m_read_box: box extent %lld on axis %d of a %lld^3 grid (1 to %lld)",
               (long long)box->extent[a], a, (long long)n, (long long)n);
  return cubep3m_run(file, n, box, out);
}
