/**
 * @file h5_util.c
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#define _POSIX_C_SOURCE 200809L /* unlink */
#include "io/h5_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void h5_util_quiet_begin(struct h5_util_quiet *q) {
  q->saved = H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) >= 0;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void h5_util_quiet_end(const struct h5_util_quiet *q) {
  if (q->saved) H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
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

/* The reason of a failed call, taken off HDF5's error stack before the cleanup
   (every HDF5 API call clears the stack on entry), to be put back after it. */
static hid_t h5_util_reason_save(void) { return H5Eget_current_stack(); }

static void h5_util_reason_restore(hid_t reason) {
  if (reason >= 0) H5Eset_current_stack(reason);
}

/* Create attribute `name` of type `file_type` on `space` and write `value` to it. */
static int h5_util_attr_write(hid_t obj, const char *name, hid_t file_type, hid_t space,
                              hid_t mem_type, const void *value) {
  hid_t attr = H5Acreate2(obj, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
  int ok = attr >= 0 && H5Awrite(attr, mem_type, value) >= 0;
  hid_t reason = ok ? H5I_INVALID_HID : h5_util_reason_save();
  if (attr >= 0 && H5Aclose(attr) < 0 && ok) {
    ok = 0;
    reason = h5_util_reason_save();
  }
  h5_util_reason_restore(reason);
  return ok;
}

int h5_util_attr_put(hid_t obj, const char *name, hid_t file_type, hid_t mem_type,
                     hsize_t count, const void *value) {
  hid_t space = count ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
  int ok = space >= 0 && h5_util_attr_write(obj, name, file_type, space, mem_type, value);
  hid_t reason = ok ? H5I_INVALID_HID : h5_util_reason_save();
  if (space >= 0) H5Sclose(space);
  h5_util_reason_restore(reason);
  return ok;
}

int h5_util_attr_put_double(hid_t obj, const char *name, double value) {
  return h5_util_attr_put(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &value);
}

int h5_util_attr_put_int64(hid_t obj, const char *name, int64_t value) {
  return h5_util_attr_put(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &value);
}

int h5_util_attr_put_int32(hid_t obj, const char *name, int32_t value) {
  return h5_util_attr_put(obj, name, H5T_STD_I32LE, H5T_NATIVE_INT32, 0, &value);
}

int h5_util_attr_put_string(hid_t obj, const char *name, const char *value) {
  const char *v = value ? value : "";
  hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
  int ok = type >= 0 && space >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 &&
           H5Tset_cset(type, H5T_CSET_UTF8) >= 0 &&
           h5_util_attr_write(obj, name, type, space, type, &v);
  hid_t reason = ok ? H5I_INVALID_HID : h5_util_reason_save();
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  h5_util_reason_restore(reason);
  return ok;
}

int h5_util_attr_get_string(hid_t obj, const char *name, char *buf, size_t size) {
  if (!buf || size == 0) return 0;
  buf[0] = '\0';
  if (H5Aexists(obj, name) <= 0) return 0;
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  if (attr < 0) return 0;
  hid_t ftype = H5Aget_type(attr);
  int ok = 0;
  if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING) {
    if (H5Tis_variable_str(ftype) > 0) {
      char *v = NULL;
      hid_t mtype = H5Tcopy(ftype); /* the file's character set: no conversion */
      if (H5Aread(attr, mtype, &v) >= 0 && v) {
        snprintf(buf, size, "%s", v);
        ok = 1;
      }
      if (v) H5free_memory(v);
      H5Tclose(mtype);
    } else {
      size_t len = H5Tget_size(ftype);
      char *v = len > 0 ? calloc(len + 1, 1) : NULL;
      hid_t mtype = H5Tcopy(ftype);
      H5Tset_size(mtype, len + 1);
      H5Tset_strpad(mtype, H5T_STR_NULLTERM);
      if (v && H5Aread(attr, mtype, v) >= 0) {
        snprintf(buf, size, "%s", v);
        ok = 1;
      }
      free(v);
      H5Tclose(mtype);
    }
  }
  if (ftype >= 0) H5Tclose(ftype);
  H5Aclose(attr);
  return ok;
}

int h5_util_attr_try_get(hid_t obj, const char *name, hid_t mem_type, void *out) {
  if (H5Aexists(obj, name) <= 0) return 0;
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  int ok = attr >= 0 && H5Aread(attr, mem_type, out) >= 0;
  if (attr >= 0) H5Aclose(attr);
  return ok;
}

ionf_err h5_util_attr_get(hid_t obj, const char *path, const char *name, hid_t mem_type,
                          void *out) {
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  herr_t rc = attr >= 0 ? H5Aread(attr, mem_type, out) : -1;
  if (attr >= 0) H5Aclose(attr);
  if (rc < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    return ionf_error_set(IONF_ERR_IO, "cannot read attribute '%s' of '%s': %s", name, path,
                          detail);
  }
  return IONF_OK;
}

int h5_util_put_dataset(hid_t group, const char *name, hid_t file_type, hid_t mem_type, int rank,
                        const hsize_t *dims, const void *data) {
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dset = space >= 0 ? H5Dcreate2(group, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT,
                                       H5P_DEFAULT)
                          : -1;
  int ok = dset >= 0 && H5Dwrite(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
  if (dset >= 0 && H5Dclose(dset) < 0) ok = 0;
  if (space >= 0) H5Sclose(space);
  return ok;
}

ionf_err h5_util_close_temp(hid_t file, int ok, const struct h5_util_quiet *quiet,
                            const char *kind, const char *path) {
  char detail[1024] = "";
  if (!ok) h5_util_error_text(detail, sizeof detail);
  if (H5Fclose(file) < 0 && ok) {
    ok = 0;
    h5_util_error_text(detail, sizeof detail);
  }
  h5_util_quiet_end(quiet);
  return ok ? IONF_OK : ionf_error_set(IONF_ERR_IO, "cannot write %s '%s': %s", kind, path, detail);
}

ionf_err h5_util_open_read(const char *path, const char *kind, struct h5_util_quiet *quiet,
                           hid_t *file) {
  *file = H5I_INVALID_HID;
  FILE *probe = fopen(path, "rb");
  IONF_CHECK(probe, IONF_ERR_IO, "cannot open %s '%s': %s", kind, path, strerror(errno));
  fclose(probe);
  h5_util_quiet_begin(quiet);
  *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (*file < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    h5_util_quiet_end(quiet);
    return ionf_error_set(IONF_ERR_IO, "cannot open %s '%s': not readable as HDF5 (%s)", kind,
                          path, detail);
  }
  return IONF_OK;
}

void h5_util_close_read(hid_t file, const struct h5_util_quiet *quiet) {
  if (file >= 0) H5Fclose(file);
  h5_util_quiet_end(quiet);
}

ionf_err h5_util_create_temp(const char *path, const char *kind, char *tmp, size_t tmp_size,
                             struct h5_util_quiet *quiet, hid_t *file) {
  *file = H5I_INVALID_HID;
  int len = snprintf(tmp, tmp_size, "%s.tmp", path);
  IONF_CHECK(len > 0 && (size_t)len < tmp_size, IONF_ERR_IO, "%s path '%s' is too long", kind,
             path);
  h5_util_quiet_begin(quiet);
  *file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (*file < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    h5_util_quiet_end(quiet);
    unlink(tmp);
    return ionf_error_set(IONF_ERR_IO, "cannot write %s '%s': creating '%s': %s", kind, path, tmp,
                          detail);
  }
  return IONF_OK;
}
