/**
 * @file sph_snapshot.c
 * @brief Particle-run snapshots in the Gadget layout (readable again by
 *        io_particles_read) with the ionization state per particle.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/sph_snapshot.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/gadget.h"
#include "io/h5_util.h"
#include "io/output_file.h"
#include "io/io_particles.h"
#include "io/snapshot.h"
#include "io/sph_checkpoint.h"
#include "chem/species.h"
#include "particles/sph_deposit.h"

#define KIND "particle snapshot"

static int put_dataset(hid_t group, const char *name, int rank, const hsize_t *dims,
                       const double *data) {
  return h5_util_put_dataset(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, rank, dims, data);
}

static int write_header(hid_t file, const struct sph_snapshot_view *v) {
  hid_t header = H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (header < 0) return 0;
  /* Gadget's Time of a non-comoving run is the time in its units: seconds here */
  int ok = gadget_put_header(header, v->particles) &&
           h5_util_attr_put_double(header, "Redshift", 0.0) &&
           h5_util_attr_put_double(header, "Time", v->time_s) &&
           h5_util_attr_put_double(header, "Time_Myr", v->time_s / IONF_MYR_S) &&
           h5_util_attr_put_int64(header, "Step", v->step) &&
           h5_util_attr_put_double(header, "HubbleParam", 1.0) &&
           h5_util_attr_put_string(header, "length_unit", "cm") &&
           h5_util_attr_put_string(header, "time_unit", "s") &&
           h5_util_attr_put_string(header, "config", v->effective_yaml);
  if (H5Gclose(header) < 0) ok = 0;
  if (!ok) return 0;
  hid_t params = H5Gcreate2(file, "Parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (params < 0) return 0;
  ok = h5_util_attr_put_int32(params, "ComovingIntegrationOn", 0);
  if (H5Gclose(params) < 0) ok = 0;
  return ok;
}

