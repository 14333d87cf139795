/**
 * @file synth_files.c
 * @brief Writers of synthetic density grids, halo catalogues and source lists
 *        (temporary file, sync, rename).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/synth_files.h"

#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/path.h"
#include "io/h5_util.h"
#include "io/output_file.h"
#include "io/output_dir.h"

#define SYNTH_FILES_TEXT_TAG "# ionfront synthetic: "

/* ---- names ----------------------------------------------------------------------- */

int synth_files_hdf5_name(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return 0;
  return !strcmp(dot, ".h5") || !strcmp(dot, ".hdf5") || !strcmp(dot, ".he5");
}

/* DIR/.NAME.tmp beside `path`, and DIR created when missing. */
static ionf_err files_prepare(const char *path, const char *what, char *tmp, size_t cap) {
  IONF_CHECK(path && path[0], IONF_ERR_IO, "cannot write the %s: empty file name", what);
  const char *slash = strrchr(path, '/');
  char dir[IONF_PATH_MAX];
  const char *base = slash ? slash + 1 : path;
  IONF_CHECK(base[0], IONF_ERR_IO, "cannot write the %s '%s': the name is a directory", what,
             path);
  size_t dlen = slash ? (size_t)(slash - path) : 0;
  IONF_CHECK(dlen < sizeof dir, IONF_ERR_IO, "cannot write the %s '%s': the path is too long",
             what, path);
  if (slash && dlen == 0) dlen = 1; /* "/name" */
  if (slash) {
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    IONF_CALL(output_dir_prepare(dir));
  }
  int len = slash ? snprintf(tmp, cap, "%.*s/.%s.tmp", (int)(slash - path), path, base)
                  : snprintf(tmp, cap, ".%s.tmp", base);
  IONF_CHECK(len > 0 && (size_t)len < cap, IONF_ERR_IO,
             "cannot write the %s '%s': the path is too long", what, path);
  return IONF_OK;
}

/* ---- HDF5 ------------------------------------------------------------------------- */

static ionf_err h5_fail(const char *what, const char *path, const char *step) {
  char detail[512];
  h5_util_error_text(detail, sizeof detail);
  return ionf_error_set(IONF_ERR_IO, "cannot write the %s '%s': %s: %s", what, path, step,
                        detail);
}

