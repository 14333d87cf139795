/**
 * @file io_density.c
 * @brief Reading a 3D scalar field (n_H) from an HDF5 dataset, with checks that
 *        name the file, the dataset and the first bad cell.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/io_density.h"

#include "io/h5_util.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grid/grid.h"



/* Global cell g of an axis of n cells, folded into [0, n) (a periodic image). */
static int64_t density_wrap(int64_t g, int64_t n) {
  int64_t m = g % n;
  return m < 0 ? m + n : m;
}

/* One axis of a box as at most two runs of file cells in [0, n) (extent <= n, so a
   wrapping axis splits once): run r is count[r] cells from file cell start[r], at box
   offset local[r]. */
struct density_axis_runs {
  int runs;
  hsize_t start[2], count[2], local[2];
};

static void density_axis_split(int64_t lo, int64_t extent, int64_t n,
                               struct density_axis_runs *r) {
  int64_t first = density_wrap(lo, n);
  int64_t head = n - first < extent ? n - first : extent;
  r->runs = 1;
  r->start[0] = (hsize_t)first;
  r->count[0] = (hsize_t)head;
  r->local[0] = 0;
  if (head < extent) {
    r->runs = 2;
    r->start[1] = 0;
    r->count[1] = (hsize_t)(extent - head);
    r->local[1] = (hsize_t)head;
  }
}

/* The box's cells of dataset `dset` into `out` (the box in C order): one hyperslab read
   per combination of the axes' runs (1 for a box that does not wrap, at most 8), each
   from its file block into its block of the box, so nothing outside the box is read.
   HDF5 converts any integer or float type to native double on the way in. */
static ionf_err density_read_box(hid_t dset, const char *path, const char *dataset, int64_t n,
                                 const struct grid_box *box, double *out) {
  struct density_axis_runs ax[3];
  hsize_t mdims[3];
  for (int a = 0; a < 3; ++a) {
    density_axis_split(box->lo[a], box->extent[a], n, &ax[a]);
    mdims[a] = (hsize_t)box->extent[a];
  }
  hid_t fspace = H5Dget_space(dset);
  hid_t mspace = fspace >= 0 ? H5Screate_simple(3, mdims, NULL) : H5I_INVALID_HID;
  int ok = fspace >= 0 && mspace >= 0;
  for (int p = 0; ok && p < ax[0].runs * ax[1].runs * ax[2].runs; ++p) {
    const int r[3] = {p / (ax[1].runs * ax[2].runs), (p / ax[2].runs) % ax[1].runs,
                      p % ax[2].runs};
    hsize_t fstart[3], mstart[3], count[3];
    for (int a = 0; a < 3; ++a) {
      fstart[a] = ax[a].start[r[a]];
      mstart[a] = ax[a].local[r[a]];
      count[a] = ax[a].count[r[a]];
    }
    ok = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, fstart, NULL, count, NULL) >= 0 &&
         H5Sselect_hyperslab(mspace, H5S_SELECT_SET, mstart, NULL, count, NULL) >= 0 &&
         H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, out) >= 0;
  }
  ionf_err rc = IONF_OK;
  if (!ok) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from '%s': %s", dataset, path,
                        detail);
  }
  if (mspace >= 0) H5Sclose(mspace);
  if (fspace >= 0) H5Sclose(fspace);
  return rc;
}

/* Shape, type and read; on success `out` holds the box's values as doubles (out NULL:
   only the checks). */
static ionf_err density_read_dataset(hid_t file, const char *path, const char *dataset,
                                     int64_t n, const struct grid_box *box, double *out) {
  ionf_err rc = IONF_OK;
  char detail[512];
  hid_t dset = H5I_INVALID_HID, space = H5I_INVALID_HID, type = H5I_INVALID_HID;

  dset = H5Dopen2(file, dataset, H5P_DEFAULT);
  if (dset < 0) {
    /* Usually a group; HDF5 then only says "not a dataset", which adds nothing. */
    h5_util_error_text(detail, sizeof detail);
    int plain = strcmp(detail, "not a dataset") == 0;
    rc = ionf_error_set(IONF_ERR_INPUT, "'%s' in HDF5 file '%s' is not a dataset%s%s%s", dataset,
                        path, plain ? "" : " (", plain ? "" : detail, plain ? "" : ")");
    goto done;
  }
  space = H5Dget_space(dset);
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank < 0) {
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read the shape of dataset '%s' in '%s': %s",
                        dataset, path, detail);
    goto done;
  }
  if (rank != 3) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' has %d dimension(s); the grid needs 3, shape "
                        "(%lld, %lld, %lld)",
                        dataset, path, rank, (long long)n, (long long)n, (long long)n);
    goto done;
  }
  hsize_t dims[3];
  H5Sget_simple_extent_dims(space, dims, NULL);
  if (dims[0] != (hsize_t)n || dims[1] != (hsize_t)n || dims[2] != (hsize_t)n) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' has shape (%llu, %llu, %llu); the grid needs "
                        "(%lld, %lld, %lld)",
                        dataset, path, (unsigned long long)dims[0], (unsigned long long)dims[1],
                        (unsigned long long)dims[2], (long long)n, (long long)n, (long long)n);
    goto done;
  }
  type = H5Dget_type(dset);
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' does not hold numbers (HDF5 type class %d); "
                        "it must be an integer or floating-point array",
                        dataset, path, (int)cls);
    goto done;
  }
  if (out) rc = density_read_box(dset, path, dataset, n, box, out);
