/**
 * @file test_io_cubep3m.c
 * @brief CubeP3M density files (io/io_cubep3m): the layout, boxes and refusals, on 5^3
 *        files written byte by byte here (little-endian), in a temporary directory.
 *
 * 1. Layout: the file's value number x + n (y + n z) (Fortran order, after the 3-int32
 *    header) is ionfront's cell (i, j, k) = (x, y, z), read exactly (float32 to double).
 * 2. Boxes -- the whole grid, an interior one, one wrapping below 0 and above n on every
 *    axis, a whole-extent one shifted across a face -- get exactly the values of the
 *    global cells they hold (lo + offset, mod n).
 * 3. Refusals, each naming the file: a missing file, a header of another mesh (naming
 *    both meshes and grid.N), a big-endian header, a file one float short or one long,
 *    a file shorter than its header, a NaN and a negative value (naming the global cell:
 *    inside the box; outside the box not read, so no error), a box extent outside [1, n].
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "grid/grid.h"
#include "io/io_cubep3m.h"
#include "test_tmpdir.h"
#include "test_util.h"

#define N 5
#define CELLS (N * N * N)

/* The known value of cell (x, y, z): distinct and exact in float32. */
static float value_of(int64_t x, int64_t y, int64_t z) {
  return (float)(100.0 * (double)x + 10.0 * (double)y + (double)z + 0.5);
}

static int64_t fold(int64_t g) { return ((g % N) + N) % N; }

static void put_le32(FILE *f, uint32_t u) {
  unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                        (unsigned char)(u >> 24)};
  fwrite(b, 1, 4, f);
}

/* A file with header (h0, h1, h2) (big-endian when `swap`), then `count` values in
   Fortran order (of the N^3 mesh; past N^3 zeros), cell `bad` (index x + N(y + N z), -1
   none) set to `bad_value`. */
static void write_file(const char *path, int32_t h0, int32_t h1, int32_t h2, int swap, long count,
                       long bad, float bad_value) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "test setup: cannot write %s\n", path);
    exit(1);
  }
  const int32_t h[3] = {h0, h1, h2};
  for (int a = 0; a < 3; ++a) {
    uint32_t u = (uint32_t)h[a];
    if (swap) u = (u >> 24) | ((u >> 8) & 0xff00u) | ((u << 8) & 0xff0000u) | (u << 24);
    put_le32(f, u);
  }
  for (long c = 0; c < count; ++c) {
    float v = 0.0f;
    if (c < CELLS) v = value_of(c % N, (c / N) % N, c / (N * N));
    if (c == bad) v = bad_value;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    put_le32(f, u);
  }
  fclose(f);
}

/* The box (lo, extent per axis) read from `path` holds exactly the global cells' values. */
static void check_box(const char *path, int64_t l0, int64_t l1, int64_t l2, int64_t e0,
                      int64_t e1, int64_t e2) {
  struct grid_box box = {{l0, l1, l2}, {e0, e1, e2}, 0};
  double *out = malloc((size_t)(e0 * e1 * e2) * sizeof *out);
  ionf_err rc = io_cubep3m_read_box(path, N, &box, out);
  EXPECT(rc == IONF_OK, "box lo (%lld %lld %lld) extent (%lld %lld %lld): %s", (long long)l0,
         (long long)l1, (long long)l2, (long long)e0, (long long)e1, (long long)e2,
         ionf_error_message());
  int64_t wrong = 0, c = 0;
  for (int64_t a = 0; rc == IONF_OK && a < e0; ++a)
    for (int64_t b = 0; b < e1; ++b)
      for (int64_t d = 0; d < e2; ++d, ++c)
        wrong += out[c] != (double)value_of(fold(l0 + a), fold(l1 + b), fold(l2 + d));
  EXPECT(wrong == 0, "box lo (%lld %lld %lld): %lld cell(s) differ from the file's",
         (long long)l0, (long long)l1, (long long)l2, (long long)wrong);
  free(out);
  ionf_error_clear();
}

/* `rc` is `want` and the message holds both texts. */
static void check_refused(ionf_err rc, ionf_err want, const char *what, const char *t1,
                          const char *t2) {
  const char *m = ionf_error_message();
  EXPECT(rc == want, "%s: code %d, expected %d (%s)", what, (int)rc, (int)want, m);
  EXPECT(strstr(m, t1) && strstr(m, t2), "%s: message '%s' lacks '%s' or '%s'", what, m, t1, t2);
  ionf_error_clear();
}