static int write_particles(hid_t file, const struct sph_snapshot_view *v) {
  const struct particle_set *p = v->particles;
  hid_t gas = H5Gcreate2(file, "PartType0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (gas < 0) return 0;
  hsize_t dims[2] = {(hsize_t)p->count, 3};
  int ok = put_dataset(gas, "Coordinates", 2, dims, p->pos_cm) &&
           put_dataset(gas, "SmoothingLength", 1, dims, p->h_cm) &&
           put_dataset(gas, "Masses", 1, dims, p->mass_g) &&
           (!p->density_g_cm3 || put_dataset(gas, "Density", 1, dims, p->density_g_cm3)) &&
           put_dataset(gas, "HydrogenNumberDensity", 1, dims, v->n_h_cm3) &&
           put_dataset(gas, "IonizedFraction", 1, dims, v->x_hii) &&
           put_dataset(gas, "PhotoionizationRate", 1, dims, v->gamma_hi_per_s) &&
           put_dataset(gas, "Temperature", 1, dims, v->temperature_k);
  for (int s = 1; ok && v->n_species > 1 && s < v->n_species; ++s) { /* helium */
    const struct species_names *sn = species_names_of(s);
    char x_name[32], g_name[32];
    snprintf(x_name, sizeof x_name, "x_%s", sn->ion_name);
    snprintf(g_name, sizeof g_name, "Gamma_%s", sn->name);
    ok = put_dataset(gas, x_name, 1, dims, v->x_hii + s * v->species_stride) &&
         put_dataset(gas, g_name, 1, dims, v->gamma_hi_per_s + s * v->species_stride);
  }
  if (H5Gclose(gas) < 0) ok = 0;
  return ok;
}

/* /Grid/x_HII and /Grid/T (with helium /Grid/x_HeII, x_HeIII) deposited on deposit_n^3 cells. */
static ionf_err write_grid(hid_t file, const struct sph_snapshot_view *v, int *ok) {
  int64_t n = v->deposit_n, cells = n * n * n;
  double *buf = malloc(sizeof(double) * (size_t)cells);
  IONF_CHECK(buf, IONF_ERR_MEM, "out of memory for the deposition grid (%lld^3)", (long long)n);
  double box[3];
  hsize_t dims[3] = {(hsize_t)n, (hsize_t)n, (hsize_t)n};
  hid_t grid = H5Gcreate2(file, "Grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  *ok = grid >= 0;
  ionf_err rc = sph_deposit(v->particles, v->x_hii, n, buf, box);
  if (rc == IONF_OK && *ok) *ok = put_dataset(grid, "x_HII", 3, dims, buf) &&
                                  h5_util_attr_put(grid, "box_size_cm", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                           3, box);
  if (rc == IONF_OK && *ok) rc = sph_deposit(v->particles, v->temperature_k, n, buf, NULL);
  if (rc == IONF_OK && *ok) *ok = put_dataset(grid, "T", 3, dims, buf);
  /* with helium: its two ionized fractions beside hydrogen's */
  static const char *const he_names[2] = {"x_HeII", "x_HeIII"};
  for (int s = 1; s < v->n_species && s < 3 && rc == IONF_OK && *ok; ++s) {
    rc = sph_deposit(v->particles, v->x_hii + (int64_t)s * v->species_stride, n, buf, NULL);
    if (rc == IONF_OK) *ok = put_dataset(grid, he_names[s - 1], 3, dims, buf);
  }
  if (grid >= 0 && H5Gclose(grid) < 0) *ok = 0;
  free(buf);
  return rc;
}

ionf_err sph_snapshot_write(const char *path, const struct sph_snapshot_view *v) {
  const char *kind = v->checkpoint ? "particle checkpoint" : KIND;
  char tmp[2048];
  hid_t file;
  struct h5_util_quiet quiet;
  IONF_CALL(h5_util_create_temp(path, kind, tmp, sizeof tmp, &quiet, &file));
  int ok = write_header(file, v) && write_particles(file, v) &&
           (!v->checkpoint || sph_checkpoint_write_attrs(file, v->checkpoint, v->time_s, v->step));
  ionf_err rc = IONF_OK;
  if (ok && v->deposit_n > 0) rc = write_grid(file, v, &ok);
  ionf_err closed = h5_util_close_temp(file, ok, &quiet, kind, path);
  return output_file_commit(rc != IONF_OK ? rc : closed, tmp, path, kind);
}

static ionf_err read_column(hid_t file, const char *path, const char *name, int64_t n,
                            double **out) {
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  IONF_CHECK(dset >= 0, IONF_ERR_INPUT, "%s '%s': no dataset %s", KIND, path, name);
  hid_t space = H5Dget_space(dset);
  hssize_t count = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  *out = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  int ok = count == n && *out &&
           H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) >= 0;
  H5Dclose(dset);
  IONF_CHECK(ok, IONF_ERR_INPUT, "%s '%s': cannot read %s (%lld values, expected %lld)", KIND,
             path, name, (long long)count, (long long)n);
  return IONF_OK;
}

void sph_snapshot_free(struct sph_snapshot_data *d) {
  particles_free(&d->particles);
  free(d->x_hii);
  free(d->gamma_hi_per_s);
  free(d->temperature_k);
  free(d->n_h_cm3);
  memset(d, 0, sizeof *d);
}

ionf_err sph_snapshot_read(const char *path, struct sph_snapshot_data *out) {
  memset(out, 0, sizeof *out);
  struct io_particles_options o;
  io_particles_default_options(&o);
  o.comoving = 0;
  IONF_CALL(io_particles_read(path, &o, &out->particles));
  int64_t n = out->particles.count;
  struct h5_util_quiet quiet;
  hid_t file;
  ionf_err rc = h5_util_open_read(path, KIND, &quiet, &file);
  if (rc != IONF_OK) {
    sph_snapshot_free(out);
    return rc;
  }
  rc = read_column(file, path, "/PartType0/IonizedFraction", n, &out->x_hii);
  if (rc == IONF_OK)
    rc = read_column(file, path, "/PartType0/PhotoionizationRate", n, &out->gamma_hi_per_s);
  if (rc == IONF_OK) rc = read_column(file, path, "/PartType0/Temperature", n, &out->temperature_k);
  if (rc == IONF_OK)
    rc = read_column(file, path, "/PartType0/HydrogenNumberDensity", n, &out->n_h_cm3);
  if (rc == IONF_OK) {
    hid_t header = H5Gopen2(file, "Header", H5P_DEFAULT);
    int ok = header >= 0 && h5_util_attr_try_get(header, "Time", H5T_NATIVE_DOUBLE, &out->time_s) &&
             h5_util_attr_try_get(header, "Step", H5T_NATIVE_INT64, &out->step);
    if (header >= 0) H5Gclose(header);
    if (!ok) rc = ionf_error_set(IONF_ERR_INPUT, "%s '%s': no Header/Time or Header/Step", KIND, path);
  }
  h5_util_close_read(file, &quiet);
  if (rc != IONF_OK) sph_snapshot_free(out);
  return rc;
}
