/**
 * @file io_sources.c
 * @brief Source lists from C2-Ray style text files or HDF5 files.
 *
 * Positions are only converted here (1-based text -> 0-based); whether they
 * lie inside the grid is sources_validate()'s job.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/io_sources.h"
#include "io/fortran_text.h"

#include "io/h5_util.h"

#include <errno.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- HDF5 helpers ------------------------------------------------------------ */


/* The HDF5 signature sits at offset 0 or, after a user block, at 512, 1024, 2048... */
static int io_sources_is_hdf5(FILE *f) {
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  unsigned char buf[8];
  for (long off = 0; off <= (1L << 30); off = off ? 2 * off : 512) {
    if (fseek(f, off, SEEK_SET) != 0 || fread(buf, 1, 8, f) != 8) return 0;
    if (memcmp(buf, sig, 8) == 0) return 1;
  }
  return 0;
}

/* ---- text format ------------------------------------------------------------- */

/* A whole token as a long long (no trailing junk). */
static int parse_ll(const char *tok, long long *v) {
  char *end;
  errno = 0;
  *v = strtoll(tok, &end, 10);
  return errno == 0 && end != tok && *end == '\0';
}

/* Split `line` (modified) into at most `max` whitespace-separated tokens. */
static int split_tokens(char *line, char **tok, int max) {
  int count = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (count == max) return max + 1;
    tok[count++] = t;
  }
  return count;
}

/* Grow `s` (whose arrays hold `*cap` sources) to hold at least `need`. */
static ionf_err sources_grow(struct source_list *s, int64_t *cap, int64_t need) {
  if (need <= *cap) return IONF_OK;
  int64_t cap2 = *cap ? 2 * *cap : 64;
  while (cap2 < need) cap2 *= 2;
  int32_t *ijk = realloc(s->ijk, (size_t)cap2 * 3 * sizeof(int32_t));
  if (ijk) s->ijk = ijk;
  double *nd = ijk ? realloc(s->ndot_per_s, (size_t)cap2 * sizeof(double)) : NULL;
  if (nd) s->ndot_per_s = nd;
  IONF_CHECK(ijk && nd, IONF_ERR_MEM, "could not allocate room for %lld sources",
             (long long)cap2);
  *cap = cap2;
  return IONF_OK;
}

/* Text files: `n` > 0 checks each cell against the n^3 grid in the file's own terms. */
static ionf_err io_sources_read_text(FILE *f, const char *path, int64_t n,
                                     struct source_list *out) {
  char *line = NULL, shown[96];
  size_t line_cap = 0;
  long lineno = 0, header_line = 0;
  long long declared = -1;
  int64_t cap = 0;
  ionf_err rc = IONF_OK;

  while (rc == IONF_OK && getline(&line, &line_cap, f) != -1) {
    ++lineno;
    line[strcspn(line, "\r\n")] = '\0';
    /* The line as the user wrote it (shortened), for messages. */
    snprintf(shown, sizeof shown, "%s", line);
    if (strlen(line) >= sizeof shown) strcpy(shown + sizeof shown - 4, "...");

    line[strcspn(line, "#")] = '\0'; /* comments, whole-line or trailing */
    char *tok[6];
    int ntok = split_tokens(line, tok, 5);
    if (ntok == 0) continue;

    if (declared < 0) { /* the first data line: the number of sources */
      long long count;
      if (ntok != 1 || !parse_ll(tok[0], &count) || count < 0) {
        rc = ionf_error_set(IONF_ERR_INPUT, "%s:%ld: expected the number of sources, got '%s'",
                            path, lineno, shown);
        break;
      }
      declared = count;
      header_line = lineno;
      continue;
    }

    long long ijk[3];
    double ndot, flag;
    int ok = (ntok == 4 || ntok == 5) && parse_ll(tok[0], &ijk[0]) &&
             parse_ll(tok[1], &ijk[1]) && parse_ll(tok[2], &ijk[2]) &&
             fortran_text_double(tok[3], &ndot) &&
             (ntok == 4 || fortran_text_double(tok[4], &flag));
    if (!ok) {
      rc = ionf_error_set(IONF_ERR_INPUT, "%s:%ld: expected 'i j k Ndot', got '%s'", path,
                          lineno, shown);
      break;
    }
    if (out->n >= declared) {
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "%s:%ld: more sources than the %lld announced on line %ld", path,
                          lineno, declared, header_line);
      break;
    }
    /* Only representability is checked here; the grid range is sources_validate's. */
    for (int d = 0; d < 3 && rc == IONF_OK; ++d)
      if (ijk[d] <= INT32_MIN || ijk[d] > INT32_MAX)
        rc = ionf_error_set(IONF_ERR_INPUT, "%s:%ld: cell index %lld is out of range in '%s'",
                            path, lineno, ijk[d], shown);
    int inside = 1;
    for (int d = 0; d < 3; ++d) inside = inside && (n <= 0 || (ijk[d] >= 1 && ijk[d] <= n));
    if (rc == IONF_OK && !inside)
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "source file '%s' line %ld: cell (%lld, %lld, %lld) (1-based as in the "
                          "file) is outside the %lld^3 grid (indices 1..%lld)",
                          path, lineno, ijk[0], ijk[1], ijk[2], (long long)n, (long long)n);
    if (rc == IONF_OK) rc = sources_grow(out, &cap, out->n + 1);
    if (rc != IONF_OK) break;
    for (int d = 0; d < 3; ++d) out->ijk[3 * out->n + d] = (int32_t)(ijk[d] - 1); /* 1-based */
    out->ndot_per_s[out->n] = ndot;
    ++out->n;
  }
  if (rc == IONF_OK && ferror(f))
    rc = ionf_error_set(IONF_ERR_IO, "cannot read source file '%s': %s", path, strerror(errno));
  if (rc == IONF_OK && declared < 0)
    rc = ionf_error_set(IONF_ERR_INPUT, "%s: no source count found (the file is empty)", path);
  if (rc == IONF_OK && out->n != declared)
    rc = ionf_error_set(IONF_ERR_INPUT, "%s: line %ld announces %lld sources but the file has %lld",
                        path, header_line, declared, (long long)out->n);
  free(line);
  return rc;
}

