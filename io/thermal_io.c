/**
 * @file thermal_io.c
 * @brief A thermal run's medium in, its thermal.h5 out (thermal_io.h).
 */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "io/thermal_io.h"

#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/ionf_config.h"
#include "io/h5_util.h"
#include "io/output_file.h"
#include "thermal/thermal_k.h"

/* ---- reading -------------------------------------------------------------------- */

/* Dataset `name` of the open file: a 3D array of numbers of shape n, read into out
   (NULL: checked only). */
static ionf_err thermal_io_read_one(hid_t file, const char *path, const char *name,
                                    const int64_t n[3], double *out) {
  ionf_err rc = IONF_OK;
  char detail[512];
  hid_t dset = H5I_INVALID_HID, space = H5I_INVALID_HID, type = H5I_INVALID_HID;
  if (!h5_util_path_exists(file, name))
    return ionf_error_set(IONF_ERR_INPUT, "HDF5 file '%s' has no dataset '%s'", path, name);
  dset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dset < 0) {
    h5_util_error_text(detail, sizeof detail);
    return ionf_error_set(IONF_ERR_INPUT, "'%s' in HDF5 file '%s' is not a dataset (%s)", name,
                          path, detail);
  }
  space = H5Dget_space(dset);
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  hsize_t dims[3] = {0, 0, 0};
  if (rank == 3) H5Sget_simple_extent_dims(space, dims, NULL);
  if (rank != 3 || dims[0] != (hsize_t)n[0] || dims[1] != (hsize_t)n[1] ||
      dims[2] != (hsize_t)n[2]) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' has %d dimension(s) (%llu, %llu, %llu); the grid "
                        "(grid.cells) needs shape (%lld, %lld, %lld)",
                        name, path, rank, (unsigned long long)dims[0],
                        (unsigned long long)dims[1], (unsigned long long)dims[2],
                        (long long)n[0], (long long)n[1], (long long)n[2]);
    goto done;
  }
  type = H5Dget_type(dset);
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' does not hold numbers (HDF5 type class %d)", name,
                        path, (int)cls);
    goto done;
  }
  if (out && H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' of '%s': %s", name, path, detail);
  }
done:
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  H5Dclose(dset);
  return rc;
}

ionf_err thermal_io_read(const char *path, const char *const *names, int n_names,
                         const int64_t n[3], double *const *out) {
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "thermal fields file", &quiet, &file));
  ionf_err rc = IONF_OK;
  for (int f = 0; f < n_names && rc == IONF_OK; ++f)
    if (names[f] && names[f][0])
      rc = thermal_io_read_one(file, path, names[f], n, out ? out[f] : NULL);
  h5_util_close_read(file, &quiet);
  return rc;
}

/* ---- writing -------------------------------------------------------------------- */

int64_t thermal_io_face_patches(const struct thermal_setup *s, int face, int64_t *n_u,
                                int64_t *n_v) {
  int u, v; /* the solver's order of a face's patches (thermal_k.h) */
  thermal_face_axes(face / 2, &u, &v);
  *n_u = s->n[u];
  *n_v = s->n[v];
  return thermal_face_patches(s->n, s->periodic, face);
}

/* One dataset with its units and description; 1 or 0 as h5_util. */
static int thermal_io_put(hid_t group, const char *name, int rank, const hsize_t *dims,
                          const double *data, const char *units, const char *about) {
  if (!h5_util_put_dataset(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, rank, dims, data))
    return 0;
  hid_t d = H5Dopen2(group, name, H5P_DEFAULT);
  if (d < 0) return 0;
  int ok = h5_util_attr_put_string(d, "units", units) &&
           h5_util_attr_put_string(d, "description", about);
  return H5Dclose(d) >= 0 && ok;
}

