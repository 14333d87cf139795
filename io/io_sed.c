/**
 * @file io_sed.c
 * @brief Tabulated spectra from text or HDF5 files (see io_sed.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/io_sed.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/h5_util.h"

/* Append (e, p) to out, growing it. */
static ionf_err io_sed_push(struct sed *out, int64_t *cap, double e, double p) {
  if (out->n == *cap) {
    int64_t grown = *cap ? 2 * *cap : 64;
    double *ne = realloc(out->energy_ev, sizeof(double) * (size_t)grown);
    if (ne) out->energy_ev = ne;
    double *np = ne ? realloc(out->photons, sizeof(double) * (size_t)grown) : NULL;
    if (np) out->photons = np;
    IONF_CHECK(ne && np, IONF_ERR_MEM, "out of memory reading spectrum '%s'", out->source);
    *cap = grown;
  }
  out->energy_ev[out->n] = e;
  out->photons[out->n++] = p;
  return IONF_OK;
}

static ionf_err io_sed_read_text(FILE *f, struct sed *out) {
  char line[1024];
  int64_t cap = 0, line_no = 0;
  while (fgets(line, sizeof line, f)) {
    ++line_no;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
                       line[len - 1] == '\t'))
      line[--len] = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') ++p;
    if (!*p) continue;
    char *end = NULL;
    errno = 0;
    double e = strtod(p, &end);
    IONF_CHECK(end != p && errno == 0, IONF_ERR_INPUT,
               "spectrum file '%s' line %lld: '%.40s' does not start with an energy in eV",
               out->source, (long long)line_no, p);
    p = end;
    double ph = strtod(p, &end);
    IONF_CHECK(end != p && errno == 0, IONF_ERR_INPUT,
               "spectrum file '%s' line %lld: a second column (photons s^-1 eV^-1) is missing",
               out->source, (long long)line_no);
    for (p = end; *p == ' ' || *p == '\t'; ++p) {
    }
    IONF_CHECK(!*p, IONF_ERR_INPUT, "spectrum file '%s' line %lld: more than two columns ('%.40s')",
               out->source, (long long)line_no, p);
    IONF_CALL(io_sed_push(out, &cap, e, ph));
  }
  IONF_CHECK(!ferror(f), IONF_ERR_IO, "cannot read spectrum file '%s'", out->source);
  return IONF_OK;
}

static ionf_err io_sed_read_h5(const char *path, struct sed *out) {
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "spectrum file", &quiet, &file));
  const char *names[2] = {"/energy_eV", "/photons_per_s_per_eV"};
  double *data[2] = {NULL, NULL};
  hsize_t len[2] = {0, 0};
  ionf_err rc = IONF_OK;
  for (int d = 0; d < 2 && rc == IONF_OK; ++d) {
    hid_t set;
    rc = h5_util_open_table(file, path, "spectrum file", names[d], 1, 0, &set, &len[d]);
    if (rc != IONF_OK) break;
    data[d] = malloc(sizeof(double) * (len[d] ? len[d] : 1));
    if (!data[d] || H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data[d]) < 0)
      rc = ionf_error_set(IONF_ERR_IO, "spectrum file '%s': cannot read %s", path, names[d]);
    H5Dclose(set);
  }
  h5_util_close_read(file, &quiet);
  if (rc == IONF_OK && len[0] != len[1])
    rc = ionf_error_set(IONF_ERR_INPUT, "spectrum file '%s': /energy_eV has %llu values, "
                        "/photons_per_s_per_eV %llu", path, (unsigned long long)len[0],
                        (unsigned long long)len[1]);
  if (rc == IONF_OK) {
    out->energy_ev = data[0];
    out->photons = data[1];
    out->n = (int64_t)len[0];
  } else {
    free(data[0]);
    free(data[1]);
  }
  return rc;
}

/* The table must be usable: increasing positive energies, finite non-negative rates. */
static ionf_err io_sed_check(const struct sed *s) {
  IONF_CHECK(s->n >= 2, IONF_ERR_INPUT, "spectrum file '%s': %lld point(s); at least 2",
             s->source, (long long)s->n);
  double above = 0.0;
  for (int64_t i = 0; i < s->n; ++i) {
    IONF_CHECK(isfinite(s->energy_ev[i]) && s->energy_ev[i] > 0.0 &&
                   (i == 0 || s->energy_ev[i] > s->energy_ev[i - 1]),
               IONF_ERR_INPUT, "spectrum file '%s': point %lld: energy %g eV (energies must be "
               "positive and increase)", s->source, (long long)i + 1, s->energy_ev[i]);
    IONF_CHECK(isfinite(s->photons[i]) && s->photons[i] >= 0.0, IONF_ERR_INPUT,
               "spectrum file '%s': point %lld: %g photons s^-1 eV^-1 (finite, not negative)",
               s->source, (long long)i + 1, s->photons[i]);
    if (s->energy_ev[i] > IONF_E_HI_EV) above += s->photons[i];
  }
  IONF_CHECK(above > 0.0, IONF_ERR_INPUT,
             "spectrum file '%s': no photons above 13.598 eV, nothing ionizes", s->source);
  return IONF_OK;
}

ionf_err io_sed_read(const char *path, struct sed *out) {
  IONF_CHECK(path && out, IONF_ERR_INTERNAL, "io_sed_read: NULL argument");
  memset(out, 0, sizeof *out);
  snprintf(out->source, sizeof out->source, "%s", path);
  FILE *f = fopen(path, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open spectrum file '%s': %s", path, strerror(errno));
  unsigned char sig[8] = {0};
  size_t got = fread(sig, 1, sizeof sig, f);
  static const unsigned char h5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  ionf_err rc;
  if (got == sizeof sig && memcmp(sig, h5_sig, sizeof sig) == 0) {
    fclose(f);
    rc = io_sed_read_h5(path, out);
  } else {
    rewind(f);
    rc = io_sed_read_text(f, out);
    fclose(f);
  }
  if (rc == IONF_OK) rc = io_sed_check(out);
  if (rc != IONF_OK) sed_free(out);
  return rc;
}
