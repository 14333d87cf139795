/**
 * @file io_halos_c2ray.c
 * @brief C²-Ray / CubeP3M source lists (text) as halo masses by cell (io_halos_c2ray.h):
 *        a count, then records of five numbers read as Fortran's list-directed input
 *        reads them.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/io_halos_c2ray.h"
#include "io/fortran_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"

#define C2RAY_COLUMNS 5 /* i j k M_HMACH M_LMACH */

/* The file as a stream of whitespace-separated tokens that knows its lines. */
struct c2ray_reader {
  FILE *f;
  const char *path;
  char *line;      /* the current line (tokenised in place) */
  size_t cap;
  long lineno;     /* of the current line */
  char *save;      /* strtok_r's state in the current line; NULL: read the next line */
  char shown[96];  /* the current line as written (shortened), for messages */
};

/* The next line: 0 at the end of the file. */
static int c2ray_next_line(struct c2ray_reader *r) {
  if (getline(&r->line, &r->cap, r->f) == -1) return 0;
  ++r->lineno;
  r->line[strcspn(r->line, "\r\n")] = '\0';
  snprintf(r->shown, sizeof r->shown, "%s", r->line);
  if (strlen(r->line) >= sizeof r->shown) strcpy(r->shown + sizeof r->shown - 4, "...");
  r->line[strcspn(r->line, "#")] = '\0'; /* comments */
  r->save = NULL;
  return 1;
}

/* The next token, across lines: NULL at the end of the file. */
static char *c2ray_next_token(struct c2ray_reader *r) {
  for (;;) {
    char *t = NULL;
    if (r->save) t = strtok_r(NULL, " \t,", &r->save);
    if (t) return t;
    if (!c2ray_next_line(r)) return NULL;
    t = strtok_r(r->line, " \t,", &r->save);
    if (t) return t;
    r->save = NULL;
  }
}

/* Fortran list-directed input: the rest of the record (line) is skipped. */
static void c2ray_end_record(struct c2ray_reader *r) { r->save = NULL; }

/* A whole token as a double; Fortran exponents (1.0D+10) are accepted. */
static int c2ray_number(const char *tok, double *v) {
  return fortran_text_double(tok, v) && isfinite(*v);
}

/* The count on the first line that holds anything; the rest of that line is ignored. */
static ionf_err c2ray_read_count(struct c2ray_reader *r, int64_t *count) {
  char *t = c2ray_next_token(r);
  IONF_CHECK(t, IONF_ERR_INPUT,
             "source list '%s' is empty: a C2-Ray source list starts with the number of sources",
             r->path);
  char *end;
  errno = 0;
  long long v = strtoll(t, &end, 10);
  IONF_CHECK(errno == 0 && end != t && *end == '\0' && v >= 0, IONF_ERR_INPUT,
             "source list '%s' line %ld: expected the number of sources (an integer >= 0) "
             "first, got '%s' in '%s'",
             r->path, r->lineno, t, r->shown);
  c2ray_end_record(r);
  *count = (int64_t)v;
  return IONF_OK;
}

