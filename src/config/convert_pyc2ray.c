/**
 * @file convert_pyc2ray.c
 * @brief The machinery of `ionfront convert`: the pyC²Ray file read and type-checked
 *        against the table (convert_pyc2ray_table.c), the table's rows run, the lines
 *        they make printed as nested YAML with their comments, every key of the file
 *        that was not converted listed at the end.
 */
#define _POSIX_C_SOURCE 200809L
#include "config/convert_pyc2ray.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/convert_pyc2ray_internal.h"
#include "core/constants.h"
#include "core/ionf_config.h"
#include "core/params.h"
#include "core/units.h"

/* a line of the config: `target: value  # comment` */
struct cv_line {
  char *target, *value, *comment;
  int commented;
};

/* a comment line before an ionfront section */
struct cv_sec_note {
  char *section, *text;
};

struct cv_ctx {
  const char *name;
  const struct param_node *root;
  struct cv_line *lines;
  size_t n_lines, cap_lines;
  struct cv_sec_note *notes;
  size_t n_notes, cap_notes;
  char **listed; /* "Section.key = value — why" */
  size_t n_listed, cap_listed;
  const struct param_node **used; /* the values converted or listed */
  size_t n_used, cap_used;
  char **strings; /* cv_says' texts, freed at the end */
  size_t n_strings, cap_strings;
  int n_converted, n_unknown;
};

/* ---- small helpers ----------------------------------------------------------------- */

/* Room for one more element of `*arr` (n used of *cap). */
static ionf_err cv_grow(void **arr, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return IONF_OK;
  size_t cap2 = *cap ? 2 * *cap : 16;
  void *p = realloc(*arr, cap2 * elem);
  IONF_CHECK(p, IONF_ERR_MEM, "convert: out of memory");
  *arr = p;
  *cap = cap2;
  return IONF_OK;
}

static char *cv_vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int len = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (len < 0) return NULL;
  char *s = malloc((size_t)len + 1);
  if (s) vsnprintf(s, (size_t)len + 1, fmt, ap);
  return s;
}

static char *cv_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

const char *cv_format(double v, char *buf, size_t cap) {
  snprintf(buf, cap, "%.10g", v);
  return buf;
}

const char *cv_quote(const char *text, char *buf, size_t cap) {
  size_t k = 0;
  if (cap < 3) return "''";
  buf[k++] = '\'';
  for (const char *p = text; *p && k + 3 < cap; ++p) {
    if (*p == '\'') buf[k++] = '\'';
    buf[k++] = *p;
  }
  buf[k++] = '\'';
  buf[k] = '\0';
  return buf;
}

const char *cv_name(struct cv_ctx *c) { return c->name; }

static const struct param_node *cv_node(const struct cv_ctx *c, const char *section,
                                        const char *key);

int cv_line(struct cv_ctx *c, const char *section, const char *key) {
  const struct param_node *n = cv_node(c, section, key);
  return n ? n->line : 0;
}

/* A growing text. */
struct cv_buf {
  char *p;
  size_t n, cap;
  int failed;
};

static void cv_put(struct cv_buf *b, const char *fmt, ...) IONF_PRINTF(2, 3);
static void cv_put(struct cv_buf *b, const char *fmt, ...) {
  if (b->failed) return;
  va_list ap;
  va_start(ap, fmt);
  char *s = cv_vformat(fmt, ap);
  va_end(ap);
  size_t len = s ? strlen(s) : 0;
  if (!s || cv_grow((void **)&b->p, &b->cap, b->n + len, 1) != IONF_OK) b->failed = 1;
  while (!b->failed && b->n + len + 1 > b->cap)
    if (cv_grow((void **)&b->p, &b->cap, b->cap, 1) != IONF_OK) b->failed = 1;
  if (!b->failed) {
    memcpy(b->p + b->n, s, len + 1);
    b->n += len;
  }
  free(s);
}

/* ---- the file's values ------------------------------------------------------------- */

