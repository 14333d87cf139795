/**
 * @file xdmf.c
 * @brief XDMF 3 sidecar of an HDF5 snapshot (see xdmf.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/xdmf.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/h5_util.h"
#include "io/output_file.h"

/* Write `s` with the five XML special characters escaped (valid in attribute
 * values and in text). */
static void xdmf_put_escaped(FILE *f, const char *s) {
  for (; *s; ++s) {
    switch (*s) {
      case '&': fputs("&amp;", f); break;
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '"': fputs("&quot;", f); break;
      case '\'': fputs("&apos;", f); break;
      default: fputc(*s, f); break;
    }
  }
}

enum { IONF_XDMF_PATH_MAX = 4096 };

/* 1 when the name can stand in an HDF5 path inside an XDMF DataItem: not empty,
 * no '/', ':' (separates file and path) and no control characters. */
static int xdmf_name_ok(const char *name) {
  if (!name || !name[0] || strlen(name) > 200) return 0;
  for (const char *c = name; *c; ++c)
    if (*c == '/' || *c == ':' || (unsigned char)*c < 0x20) return 0;
  return 1;
}

/* The XML text; 0 on success, else errno (or EIO). */
static int xdmf_write_body(FILE *f, const char *data_base, int64_t n, double box_size,
                           const char *length_unit, double time, const char *const *datasets,
                           int n_datasets) {
  const long long nn = (long long)n, nodes = (long long)n + 1;
  const double dx = box_size / (double)n;
  errno = 0;
  fputs("<?xml version=\"1.0\" ?>\n", f);
  fputs("<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n", f);
  fputs("<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n", f);
  fputs("  <Domain>\n", f);
  fputs("    <Grid Name=\"ionfront\" GridType=\"Uniform\">\n", f);
  fprintf(f, "      <Time Value=\"%.17g\"/>\n", time);
  if (length_unit && length_unit[0]) {
    fputs("      <Information Name=\"length_unit\" Value=\"", f);
    xdmf_put_escaped(f, length_unit);
    fputs("\"/>\n", f);
  }
  fprintf(f, "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%lld %lld %lld\"/>\n",
          nodes, nodes, nodes);
  fputs("      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n", f);
  fputs("        <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
        "Format=\"XML\">0 0 0</DataItem>\n",
        f);
  fprintf(f,
          "        <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
          "Precision=\"8\" Format=\"XML\">%.17g %.17g %.17g</DataItem>\n",
          dx, dx, dx);
  fputs("      </Geometry>\n", f);
  for (int d = 0; d < n_datasets; ++d) {
    fputs("      <Attribute Name=\"", f);
    xdmf_put_escaped(f, datasets[d]);
    fputs("\" AttributeType=\"Scalar\" Center=\"Cell\">\n", f);
    fprintf(f,
            "        <DataItem Dimensions=\"%lld %lld %lld\" NumberType=\"Float\" "
            "Precision=\"8\" Format=\"HDF\">",
            nn, nn, nn);
    xdmf_put_escaped(f, data_base);
    fputs(":/", f);
    xdmf_put_escaped(f, datasets[d]);
    fputs("</DataItem>\n", f);
    fputs("      </Attribute>\n", f);
  }
  fputs("    </Grid>\n", f);
  fputs("  </Domain>\n", f);
  fputs("</Xdmf>\n", f);
  if (ferror(f)) return errno ? errno : EIO;
  if (fflush(f) != 0) return errno ? errno : EIO;
  if (fsync(fileno(f)) != 0) return errno ? errno : EIO;
  return 0;
}

/* One field, /Grid/NAME[i][j][k] of the snapshot, into `out` as NAME[k][j][i], by slabs
   of i (about 32 MiB each); 1 on success (HDF5's reason on its stack), -1 out of memory. */
