/**
 * @file h5_util.c
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#include "h5_util.h"

#include <stdio.h>
#include <string.h>

struct h5_err_walk {
  char desc[512];
  int found;
};

/* Upward walks start at the innermost frame, which carries the real reason. */
static herr_t h5_err_walk_cb(unsigned n, const H5E_error2_t *err, void *data) {
  (void)n;
  struct h5_err_walk *w = data;
  if (!w->found && err->desc && err->desc[0]) {
    snprintf(w->desc, sizeof w->desc, "%s", err->desc);
    w->found = 1;
  }
  return 0;
}

void h5_util_error_text(char *buf, size_t size) {
  struct h5_err_walk w;
  memset(&w, 0, sizeof w);
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_err_walk_cb, &w);
  snprintf(buf, size, "%s", w.found ? w.desc : "unknown HDF5 error");
}

int h5_util_path_exists(hid_t file, const char *name) {
  char buf[1024];
  size_t len = strlen(name);
  if (len == 0 || len >= sizeof buf) return 0;
  memcpy(buf, name, len + 1);
  /* H5Lexists fails, rather than answering 0, when a parent group is missing */
  for (size_t c = 1; c <= len; ++c) {
    if (buf[c] != '/' && buf[c] != '\0') continue;
    if (buf[c - 1] == '/') continue;
    char saved = buf[c];
    buf[c] = '\0';
    htri_t there = H5Lexists(file, buf, H5P_DEFAULT);
    buf[c] = saved;
    if (there <= 0) return 0;
  }
  /* "/" alone names the root group, not a dataset. */
  return strspn(name, "/") != len;
}

ionf_err h5_util_open_table(hid_t file, const char *path, const char *kind, const char *name,
                            int want_rank, int integer_only, hid_t *dset, hsize_t *dims) {
  *dset = H5I_INVALID_HID;
  IONF_CHECK(h5_util_path_exists(file, name), IONF_ERR_INPUT, "%s '%s' has no dataset '%s'",
             kind, path, name);
  hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
  if (d < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    int plain = strcmp(detail, "not a dataset") == 0;
    return ionf_error_set(IONF_ERR_INPUT, "'%s' in %s '%s' is not a dataset%s%s%s", name, kind,
                          path, plain ? "" : " (", plain ? "" : detail, plain ? "" : ")");
  }
  hid_t space = H5Dget_space(d), type = H5Dget_type(d);
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  hsize_t got[H5S_MAX_RANK];
  if (rank > 0) H5Sget_simple_extent_dims(space, got, NULL);
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);

  ionf_err rc = IONF_OK;
  if (rank != want_rank || (want_rank == 2 && got[1] != 3)) {
    char shape[128] = "()";
    int used = 0;
    for (int r = 0; r < rank && used < (int)sizeof shape - 24; ++r)
      used += snprintf(shape + used, sizeof shape - (size_t)used, "%s%llu", r ? ", " : "(",
                       (unsigned long long)got[r]);
    if (rank > 0) snprintf(shape + used, sizeof shape - (size_t)used, ")");
    rc = ionf_error_set(IONF_ERR_INPUT, "dataset '%s' in %s '%s' has shape %s; expected %s",
                        name, kind, path, shape, want_rank == 2 ? "(n, 3)" : "(n)");
  } else if (cls != H5T_INTEGER && (integer_only || cls != H5T_FLOAT)) {
    rc = ionf_error_set(IONF_ERR_INPUT, "dataset '%s' in %s '%s' must hold %s (HDF5 type class %d)",
                        name, kind, path, integer_only ? "integers" : "numbers", (int)cls);
  }
  if (rc != IONF_OK) {
    H5Dclose(d);
    return rc;
  }
  for (int r = 0; r < rank; ++r) dims[r] = got[r];
  *dset = d;
  return IONF_OK;
}
