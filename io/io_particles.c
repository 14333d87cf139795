/**
 * @file io_particles.c
 * @brief SPH gas particles from Gadget- or SWIFT-layout HDF5 snapshots, and
 *        the writer of the Gadget layout.  Values are checked in the file's
 *        own units (so a message quotes what the file holds), then converted
 *        to physical CGS.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/io_particles.h"

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/gadget.h"
#include "io/h5_util.h"
#include "io/output_file.h"

#define KIND "particle file"

static const char *const name_coordinates = "/PartType0/Coordinates";
static const char *const name_h_gadget = "/PartType0/SmoothingLength";
static const char *const name_h_swift = "/PartType0/SmoothingLengths";
static const char *const name_masses = "/PartType0/Masses";
static const char *const name_density[2] = {"/PartType0/Density", "/PartType0/Densities"};

void io_particles_default_options(struct io_particles_options *o) {
  memset(o, 0, sizeof *o);
  o->hydrogen_mass_fraction = 1.0;
  o->comoving = -1;
  o->periodic = -1;
}

/* ---- attributes ---------------------------------------------------------------------- */

/*
 * Up to `max` values of numeric attribute `name` of object `obj` (a group or
 * dataset path) as doubles.  Returns the attribute's number of values, 0 when
 * it (or obj) does not exist, -1 when it is not numeric or cannot be read.
 */
static int attr_doubles(hid_t file, const char *obj, const char *name, double *out, int max) {
  if (!h5_util_path_exists(file, obj) && strcmp(obj, "/") != 0) return 0;
  if (H5Aexists_by_name(file, obj, name, H5P_DEFAULT) <= 0) return 0;
  hid_t attr = H5Aopen_by_name(file, obj, name, H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0) return -1;
  hid_t space = H5Aget_space(attr), type = H5Aget_type(attr);
  hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  int result = -1;
  if (count >= 1 && count <= 64 && (cls == H5T_INTEGER || cls == H5T_FLOAT)) {
    double buf[64];
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, buf) >= 0) {
      for (int k = 0; k < max && k < count; ++k) out[k] = buf[k];
      result = (int)count;
    }
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  H5Aclose(attr);
  return result;
}

/* A scalar attribute that must be numeric when present; *found says whether it was. */
static ionf_err attr_scalar(hid_t file, const char *path, const char *obj, const char *name,
                            double *out, int *found) {
  double v[64];
  int k = attr_doubles(file, obj, name, v, 64);
  IONF_CHECK(k >= 0, IONF_ERR_INPUT, "%s '%s': attribute '%s' of %s is not a number", KIND, path,
             name, obj);
  IONF_CHECK(k <= 1, IONF_ERR_INPUT, "%s '%s': attribute '%s' of %s has %d values; expected one",
             KIND, path, name, obj, k);
  if (k == 1) *out = v[0];
  if (found) *found = k == 1;
  return IONF_OK;
}

/* ---- datasets ------------------------------------------------------------------------- */

/* A column of n rows (rank 1) or n x 3 (rank 2), as doubles. */
static ionf_err read_column(hid_t file, const char *path, const char *name, int rank, int64_t n,
                            double *out) {
  hid_t dset;
  hsize_t dims[2];
  IONF_CALL(h5_util_open_table(file, path, KIND, name, rank, 0, &dset, dims));
  ionf_err rc = IONF_OK;
  if (dims[0] != (hsize_t)n) {
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in %s '%s' has %llu rows; Header/NumPart_ThisFile[0] "
                        "says %lld gas particles",
                        name, KIND, path, (unsigned long long)dims[0], (long long)n);
  } else if (H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from %s '%s': %s", name, KIND,
                        path, detail);
  }
  H5Dclose(dset);
  return rc;
}

/* The first value of a column that is not finite and > 0 (or >= 0 when zero_ok). */
static ionf_err check_positive(const char *path, const char *name, const double *v, int64_t n,
                               int zero_ok, const char *what) {
  for (int64_t i = 0; i < n; ++i)
    IONF_CHECK(isfinite(v[i]) && (v[i] > 0.0 || (zero_ok && v[i] == 0.0)), IONF_ERR_INPUT,
               "%s:%s[%lld] = %g: %s must be finite and %s", path, name, (long long)i, v[i],
               what, zero_ok ? ">= 0" : "> 0");
  return IONF_OK;
}