static const struct param_node *cv_node(const struct cv_ctx *c, const char *section,
                                        const char *key) {
  const struct param_node *s = params_get(c->root, section);
  return s && s->kind == PARAM_MAPPING ? params_get(s, key) : NULL;
}

/* A value that stands for "not set": YAML's null, or pyC²Ray's "None". */
static int cv_unset(const struct param_node *n) {
  return !n || n->kind == PARAM_NULL ||
         (n->kind == PARAM_SCALAR && n->scalar && !strcmp(n->scalar, "None"));
}

/* 0 / 1 of a boolean's text (-1: not one). */
static int cv_bool_of(const char *s) {
  if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
    return 0;
  if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
    return 1;
  return -1;
}

int cv_has(struct cv_ctx *c, const char *section, const char *key) {
  return !cv_unset(cv_node(c, section, key));
}

const char *cv_text(struct cv_ctx *c, const char *section, const char *key) {
  const struct param_node *n = cv_node(c, section, key);
  if (cv_unset(n) || n->kind != PARAM_SCALAR) return NULL;
  int b = cv_bool_of(n->scalar);
  if (b >= 0 && strcmp(n->scalar, "0") && strcmp(n->scalar, "1")) return b ? "1" : "0";
  return n->scalar;
}

double cv_number(struct cv_ctx *c, const char *section, const char *key, double fallback) {
  const char *t = cv_text(c, section, key);
  double v;
  return t && units_parse_number(t, &v) ? v : fallback;
}

static int cv_is_used(const struct cv_ctx *c, const struct param_node *n) {
  for (size_t i = 0; i < c->n_used; ++i)
    if (c->used[i] == n) return 1;
  return 0;
}

static ionf_err cv_mark(struct cv_ctx *c, const struct param_node *n) {
  if (!n || cv_is_used(c, n)) return IONF_OK;
  IONF_CALL(cv_grow((void **)&c->used, &c->cap_used, c->n_used, sizeof *c->used));
  c->used[c->n_used++] = n;
  return IONF_OK;
}

const char *cv_use(struct cv_ctx *c, const char *section, const char *key) {
  const struct param_node *n = cv_node(c, section, key);
  if (cv_unset(n)) return NULL;
  if (!cv_is_used(c, n)) {
    if (cv_mark(c, n) != IONF_OK) return NULL;
    c->n_converted++;
  }
  return cv_text(c, section, key);
}

const char *cv_says(struct cv_ctx *c, const char *section, const char *key) {
  const char *v = cv_use(c, section, key);
  char *s = NULL;
  size_t len = strlen(section) + strlen(key) + (v ? strlen(v) : 8) + 8;
  if (cv_grow((void **)&c->strings, &c->cap_strings, c->n_strings, sizeof *c->strings) ==
          IONF_OK &&
      (s = malloc(len))) {
    snprintf(s, len, "%s.%s: %s", section, key, v ? v : "(none)");
    c->strings[c->n_strings++] = s;
  }
  return s ? s : key;
}

ionf_err cv_require(struct cv_ctx *c, const char *section, const char *key, const char *needed,
                    const char *why) {
  const struct param_node *n = cv_node(c, section, key);
  IONF_CHECK(cv_has(c, section, needed), IONF_ERR_CONFIG,
             "%s:%d: %s.%s = %s needs %s.%s (%s), which the file does not set", c->name,
             n ? n->line : 0, section, key, cv_text(c, section, key), section, needed, why);
  return IONF_OK;
}

/* The value of `n` for the listing: its text, or {...} / [...]. */
static const char *cv_shown(const struct param_node *n) {
  if (!n || n->kind == PARAM_NULL) return "null";
  if (n->kind == PARAM_MAPPING) return "{...}";
  if (n->kind == PARAM_SEQUENCE) return "[...]";
  return n->scalar;
}