done:
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (dset >= 0) H5Dclose(dset);
  return rc;
}

ionf_err io_density_read(const char *file, const char *dataset, int64_t n, double *out) {
  const struct grid_box whole = grid_box_whole(n);
  return io_field_read_box(file, dataset, n, &whole, "n_H", "densities", out);
}

ionf_err io_density_read_box(const char *file, const char *dataset, int64_t n,
                             const struct grid_box *box, double *out) {
  return io_field_read_box(file, dataset, n, box, "n_H", "densities", out);
}

ionf_err io_density_check(const char *file, const char *dataset, int64_t n) {
  return io_field_read(file, dataset, n, "n_H", "densities", NULL);
}

ionf_err io_field_read(const char *file, const char *dataset, int64_t n, const char *what,
                       const char *plural, double *out) {
  const struct grid_box whole = grid_box_whole(n);
  return io_field_read_box(file, dataset, n, &whole, what, plural, out);
}

/* The first bad value in the box's C order (for the whole box, the grid's), named by
   its global cell, so the message points at one place to look in the file. */
static ionf_err field_check_values(const char *file, const char *dataset, int64_t n,
                                   const struct grid_box *box, const char *what,
                                   const char *plural, const double *out) {
  const int64_t *lo = box->lo, *ext = box->extent;
  int64_t c = 0;
  for (int64_t li = 0; li < ext[0]; ++li)
    for (int64_t lj = 0; lj < ext[1]; ++lj)
      for (int64_t lk = 0; lk < ext[2]; ++lk, ++c) {
        double v = out[c];
        if (isfinite(v) && v >= 0.0) continue;
        int64_t i = density_wrap(lo[0] + li, n), j = density_wrap(lo[1] + lj, n),
                k = density_wrap(lo[2] + lk, n);
        return ionf_error_set(IONF_ERR_INPUT,
                              "%s:%s: cell (%lld, %lld, %lld) has %s = %g; %s must be "
                              "finite and >= 0",
                              file, dataset, (long long)i, (long long)j, (long long)k, what, v,
                              plural);
      }
  return IONF_OK;
}

ionf_err io_field_read_box(const char *file, const char *dataset, int64_t n,
                           const struct grid_box *box, const char *what, const char *plural,
                           double *out) {
  IONF_CALL(io_field_read_box_any(file, dataset, n, box, out));
  if (!out) return IONF_OK;
  return field_check_values(file, dataset, n, box, what, plural, out);
}

ionf_err io_field_read_box_any(const char *file, const char *dataset, int64_t n,
                               const struct grid_box *box, double *out) {
  IONF_CHECK(file && dataset && n > 0 && box, IONF_ERR_INTERNAL,
             "io_field_read_box: bad arguments (n = %lld)", (long long)n);
  for (int a = 0; a < 3; ++a)
    IONF_CHECK(box->extent[a] >= 1 && box->extent[a] <= n, IONF_ERR_INTERNAL,
               "io_field_read_box: box extent %lld on axis %d of a %lld^3 grid (1 to %lld)",
               (long long)box->extent[a], a, (long long)n, (long long)n);

  struct h5_util_quiet quiet;
  hid_t fid;
  IONF_CALL(h5_util_open_read(file, "HDF5 file", &quiet, &fid));
  ionf_err rc = IONF_OK;
  if (!h5_util_path_exists(fid, dataset))
    rc = ionf_error_set(IONF_ERR_INPUT, "HDF5 file '%s' has no dataset '%s'", file, dataset);
  else
    rc = density_read_dataset(fid, file, dataset, n, box, out);
  h5_util_close_read(fid, &quiet);
  return rc;
}
