/**
 * @file test_io_box.c
 * @brief Reading a box of the grid (io_field_read_box, io_density_read_box) from a
 *        7^3 dataset of known values, in a fresh temporary directory.
 *
 * 1. Boxes -- the whole grid, an interior one, one wrapping below 0 on axis 0, above n
 *    on axis 0 and on axis 2, one wrapping on every axis (8 hyperslabs) and a whole-
 *    extent one shifted across a face -- get exactly the values of the global cells
 *    they hold (lo + offset, mod n), from a contiguous and a chunked dataset and from
 *    an integer one; the whole box is bit for bit io_density_read's.
 * 2. A NaN inside the box is named by its global cell (the first bad one in the box's
 *    C order, though a negative value comes first in the grid's), with the file and
 *    dataset; a negative one likewise, in the caller's words; bad values outside the
 *    box are not read (no error).
 * 3. The shape and name checks of io_field_read hold for boxes, and a box extent
 *    outside [1, n] is refused.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "grid/grid.h"
#include "io/io_density.h"
#include "test_tmpdir.h"
#include "test_util.h"

#define N 7
#define CELLS (N * N * N)

/* The known value of global cell (i, j, k): distinct, exact in double and in int32. */
static double value_of(int64_t i, int64_t j, int64_t k) {
  return 1000.0 * (double)i + 10.0 * (double)j + (double)k + 0.25;
}

static int64_t fold(int64_t g) { return ((g % N) + N) % N; }

/* Dataset `name` of shape (N, N, N) in `path` (created when !append), chunked 3^3 when
   `chunked`. */
static void write_dataset(const char *path, const char *name, hid_t type, const void *data,
                          int append, int chunked) {
  const hsize_t dims[3] = {N, N, N}, chunk[3] = {3, 3, 3};
  hid_t file = append ? H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT)
                      : H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t space = H5Screate_simple(3, dims, NULL);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (chunked) H5Pset_chunk(dcpl, 3, chunk);
  hid_t dset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (file < 0 || dset < 0 || H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    fprintf(stderr, "test setup: cannot write %s:%s\n", path, name);
    exit(1);
  }
  H5Dclose(dset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(file);
}

static struct grid_box box_of(int64_t l0, int64_t l1, int64_t l2, int64_t e0, int64_t e1,
                              int64_t e2) {
  struct grid_box b = {{l0, l1, l2}, {e0, e1, e2}, 0};
  return b;
}

/* Cells of `out` (box b in C order) that differ from the global cells' known values. */
static int64_t wrong_cells(const struct grid_box *b, const double *out) {
  int64_t wrong = 0, c = 0;
  for (int64_t li = 0; li < b->extent[0]; ++li)
    for (int64_t lj = 0; lj < b->extent[1]; ++lj)
      for (int64_t lk = 0; lk < b->extent[2]; ++lk, ++c) {
        int64_t i = fold(b->lo[0] + li), j = fold(b->lo[1] + lj), k = fold(b->lo[2] + lk);
        wrong += out[c] != value_of(i, j, k);
      }
  return wrong;
}

/* Expect code `want` and both fragments in the message; then clear the record. */
static void expect_error(ionf_err got, ionf_err want, const char *frag1, const char *frag2,
                         const char *what) {
  const char *msg = ionf_error_message();
  EXPECT(got == want, "%s: code %d, expected %d (%s)", what, (int)got, (int)want, msg);
  EXPECT(strstr(msg, frag1) != NULL, "%s: message lacks '%s': %s", what, frag1, msg);
  EXPECT(!frag2 || strstr(msg, frag2) != NULL, "%s: message lacks '%s': %s", what, frag2, msg);
  ionf_error_clear();
}

