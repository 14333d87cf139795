/**
 * @file vtkhdf.c
 * @brief VTKHDF ImageData sidecar of a grid snapshot (see vtkhdf.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/vtkhdf.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5_util.h"
#include "io/output_file.h"

/* 1 when the name can be a link name and an HDF5 path component: not empty, no '/'. */
static int vtkhdf_name_ok(const char *name) {
  if (!name || !name[0]) return 0;
  for (const char *c = name; *c; ++c)
    if (*c == '/' || (unsigned char)*c < 0x20) return 0;
  return 1;
}

/* "ImageData" as VTK's reader wants it: a fixed-length ASCII string attribute. */
static int vtkhdf_put_type(hid_t group, const char *type_name) {
  hid_t type = H5Tcopy(H5T_C_S1);
  int ok = type >= 0 && H5Tset_size(type, strlen(type_name)) >= 0 &&
           H5Tset_strpad(type, H5T_STR_NULLPAD) >= 0 &&
           h5_util_attr_put(group, "Type", type, type, 0, type_name);
  if (type >= 0) H5Tclose(type);
  return ok;
}

/* /VTKHDF's attributes and its PointData links; 1 on success (HDF5's reason on its stack). */
static int vtkhdf_write_body(hid_t file, const char *h5_base, int64_t n, double box_size,
                             const char *length_unit, double time, const char *const *datasets,
                             int n_datasets) {
  const double dx = box_size / (double)n;
  const int64_t version[2] = {1, 0};
  const int64_t extent[6] = {0, n - 1, 0, n - 1, 0, n - 1};
  const double origin[3] = {0.5 * dx, 0.5 * dx, 0.5 * dx}, spacing[3] = {dx, dx, dx};
  const double direction[9] = {0, 0, 1, 0, 1, 0, 1, 0, 0}; /* VTK's I (our k) is z */
  hid_t root = H5Gcreate2(file, "VTKHDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (root < 0) return 0;
  int ok = h5_util_attr_put(root, "Version", H5T_STD_I64LE, H5T_NATIVE_INT64, 2, version) &&
           vtkhdf_put_type(root, "ImageData") &&
           h5_util_attr_put(root, "WholeExtent", H5T_STD_I64LE, H5T_NATIVE_INT64, 6, extent) &&
           h5_util_attr_put(root, "Origin", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, origin) &&
           h5_util_attr_put(root, "Spacing", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, spacing) &&
           h5_util_attr_put(root, "Direction", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 9, direction);
  if (ok && length_unit && length_unit[0]) ok = h5_util_attr_put_string(root, "length_unit", length_unit);
  hid_t points = ok ? H5Gcreate2(root, "PointData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && points >= 0;
  char target[256];
  for (int d = 0; ok && d < n_datasets; ++d) {
    snprintf(target, sizeof target, "/Grid/%s", datasets[d]);
    ok = H5Lcreate_external(h5_base, target, points, datasets[d], H5P_DEFAULT, H5P_DEFAULT) >= 0;
  }
  if (points >= 0) H5Gclose(points);
  hid_t fields = ok ? H5Gcreate2(root, "FieldData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && fields >= 0;
  const hsize_t one = 1;
  if (ok) ok = h5_util_put_dataset(fields, "TimeValue", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &one, &time);
  if (fields >= 0) H5Gclose(fields);
  H5Gclose(root);
  return ok;
}

ionf_err vtkhdf_write_sidecar(const char *h5_path, int64_t n, double box_size,
                              const char *length_unit, double time, const char *const *datasets,
                              int n_datasets) {
  IONF_CHECK(h5_path && h5_path[0], IONF_ERR_INPUT, "cannot write a VTKHDF file: no snapshot name");
  IONF_CHECK(n > 0, IONF_ERR_INPUT,
             "cannot write the VTKHDF file of '%s': grid size n = %lld is not positive", h5_path,
             (long long)n);
  IONF_CHECK(isfinite(box_size) && box_size > 0.0, IONF_ERR_INPUT,
             "cannot write the VTKHDF file of '%s': box size %g is not positive and finite",
             h5_path, box_size);
  IONF_CHECK(isfinite(time), IONF_ERR_INPUT,
             "cannot write the VTKHDF file of '%s': time %g is not finite", h5_path, time);
  IONF_CHECK(n_datasets >= 0 && (n_datasets == 0 || datasets), IONF_ERR_INPUT,
             "cannot write the VTKHDF file of '%s': no dataset list (%d datasets)", h5_path,
             n_datasets);
  for (int d = 0; d < n_datasets; ++d)
    IONF_CHECK(vtkhdf_name_ok(datasets[d]) && strlen(datasets[d]) < 200, IONF_ERR_INPUT,
               "cannot write the VTKHDF file of '%s': dataset name %d ('%s') is empty, too long "
               "or holds '/' or a control character",
               h5_path, d, datasets[d] ? datasets[d] : "(null)");

  const size_t len = strlen(h5_path);
  const size_t stem = (len > 3 && strcmp(h5_path + len - 3, ".h5") == 0) ? len - 3 : len;
  char *path = ionf_malloc(2 * (stem + 16), "VTKHDF file names");
  if (!path) return IONF_ERR_MEM;
  char *tmp = path + stem + 16;
  memcpy(path, h5_path, stem);
  memcpy(path + stem, ".vtk.hdf", 9);
  const char *slash = strrchr(h5_path, '/');
  const char *h5_base = slash ? slash + 1 : h5_path;

  struct h5_util_quiet quiet;
  hid_t file;
  ionf_err rc = h5_util_create_temp(path, "VTKHDF file", tmp, stem + 16, &quiet, &file);
  if (rc == IONF_OK) {
    int ok = vtkhdf_write_body(file, h5_base, n, box_size, length_unit, time, datasets, n_datasets);
    rc = h5_util_close_temp(file, ok, &quiet, "VTKHDF file", path);
    rc = output_file_commit(rc, tmp, path, "VTKHDF file");
  }
  free(path);
  return rc;
}