static ionf_err cv_list(struct cv_ctx *c, const char *what, const char *value, const char *why) {
  IONF_CALL(cv_grow((void **)&c->listed, &c->cap_listed, c->n_listed, sizeof *c->listed));
  size_t len = strlen(what) + strlen(value) + strlen(why) + 16;
  char *s = malloc(len);
  IONF_CHECK(s, IONF_ERR_MEM, "convert: out of memory");
  snprintf(s, len, "%s = %s \xe2\x80\x94 %s", what, value, why);
  c->listed[c->n_listed++] = s;
  return IONF_OK;
}

ionf_err cv_skip(struct cv_ctx *c, const char *section, const char *key, const char *fmt, ...) {
  const struct param_node *n = cv_node(c, section, key);
  IONF_CALL(cv_mark(c, n));
  va_list ap;
  va_start(ap, fmt);
  char *why = cv_vformat(fmt, ap);
  va_end(ap);
  IONF_CHECK(why, IONF_ERR_MEM, "convert: out of memory");
  char what[160];
  snprintf(what, sizeof what, "%s.%s", section, key);
  ionf_err rc = cv_list(c, what, cv_shown(n), why);
  free(why);
  return rc;
}

/* ---- the config's lines ------------------------------------------------------------ */

static size_t cv_section_index(const char *target) {
  size_t len = strcspn(target, ".");
  for (size_t i = 0; i < convert_pyc2ray_n_sections; ++i)
    if (strlen(convert_pyc2ray_sections[i].name) == len &&
        !strncmp(convert_pyc2ray_sections[i].name, target, len))
      return i;
  return convert_pyc2ray_n_sections;
}

int cv_section_used(struct cv_ctx *c, const char *section) {
  size_t len = strlen(section);
  for (size_t i = 0; i < c->n_lines; ++i)
    if (!strncmp(c->lines[i].target, section, len) &&
        (c->lines[i].target[len] == '.' || c->lines[i].target[len] == '\0'))
      return 1;
  return 0;
}

static const struct cv_line *cv_line_of(const struct cv_ctx *c, const char *target) {
  for (size_t i = 0; i < c->n_lines; ++i)
    if (!strcmp(c->lines[i].target, target)) return &c->lines[i];
  return NULL;
}

int cv_emitted(struct cv_ctx *c, const char *target) { return cv_line_of(c, target) != NULL; }

ionf_err cv_emit(struct cv_ctx *c, int flags, const char *target, const char *value,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *comment = cv_vformat(fmt, ap);
  va_end(ap);
  IONF_CHECK(comment, IONF_ERR_MEM, "convert: out of memory");
  if (cv_section_index(target) == convert_pyc2ray_n_sections) {
    free(comment);
    return ionf_error_set(IONF_ERR_INTERNAL, "convert: %s is in no section of the table", target);
  }
  const struct cv_line *earlier = cv_line_of(c, target);
  if (earlier) { /* the table's rows check cv_emitted first: a slip of the table */
    ionf_err rc = ionf_error_set(IONF_ERR_INTERNAL, "convert: %s written twice (from %s; from %s)",
                                 target, earlier->comment, comment);
    free(comment);
    return rc;
  }
  ionf_err rc = cv_grow((void **)&c->lines, &c->cap_lines, c->n_lines, sizeof *c->lines);
  struct cv_line *l = rc == IONF_OK ? &c->lines[c->n_lines] : NULL;
  if (l) {
    l->target = cv_strdup(target);
    l->value = cv_strdup(value);
    l->comment = comment;
    size_t s = cv_section_index(target);
    l->commented = (flags & CV_COMMENTED) ||
                   (s < convert_pyc2ray_n_sections && convert_pyc2ray_sections[s].template_only);
    if (!l->target || !l->value) rc = ionf_error_set(IONF_ERR_MEM, "convert: out of memory");
    c->n_lines++; /* freed with the others, even half made */
  } else {
    free(comment);
  }
  return rc;
}