static const struct {
  struct grid_box box;
  const char *what;
} boxes[] = {
    {{{0, 0, 0}, {N, N, N}, 0}, "whole grid"},
    {{{1, 2, 3}, {3, 4, 2}, 0}, "interior"},
    {{{-2, 1, 0}, {5, 3, N}, 1}, "wrapping below 0 on axis 0"},
    {{{4, 0, 2}, {6, N, 3}, 0}, "wrapping above n on axis 0"},
    {{{1, 3, 5}, {2, 2, 4}, 0}, "wrapping above n on axis 2"},
    {{{-1, 5, -3}, {N, 4, 5}, 1}, "wrapping on every axis"},
    {{{3, -7, 6}, {N, N, N}, 0}, "whole extent, shifted across faces"},
    {{{6, 6, 6}, {1, 1, 1}, 0}, "one cell"},
};

static void check_values(const char *path) {
  double *data = malloc(sizeof(double) * CELLS), *whole = malloc(sizeof(double) * CELLS);
  double *out = malloc(sizeof(double) * CELLS);
  int32_t *idata = malloc(sizeof(int32_t) * CELLS);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t k = 0; k < N; ++k) {
        data[grid_index(N, i, j, k)] = value_of(i, j, k);
        idata[grid_index(N, i, j, k)] = (int32_t)(4.0 * value_of(i, j, k)); /* exact */
      }
  write_dataset(path, "/n_H", H5T_NATIVE_DOUBLE, data, 0, 0);
  write_dataset(path, "/chunked", H5T_NATIVE_DOUBLE, data, 1, 1);
  write_dataset(path, "/counts", H5T_NATIVE_INT32, idata, 1, 1);

  EXPECT(io_density_read(path, "/n_H", N, whole) == IONF_OK, "io_density_read: %s",
         ionf_error_message());
  for (size_t q = 0; q < sizeof boxes / sizeof boxes[0]; ++q) {
    const struct grid_box *b = &boxes[q].box;
    const size_t bytes = sizeof(double) * (size_t)grid_box_cells(b);
    const char *sets[] = {"/n_H", "/chunked"};
    for (int s = 0; s < 2; ++s) {
      for (int64_t c = 0; c < CELLS; ++c) out[c] = -7.0;
      ionf_err rc = io_density_read_box(path, sets[s], N, b, out);
      EXPECT(rc == IONF_OK, "%s, %s: %s", boxes[q].what, sets[s], ionf_error_message());
      int64_t wrong = rc == IONF_OK ? wrong_cells(b, out) : -1;
      EXPECT(wrong == 0, "%s, %s: %lld of %lld cells differ from their global cells'",
             boxes[q].what, sets[s], (long long)wrong, (long long)grid_box_cells(b));
      int64_t spill = 0; /* nothing written past the box */
      for (int64_t c = grid_box_cells(b); c < CELLS; ++c) spill += out[c] != -7.0;
      EXPECT(spill == 0, "%s, %s: %lld values written past the box", boxes[q].what, sets[s],
             (long long)spill);
    }
    EXPECT(io_field_read_box(path, "/counts", N, b, "count", "counts", out) == IONF_OK,
           "%s, int32: %s", boxes[q].what, ionf_error_message());
    for (int64_t c = 0; c < grid_box_cells(b); ++c) out[c] *= 0.25; /* exact */
    EXPECT(wrong_cells(b, out) == 0, "%s: int32 values differ", boxes[q].what);
    if (grid_box_is_whole(b, N)) {
      EXPECT(io_density_read_box(path, "/n_H", N, b, out) == IONF_OK &&
                 memcmp(out, whole, bytes) == 0,
             "the whole box differs from io_density_read");
    }
  }
  EXPECT(memcmp(whole, data, sizeof(double) * CELLS) == 0, "io_density_read's values differ");
  free(data);
  free(whole);
  free(out);
  free(idata);
}