static int thermal_io_root_attrs(hid_t file, const struct thermal_io_result *r) {
  const struct thermal_setup *s = r->setup;
  char created[32];
  time_t now = time(NULL);
  struct tm tm_utc;
  if (now == (time_t)-1 || !gmtime_r(&now, &tm_utc) ||
      strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm_utc) == 0)
    snprintf(created, sizeof created, "unknown");
  double size_m[3];
  int32_t periodic[3];
  for (int a = 0; a < 3; ++a) {
    size_m[a] = s->cell_m[a] * (double)s->n[a];
    periodic[a] = s->periodic[a];
  }
  return h5_util_attr_put_string(file, "problem", "thermal") &&
         h5_util_attr_put(file, "cells", H5T_STD_I64LE, H5T_NATIVE_INT64, 3, s->n) &&
         h5_util_attr_put(file, "size_m", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, size_m) &&
         h5_util_attr_put(file, "periodic", H5T_STD_I32LE, H5T_NATIVE_INT32, 3, periodic) &&
         h5_util_attr_put_string(file, "gas_model", r->gas_model) &&
         (s->gas_model != THERMAL_GAS_GREY ||
          h5_util_attr_put_double(file, "kappa_per_m", s->kappa_per_m)) &&
         h5_util_attr_put_int64(file, "rays_per_element", s->rays_per_element) &&
         h5_util_attr_put_int64(file, "seed", (int64_t)s->seed) &&
         h5_util_attr_put_double(file, "transmissivity_min", s->transmissivity_min) &&
         h5_util_attr_put_int64(file, "rays_traced", r->rays_traced) &&
         h5_util_attr_put_int64(file, "steps_traced", r->steps_traced) &&
         h5_util_attr_put_string(file, "config", r->config_yaml) &&
         h5_util_attr_put_string(file, "config_name", r->config_name) &&
         h5_util_attr_put_string(file, "ionfront_version", IONF_VERSION) &&
         h5_util_attr_put_string(file, "git", IONF_GIT_SHA) &&
         h5_util_attr_put_string(file, "created", created);
}

/* /Thermal/Walls/<face>/{q_net, q_net_sigma, T_K attribute, emissivity attribute}. */
static int thermal_io_walls(hid_t thermal, const struct thermal_io_result *r) {
  const struct thermal_setup *s = r->setup;
  hid_t walls = H5Gcreate2(thermal, "Walls", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (walls < 0) return 0;
  int ok = 1;
  int64_t first = 0;
  for (int f = 0; f < THERMAL_FACES && ok; ++f) {
    int64_t n_u, n_v, count = thermal_io_face_patches(s, f, &n_u, &n_v);
    if (count == 0) continue;
    hid_t g = H5Gcreate2(walls, r->face_names[f], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) {
      ok = 0;
      break;
    }
    const hsize_t dims[2] = {(hsize_t)n_u, (hsize_t)n_v};
    ok = thermal_io_put(g, "q_net", 2, dims, r->wall_q_w_per_m2 + first, "W/m^2",
                        "net radiative flux into the wall: absorbed - emitted") &&
         thermal_io_put(g, "q_net_sigma", 2, dims, r->wall_q_sigma_w_per_m2 + first, "W/m^2",
                        "Monte Carlo standard error of q_net") &&
         h5_util_attr_put_double(g, "T_K", s->wall[f].t_k) &&
         h5_util_attr_put_double(g, "emissivity", s->wall[f].emissivity);
    if (H5Gclose(g) < 0) ok = 0;
    first += count;
  }
  return H5Gclose(walls) >= 0 && ok;
}

static int thermal_io_fill(hid_t file, const struct thermal_io_result *r) {
  const struct thermal_setup *s = r->setup;
  if (!thermal_io_root_attrs(file, r)) return 0;
  hid_t g = H5Gcreate2(file, "Thermal", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) return 0;
  const hsize_t dims[3] = {(hsize_t)s->n[0], (hsize_t)s->n[1], (hsize_t)s->n[2]};
  int ok = thermal_io_put(g, "T_K", 3, dims, r->t_k, "K", "gas temperature") &&
           thermal_io_put(g, "Q_R", 3, dims, r->q_w_per_m3, "W/m^3",
                          "radiative source: emitted - absorbed power per volume (> 0: "
                          "cooling), the divergence of the radiative flux") &&
           thermal_io_put(g, "Q_R_sigma", 3, dims, r->q_sigma_w_per_m3, "W/m^3",
                          "Monte Carlo standard error of Q_R") &&
           thermal_io_walls(g, r);
  return H5Gclose(g) >= 0 && ok;
}

ionf_err thermal_io_write(const char *path, const struct thermal_io_result *r) {
  char tmp[1100];
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_create_temp(path, "thermal result", tmp, sizeof tmp, &quiet, &file));
  int ok = thermal_io_fill(file, r);
  ionf_err rc = h5_util_close_temp(file, ok, &quiet, "thermal result", path);
  return output_file_commit(rc, tmp, path, "thermal result");
}