ionf_err cv_note(struct cv_ctx *c, const char *section, const char *fmt, ...) {
  IONF_CALL(cv_grow((void **)&c->notes, &c->cap_notes, c->n_notes, sizeof *c->notes));
  va_list ap;
  va_start(ap, fmt);
  char *text = cv_vformat(fmt, ap);
  va_end(ap);
  char *sec = cv_strdup(section);
  if (!text || !sec) {
    free(text);
    free(sec);
    return ionf_error_set(IONF_ERR_MEM, "convert: out of memory");
  }
  c->notes[c->n_notes].section = sec;
  c->notes[c->n_notes++].text = text;
  return IONF_OK;
}

/* ---- type checks ------------------------------------------------------------------- */

static const struct cv_row *cv_row_of(const char *section, const char *key) {
  for (size_t i = 0; i < convert_pyc2ray_n_rows; ++i)
    if (!strcmp(convert_pyc2ray_rows[i].section, section) &&
        !strcmp(convert_pyc2ray_rows[i].key, key))
      return &convert_pyc2ray_rows[i];
  return NULL;
}

static int cv_known_section(const char *section) {
  for (size_t i = 0; i < convert_pyc2ray_n_rows; ++i)
    if (!strcmp(convert_pyc2ray_rows[i].section, section)) return 1;
  return 0;
}

/* The value of a table key has the row's type, or an error names file, line, key, value. */
static ionf_err cv_check_type(const struct cv_ctx *c, const struct cv_row *row,
                              const struct param_node *n) {
  static const char *const expected[] = {"a number", "a whole number", "0 or 1 (false or true)",
                                         "a word or a path"};
  if (cv_unset(n)) return IONF_OK;
  int ok = n->kind == PARAM_SCALAR && n->scalar;
  if (ok) {
    double v = 0.0;
    char *end = NULL;
    switch (row->type) {
    case CV_NUMBER: ok = units_parse_number(n->scalar, &v); break;
    case CV_INTEGER:
      (void)strtoll(n->scalar, &end, 10);
      ok = end != n->scalar && *end == '\0';
      break;
    case CV_BOOL: ok = cv_bool_of(n->scalar) >= 0; break;
    case CV_STRING: break;
    }
  }
  IONF_CHECK(ok, IONF_ERR_CONFIG, "%s:%d: %s.%s = %s: expected %s", c->name, n->line,
             row->section, row->key, cv_shown(n), expected[row->type]);
  return IONF_OK;
}

static ionf_err cv_check_file(const struct cv_ctx *c) {
  const struct param_node *r = c->root;
  IONF_CHECK(r && r->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
             "%s: not a pyC2Ray parameter file: expected a mapping of sections (Grid:, "
             "Material:, CGS:, ...)",
             c->name);
  for (size_t s = 0; s < r->n_items; ++s) {
    const struct param_node *sec = r->items[s];
    if (!cv_known_section(r->keys[s]) || sec->kind == PARAM_NULL) continue;
    IONF_CHECK(sec->kind == PARAM_MAPPING, IONF_ERR_CONFIG,
               "%s:%d: %s = %s: expected a section, a mapping of keys", c->name, sec->line,
               r->keys[s], cv_shown(sec));
    for (size_t k = 0; k < sec->n_items; ++k) {
      const struct cv_row *row = cv_row_of(r->keys[s], sec->keys[k]);
      if (row) IONF_CALL(cv_check_type(c, row, sec->items[k]));
    }
  }
  return IONF_OK;
}

/* ---- running the table ------------------------------------------------------------- */

ionf_err cv_copy(struct cv_ctx *c, const struct cv_row *row) {
  char value[512];
  const char *text = cv_text(c, row->section, row->key);
  if (row->type == CV_BOOL) snprintf(value, sizeof value, "%s", !strcmp(text, "1") ? "true" : "false");
  else if (row->type == CV_STRING) cv_quote(text, value, sizeof value);
  else snprintf(value, sizeof value, "%s", text);
  const char *says = cv_says(c, row->section, row->key);
  if (row->note) return cv_emit(c, CV_LIVE, row->target, value, "%s (%s)", says, row->note);
  return cv_emit(c, CV_LIVE, row->target, value, "%s", says);
}