static int xdmf_copy_transposed(hid_t snap, hid_t out, const char *name, int64_t n) {
  const size_t plane = (size_t)n * (size_t)n;
  size_t slab = ((size_t)32 << 20) / (sizeof(double) * plane);
  if (slab < 1) slab = 1;
  if (slab > (size_t)n) slab = (size_t)n;
  double *a = malloc(sizeof(double) * plane * slab), *b = malloc(sizeof(double) * plane * slab);
  char path[256];
  snprintf(path, sizeof path, "/Grid/%s", name);
  const hsize_t dims[3] = {(hsize_t)n, (hsize_t)n, (hsize_t)n};
  hid_t in = a && b ? H5Dopen2(snap, path, H5P_DEFAULT) : -1;
  hid_t in_space = in >= 0 ? H5Dget_space(in) : -1;
  hid_t out_space = H5Screate_simple(3, dims, NULL);
  hid_t set = out_space >= 0 && in_space >= 0
                  ? H5Dcreate2(out, name, H5T_IEEE_F64LE, out_space, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT)
                  : -1;
  int ok = set >= 0 && H5Sget_simple_extent_npoints(in_space) == (hssize_t)(plane * (size_t)n);
  for (size_t i0 = 0; ok && i0 < (size_t)n; i0 += slab) {
    const size_t ni = (size_t)n - i0 < slab ? (size_t)n - i0 : slab;
    const hsize_t in_start[3] = {i0, 0, 0}, in_count[3] = {ni, (hsize_t)n, (hsize_t)n};
    const hsize_t out_start[3] = {0, 0, i0}, out_count[3] = {(hsize_t)n, (hsize_t)n, ni};
    hid_t mem_in = H5Screate_simple(3, in_count, NULL), mem_out = H5Screate_simple(3, out_count, NULL);
    ok = mem_in >= 0 && mem_out >= 0 &&
         H5Sselect_hyperslab(in_space, H5S_SELECT_SET, in_start, NULL, in_count, NULL) >= 0 &&
         H5Dread(in, H5T_NATIVE_DOUBLE, mem_in, in_space, H5P_DEFAULT, a) >= 0;
    for (size_t ii = 0; ok && ii < ni; ++ii)
      for (size_t j = 0; j < (size_t)n; ++j)
        for (size_t k = 0; k < (size_t)n; ++k)
          b[(k * (size_t)n + j) * ni + ii] = a[(ii * (size_t)n + j) * (size_t)n + k];
    ok = ok && H5Sselect_hyperslab(out_space, H5S_SELECT_SET, out_start, NULL, out_count, NULL) >= 0 &&
         H5Dwrite(set, H5T_NATIVE_DOUBLE, mem_out, out_space, H5P_DEFAULT, b) >= 0;
    if (mem_in >= 0) H5Sclose(mem_in);
    if (mem_out >= 0) H5Sclose(mem_out);
  }
  if (set >= 0) H5Dclose(set);
  if (out_space >= 0) H5Sclose(out_space);
  if (in_space >= 0) H5Sclose(in_space);
  if (in >= 0) H5Dclose(in);
  int out_of_memory = !a || !b;
  free(a);
  free(b);
  return out_of_memory ? -1 : ok;
}

/* "<stem>_xdmf.h5": every dataset transposed to x fastest, landed whole or not at all. */
static ionf_err xdmf_write_data(const char *h5_path, const char *data_path, int64_t n,
                                const char *const *datasets, int n_datasets) {
  struct h5_util_quiet q_in, q_out;
  hid_t snap, out;
  char tmp[IONF_XDMF_PATH_MAX + 8];
  IONF_CALL(h5_util_open_read(h5_path, "snapshot", &q_in, &snap));
  ionf_err rc = h5_util_create_temp(data_path, "XDMF data file", tmp, sizeof tmp, &q_out, &out);
  if (rc != IONF_OK) {
    h5_util_close_read(snap, &q_in);
    return rc;
  }
  int ok = 1;
  const char *failed = NULL;
  for (int d = 0; ok == 1 && d < n_datasets; ++d) {
    ok = xdmf_copy_transposed(snap, out, datasets[d], n);
    if (ok != 1) failed = datasets[d];
  }
  if (ok != 1) { /* say which field first (the first message wins) */
    char detail[512] = "";
    if (ok == 0) h5_util_error_text(detail, sizeof detail);
    if (ok == -1)
      ionf_error_set(IONF_ERR_MEM, "out of memory copying '%s' for XDMF", failed);
    else
      ionf_error_set(IONF_ERR_IO, "cannot write XDMF data file '%s': copying /Grid/%s of '%s': %s",
                     data_path, failed, h5_path, detail);
  }
  rc = h5_util_close_temp(out, ok == 1, &q_out, "XDMF data file", data_path);
  h5_util_close_read(snap, &q_in);
  if (ok == -1) rc = IONF_ERR_MEM;
  return output_file_commit(rc, tmp, data_path, "XDMF data file");
}

