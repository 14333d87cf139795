/**
 * @file test_particles_io.c
 * @brief SPH particle files: a generated set written and read back bit for
 *        bit; SWIFT files (Units group, SmoothingLengths with Kernel gamma,
 *        a-scale exponents) and comoving h-scaled Gadget files (MassTable
 *        masses) converted to physical CGS; and every bad input refused with
 *        a message naming the file, the dataset or attribute, the particle
 *        and the value.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constants.h"
#include "core/error.h"
#include "io/io_particles.h"
#include "particles/particles.h"
#include "particles/particles_make.h"
#include "test_util.h"

#define N 10

static char dir[64];
static int verbose;

/* ---- a snapshot written with plain HDF5 calls, with knobs to break it --------------------- */

struct spec {
  int swift;            /* SWIFT names and groups instead of Gadget's */
  int numpart;          /* Header/NumPart_ThisFile[0] */
  int files;            /* NumFilesPerSnapshot */
  int no_header, no_coordinates, no_smoothing, no_units, no_kernel_gamma, masses_in_table;
  int coordinate_columns;
  int mass_rows;
  double box;           /* Header/BoxSize (scalar; SWIFT: 3-vector) */
  double redshift, time, hubble;
  int comoving;         /* -1: do not write the flag */
  double x[N][3], h[N], m[N], rho[N];
};

static void spec_default(struct spec *s, int swift) {
  memset(s, 0, sizeof *s);
  s->swift = swift;
  s->numpart = N;
  s->files = 1;
  s->coordinate_columns = 3;
  s->mass_rows = N;
  s->box = 10.0;
  s->time = 1.0;
  s->hubble = 0.7;
  s->comoving = -1;
  for (int i = 0; i < N; ++i) {
    for (int a = 0; a < 3; ++a) s->x[i][a] = 0.5 + i + 0.1 * a;
    s->h[i] = 0.5 + 0.01 * i;
    s->m[i] = 1.0 + i;
    s->rho[i] = 2.0 + i;
  }
}

static void put_attr(hid_t obj, const char *name, const double *v, int count) {
  hsize_t c = (hsize_t)count;
  hid_t space = count > 1 ? H5Screate_simple(1, &c, NULL) : H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_DOUBLE, v);
  H5Aclose(a);
  H5Sclose(space);
}