static ionf_err cv_run_rows(struct cv_ctx *c) {
  for (size_t i = 0; i < convert_pyc2ray_n_rows; ++i) {
    const struct cv_row *row = &convert_pyc2ray_rows[i];
    const struct param_node *n = cv_node(c, row->section, row->key);
    if (cv_unset(n) || cv_is_used(c, n)) continue;
    if (row->fn) IONF_CALL(row->fn(c, row));
    else if (row->target) IONF_CALL(cv_copy(c, row));
    else IONF_CALL(cv_skip(c, row->section, row->key, "%s", row->note));
    IONF_CHECK(cv_is_used(c, n), IONF_ERR_INTERNAL,
               "convert: the table's row for %s.%s left the key unconverted and unlisted",
               row->section, row->key);
  }
  for (size_t i = 0; i < convert_pyc2ray_n_fixed; ++i) {
    const struct cv_fixed *f = &convert_pyc2ray_fixed[i];
    if (!cv_line_of(c, f->target)) IONF_CALL(cv_emit(c, CV_LIVE, f->target, f->value, "%s", f->comment));
  }
  return IONF_OK;
}

/* Every key of the file that no row used: a known one set to None / null, or unknown. */
static ionf_err cv_sweep(struct cv_ctx *c) {
  const struct param_node *r = c->root;
  char what[200];
  for (size_t s = 0; s < r->n_items; ++s) {
    const struct param_node *sec = r->items[s];
    int known = cv_known_section(r->keys[s]);
    if (sec->kind != PARAM_MAPPING) {
      if (known && sec->kind == PARAM_NULL) continue; /* an empty section */
      IONF_CALL(cv_list(c, r->keys[s], cv_shown(sec),
                        "unknown: not a section of pyC2Ray's parameter file"));
      c->n_unknown++;
      continue;
    }
    for (size_t k = 0; k < sec->n_items; ++k) {
      if (cv_is_used(c, sec->items[k])) continue;
      snprintf(what, sizeof what, "%s.%s", r->keys[s], sec->keys[k]);
      if (cv_row_of(r->keys[s], sec->keys[k])) {
        IONF_CALL(cv_list(c, what, cv_shown(sec->items[k]), "not set: nothing to convert"));
        continue;
      }
      IONF_CALL(cv_list(c, what, cv_shown(sec->items[k]),
                        known ? "unknown: pyC2Ray does not read this key"
                              : "unknown: not a section of pyC2Ray's parameter file"));
      c->n_unknown++;
    }
  }
  return IONF_OK;
}

/* ---- printing ---------------------------------------------------------------------- */

#define CV_COMMENT_COLUMN 30
#define CV_WIDTH 100

/* `text` wrapped at CV_WIDTH: the first line goes on from column `col`, the others
   start with `cont`. */
static void cv_put_wrapped(struct cv_buf *b, size_t col, const char *cont, const char *text) {
  const char *p = text;
  size_t at = col;
  while (*p) {
    size_t room = CV_WIDTH > at + 20 ? CV_WIDTH - at : 20;
    size_t len = strlen(p);
    if (len > room) { /* break at the last blank that fits, or the first one */
      size_t k = room;
      while (k > 0 && p[k] != ' ') --k;
      len = k > 0 ? k : strcspn(p, " ");
    }
    cv_put(b, "%.*s\n", (int)len, p);
    p += len;
    while (*p == ' ') ++p;
    if (*p) cv_put(b, "%s", cont);
    at = strlen(cont);
  }
}

/* "# text" after a line `col` characters long (its key indented by `indent`): from the
   comment column, or below the line when the line is long. */
