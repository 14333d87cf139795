/**
 * @file test_sidecars.c
 * @brief The viewer sidecars of a snapshot put the cells where they are: the XDMF
 *        data file holds each field transposed (x fastest, so that XDMF's X is our i)
 *        and its .xmf names it; the VTKHDF file links to the snapshot's fields (read
 *        back through the links from another folder) with the direction matrix that
 *        maps VTK's first index, our k, to z.  Errors name the path.
 */
#define _POSIX_C_SOURCE 200809L

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "io/vtkhdf.h"
#include "io/xdmf.h"
#include "test_util.h"

enum { NX = 5 };
#define NC (NX * NX * NX)

static char tmp_dir[64];

/* A value per cell (i, j, k), distinct. */
static double cell_value(int i, int j, int k) { return 1.0 + 100.0 * i + 10.0 * j + k + 1.0 / 3.0; }

/* A snapshot stand-in: /Grid/x_HII, /Grid/Gamma_HI, /Grid/n_H, [i][j][k] with k fastest. */
static int write_snapshot(const char *path) {
  double data[NC];
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NX; ++j)
      for (int k = 0; k < NX; ++k) data[(i * NX + j) * NX + k] = cell_value(i, j, k);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return 0;
  hid_t g = H5Gcreate2(f, "Grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[3] = {NX, NX, NX};
  hid_t space = H5Screate_simple(3, dims, NULL);
  const char *names[3] = {"x_HII", "Gamma_HI", "n_H"};
  int ok = g >= 0 && space >= 0;
  for (int d = 0; ok && d < 3; ++d) {
    for (int c = 0; c < NC; ++c) data[c] += d == 0 ? 0.0 : 1000.0; /* each field its own */
    hid_t set = H5Dcreate2(g, names[d], H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ok = set >= 0 && H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
    if (set >= 0) H5Dclose(set);
  }
  H5Sclose(space);
  H5Gclose(g);
  H5Fclose(f);
  return ok;
}

/* Whole dataset `name` of `path` (NC doubles) into out; 1 on success. */
static int read_field(const char *path, const char *name, double *out) {
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return 0;
  hid_t set = H5Dopen2(f, name, H5P_DEFAULT);
  int ok = set >= 0 && H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
  if (set >= 0) H5Dclose(set);
  H5Fclose(f);
  return ok;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = calloc(1, 1 << 16);
  if (buf) buf[fread(buf, 1, (1 << 16) - 1, f)] = 0;
  fclose(f);
  return buf;
}

static void test_xdmf(const char *h5) {
  char xmf[160], data[160];
  snprintf(xmf, sizeof xmf, "%s/snapshot_0003.xmf", tmp_dir);
  snprintf(data, sizeof data, "%s/snapshot_0003_xdmf.h5", tmp_dir);
  const char *const names[3] = {"x_HII", "Gamma_HI", "n_H"};
  ionf_error_clear();
  EXPECT(xdmf_write_sidecar(h5, NX, 6.6, "kpc", 1.5e13, names, 3) == IONF_OK, "xdmf: %s",
         ionf_error_message());
  /* the data file: NAME[k][j][i] == /Grid/NAME[i][j][k], every field */
  double t[NC], g[NC];
  for (int d = 0; d < 3; ++d) {
    char grid_name[32];
    snprintf(grid_name, sizeof grid_name, "/Grid/%s", names[d]);
    EXPECT(read_field(data, names[d], t) && read_field(h5, grid_name, g), "read %s", names[d]);
    int bad = 0;
    for (int i = 0; i < NX; ++i)
      for (int j = 0; j < NX; ++j)
        for (int k = 0; k < NX; ++k)
          bad += memcmp(&t[(k * NX + j) * NX + i], &g[(i * NX + j) * NX + k], sizeof(double)) != 0;
    EXPECT(bad == 0, "%s: %d cells are not the transpose of the snapshot's", names[d], bad);
  }
  char *text = slurp(xmf);
  EXPECT(text != NULL, "no file '%s'", xmf);
  if (text) {
    EXPECT(strstr(text, ">snapshot_0003_xdmf.h5:/x_HII<") != NULL, "x_HII path:\n%s", text);
    EXPECT(strstr(text, ">snapshot_0003_xdmf.h5:/Gamma_HI<") != NULL, "Gamma_HI path");
    EXPECT(strstr(text, ">snapshot_0003_xdmf.h5:/n_H<") != NULL, "n_H path");
    EXPECT(strstr(text, tmp_dir) == NULL, "the directory should not appear:\n%s", text);
    EXPECT(strstr(text, "3DCoRectMesh") && strstr(text, "ORIGIN_DXDYDZ"), "mesh types");
    EXPECT(strstr(text, "Dimensions=\"6 6 6\"") != NULL, "node dimensions n+1");
    EXPECT(strstr(text, "Dimensions=\"5 5 5\"") != NULL, "cell dimensions n");
    EXPECT(strstr(text, "Center=\"Cell\"") != NULL, "cell-centred");
    EXPECT(strstr(text, "Time Value=\"15000000000000\"") != NULL, "time");
    char spacing[80];
    snprintf(spacing, sizeof spacing, "%.17g %.17g %.17g", 6.6 / NX, 6.6 / NX, 6.6 / NX);
    EXPECT(strstr(text, spacing) != NULL, "spacing '%s'", spacing);
    int attrs = 0;
    for (const char *p = text; (p = strstr(p, "<Attribute ")) != NULL; ++p) ++attrs;
    EXPECT(attrs == 3, "%d attributes", attrs);
  }
  free(text);
  if (access("/usr/bin/python3", X_OK) == 0) {
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c \"import xml.etree.ElementTree as E; "
             "r = E.parse('%s').getroot(); "
             "assert r.tag == 'Xdmf' and len(r.findall('.//Attribute')) == 3\"", xmf);
    EXPECT(system(cmd) == 0, "python3's xml.etree cannot parse '%s'", xmf);
  }
  char tmp[200];
  snprintf(tmp, sizeof tmp, "%s.tmp", xmf);
  EXPECT(access(tmp, F_OK) != 0, "temporary file left behind");
  snprintf(tmp, sizeof tmp, "%s.tmp", data);
  EXPECT(access(tmp, F_OK) != 0, "temporary data file left behind");
  unlink(xmf);
  unlink(data);

  /* a dataset the snapshot lacks: an error naming it, nothing left behind */
  const char *const missing[1] = {"T"};
  ionf_error_clear();
  EXPECT(xdmf_write_sidecar(h5, NX, 6.6, "kpc", 0.0, missing, 1) == IONF_ERR_IO, "missing field");
  EXPECT(strstr(ionf_error_message(), "/Grid/T") != NULL, "names the field: %s", ionf_error_message());
  EXPECT(access(data, F_OK) != 0 && access(xmf, F_OK) != 0, "files left after a failure");
  /* bad names are refused; a missing folder is named */
  const char *const slash[1] = {"Grid/x"};
  ionf_error_clear();
  EXPECT(xdmf_write_sidecar(h5, NX, 1.0, "cm", 0.0, slash, 1) == IONF_ERR_INPUT, "name with '/'");
  char nodir[128];
  snprintf(nodir, sizeof nodir, "%s/no_dir/s.h5", tmp_dir);
  ionf_error_clear();
  EXPECT(xdmf_write_sidecar(nodir, NX, 1.0, "cm", 0.0, names, 3) == IONF_ERR_IO, "missing dir");
  EXPECT(strstr(ionf_error_message(), "no_dir/s.h5") != NULL, "names the path: %s",
         ionf_error_message());
  ionf_error_clear();
}