/* SWIFT's a- and h-exponent of a dataset (defaults when the attributes are missing). */
static ionf_err swift_exponents(hid_t file, const char *path, const char *name, double a_default,
                                double *a_exp, double *h_exp) {
  *a_exp = a_default;
  *h_exp = 0.0;
  IONF_CALL(attr_scalar(file, path, name, "a-scale exponent", a_exp, NULL));
  IONF_CALL(attr_scalar(file, path, name, "h-scale exponent", h_exp, NULL));
  return IONF_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

struct snapshot_header {
  int64_t n;
  int has_box;
  double box[3];           /* file units */
  double redshift, time, hubble, scale_factor_swift;
  int has_redshift, has_time, has_hubble, has_scale_factor_swift;
  double mass_table0;
  int periodic_attr, has_periodic_attr;
};

static ionf_err read_header(hid_t file, const char *path, struct snapshot_header *hd) {
  memset(hd, 0, sizeof *hd);
  IONF_CHECK(h5_util_path_exists(file, "/Header"), IONF_ERR_INPUT,
             "%s '%s' is not a Gadget or SWIFT snapshot: it has no /Header group", KIND, path);
  double files = 1.0;
  IONF_CALL(attr_scalar(file, path, "/Header", "NumFilesPerSnapshot", &files, NULL));
  IONF_CHECK(files <= 1.0, IONF_ERR_INPUT,
             "%s '%s' is one of %g files of a snapshot (Header/NumFilesPerSnapshot); ionfront "
             "reads single-file snapshots: join the files first",
             KIND, path, files);
  double v[6] = {0}, hi[6] = {0};
  int k = attr_doubles(file, "/Header", "NumPart_ThisFile", v, 6);
  IONF_CHECK(k >= 1, IONF_ERR_INPUT, "%s '%s' has no numeric attribute Header/NumPart_ThisFile",
             KIND, path);
  IONF_CHECK(v[0] >= 1.0, IONF_ERR_INPUT,
             "%s '%s' holds no gas particles (Header/NumPart_ThisFile[0] = %g)", KIND, path,
             v[0]);
  IONF_CHECK(v[0] <= (double)BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "%s '%s' holds %.0f gas particles; ionfront takes at most %lld per set", KIND, path,
             v[0], (long long)BVH_MAX_PARTICLES);
  hd->n = (int64_t)v[0];
  double total[6] = {0};
  if (attr_doubles(file, "/Header", "NumPart_Total", total, 6) >= 1) {
    attr_doubles(file, "/Header", "NumPart_Total_HighWord", hi, 6);
    double all = total[0] + 4294967296.0 * hi[0];
    IONF_CHECK(all == v[0], IONF_ERR_INPUT,
               "%s '%s': Header/NumPart_Total[0] = %.0f but NumPart_ThisFile[0] = %.0f; "
               "ionfront reads single-file snapshots",
               KIND, path, all, v[0]);
  }
  double box[3] = {0, 0, 0};
  int kb = attr_doubles(file, "/Header", "BoxSize", box, 3);
  IONF_CHECK(kb == 0 || kb == 1 || kb == 3, IONF_ERR_INPUT,
             "%s '%s': Header/BoxSize has %d values; expected 1 (a cube) or 3", KIND, path, kb);
  if (kb == 1) box[1] = box[2] = box[0];
  for (int a = 0; a < 3; ++a)
    IONF_CHECK(isfinite(box[a]) && box[a] >= 0.0, IONF_ERR_INPUT,
               "%s '%s': Header/BoxSize = (%g, %g, %g); sizes must be finite and >= 0 (0: no "
               "box)",
               KIND, path, box[0], box[1], box[2]);
  int zeros = (box[0] == 0.0) + (box[1] == 0.0) + (box[2] == 0.0);
  IONF_CHECK(zeros == 0 || zeros == 3, IONF_ERR_INPUT,
             "%s '%s': Header/BoxSize = (%g, %g, %g) is zero along some axes only", KIND, path,
             box[0], box[1], box[2]);
  hd->has_box = zeros == 0;
  memcpy(hd->box, box, sizeof box);
  IONF_CALL(attr_scalar(file, path, "/Header", "Redshift", &hd->redshift, &hd->has_redshift));
  IONF_CALL(attr_scalar(file, path, "/Header", "Time", &hd->time, &hd->has_time));
  IONF_CALL(attr_scalar(file, path, "/Header", "HubbleParam", &hd->hubble, &hd->has_hubble));
  if (!hd->has_hubble)
    IONF_CALL(attr_scalar(file, path, "/Cosmology", "h", &hd->hubble, &hd->has_hubble));
  IONF_CALL(attr_scalar(file, path, "/Header", "Scale-factor", &hd->scale_factor_swift,
                        &hd->has_scale_factor_swift));
  if (!hd->has_scale_factor_swift)
    IONF_CALL(attr_scalar(file, path, "/Cosmology", "Scale-factor", &hd->scale_factor_swift,
                          &hd->has_scale_factor_swift));
  double mt[6] = {0};
  if (attr_doubles(file, "/Header", "MassTable", mt, 6) >= 1) hd->mass_table0 = mt[0];
  double per = 0.0;
  IONF_CALL(attr_scalar(file, path, "/Header", "Periodic", &per, &hd->has_periodic_attr));
  hd->periodic_attr = per != 0.0;
  return IONF_OK;
}

/* Length and mass units [cm, g] from the file, else the options, else refuse. */
static ionf_err read_units(hid_t file, const char *path, const struct io_particles_options *o,
                           double *u_l, double *u_m) {
  int has_l = 0, has_m = 0;
  IONF_CALL(attr_scalar(file, path, "/Units", "Unit length in cgs (U_L)", u_l, &has_l));
  IONF_CALL(attr_scalar(file, path, "/Units", "Unit mass in cgs (U_M)", u_m, &has_m));
  const char *groups[2] = {"/Header", "/Parameters"};
  for (int g = 0; g < 2 && !has_l; ++g)
    IONF_CALL(attr_scalar(file, path, groups[g], "UnitLength_in_cm", u_l, &has_l));
  for (int g = 0; g < 2 && !has_m; ++g)
    IONF_CALL(attr_scalar(file, path, groups[g], "UnitMass_in_g", u_m, &has_m));
  if (!has_l && o->unit_length_cm > 0.0) {
    *u_l = o->unit_length_cm;
    has_l = 1;
  }
  if (!has_m && o->unit_mass_g > 0.0) {
    *u_m = o->unit_mass_g;
    has_m = 1;
  }
  IONF_CHECK(has_l && has_m, IONF_ERR_INPUT,
             "%s '%s' does not say its %s unit (no /Units group, no %s in /Header or "
             "/Parameters); give the length and mass units explicitly",
             KIND, path, has_l ? "mass" : "length",
             has_l ? "UnitMass_in_g" : "UnitLength_in_cm");
  IONF_CHECK(isfinite(*u_l) && *u_l > 0.0 && isfinite(*u_m) && *u_m > 0.0, IONF_ERR_INPUT,
             "%s '%s': units %g cm and %g g; they must be finite and > 0", KIND, path, *u_l,
             *u_m);
  return IONF_OK;
}

/* Unit factors to physical CGS for lengths, masses, densities. */
struct conversion {
  double length, mass, density;
  double h_support; /* smoothing length in file -> support radius, before `length` */
  int cosmological;
  double a, hubble;
};

static ionf_err read_conversion(hid_t file, const char *path, const struct io_particles_options *o,
                                const struct snapshot_header *hd, int swift, double u_l,
                                double u_m, struct conversion *cv) {
  memset(cv, 0, sizeof *cv);
  cv->a = 1.0;
  cv->hubble = hd->has_hubble ? hd->hubble : 1.0;
  cv->h_support = 1.0;
  if (swift) {
    int found = 0;
    IONF_CALL(attr_scalar(file, path, "/HydroScheme", "Kernel gamma", &cv->h_support, &found));
    IONF_CHECK(found, IONF_ERR_INPUT,
               "%s '%s' gives SWIFT smoothing lengths (%s) but no /HydroScheme attribute "
               "'Kernel gamma' to turn them into kernel support radii",
               KIND, path, name_h_swift);
    IONF_CHECK(isfinite(cv->h_support) && cv->h_support >= 1.0 && cv->h_support <= 4.0,
               IONF_ERR_INPUT, "%s '%s': /HydroScheme 'Kernel gamma' = %g is not a kernel's "
               "support / smoothing-length ratio (1 to 4)", KIND, path, cv->h_support);
  }
  double comoving_on = -1.0;
  int has_comoving = 0;
  if (swift) {
    IONF_CALL(attr_scalar(file, path, "/Cosmology", "Cosmological run", &comoving_on,
                          &has_comoving));
  } else {
    IONF_CALL(attr_scalar(file, path, "/Parameters", "ComovingIntegrationOn", &comoving_on,
                          &has_comoving));
  }
  if (o->comoving >= 0)
    cv->cosmological = o->comoving;
  else if (has_comoving)
    cv->cosmological = comoving_on != 0.0;
  else
    cv->cosmological = !swift && hd->has_redshift && hd->redshift > 0.0;

  if (cv->cosmological) {
    IONF_CHECK(hd->has_redshift && isfinite(hd->redshift) && hd->redshift > -1.0, IONF_ERR_INPUT,
               "%s '%s' holds comoving values but no valid Header/Redshift", KIND, path);
    if (swift) {
      cv->a = hd->has_scale_factor_swift ? hd->scale_factor_swift : 1.0 / (1.0 + hd->redshift);
    } else {
      IONF_CHECK(hd->has_time, IONF_ERR_INPUT,
                 "%s '%s' holds comoving values but no Header/Time (the scale factor)", KIND,
                 path);
      cv->a = hd->time;
      IONF_CHECK(fabs(cv->a * (1.0 + hd->redshift) - 1.0) < 1e-6, IONF_ERR_INPUT,
                 "%s '%s': Header/Time = %g is not the scale factor of Header/Redshift = %g; "
                 "is this a comoving run?",
                 KIND, path, hd->time, hd->redshift);
      IONF_CHECK(hd->has_hubble && hd->hubble > 0.0 && isfinite(hd->hubble), IONF_ERR_INPUT,
                 "%s '%s' holds h-scaled comoving values but Header/HubbleParam is %s%g", KIND,
                 path, hd->has_hubble ? "" : "missing: ", hd->hubble);
    }
    IONF_CHECK(cv->a > 0.0 && cv->a <= 1.0 + 1e-12, IONF_ERR_INPUT,
               "%s '%s': scale factor %g; it must be in (0, 1]", KIND, path, cv->a);
  }
  if (!cv->cosmological || swift) { /* SWIFT: exponents per dataset, applied by the caller */
    cv->length = u_l;
    cv->mass = u_m;
    cv->density = u_m / (u_l * u_l * u_l);
  } else { /* Gadget: comoving, in units of 1/h */
    cv->length = u_l * cv->a / cv->hubble;
    cv->mass = u_m / cv->hubble;
    cv->density = u_m / (u_l * u_l * u_l) * cv->hubble * cv->hubble / (cv->a * cv->a * cv->a);
  }
  return IONF_OK;
}

/* SWIFT: the cosmological factor a^e_a h^e_h of one dataset (1 when not cosmological). */
static ionf_err swift_factor(hid_t file, const char *path, const char *name, double a_default,
                             const struct conversion *cv, double *factor) {
  *factor = 1.0;
  if (!cv->cosmological) return IONF_OK;
  double a_exp, h_exp;
  IONF_CALL(swift_exponents(file, path, name, a_default, &a_exp, &h_exp));
  *factor = pow(cv->a, a_exp) * pow(cv->hubble, h_exp);
  return IONF_OK;
}

static void scale(double *v, int64_t n, double f) {
  for (int64_t i = 0; i < n; ++i) v[i] *= f;
}

static ionf_err read_particles(hid_t file, const char *path, const struct io_particles_options *o,
                               struct particle_set *out) {
  struct snapshot_header hd;
  IONF_CALL(read_header(file, path, &hd));
  const int64_t n = hd.n;

  int swift = 0;
  const char *h_name = name_h_gadget;
  if (!h5_util_path_exists(file, name_h_gadget)) {
    IONF_CHECK(h5_util_path_exists(file, name_h_swift), IONF_ERR_INPUT,
               "%s '%s' has no smoothing lengths: neither '%s' (Gadget) nor '%s' (SWIFT)", KIND,
               path, name_h_gadget, name_h_swift);
    h_name = name_h_swift;
    swift = 1;
  }
  if (h5_util_path_exists(file, "/Units")) swift = 1;
  const char *rho_name = h5_util_path_exists(file, name_density[0])   ? name_density[0]
                         : h5_util_path_exists(file, name_density[1]) ? name_density[1]
                                                                      : NULL;
  const int has_masses = h5_util_path_exists(file, name_masses);
  IONF_CHECK(has_masses || hd.mass_table0 > 0.0, IONF_ERR_INPUT,
             "%s '%s' has no dataset '%s' and no equal mass in Header/MassTable[0]", KIND, path,
             name_masses);

  double u_l = 0.0, u_m = 0.0;
  IONF_CALL(read_units(file, path, o, &u_l, &u_m));
  struct conversion cv;
  IONF_CALL(read_conversion(file, path, o, &hd, swift, u_l, u_m, &cv));

  IONF_CALL(particles_alloc(n, rho_name != NULL, out));
  /* positions: finite, inside the box, in the file's units */
  IONF_CALL(read_column(file, path, name_coordinates, 2, n, out->pos_cm));
  static const char axis[3] = {'x', 'y', 'z'};
  for (int64_t i = 0; i < n; ++i) {
    const double *r = out->pos_cm + 3 * i;
    IONF_CHECK(isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]), IONF_ERR_INPUT,
               "%s:%s[%lld] = (%g, %g, %g): coordinates must be finite", path, name_coordinates,
               (long long)i, r[0], r[1], r[2]);
    for (int a = 0; hd.has_box && a < 3; ++a)
      IONF_CHECK(r[a] >= 0.0 && r[a] <= hd.box[a], IONF_ERR_INPUT,
                 "%s:%s[%lld] = (%g, %g, %g) lies outside the box along %c: [0, %g] "
                 "(Header/BoxSize, file units)",
                 path, name_coordinates, (long long)i, r[0], r[1], r[2], axis[a], hd.box[a]);
  }
  IONF_CALL(read_column(file, path, h_name, 1, n, out->h_cm));
  IONF_CALL(check_positive(path, h_name, out->h_cm, n, 0, "smoothing lengths"));
  if (has_masses) {
    IONF_CALL(read_column(file, path, name_masses, 1, n, out->mass_g));
    IONF_CALL(check_positive(path, name_masses, out->mass_g, n, 0, "masses"));
  } else {
    for (int64_t i = 0; i < n; ++i) out->mass_g[i] = hd.mass_table0;
  }
  if (rho_name) {
    IONF_CALL(read_column(file, path, rho_name, 1, n, out->density_g_cm3));
    IONF_CALL(check_positive(path, rho_name, out->density_g_cm3, n, 1, "densities"));
  }

  /* to physical CGS */
  double f_pos = cv.length, f_h = cv.length * cv.h_support, f_m = cv.mass, f_rho = cv.density;
  double f_box = cv.length;
  if (swift) {
    double f;
    IONF_CALL(swift_factor(file, path, name_coordinates, 1.0, &cv, &f));
    f_pos *= f;
    f_box *= f;
    IONF_CALL(swift_factor(file, path, h_name, 1.0, &cv, &f));
    f_h *= f;
    if (has_masses) IONF_CALL(swift_factor(file, path, name_masses, 0.0, &cv, &f));
    else f = 1.0;
    f_m *= f;
    if (rho_name) {
      IONF_CALL(swift_factor(file, path, rho_name, -3.0, &cv, &f));
      f_rho *= f;
    }
  }
  scale(out->pos_cm, 3 * n, f_pos);
  scale(out->h_cm, n, f_h);
  scale(out->mass_g, n, f_m);
  if (rho_name) scale(out->density_g_cm3, n, f_rho);
  out->has_box = hd.has_box;
  for (int a = 0; a < 3; ++a) out->box_size_cm[a] = hd.has_box ? hd.box[a] * f_box : 0.0;
  if (o->periodic >= 0)
    out->periodic = o->periodic;
  else
    out->periodic = hd.has_periodic_attr ? hd.periodic_attr : hd.has_box;
  IONF_CHECK(!out->periodic || hd.has_box, IONF_ERR_INPUT,
             "%s '%s' has no box (Header/BoxSize) but is to be read as periodic", KIND, path);
  out->redshift = hd.has_redshift ? hd.redshift : 0.0;
  out->scale_factor = cv.cosmological ? cv.a : 1.0;
  out->hubble_param = cv.hubble;
  particles_set_hydrogen(out, o->hydrogen_mass_fraction);
  return IONF_OK;
}