static void cv_put_comment(struct cv_buf *b, size_t col, int indent, const char *text) {
  char cont[96];
  size_t at = col + 2 > CV_COMMENT_COLUMN ? col + 2 : CV_COMMENT_COLUMN;
  if (at > 62) {
    snprintf(cont, sizeof cont, "%*s# ", indent + 4, "");
    cv_put(b, "\n%s", cont);
    cv_put_wrapped(b, (size_t)indent + 6, cont, text);
    return;
  }
  snprintf(cont, sizeof cont, "%*s# ", (int)at, "");
  cv_put(b, "%*s# ", (int)(at - col), "");
  cv_put_wrapped(b, at + 2, cont, text);
}

static void cv_put_line(struct cv_buf *b, int indent, int commented, const char *key,
                        size_t key_len, const char *value, const char *comment) {
  size_t before = b->n;
  cv_put(b, "%*s%s%.*s:%s%s", indent, "", commented ? "# " : "", (int)key_len, key,
         value ? " " : "", value ? value : "");
  size_t col = b->n - before;
  if (comment && comment[0]) cv_put_comment(b, col, indent, comment);
  else cv_put(b, "\n");
}

/* Component `depth` of a dotted path: start and length; 1 when it is the last. */
static int cv_component(const char *path, int depth, const char **start, size_t *len) {
  const char *p = path;
  for (int d = 0; d < depth && p; ++d) {
    p = strchr(p, '.');
    if (p) ++p;
  }
  if (!p) {
    *start = path + strlen(path);
    *len = 0;
    return 1;
  }
  *start = p;
  *len = strcspn(p, ".");
  return p[*len] == '\0';
}

static int cv_same_component(const char *a, const char *b, int depth) {
  const char *sa, *sb;
  size_t la, lb;
  cv_component(a, depth, &sa, &la);
  cv_component(b, depth, &sb, &lb);
  return la == lb && !strncmp(sa, sb, la);
}

/* Lines idx[0..n) (same path up to `depth`) as a mapping at `indent`. */
static void cv_put_group(struct cv_buf *b, const struct cv_line *lines, const size_t *idx,
                         size_t n, int depth, int indent, char *done) {
  for (size_t i = 0; i < n; ++i) {
    if (done[i]) continue;
    const struct cv_line *l = &lines[idx[i]];
    const char *key;
    size_t len;
    if (cv_component(l->target, depth, &key, &len)) {
      cv_put_line(b, indent, l->commented, key, len, l->value, l->comment);
      done[i] = 1;
      continue;
    }
    size_t *sub = malloc(n * sizeof *sub);
    if (!sub) {
      b->failed = 1;
      return;
    }
    size_t m = 0;
    int all_commented = 1;
    for (size_t j = i; j < n; ++j)
      if (!done[j] && cv_same_component(l->target, lines[idx[j]].target, depth)) {
        sub[m++] = idx[j];
        done[j] = 1;
        all_commented &= lines[idx[j]].commented;
      }
    cv_put_line(b, indent, all_commented, key, len, NULL, NULL);
    char *sub_done = calloc(m, 1);
    if (sub_done) cv_put_group(b, lines, sub, m, depth + 1, indent + 2, sub_done);
    else b->failed = 1;
    free(sub_done);
    free(sub);
  }
}

/* Where `target` goes within its mapping: its (longest) prefix's place in the layout. */
static size_t cv_layout_index(const char *target) {
  size_t best = convert_pyc2ray_n_layout, best_len = 0;
  for (size_t i = 0; i < convert_pyc2ray_n_layout; ++i) {
    const char *p = convert_pyc2ray_layout[i];
    size_t len = strlen(p);
    if (!strncmp(target, p, len) && (target[len] == '\0' || target[len] == '.') && len > best_len) {
      best = i;
      best_len = len;
    }
  }
  return best;
}