/* A dataset of `rank` 1..3 with dims, written from native `mtype`; groups on the way made. */
static ionf_err h5_dataset(hid_t file, const char *name, int rank, const hsize_t *dims,
                           hid_t ftype, hid_t mtype, const void *data, const char *units,
                           const char *what, const char *path) {
  char step[300];
  snprintf(step, sizeof step, "writing dataset '%s'", name);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dset = H5I_INVALID_HID;
  int ok = lcpl >= 0 && space >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0;
  if (ok) dset = H5Dcreate2(file, name, ftype, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t count = 1;
  for (int r = 0; r < rank; ++r) count *= dims[r];
  ok = ok && dset >= 0 &&
       (count == 0 || H5Dwrite(dset, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0) &&
       (!units || h5_util_attr_put_string(dset, "units", units));
  ionf_err rc = ok ? IONF_OK : h5_fail(what, path, step);
  if (dset >= 0 && H5Dclose(dset) < 0 && rc == IONF_OK) rc = h5_fail(what, path, step);
  if (space >= 0) H5Sclose(space);
  if (lcpl >= 0) H5Pclose(lcpl);
  return rc;
}

static ionf_err h5_root_attrs(hid_t file, double redshift, double box_cmpc, const char *signature,
                              const char *description, const char *what, const char *path) {
  int ok = h5_util_attr_put_string(file, "synthetic", signature) &&
           (!description || h5_util_attr_put_string(file, "description", description)) &&
           (redshift < 0.0 || h5_util_attr_put_double(file, "redshift", redshift)) &&
           (box_cmpc <= 0.0 || h5_util_attr_put_double(file, "box_size_cmpc", box_cmpc));
  return ok ? IONF_OK : h5_fail(what, path, "writing the root attributes");
}

/* Prepare `path`'s folder and its temporary name tmp[cap] (files_prepare), then open the
   temporary HDF5 file (truncating a stale one), HDF5's printing off until h5_close (the
   caller's setting saved in *quiet). */
static ionf_err h5_create(const char *path, const char *what, char *tmp, size_t cap,
                          struct h5_util_quiet *quiet, hid_t *file) {
  IONF_CALL(files_prepare(path, what, tmp, cap));
  h5_util_quiet_begin(quiet);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  /* STRONG: H5Fclose really closes (and flushes) before the rename. */
  if (fapl >= 0) H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
  *file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl >= 0 ? fapl : H5P_DEFAULT);
  if (fapl >= 0) H5Pclose(fapl);
  if (*file < 0) {
    char step[IONF_PATH_MAX + 64];
    snprintf(step, sizeof step, "creating '%s'", tmp);
    ionf_err rc = h5_fail(what, path, step);
    h5_util_quiet_end(quiet);
    unlink(tmp);
    return rc;
  }
  return IONF_OK;
}

static ionf_err h5_close(hid_t file, ionf_err rc, const char *what, const char *path,
                         const struct h5_util_quiet *quiet) {
  if (H5Fclose(file) < 0 && rc == IONF_OK) rc = h5_fail(what, path, "closing the file");
  h5_util_quiet_end(quiet);
  return rc;
}

ionf_err synth_files_write_density(const char *path, const char *dataset, int64_t n,
                                   const double *n_h_cm3, double redshift, double box_cmpc,
                                   const char *signature, const char *description) {
  static const char what[] = "synthetic density";
  IONF_CHECK(dataset && dataset[0] && n_h_cm3 && n > 0, IONF_ERR_INTERNAL,
             "synth_files_write_density: bad arguments");
  char tmp[IONF_PATH_MAX + 16];
  hid_t file;
  struct h5_util_quiet quiet;
  IONF_CALL(h5_create(path, what, tmp, sizeof tmp, &quiet, &file));
  hsize_t dims[3] = {(hsize_t)n, (hsize_t)n, (hsize_t)n};
  ionf_err rc = h5_dataset(file, dataset, 3, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n_h_cm3,
                           "cm^-3", what, path);
  if (rc == IONF_OK)
    rc = h5_root_attrs(file, redshift, box_cmpc, signature, description, what, path);
  rc = h5_close(file, rc, what, path, &quiet);
  return output_file_commit(rc, tmp, path, what);
}

ionf_err synth_files_write_halos(const char *path, int64_t m, const double *position_cmpc,
                                 const double *mass_msun, double redshift, double box_cmpc,
                                 const char *signature, const char *description) {
  static const char what[] = "halo catalogue";
  IONF_CHECK(m >= 0 && (m == 0 || (position_cmpc && mass_msun)), IONF_ERR_INTERNAL,
             "synth_files_write_halos: bad arguments");
  char tmp[IONF_PATH_MAX + 16];
  hid_t file;
  struct h5_util_quiet quiet;
  IONF_CALL(h5_create(path, what, tmp, sizeof tmp, &quiet, &file));
  hsize_t pdims[2] = {(hsize_t)m, 3}, mdims[1] = {(hsize_t)m};
  ionf_err rc = h5_dataset(file, "/halos/position", 2, pdims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                           position_cmpc, "comoving Mpc", what, path);
  if (rc == IONF_OK)
    rc = h5_dataset(file, "/halos/mass", 1, mdims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass_msun,
                    "Msun", what, path);
  if (rc == IONF_OK)
    rc = h5_root_attrs(file, redshift, box_cmpc, signature, description, what, path);
  rc = h5_close(file, rc, what, path, &quiet);
  return output_file_commit(rc, tmp, path, what);
}

/* ---- sources ---------------------------------------------------------------------------- */

static ionf_err sources_text(const char *tmp, const char *path, int64_t m, const int32_t *ijk,
                             const double *ndot, const double *mass, const char *signature,
                             const char *description) {
  FILE *f = fopen(tmp, "w");
  IONF_CHECK(f, IONF_ERR_IO, "cannot write the source list '%s': creating '%s': %s", path, tmp,
             strerror(errno));
  fprintf(f, "%s%s\n", SYNTH_FILES_TEXT_TAG, signature ? signature : "");
  if (description) {
    /* one comment line per line of the description */
    const char *p = description;
    while (*p) {
      size_t len = strcspn(p, "\n");
      fprintf(f, "# %.*s\n", (int)len, p);
      p += len;
      if (*p == '\n') ++p;
    }
  }
  fprintf(f, "# then the number of sources, and per source: i j k (1-based cells) Ndot [1/s] 1\n");
  fprintf(f, "%lld\n", (long long)m);
  for (int64_t s = 0; s < m; ++s) {
    fprintf(f, "%d %d %d %.17g 1", ijk[3 * s] + 1, ijk[3 * s + 1] + 1, ijk[3 * s + 2] + 1,
            ndot[s]);
    if (mass) fprintf(f, "   # M = %.6e Msun", mass[s]);
    fputc('\n', f);
  }
  int bad = ferror(f);
  if (fclose(f) != 0) bad = 1;
  IONF_CHECK(!bad, IONF_ERR_IO, "cannot write the source list '%s': writing '%s': %s", path, tmp,
             strerror(errno));
  return IONF_OK;
}

ionf_err synth_files_write_sources(const char *path, enum source_format format, int64_t m,
                                   const int32_t *ijk, const double *ndot_per_s,
                                   const double *mass_msun, const char *signature,
                                   const char *description) {
  static const char what[] = "source list";
  IONF_CHECK(m >= 0 && (m == 0 || (ijk && ndot_per_s)), IONF_ERR_INTERNAL,
             "synth_files_write_sources: bad arguments");
  char tmp[IONF_PATH_MAX + 16];
  int hdf5 = format == SOURCE_FORMAT_HDF5 ||
             (format == SOURCE_FORMAT_AUTO && synth_files_hdf5_name(path));
  ionf_err rc;
  if (!hdf5) {
    IONF_CALL(files_prepare(path, what, tmp, sizeof tmp));
    rc = sources_text(tmp, path, m, ijk, ndot_per_s, mass_msun, signature, description);
  } else {
    hid_t file;
    struct h5_util_quiet quiet;
    IONF_CALL(h5_create(path, what, tmp, sizeof tmp, &quiet, &file));
    hsize_t pdims[2] = {(hsize_t)m, 3}, mdims[1] = {(hsize_t)m};
    rc = h5_dataset(file, "/sources/position", 2, pdims, H5T_STD_I32LE, H5T_NATIVE_INT32, ijk,
                    NULL, what, path);
    if (rc == IONF_OK)
      rc = h5_dataset(file, "/sources/Ndot", 1, mdims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      ndot_per_s, "s^-1", what, path);
    if (rc == IONF_OK && mass_msun)
      rc = h5_dataset(file, "/sources/mass", 1, mdims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      mass_msun, "Msun", what, path);
    if (rc == IONF_OK) rc = h5_root_attrs(file, -1.0, 0.0, signature, description, what, path);
    rc = h5_close(file, rc, what, path, &quiet);
  }
  return output_file_commit(rc, tmp, path, what);
}

/* ---- reading the signature back ------------------------------------------------------------ */

ionf_err synth_files_signature(const char *path, char *out, size_t cap, int *found) {
  *found = 0;
  if (cap) out[0] = '\0';
  FILE *f = fopen(path, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  unsigned char head[8] = {0};
  size_t got = fread(head, 1, sizeof head, f);
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (got == sizeof head && memcmp(head, sig, sizeof sig) == 0) {
    fclose(f);
    struct h5_util_quiet quiet;
    hid_t file;
    IONF_CALL(h5_util_open_read(path, "HDF5 file", &quiet, &file));
    *found = h5_util_attr_get_string(file, "synthetic", out, cap);
    h5_util_close_read(file, &quiet);
    return IONF_OK;
  }
  /* text: the first line */
  rewind(f);
  char line[1024];
  if (fgets(line, sizeof line, f)) {
    size_t tag = strlen(SYNTH_FILES_TEXT_TAG);
    if (strncmp(line, SYNTH_FILES_TEXT_TAG, tag) == 0) {
      line[strcspn(line, "\r\n")] = '\0';
      snprintf(out, cap, "%s", line + tag);
      *found = 1;
    }
  }
  fclose(f);
  return IONF_OK;
}