ionf_err xdmf_write_sidecar(const char *h5_path, int64_t n, double box_size,
                            const char *length_unit, double time, const char *const *datasets,
                            int n_datasets) {
  IONF_CHECK(h5_path && h5_path[0], IONF_ERR_INPUT, "cannot write an XDMF file: no snapshot name");
  IONF_CHECK(n > 0, IONF_ERR_INPUT, "cannot write the XDMF file of '%s': grid size n = %lld is not positive",
             h5_path, (long long)n);
  IONF_CHECK(isfinite(box_size) && box_size > 0.0, IONF_ERR_INPUT,
             "cannot write the XDMF file of '%s': box size %g is not positive and finite", h5_path,
             box_size);
  IONF_CHECK(isfinite(time), IONF_ERR_INPUT, "cannot write the XDMF file of '%s': time %g is not finite",
             h5_path, time);
  IONF_CHECK(n_datasets >= 0 && (n_datasets == 0 || datasets), IONF_ERR_INPUT,
             "cannot write the XDMF file of '%s': no dataset list (%d datasets)", h5_path,
             n_datasets);
  for (int d = 0; d < n_datasets; ++d)
    IONF_CHECK(xdmf_name_ok(datasets[d]), IONF_ERR_INPUT,
               "cannot write the XDMF file of '%s': dataset name %d ('%s') is empty, longer than 200 or holds "
               "'/', ':' or a control character",
               h5_path, d, datasets[d] ? datasets[d] : "(null)");

  /* "<path without .h5>.xmf" and its ".tmp"; "<path without .h5>_xdmf.h5" */
  const size_t len = strlen(h5_path);
  const size_t stem = (len > 3 && strcmp(h5_path + len - 3, ".h5") == 0) ? len - 3 : len;
  IONF_CHECK(stem + 16 < IONF_XDMF_PATH_MAX, IONF_ERR_INPUT,
             "cannot write the XDMF file of '%s': the path is too long", h5_path);
  char xmf[IONF_XDMF_PATH_MAX], tmp[IONF_XDMF_PATH_MAX], data[IONF_XDMF_PATH_MAX];
  snprintf(xmf, sizeof xmf, "%.*s.xmf", (int)stem, h5_path);
  snprintf(tmp, sizeof tmp, "%.*s.xmf.tmp", (int)stem, h5_path);
  snprintf(data, sizeof data, "%.*s_xdmf.h5", (int)stem, h5_path);
  const char *slash = strrchr(data, '/');
  const char *data_base = slash ? slash + 1 : data;
  IONF_CALL(xdmf_write_data(h5_path, data, n, datasets, n_datasets));

  ionf_err rc = IONF_OK;
  FILE *f = fopen(tmp, "w");
  if (!f)
    return ionf_error_set(IONF_ERR_IO, "cannot write XDMF file '%s': cannot create '%s': %s", xmf,
                          tmp, strerror(errno));
  int err = xdmf_write_body(f, data_base, n, box_size, length_unit, time, datasets, n_datasets);
  errno = 0;
  if (fclose(f) != 0 && err == 0) err = errno ? errno : EIO;
  if (err != 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write XDMF file '%s': writing '%s': %s", xmf, tmp,
                        strerror(err));
  return output_file_commit(rc, tmp, xmf, "XDMF file");
}