static void put_dataset(hid_t file, const char *name, const double *v, hsize_t rows, int cols,
                        double a_exp, int swift) {
  hsize_t dims[2] = {rows, (hsize_t)cols};
  hid_t space = H5Screate_simple(cols > 1 ? 2 : 1, dims, NULL);
  hid_t d = H5Dcreate2(file, name, H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (cols > 1 && cols != 3) { /* a bad shape: the first columns */
    double *buf = calloc(rows * (hsize_t)cols, sizeof *buf);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    free(buf);
  } else {
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  }
  if (swift) {
    put_attr(d, "a-scale exponent", &a_exp, 1);
    double zero = 0.0;
    put_attr(d, "h-scale exponent", &zero, 1);
  }
  H5Dclose(d);
  H5Sclose(space);
}

static void write_spec(const char *path, const struct spec *s) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!s->no_header) {
    hid_t h = H5Gcreate2(f, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double np[6] = {s->numpart, 0, 5, 0, 0, 0}, mt[6] = {s->masses_in_table ? 0.25 : 0.0};
    double files = s->files, box3[3] = {s->box, s->box, s->box};
    put_attr(h, "NumPart_ThisFile", np, 6);
    put_attr(h, "NumPart_Total", np, 6);
    put_attr(h, "MassTable", mt, 6);
    put_attr(h, "NumFilesPerSnapshot", &files, 1);
    put_attr(h, "BoxSize", box3, s->swift ? 3 : 1);
    put_attr(h, "Redshift", &s->redshift, 1);
    put_attr(h, "Time", &s->time, 1);
    if (s->swift) {
      double a = 1.0 / (1.0 + s->redshift);
      put_attr(h, "Scale-factor", &a, 1);
    } else {
      put_attr(h, "HubbleParam", &s->hubble, 1);
    }
    if (!s->no_units && !s->swift) {
      double ul = IONF_KPC_CM, um = 1.989e43;
      put_attr(h, "UnitLength_in_cm", &ul, 1);
      put_attr(h, "UnitMass_in_g", &um, 1);
    }
    H5Gclose(h);
  }
  if (s->swift) {
    if (!s->no_units) {
      hid_t u = H5Gcreate2(f, "Units", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      double ul = IONF_MPC_CM, um = 1.989e43;
      put_attr(u, "Unit length in cgs (U_L)", &ul, 1);
      put_attr(u, "Unit mass in cgs (U_M)", &um, 1);
      H5Gclose(u);
    }
    hid_t c = H5Gcreate2(f, "Cosmology", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double run = s->comoving > 0 ? 1.0 : 0.0;
    put_attr(c, "Cosmological run", &run, 1);
    put_attr(c, "h", &s->hubble, 1);
    H5Gclose(c);
    if (!s->no_kernel_gamma) {
      hid_t k = H5Gcreate2(f, "HydroScheme", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      double gamma = 1.825742;
      put_attr(k, "Kernel gamma", &gamma, 1);
      H5Gclose(k);
    }
  } else if (s->comoving >= 0) {
    hid_t p = H5Gcreate2(f, "Parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double on = s->comoving;
    put_attr(p, "ComovingIntegrationOn", &on, 1);
    H5Gclose(p);
  }
  hid_t g = H5Gcreate2(f, "PartType0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Gclose(g);
  if (!s->no_coordinates)
    put_dataset(f, "/PartType0/Coordinates", &s->x[0][0], N, s->coordinate_columns, 1.0, s->swift);
  if (!s->no_smoothing)
    put_dataset(f, s->swift ? "/PartType0/SmoothingLengths" : "/PartType0/SmoothingLength", s->h,
                N, 1, 1.0, s->swift);
  if (!s->masses_in_table)
    put_dataset(f, "/PartType0/Masses", s->m, (hsize_t)s->mass_rows, 1, 0.0, s->swift);
  put_dataset(f, s->swift ? "/PartType0/Densities" : "/PartType0/Density", s->rho, N, 1, -3.0,
              s->swift);
  H5Fclose(f);
}

/* Write s, read it, expect an input error whose message holds both fragments. */
static void expect_refused(const struct spec *s, const struct io_particles_options *o,
                           ionf_err want, const char *frag1, const char *frag2, const char *what) {
  char path[128];
  snprintf(path, sizeof path, "%s/bad.h5", dir);
  write_spec(path, s);
  struct particle_set p;
  ionf_err rc = io_particles_read(path, o, &p);
  const char *msg = ionf_error_message();
  if (verbose) printf("%-26s -> %s\n", what, msg);
  EXPECT(rc == want, "%s: code %d, expected %d (%s)", what, (int)rc, (int)want, msg);
  EXPECT(strstr(msg, frag1), "%s: message '%s' lacks '%s'", what, msg, frag1);
  EXPECT(!frag2 || strstr(msg, frag2), "%s: message '%s' lacks '%s'", what, msg, frag2);
  EXPECT(strstr(msg, "bad.h5"), "%s: message '%s' does not name the file", what, msg);
  if (rc == IONF_OK) particles_free(&p);
  ionf_error_clear();
}

int main(void) {
  verbose = getenv("IONF_TEST_VERBOSE") != NULL;
  snprintf(dir, sizeof dir, "/tmp/ionf_particles_XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char path[128];

  /* round trip of a generated set */
  {
    struct particles_make_params prm;
    particles_make_default_params(&prm);
    prm.n_side = 8;
    prm.n_ngb = 32;
    prm.hydrogen_mass_fraction = 0.76;
    struct particle_set a, b;
    EXPECT(particles_make_lattice(&prm, &a) == IONF_OK, "generate: %s", ionf_error_message());
    snprintf(path, sizeof path, "%s/set.h5", dir);
    EXPECT(io_particles_write(path, &a) == IONF_OK, "write: %s", ionf_error_message());
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    EXPECT(access(tmp, F_OK) != 0, "the temporary file is gone");
    struct io_particles_options o;
    io_particles_default_options(&o);
    o.hydrogen_mass_fraction = 0.76;
    ionf_err rc = io_particles_read(path, &o, &b);
    EXPECT(rc == IONF_OK, "read back: %s", ionf_error_message());
    if (rc == IONF_OK) {
      size_t bytes = (size_t)a.count * sizeof(double);
      EXPECT(b.count == a.count, "count %lld vs %lld", (long long)b.count, (long long)a.count);
      EXPECT(!memcmp(a.pos_cm, b.pos_cm, 3 * bytes) && !memcmp(a.h_cm, b.h_cm, bytes) &&
                 !memcmp(a.mass_g, b.mass_g, bytes) &&
                 b.density_g_cm3 && !memcmp(a.density_g_cm3, b.density_g_cm3, bytes) &&
                 !memcmp(a.n_h_atoms, b.n_h_atoms, bytes),
             "round trip changed values");
      EXPECT(b.has_box && b.periodic == a.periodic && b.box_size_cm[2] == a.box_size_cm[2],
             "box and periodicity");
      particles_free(&b);
    }
    /* an open (non-periodic) set keeps its flag */
    a.periodic = 0;
    EXPECT(io_particles_write(path, &a) == IONF_OK, "write: %s", ionf_error_message());
    EXPECT(io_particles_read(path, NULL, &b) == IONF_OK && b.periodic == 0, "open set");
    particles_free(&b);
    particles_free(&a);
  }

  /* SWIFT, cosmological: Mpc and a = 1/3, h = gamma * h_SWIFT, densities a^-3 */
  {
    struct spec s;
    spec_default(&s, 1);
    s.redshift = 2.0;
    s.comoving = 1;
    snprintf(path, sizeof path, "%s/swift.h5", dir);
    write_spec(path, &s);
    struct particle_set p;
    ionf_err rc = io_particles_read(path, NULL, &p);
    EXPECT(rc == IONF_OK, "SWIFT: %s", ionf_error_message());
    if (rc == IONF_OK) {
      const double a = 1.0 / 3.0, ul = IONF_MPC_CM, um = 1.989e43;
      /* the file holds float32: compare against the rounded inputs */
      EXPECT_REL(p.pos_cm[3 * 4 + 1], (double)(float)s.x[4][1] * ul * a, 1e-15, "SWIFT position");
      EXPECT_REL(p.h_cm[7], (double)(float)s.h[7] * 1.825742 * ul * a, 1e-15, "SWIFT h");
      EXPECT_REL(p.mass_g[2], s.m[2] * um, 1e-15, "SWIFT mass");
      EXPECT_REL(p.density_g_cm3[3], s.rho[3] * um / (ul * ul * ul) / (a * a * a), 1e-14,
                 "SWIFT density");
      EXPECT_REL(p.box_size_cm[0], 10.0 * ul * a, 1e-15, "SWIFT box");
      EXPECT(p.periodic == 1 && p.scale_factor == a, "SWIFT periodic, a = %g", p.scale_factor);
      particles_free(&p);
    }
  }

  /* Gadget, comoving and h-scaled (detected from the redshift), masses from the MassTable */
  {
    struct spec s;
    spec_default(&s, 0);
    s.redshift = 3.0;
    s.time = 0.25;
    s.masses_in_table = 1;
    snprintf(path, sizeof path, "%s/gadget.h5", dir);
    write_spec(path, &s);
    struct particle_set p;
    ionf_err rc = io_particles_read(path, NULL, &p);
    EXPECT(rc == IONF_OK, "Gadget comoving: %s", ionf_error_message());
    if (rc == IONF_OK) {
      const double ul = IONF_KPC_CM * 0.25 / 0.7, um = 1.989e43 / 0.7;
      EXPECT_REL(p.pos_cm[0], (double)(float)s.x[0][0] * ul, 1e-15, "Gadget position");
      EXPECT_REL(p.h_cm[9], (double)(float)s.h[9] * ul, 1e-15, "Gadget h (support radius)");
      EXPECT_REL(p.mass_g[5], 0.25 * um, 1e-15, "Gadget MassTable mass");
      EXPECT_REL(p.density_g_cm3[0],
                 s.rho[0] * 1.989e43 / pow(IONF_KPC_CM, 3) * 0.7 * 0.7 / pow(0.25, 3), 1e-14,
                 "Gadget density");
      particles_free(&p);
    }
    /* the same file read as physical values on request */
    struct io_particles_options o;
    io_particles_default_options(&o);
    o.comoving = 0;
    rc = io_particles_read(path, &o, &p);
    EXPECT(rc == IONF_OK && fabs(p.pos_cm[0] / ((double)(float)s.x[0][0] * IONF_KPC_CM) - 1) < 1e-15,
           "comoving: 0 keeps the values physical");
    if (rc == IONF_OK) particles_free(&p);
  }

  /* bad inputs */
  struct spec s;
  struct io_particles_options o;
  io_particles_default_options(&o);
  {
    struct particle_set p;
    snprintf(path, sizeof path, "%s/none.h5", dir);
    ionf_err rc = io_particles_read(path, NULL, &p);
    EXPECT(rc == IONF_ERR_IO && strstr(ionf_error_message(), "none.h5") &&
               strstr(ionf_error_message(), "No such file"),
           "missing file: %s", ionf_error_message());
    ionf_error_clear();
  }
  spec_default(&s, 0);
  s.no_header = 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "no /Header group", NULL, "no header");
  spec_default(&s, 0);
  s.no_coordinates = 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "has no dataset '/PartType0/Coordinates'", NULL,
                 "missing coordinates");
  spec_default(&s, 0);
  s.no_smoothing = 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "no smoothing lengths", "SmoothingLengths",
                 "missing smoothing lengths");
  spec_default(&s, 0);
  s.mass_rows = N - 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "'/PartType0/Masses'", "has 9 rows",
                 "masses of the wrong length");
  spec_default(&s, 0);
  s.coordinate_columns = 2;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "Coordinates", "shape (10, 2)", "coordinates (n, 2)");
  spec_default(&s, 0);
  s.h[3] = -0.5;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "/PartType0/SmoothingLength[3] = -0.5", "> 0",
                 "negative h");
  spec_default(&s, 0);
  s.m[6] = 0.0;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "/PartType0/Masses[6] = 0", "masses",
                 "zero mass");
  spec_default(&s, 0);
  s.x[2][1] = NAN;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "/PartType0/Coordinates[2] = (", "nan",
                 "NaN position");
  spec_default(&s, 0);
  s.x[4][2] = 10.5;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "Coordinates[4]", "outside the box along z",
                 "particle outside the box");
  spec_default(&s, 0);
  s.rho[8] = NAN;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "/PartType0/Density[8] = nan", NULL, "NaN density");
  spec_default(&s, 0);
  s.numpart = 12;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "has 10 rows", "says 12", "header count");
  spec_default(&s, 0);
  s.files = 4;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "one of 4 files", "join", "multi-file snapshot");
  spec_default(&s, 0);
  s.no_units = 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "does not say its length unit", "UnitLength_in_cm",
                 "no units");
  o.unit_length_cm = IONF_KPC_CM;
  o.unit_mass_g = 1.989e43;
  {
    snprintf(path, sizeof path, "%s/units.h5", dir);
    write_spec(path, &s);
    struct particle_set p;
    EXPECT(io_particles_read(path, &o, &p) == IONF_OK, "units given by the caller: %s",
           ionf_error_message());
    EXPECT_REL(p.h_cm[0], (double)(float)s.h[0] * IONF_KPC_CM, 1e-15, "caller's units used");
    particles_free(&p);
  }
  io_particles_default_options(&o);
  spec_default(&s, 1);
  s.no_kernel_gamma = 1;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "Kernel gamma", "SmoothingLengths",
                 "SWIFT without kernel gamma");
  spec_default(&s, 0);
  s.redshift = 3.0;
  s.time = 0.5;
  expect_refused(&s, NULL, IONF_ERR_INPUT, "Header/Time = 0.5", "Redshift = 3",
                 "Time is not a(z)");

  /* writing where it cannot */
  {
    struct particles_make_params prm;
    particles_make_default_params(&prm);
    prm.n_side = 4;
    prm.n_ngb = 8;
    struct particle_set p;
    EXPECT(particles_make_lattice(&prm, &p) == IONF_OK, "small set");
    snprintf(path, sizeof path, "%s/no/such/dir/x.h5", dir);
    ionf_err rc = io_particles_write(path, &p);
    EXPECT(rc == IONF_ERR_IO && strstr(ionf_error_message(), "x.h5"), "unwritable path: %s",
           ionf_error_message());
    ionf_error_clear();
    particles_free(&p);
  }

  /* tidy up */
  const char *files[] = {"set.h5", "swift.h5", "gadget.h5", "bad.h5", "units.h5"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    remove(path);
  }
  rmdir(dir);
  TEST_RETURN();
}