ionf_err io_particles_read(const char *path, const struct io_particles_options *options,
                           struct particle_set *out) {
  IONF_CHECK(path && out, IONF_ERR_INTERNAL, "io_particles_read: NULL argument");
  memset(out, 0, sizeof *out);
  struct io_particles_options o;
  if (options)
    o = *options;
  else
    io_particles_default_options(&o);
  IONF_CHECK(o.hydrogen_mass_fraction > 0.0 && o.hydrogen_mass_fraction <= 1.0, IONF_ERR_INPUT,
             "hydrogen mass fraction %g for '%s'; it must be in (0, 1]", o.hydrogen_mass_fraction,
             path);
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, KIND, &quiet, &file));
  ionf_err rc = read_particles(file, path, &o, out);
  h5_util_close_read(file, &quiet);
  if (rc != IONF_OK) {
    particles_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

/* ---- writing -------------------------------------------------------------------------- */

static int write_contents(hid_t file, const struct particle_set *p) {
  const uint64_t n = (uint64_t)p->count;
  hid_t header = H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (header < 0) return 0;
  int ok = gadget_put_header(header, p) &&
           h5_util_attr_put_double(header, "Redshift", p->redshift) &&
           h5_util_attr_put_double(header, "Time", p->scale_factor) &&
           h5_util_attr_put_double(header, "HubbleParam", p->hubble_param);
  if (H5Gclose(header) < 0) ok = 0;
  if (!ok) return 0;

  hid_t params = H5Gcreate2(file, "Parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (params < 0) return 0;
  ok = h5_util_attr_put_int32(params, "ComovingIntegrationOn", 0) &&
       h5_util_attr_put_double(params, "UnitLength_in_cm", 1.0) &&
       h5_util_attr_put_double(params, "UnitMass_in_g", 1.0) &&
       h5_util_attr_put_double(params, "HubbleParam", p->hubble_param);
  if (H5Gclose(params) < 0) ok = 0;
  if (!ok) return 0;

  hid_t gas = H5Gcreate2(file, "PartType0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (gas < 0) return 0;
  hsize_t dims[2] = {(hsize_t)n, 3};
  uint64_t *ids = malloc((size_t)(n ? n : 1) * sizeof *ids);
  ok = ids != NULL;
  for (uint64_t i = 0; ok && i < n; ++i) ids[i] = i + 1;
  const hid_t f64 = H5T_IEEE_F64LE, dbl = H5T_NATIVE_DOUBLE;
  ok = ok && h5_util_put_dataset(gas, "Coordinates", f64, dbl, 2, dims, p->pos_cm) &&
       h5_util_put_dataset(gas, "SmoothingLength", f64, dbl, 1, dims, p->h_cm) &&
       h5_util_put_dataset(gas, "Masses", f64, dbl, 1, dims, p->mass_g) &&
       (!p->density_g_cm3 ||
        h5_util_put_dataset(gas, "Density", f64, dbl, 1, dims, p->density_g_cm3)) &&
       h5_util_put_dataset(gas, "ParticleIDs", H5T_STD_U64LE, H5T_NATIVE_UINT64, 1, dims, ids);
  free(ids);
  if (H5Gclose(gas) < 0) ok = 0;
  return ok;
}

ionf_err io_particles_write(const char *path, const struct particle_set *p) {
  IONF_CHECK(path && p && p->pos_cm && p->h_cm && p->mass_g, IONF_ERR_INTERNAL,
             "io_particles_write: NULL argument");
  IONF_CHECK(p->count >= 1, IONF_ERR_INPUT, "cannot write %s '%s': no particles", KIND, path);
  char tmp[1024];
  hid_t file;
  struct h5_util_quiet quiet;
  IONF_CALL(h5_util_create_temp(path, KIND, tmp, sizeof tmp, &quiet, &file));
  ionf_err rc = h5_util_close_temp(file, write_contents(file, p), &quiet, KIND, path);
  return output_file_commit(rc, tmp, path, KIND);
}