int main(void) {
  char dir[512];
  if (!test_tmpdir_make(dir, sizeof dir, "test_io_cubep3m")) return 1;
  char good[600], path[600];
  snprintf(good, sizeof good, "%s/9.000n_all.dat", dir);
  write_file(good, N, N, N, 0, CELLS, -1, 0.0f);

  /* 1. layout: the whole grid in C order of (i, j, k) = (x, y, z) */
  EXPECT(io_cubep3m_check(good, N) == IONF_OK, "check: %s", ionf_error_message());
  double whole[CELLS];
  struct grid_box all = grid_box_whole(N);
  EXPECT(io_cubep3m_read_box(good, N, &all, whole) == IONF_OK, "whole: %s", ionf_error_message());
  EXPECT(whole[grid_index(N, 3, 1, 4)] == 314.5 && whole[grid_index(N, 0, 4, 2)] == 42.5,
         "cell (3,1,4) = %g (want 314.5), (0,4,2) = %g (want 42.5)",
         whole[grid_index(N, 3, 1, 4)], whole[grid_index(N, 0, 4, 2)]);

  /* 2. boxes */
  check_box(good, 0, 0, 0, N, N, N);
  check_box(good, 1, 2, 1, 3, 2, 3);
  check_box(good, -2, -1, 3, 4, 3, 4); /* below 0 on axes 0, 1; above n on axis 2 */
  check_box(good, 3, 4, -3, N, 2, N);  /* whole extents shifted across a face */
  check_box(good, -4, 2, 0, 1, 1, 1);

  /* 3. refusals */
  snprintf(path, sizeof path, "%s/none.dat", dir);
  check_refused(io_cubep3m_check(path, N), IONF_ERR_IO, "missing file", path, "No such file");
  snprintf(path, sizeof path, "%s/mesh.dat", dir);
  write_file(path, N, N, N + 1, 0, CELLS, -1, 0.0f);
  check_refused(io_cubep3m_check(path, N), IONF_ERR_INPUT, "other mesh", path,
                "mesh (5, 5, 6); grid.N is 5");
  snprintf(path, sizeof path, "%s/big.dat", dir);
  write_file(path, N, N, N, 1, CELLS, -1, 0.0f);
  check_refused(io_cubep3m_check(path, N), IONF_ERR_INPUT, "big-endian", path, "big-endian");
  snprintf(path, sizeof path, "%s/short.dat", dir);
  write_file(path, N, N, N, 0, CELLS - 1, -1, 0.0f);
  check_refused(io_cubep3m_check(path, N), IONF_ERR_INPUT, "short", path,
                "has 508 bytes; a 5^3 mesh needs 12 + 4 x 5^3 = 512");
  snprintf(path, sizeof path, "%s/long.dat", dir);
  write_file(path, N, N, N, 0, CELLS + 1, -1, 0.0f);
  check_refused(io_cubep3m_read_box(path, N, &all, whole), IONF_ERR_INPUT, "long", path,
                "has 516 bytes");
  snprintf(path, sizeof path, "%s/head.dat", dir);
  FILE *f = fopen(path, "wb");
  put_le32(f, N);
  fclose(f);
  check_refused(io_cubep3m_check(path, N), IONF_ERR_INPUT, "no header", path,
                "too short for its header");

  /* a NaN at cell (x, y, z) = (1, 2, 3) and a negative value at (4, 0, 0) */
  snprintf(path, sizeof path, "%s/nan.dat", dir);
  write_file(path, N, N, N, 0, CELLS, 1 + N * (2 + N * 3), NAN);
  EXPECT(io_cubep3m_check(path, N) == IONF_OK, "values are not checked without reading: %s",
         ionf_error_message());
  check_refused(io_cubep3m_read_box(path, N, &all, whole), IONF_ERR_INPUT, "NaN", path,
                "cell (1, 2, 3) has density nan");
  struct grid_box away = {{2, 0, 0}, {2, N, N}, 0}; /* i in 2..3: the NaN is not in it */
  EXPECT(io_cubep3m_read_box(path, N, &away, whole) == IONF_OK, "a NaN outside the box: %s",
         ionf_error_message());
  ionf_error_clear();
  snprintf(path, sizeof path, "%s/neg.dat", dir);
  write_file(path, N, N, N, 0, CELLS, 4, -1.0f);
  struct grid_box wrap = {{3, 0, 0}, {3, 1, 1}, 0}; /* i = 3, 4, 0 */
  check_refused(io_cubep3m_read_box(path, N, &wrap, whole), IONF_ERR_INPUT, "negative", path,
                "cell (4, 0, 0) has density -1");
  struct grid_box wide = {{0, 0, 0}, {N + 1, 1, 1}, 0};
  EXPECT(io_cubep3m_read_box(good, N, &wide, whole) == IONF_ERR_INTERNAL,
         "a box extent above n is refused");
  ionf_error_clear();

  test_tmpdir_remove(dir);
  if (test_failures) fprintf(stderr, "%d failure(s)\n", test_failures);
  else printf("CubeP3M files: layout, 5 boxes, 9 refusals: ok\n");
  return test_failures ? 1 : 0;
}
