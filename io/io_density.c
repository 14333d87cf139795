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



/* Shape, type and read; on success `out` holds the n^3 values as doubles (out NULL:
   only the checks). */
static ionf_err density_read_dataset(hid_t file, const char *path, const char *dataset,
                                     int64_t n, double *out) {
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
  /* HDF5 converts any integer or float type to native double on the way in. */
  if (out && H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from '%s': %s", dataset, path,
                        detail);
    goto done;
  }
done:
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (dset >= 0) H5Dclose(dset);
  return rc;
}

ionf_err io_density_read(const char *file, const char *dataset, int64_t n, double *out) {
  return io_field_read(file, dataset, n, "n_H", "densities", out);
}

ionf_err io_density_check(const char *file, const char *dataset, int64_t n) {
  return io_field_read(file, dataset, n, "n_H", "densities", NULL);
}

ionf_err io_field_read(const char *file, const char *dataset, int64_t n, const char *what,
                       const char *plural, double *out) {
  IONF_CHECK(file && dataset && n > 0, IONF_ERR_INTERNAL,
             "io_field_read: bad arguments (n = %lld)", (long long)n);

  struct h5_util_quiet quiet;
  hid_t fid;
  IONF_CALL(h5_util_open_read(file, "HDF5 file", &quiet, &fid));
  ionf_err rc = IONF_OK;
  if (!h5_util_path_exists(fid, dataset))
    rc = ionf_error_set(IONF_ERR_INPUT, "HDF5 file '%s' has no dataset '%s'", file, dataset);
  else
    rc = density_read_dataset(fid, file, dataset, n, out);
  h5_util_close_read(fid, &quiet);
  if (rc != IONF_OK || !out) return rc;

  /* The first bad cell in C order, so the message points at one place to look. */
  const int64_t cells = grid_cells(n);
  for (int64_t c = 0; c < cells; ++c) {
    double v = out[c];
    if (isfinite(v) && v >= 0.0) continue;
    int64_t i = c / (n * n), j = (c / n) % n, k = c % n;
    return ionf_error_set(IONF_ERR_INPUT,
                          "%s:%s: cell (%lld, %lld, %lld) has %s = %g; %s must be "
                          "finite and >= 0",
                          file, dataset, (long long)i, (long long)j, (long long)k, what, v,
                          plural);
  }
  return IONF_OK;
}