/* The lines in printing order: by section, by layout, then as made. */
static size_t *cv_order(const struct cv_ctx *c) {
  size_t n = c->n_lines;
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  size_t *key = malloc((n ? n : 1) * sizeof *key);
  if (!idx || !key) {
    free(idx);
    free(key);
    return NULL;
  }
  for (size_t i = 0; i < n; ++i) {
    idx[i] = i;
    key[i] = cv_section_index(c->lines[i].target) * (convert_pyc2ray_n_layout + 1) +
             cv_layout_index(c->lines[i].target);
  }
  for (size_t i = 1; i < n; ++i) /* insertion sort: stable, and a few dozen lines */
    for (size_t j = i; j > 0 && key[idx[j - 1]] > key[idx[j]]; --j) {
      size_t t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  free(key);
  return idx;
}

static int cv_has_placeholder(const struct cv_ctx *c) {
  for (size_t i = 0; i < c->n_lines; ++i)
    if (strstr(c->lines[i].comment, "PLACEHOLDER")) return 1;
  for (size_t i = 0; i < c->n_notes; ++i)
    if (strstr(c->notes[i].text, "PLACEHOLDER")) return 1;
  return 0;
}

static void cv_put_header(struct cv_buf *b, const struct cv_ctx *c) {
  cv_put(b, "# ionfront config converted from the pyC2Ray parameter file '%s'\n", c->name);
  cv_put(b, "# by 'ionfront convert' (ionfront %s).\n#\n", IONF_VERSION);
  cv_put(b, "# Each converted line names its pyC2Ray key: \"# Section.key: value (what was "
            "done)\".\n"
            "# Keys with no ionfront counterpart, and keys pyC2Ray does not read, are listed "
            "at the\n");
  if (cv_has_placeholder(c))
    cv_put(b, "# end.  PLACEHOLDER marks what pyC2Ray's driving script supplies: fill it in "
              "(or convert\n"
              "# with --sources FILE --dt TIME --t-end TIME); then check the config with\n");
  else
    cv_put(b, "# end.  What pyC2Ray's driving script supplies came from the options; check "
              "the config\n# with\n");
  cv_put(b, "#   ionfront run CONFIG --dry-run\n"
            "# Units and frames, key by key: docs/pyc2ray.md.\n\n");
}

static void cv_put_section(struct cv_buf *b, const struct cv_ctx *c, const char *name,
                           const size_t *idx, size_t n) {
  int any_note = 0;
  for (size_t i = 0; i < c->n_notes; ++i)
    if (!strcmp(c->notes[i].section, name)) any_note = 1;
  if (n == 0 && !any_note) return;
  for (size_t i = 0; i < c->n_notes; ++i)
    if (!strcmp(c->notes[i].section, name)) cv_put(b, "# %s\n", c->notes[i].text);
  if (n == 1 && !strcmp(c->lines[idx[0]].target, name)) { /* a section given as one value */
    const struct cv_line *l = &c->lines[idx[0]];
    cv_put_line(b, 0, l->commented, name, strlen(name), l->value, l->comment);
  } else if (n > 0) {
    int all_commented = 1;
    for (size_t i = 0; i < n; ++i) all_commented &= c->lines[idx[i]].commented;
    cv_put_line(b, 0, all_commented, name, strlen(name), NULL, NULL);
    char *done = calloc(n, 1);
    if (done) cv_put_group(b, c->lines, idx, n, 1, 2, done);
    else b->failed = 1;
    free(done);
  }
  cv_put(b, "\n");
}

static void cv_put_listed(struct cv_buf *b, const struct cv_ctx *c) {
  if (c->n_listed == 0) {
    cv_put(b, "# not converted: none (every key of the file has an ionfront line above)\n");
    return;
  }
  cv_put(b, "# -----------------------------------------------------------------------------"
            "----\n"
            "# not converted: the file's keys with no ionfront counterpart (or unused by the "
            "models\n# this file chooses), and keys pyC2Ray does not read\n");
  for (size_t i = 0; i < c->n_listed; ++i) {
    cv_put(b, "#   ");
    cv_put_wrapped(b, 4, "#       ", c->listed[i]);
  }
}

static char *cv_print(const struct cv_ctx *c) {
  struct cv_buf b = {0};
  size_t *idx = cv_order(c);
  if (!idx) return NULL;
  cv_put_header(&b, c);
  size_t start = 0;
  for (size_t s = 0; s < convert_pyc2ray_n_sections; ++s) {
    size_t end = start;
    while (end < c->n_lines && cv_section_index(c->lines[idx[end]].target) == s) ++end;
    cv_put_section(&b, c, convert_pyc2ray_sections[s].name, idx + start, end - start);
    start = end;
  }
  free(idx);
  cv_put_listed(&b, c);
  if (b.failed) {
    free(b.p);
    return NULL;
  }
  return b.p;
}

/* ---- entry points ------------------------------------------------------------------ */

static void cv_free(struct cv_ctx *c) {
  for (size_t i = 0; i < c->n_lines; ++i) {
    free(c->lines[i].target);
    free(c->lines[i].value);
    free(c->lines[i].comment);
  }
  for (size_t i = 0; i < c->n_notes; ++i) {
    free(c->notes[i].section);
    free(c->notes[i].text);
  }
  for (size_t i = 0; i < c->n_listed; ++i) free(c->listed[i]);
  for (size_t i = 0; i < c->n_strings; ++i) free(c->strings[i]);
  free(c->lines);
  free(c->notes);
  free(c->listed);
  free(c->strings);
  free(c->used);
}

static ionf_err cv_check_options(const struct convert_pyc2ray_options *opt) {
  const char *const names[] = {"--dt", "--t-end"};
  const char *const values[] = {opt ? opt->dt : NULL, opt ? opt->t_end : NULL};
  for (int i = 0; i < 2; ++i) {
    double s = 0.0;
    if (!values[i]) continue;
    ionf_err rc = units_parse(values[i], UNIT_TIME, IONF_MYR_S, 0.0, names[i], &s);
    if (rc != IONF_OK) return IONF_ERR_USAGE; /* its message names the option and the value */
    IONF_CHECK(s > 0.0, IONF_ERR_USAGE, "convert: %s '%s': expected a time > 0, e.g. '10 Myr'",
               names[i], values[i]);
  }
  return IONF_OK;
}

static ionf_err cv_convert(const struct param_node *root, const char *name,
                           const struct convert_pyc2ray_options *opt,
                           struct convert_pyc2ray_result *out) {
  struct cv_ctx c = {0};
  c.name = name;
  c.root = root;
  ionf_err rc = cv_check_file(&c);
  if (rc == IONF_OK) rc = cv_run_rows(&c);
  if (rc == IONF_OK) rc = convert_pyc2ray_script_keys(&c, opt);
  if (rc == IONF_OK) rc = cv_sweep(&c);
  if (rc == IONF_OK) {
    out->text = cv_print(&c);
    if (!out->text) rc = ionf_error_set(IONF_ERR_MEM, "convert: out of memory");
    out->n_converted = c.n_converted;
    out->n_not_converted = (int)c.n_listed;
    out->n_unknown = c.n_unknown;
  }
  cv_free(&c);
  return rc;
}

ionf_err convert_pyc2ray_string(const char *yaml, const char *name,
                                const struct convert_pyc2ray_options *opt,
                                struct convert_pyc2ray_result *out) {
  memset(out, 0, sizeof *out);
  IONF_CALL(cv_check_options(opt));
  struct param_node *root = NULL;
  IONF_CALL(params_load_string(yaml, name, &root));
  ionf_err rc = cv_convert(root, name, opt, out);
  params_free(root);
  return rc;
}

ionf_err convert_pyc2ray_file(const char *path, const struct convert_pyc2ray_options *opt,
                              struct convert_pyc2ray_result *out) {
  memset(out, 0, sizeof *out);
  IONF_CALL(cv_check_options(opt));
  struct param_node *root = NULL;
  IONF_CALL(params_load_file(path, &root));
  ionf_err rc = cv_convert(root, path, opt, out);
  params_free(root);
  return rc;
}