static void test_vtkhdf(const char *h5) {
  char vtk[160];
  snprintf(vtk, sizeof vtk, "%s/snapshot_0003.vtk.hdf", tmp_dir);
  const char *const names[3] = {"x_HII", "Gamma_HI", "n_H"};
  ionf_error_clear();
  EXPECT(vtkhdf_write_sidecar(h5, NX, 6.6, "kpc", 12.5, names, 3) == IONF_OK, "vtkhdf: %s",
         ionf_error_message());
  /* the links resolve from another working directory, to the snapshot's own values */
  char here[512];
  EXPECT(getcwd(here, sizeof here) != NULL && chdir("/") == 0, "chdir");
  double v[NC], g[NC];
  for (int d = 0; d < 3; ++d) {
    char link[64], grid_name[32];
    snprintf(link, sizeof link, "/VTKHDF/PointData/%s", names[d]);
    snprintf(grid_name, sizeof grid_name, "/Grid/%s", names[d]);
    EXPECT(read_field(vtk, link, v) && read_field(h5, grid_name, g), "read %s through the link",
           names[d]);
    EXPECT(memcmp(v, g, sizeof v) == 0, "%s through the link differs", names[d]);
  }
  EXPECT(chdir(here) == 0, "chdir back");
  /* the geometry: cell (i, j, k) of the snapshot at world (i + 1/2, j + 1/2, k + 1/2) dx */
  hid_t f = H5Fopen(vtk, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t root = f >= 0 ? H5Gopen2(f, "VTKHDF", H5P_DEFAULT) : -1;
  double dir[9] = {0}, origin[3] = {0}, spacing[3] = {0};
  int64_t extent[6] = {0}, version[2] = {0};
  const struct { const char *name; hid_t type; void *out; } attrs[] = {
      {"Direction", H5T_NATIVE_DOUBLE, dir},       {"Origin", H5T_NATIVE_DOUBLE, origin},
      {"Spacing", H5T_NATIVE_DOUBLE, spacing},     {"WholeExtent", H5T_NATIVE_INT64, extent},
      {"Version", H5T_NATIVE_INT64, version}};
  for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; ++a) {
    hid_t at = root >= 0 ? H5Aopen(root, attrs[a].name, H5P_DEFAULT) : -1;
    EXPECT(at >= 0 && H5Aread(at, attrs[a].type, attrs[a].out) >= 0, "attribute %s", attrs[a].name);
    if (at >= 0) H5Aclose(at);
  }
  const double dx = 6.6 / NX;
  const int i = 3, j = 1, k = 0; /* VTK index (I, J, K) = (k, j, i) */
  const double index_xyz[3] = {k * dx, j * dx, i * dx};
  double world[3];
  for (int r = 0; r < 3; ++r) {
    world[r] = origin[r];
    for (int c = 0; c < 3; ++c) world[r] += dir[3 * r + c] * index_xyz[c];
  }
  EXPECT(fabs(world[0] - (i + 0.5) * dx) < 1e-12 && fabs(world[1] - (j + 0.5) * dx) < 1e-12 &&
             fabs(world[2] - (k + 0.5) * dx) < 1e-12,
         "cell (3, 1, 0) lands at world (%g, %g, %g), want (%g, %g, %g)", world[0], world[1],
         world[2], (i + 0.5) * dx, (j + 0.5) * dx, (k + 0.5) * dx);
  EXPECT(extent[1] == NX - 1 && extent[3] == NX - 1 && extent[5] == NX - 1, "extent");
  EXPECT(version[0] == 1 && version[1] == 0, "version %lld.%lld", (long long)version[0],
         (long long)version[1]);
  if (root >= 0) H5Gclose(root);
  if (f >= 0) H5Fclose(f);
  unlink(vtk);
  /* errors */
  const char *const slash[1] = {"Grid/x"};
  ionf_error_clear();
  EXPECT(vtkhdf_write_sidecar(h5, NX, 1.0, "cm", 0.0, slash, 1) == IONF_ERR_INPUT, "name with '/'");
  EXPECT(vtkhdf_write_sidecar(h5, 0, 1.0, "cm", 0.0, names, 3) == IONF_ERR_INPUT, "n = 0");
  char nodir[128];
  snprintf(nodir, sizeof nodir, "%s/no_dir/s.h5", tmp_dir);
  ionf_error_clear();
  EXPECT(vtkhdf_write_sidecar(nodir, NX, 1.0, "cm", 0.0, names, 3) == IONF_ERR_IO, "missing dir");
  EXPECT(strstr(ionf_error_message(), "no_dir/s.vtk.hdf") != NULL, "names the path: %s",
         ionf_error_message());
  ionf_error_clear();
}

int main(void) {
  snprintf(tmp_dir, sizeof tmp_dir, "/tmp/ionf_test_sidecars_XXXXXX");
  if (!mkdtemp(tmp_dir)) {
    perror("mkdtemp");
    return 1;
  }
  char h5[128];
  snprintf(h5, sizeof h5, "%s/snapshot_0003.h5", tmp_dir);
  EXPECT(write_snapshot(h5), "cannot write the stand-in snapshot '%s'", h5);
  test_xdmf(h5);
  test_vtkhdf(h5);
  unlink(h5);
  EXPECT(rmdir(tmp_dir) == 0, "temporary directory '%s' not empty", tmp_dir);
  TEST_RETURN();
}