/* ---- HDF5 format ------------------------------------------------------------- */

/* A dataset of the /sources group (see h5_util_open_table). */
static ionf_err h5_open_numeric(hid_t file, const char *path, const char *name, int want_rank,
                                int integer_only, hid_t *dset, hsize_t *dims) {
  return h5_util_open_table(file, path, "HDF5 source file", name, want_rank, integer_only, dset,
                            dims);
}

static ionf_err io_sources_read_h5_file(hid_t file, const char *path, struct source_list *out) {
  static const char *pos_name = "/sources/position", *ndot_name = "/sources/Ndot";
  hid_t dpos = H5I_INVALID_HID, dndot = H5I_INVALID_HID;
  hsize_t pdims[2], ndims[1];
  int64_t *pos = NULL;
  char detail[512];

  ionf_err rc = h5_open_numeric(file, path, pos_name, 2, 1, &dpos, pdims);
  if (rc == IONF_OK) rc = h5_open_numeric(file, path, ndot_name, 1, 0, &dndot, ndims);
  if (rc == IONF_OK && ndims[0] != pdims[0])
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in '%s' has shape (%llu); expected (%llu) to match '%s' "
                        "(%llu, 3)",
                        ndot_name, path, (unsigned long long)ndims[0],
                        (unsigned long long)pdims[0], pos_name, (unsigned long long)pdims[0]);
  if (rc == IONF_OK) rc = sources_alloc((int64_t)pdims[0], out);
  if (rc == IONF_OK) {
    pos = ionf_malloc((size_t)pdims[0] * 3 * sizeof(int64_t), "source positions");
    if (!pos) rc = IONF_ERR_MEM;
  }
  /* Positions as int64 first: HDF5 would clip silently when converting to int32. */
  if (rc == IONF_OK && pdims[0] > 0 &&
      H5Dread(dpos, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, pos) < 0) {
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from '%s': %s", pos_name, path,
                        detail);
  }
  if (rc == IONF_OK && pdims[0] > 0 &&
      H5Dread(dndot, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->ndot_per_s) < 0) {
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from '%s': %s", ndot_name, path,
                        detail);
  }
  for (int64_t q = 0; rc == IONF_OK && q < 3 * (int64_t)pdims[0]; ++q) {
    if (pos[q] < INT32_MIN || pos[q] > INT32_MAX)
      rc = ionf_error_set(IONF_ERR_INPUT, "%s:%s: source %lld has cell index %lld, out of range",
                          path, pos_name, (long long)(q / 3), (long long)pos[q]);
    else
      out->ijk[q] = (int32_t)pos[q];
  }
  free(pos);
  if (dpos >= 0) H5Dclose(dpos);
  if (dndot >= 0) H5Dclose(dndot);
  return rc;
}

static ionf_err io_sources_read_h5(const char *path, struct source_list *out) {
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "HDF5 source file", &quiet, &file));
  ionf_err rc = io_sources_read_h5_file(file, path, out);
  h5_util_close_read(file, &quiet);
  return rc;
}

/* ---- entry ----------------------------------------------------------------------- */

/* HDF5 files: each cell against the n^3 grid, 0-based as in the file. */
static ionf_err io_sources_check_h5(const char *path, int64_t n, const struct source_list *s) {
  for (int64_t q = 0; q < s->n && n > 0; ++q) {
    const int32_t *p = s->ijk + 3 * q;
    int inside = 1;
    for (int d = 0; d < 3; ++d) inside = inside && p[d] >= 0 && (int64_t)p[d] < n;
    IONF_CHECK(inside, IONF_ERR_INPUT,
               "source file '%s': source %lld: cell (%d, %d, %d) (0-based as in "
               "/sources/position) is outside the %lld^3 grid (indices 0..%lld)",
               path, (long long)q, (int)p[0], (int)p[1], (int)p[2], (long long)n,
               (long long)(n - 1));
  }
  return IONF_OK;
}

ionf_err io_sources_read(const char *path, enum source_format format,
                         struct source_list *out) {
  return io_sources_read_grid(path, format, 0, out);
}

ionf_err io_sources_read_grid(const char *path, enum source_format format, int64_t n_cells_1d,
                              struct source_list *out) {
  IONF_CHECK(path && out, IONF_ERR_INTERNAL, "io_sources_read: NULL argument");
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open source file '%s': %s", path, strerror(errno));

  int hdf5 = format == SOURCE_FORMAT_HDF5 ||
             (format == SOURCE_FORMAT_AUTO && io_sources_is_hdf5(f));
  ionf_err rc;
  if (hdf5) {
    fclose(f);
    rc = io_sources_read_h5(path, out);
    if (rc == IONF_OK) rc = io_sources_check_h5(path, n_cells_1d, out);
  } else {
    rewind(f);
    rc = io_sources_read_text(f, path, n_cells_1d, out);
    fclose(f);
  }
  if (rc != IONF_OK) {
    sources_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}