static void check_bad_values(const char *path) {
  double *data = malloc(sizeof(double) * CELLS), *out = malloc(sizeof(double) * CELLS);
  for (int64_t c = 0; c < CELLS; ++c) data[c] = 1.0;
  /* the grid's first bad cell is (0, 1, 0); box 2's C order (axis 0: 5, 6, 0, 1, 2)
     meets (6, 2, 3) first */
  data[grid_index(N, 6, 2, 3)] = NAN;
  data[grid_index(N, 0, 1, 0)] = -0.5;
  write_dataset(path, "/bad", H5T_NATIVE_DOUBLE, data, 1, 0);
  char where[800];

  struct grid_box b = boxes[2].box; /* wrapping below 0 on axis 0: holds both */
  snprintf(where, sizeof where, "%s:/bad: cell (6, 2, 3) has n_H = ", path);
  expect_error(io_density_read_box(path, "/bad", N, &b, out), IONF_ERR_INPUT, where,
               "nan; densities must be finite and >= 0", "NaN inside a wrapped box");
  b = box_of(-7, 1, 0, 1, 1, 1); /* the image of (0, 1, 0) alone */
  snprintf(where, sizeof where, "%s:/bad: cell (0, 1, 0) has x_HII = -0.5; ionized fractions",
           path);
  expect_error(io_field_read_box(path, "/bad", N, &b, "x_HII", "ionized fractions", out),
               IONF_ERR_INPUT, where, "finite and >= 0", "negative value in a one-cell image");
  b = box_of(5, 2, 1, 4, 3, 3); /* wraps on axis 0 to i = 0, but j 2..4 misses (0, 1, 0) */
  snprintf(where, sizeof where, "%s:/bad: cell (6, 2, 3)", path);
  expect_error(io_density_read_box(path, "/bad", N, &b, out), IONF_ERR_INPUT, where, NULL,
               "NaN in a box wrapping above n");

  const struct grid_box clean[] = {boxes[1].box, boxes[4].box, box_of(1, 3, -2, 5, 5, 4),
                                   box_of(-6, 0, 4, 6, N, 1)};
  for (size_t q = 0; q < sizeof clean / sizeof clean[0]; ++q) {
    for (int64_t c = 0; c < CELLS; ++c) out[c] = -7.0;
    ionf_err rc = io_density_read_box(path, "/bad", N, &clean[q], out);
    EXPECT(rc == IONF_OK, "box %zu misses the bad cells, yet: %s", q, ionf_error_message());
    int64_t ones = 0;
    for (int64_t c = 0; c < grid_box_cells(&clean[q]); ++c) ones += out[c] == 1.0;
    EXPECT(ones == grid_box_cells(&clean[q]), "box %zu: %lld of %lld cells read as 1", q,
           (long long)ones, (long long)grid_box_cells(&clean[q]));
    ionf_error_clear();
  }
  free(data);
  free(out);
}

static void check_refusals(const char *path) {
  double *out = malloc(sizeof(double) * CELLS);
  struct grid_box b = boxes[3].box;
  expect_error(io_density_read_box(path, "/nope", N, &b, out), IONF_ERR_INPUT,
               "has no dataset '/nope'", path, "missing dataset");
  expect_error(io_density_read_box(path, "/n_H", N + 1, &b, out), IONF_ERR_INPUT,
               "has shape (7, 7, 7); the grid needs (8, 8, 8)", path, "wrong shape");
  b = box_of(0, 0, 0, N + 1, 1, 1);
  expect_error(io_density_read_box(path, "/n_H", N, &b, out), IONF_ERR_INTERNAL,
               "box extent 8 on axis 0", NULL, "extent over n");
  b = box_of(0, 0, 0, 1, 1, 0);
  expect_error(io_density_read_box(path, "/n_H", N, &b, out), IONF_ERR_INTERNAL,
               "box extent 0 on axis 2", NULL, "empty extent");
  expect_error(io_density_read_box(path, "/n_H", N, NULL, out), IONF_ERR_INTERNAL,
               "bad arguments", NULL, "no box");
  free(out);
}

int main(void) {
  char dir[512], path[600];
  if (!test_tmpdir_make(dir, sizeof dir, "io_box")) return 1;
  snprintf(path, sizeof path, "%s/field.h5", dir);
  check_values(path);
  check_bad_values(path);
  check_refusals(path);
  EXPECT(test_tmpdir_remove(dir), "cannot remove %s", dir);
  TEST_RETURN();
}