/* Record q (of `count`, announced on line `count_line`) into out. */
static ionf_err c2ray_read_record(struct c2ray_reader *r, int64_t n, double mass_unit_msun,
                                  int64_t q, int64_t count, long count_line,
                                  struct halo_cells *out) {
  static const char *const what[C2RAY_COLUMNS] = {"i", "j", "k", "M_HMACH", "M_LMACH"};
  double v[C2RAY_COLUMNS];
  long first_line = 0;
  for (int c = 0; c < C2RAY_COLUMNS; ++c) {
    char *t = c2ray_next_token(r);
    IONF_CHECK(t, IONF_ERR_INPUT,
               "source list '%s': the file ends in source %lld of the %lld announced on line %ld "
               "(each source is 'i j k M_HMACH M_LMACH'%s%s)",
               r->path, (long long)q + 1, (long long)count, count_line,
               c ? "; this one lacks its " : "", c ? what[c] : "");
    if (c == 0) first_line = r->lineno;
    IONF_CHECK(c2ray_number(t, &v[c]), IONF_ERR_INPUT,
               "source list '%s' line %ld: source %lld: %s = '%s' is not a number (line '%s')",
               r->path, r->lineno, (long long)q + 1, what[c], t, r->shown);
  }
  c2ray_end_record(r);
  for (int d = 0; d < 3; ++d) {
    IONF_CHECK(v[d] == floor(v[d]) && v[d] >= 1.0 && v[d] <= (double)n, IONF_ERR_INPUT,
               "source list '%s' line %ld: source %lld has %s = %.17g; cells are 1-based "
               "integers in 1..%lld (the grid's N)",
               r->path, first_line, (long long)q + 1, what[d], v[d], (long long)n);
    out->ijk[3 * q + d] = (int32_t)(v[d] - 1.0);
  }
  for (int c = 3; c < C2RAY_COLUMNS; ++c)
    IONF_CHECK(v[c] >= 0.0, IONF_ERR_INPUT,
               "source list '%s' line %ld: source %lld has %s = %.17g; masses must be >= 0",
               r->path, r->lineno, (long long)q + 1, what[c], v[c]);
  out->mass_msun[q] = v[3] * mass_unit_msun;
  out->mass_low_msun[q] = v[4] * mass_unit_msun;
  return IONF_OK;
}

static ionf_err c2ray_read(struct c2ray_reader *r, long file_bytes, int64_t n,
                           double mass_unit_msun, struct halo_cells *out) {
  int64_t count = 0;
  IONF_CALL(c2ray_read_count(r, &count));
  long count_line = r->lineno;
  /* a record takes at least 2 bytes a number ("1\n"): no more room than the file can fill,
     whatever its first line announces (the reading then ends at the file's end) */
  int64_t room = file_bytes / (2 * C2RAY_COLUMNS) + 1;
  IONF_CALL(halo_cells_alloc(count < room ? count : room, 1, out));
  for (int64_t q = 0; q < count; ++q) {
    IONF_CHECK(q < out->n, IONF_ERR_INPUT,
               "source list '%s': its %ld bytes cannot hold the %lld sources announced on line %ld",
               r->path, file_bytes, (long long)count, count_line);
    IONF_CALL(c2ray_read_record(r, n, mass_unit_msun, q, count, count_line, out));
  }
  char *extra = c2ray_next_token(r);
  IONF_CHECK(!extra, IONF_ERR_INPUT,
             "source list '%s' line %ld: '%s' follows the %lld sources announced on line %ld",
             r->path, r->lineno, r->shown, (long long)count, count_line);
  IONF_CHECK(!ferror(r->f), IONF_ERR_IO, "cannot read source list '%s': %s", r->path,
             strerror(errno));
  return IONF_OK;
}

ionf_err io_halos_c2ray_read(const char *path, int64_t n, double mass_unit_msun,
                             struct halo_cells *out) {
  IONF_CHECK(path && out, IONF_ERR_INTERNAL, "io_halos_c2ray_read: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CHECK(n >= 1 && n <= INT32_MAX && isfinite(mass_unit_msun) && mass_unit_msun > 0.0,
             IONF_ERR_CONFIG, "source list '%s': grid size %lld or mass unit %g Msun out of range",
             path, (long long)n, mass_unit_msun);
  FILE *f = fopen(path, "r");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open source list '%s': %s", path, strerror(errno));
  long bytes = -1;
  if (fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
  ionf_err rc = IONF_OK;
  if (bytes < 0 || fseek(f, 0, SEEK_SET) != 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot read source list '%s': %s", path, strerror(errno));
  struct c2ray_reader r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.path = path;
  if (rc == IONF_OK) rc = c2ray_read(&r, bytes, n, mass_unit_msun, out);
  free(r.line);
  fclose(f);
  if (rc != IONF_OK) halo_cells_free(out);
  return rc;
}

double io_halos_c2ray_mass_unit_msun(const struct cosmology *c, double box_cm,
                                     int64_t nbody_mesh) {
  double cells = (double)nbody_mesh;
  return c->omega_m * cosmology_critical_density0_g_cm3(c) * box_cm * box_cm * box_cm /
         (cells * cells * cells) / IONF_M_SUN_G;
}
