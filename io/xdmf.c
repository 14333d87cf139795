/**
 * @file xdmf.c
 * @brief XDMF 3 sidecar of an HDF5 snapshot (see xdmf.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "io/xdmf.h"
#include "io/output_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* 1 when the name can stand in an HDF5 path inside an XDMF DataItem: not empty,
 * no '/', ':' (separates file and path) and no control characters. */
static int xdmf_name_ok(const char *name) {
  if (!name || !name[0]) return 0;
  for (const char *c = name; *c; ++c)
    if (*c == '/' || *c == ':' || (unsigned char)*c < 0x20) return 0;
  return 1;
}

/* The XML text; 0 on success, else errno (or EIO). */
static int xdmf_write_body(FILE *f, const char *h5_base, int64_t n, double box_size,
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
    xdmf_put_escaped(f, h5_base);
    fputs(":/Grid/", f);
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
               "cannot write the XDMF file of '%s': dataset name %d ('%s') is empty or holds "
               "'/', ':' or a control character",
               h5_path, d, datasets[d] ? datasets[d] : "(null)");

  /* "<path without .h5>.xmf", its ".tmp", and the snapshot's basename */
  const size_t len = strlen(h5_path);
  const size_t stem = (len > 3 && strcmp(h5_path + len - 3, ".h5") == 0) ? len - 3 : len;
  char *xmf = ionf_malloc(2 * (stem + 16), "XDMF file names");
  if (!xmf) return IONF_ERR_MEM;
  char *tmp = xmf + stem + 16;
  memcpy(xmf, h5_path, stem);
  memcpy(xmf + stem, ".xmf", 5);
  memcpy(tmp, xmf, stem + 4);
  memcpy(tmp + stem + 4, ".tmp", 5);
  const char *slash = strrchr(h5_path, '/');
  const char *h5_base = slash ? slash + 1 : h5_path;

  ionf_err rc = IONF_OK;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    rc = ionf_error_set(IONF_ERR_IO, "cannot write XDMF file '%s': cannot create '%s': %s", xmf,
                        tmp, strerror(errno));
    free(xmf);
    return rc;
  }
  int err = xdmf_write_body(f, h5_base, n, box_size, length_unit, time, datasets, n_datasets);
  errno = 0;
  if (fclose(f) != 0 && err == 0) err = errno ? errno : EIO;
  if (err != 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write XDMF file '%s': writing '%s': %s", xmf, tmp,
                        strerror(err));
  rc = output_file_commit(rc, tmp, xmf, "XDMF file");
  free(xmf);
  return rc;
}
