/**
 * @file params.c
 * @brief YAML text <-> param_node tree, with libyaml's event API (the events
 *        carry scalar styles and marks, which the document API would make us
 *        dig out of a node table).
 */
#include "core/params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Guards against hostile input: nesting blows the C stack, aliases can expand
 * exponentially ("billion laughs"). Real configs are far below both. */
#define PARAMS_MAX_DEPTH 64
#define PARAMS_MAX_NODES 1000000

struct params_anchor {
  char *name;
  const struct param_node *node;
};

struct params_builder {
  yaml_parser_t parser;
  const char *name;   /* file name or "built-in X" for messages */
  ionf_err code;      /* code for syntax errors: CONFIG for files, USAGE for --set */
  struct params_anchor *anchors;
  size_t n_anchors;
  size_t n_nodes;
};

/* ---- small helpers ------------------------------------------------------- */

static char *params_strdup(const char *s, size_t len) {
  char *d = ionf_malloc(len + 1, "a YAML string");
  if (!d) return NULL;
  memcpy(d, s, len);
  d[len] = '\0';
  return d;
}

/* Grow an array whose length is n to hold n + 1 elements; capacities are
 * powers of two, so the capacity needs no field of its own. */
static int params_grow(void **array, size_t n, size_t elem) {
  if (n != 0 && (n & (n - 1)) != 0) return 1;
  size_t cap = n ? 2 * n : 1;
  void *p = realloc(*array, cap * elem);
  if (!p) {
    ionf_error_set(IONF_ERR_MEM, "could not allocate %zu bytes for a YAML tree", cap * elem);
    return 0;
  }
  *array = p;
  return 1;
}

struct param_node *params_new(enum param_kind kind, const char *scalar) {
  struct param_node *n = ionf_calloc(1, sizeof *n, "a YAML node");
  if (!n) return NULL;
  n->kind = kind;
  if (kind == PARAM_SCALAR) {
    n->scalar = params_strdup(scalar ? scalar : "", scalar ? strlen(scalar) : 0);
    if (!n->scalar) {
      free(n);
      return NULL;
    }
  }
  return n;
}

void params_free(struct param_node *root) {
  if (!root) return;
  for (size_t i = 0; i < root->n_items; ++i) {
    params_free(root->items[i]);
    if (root->keys) free(root->keys[i]);
  }
  free(root->items);
  free(root->keys);
  free(root->scalar);
  free(root->set_by);
  free(root);
}

struct param_node *params_copy(const struct param_node *node) {
  if (!node) return NULL;
  struct param_node *c = params_new(node->kind, node->scalar);
  if (!c) return NULL;
  c->quoted = node->quoted;
  c->line = node->line;
  if (node->set_by && !(c->set_by = params_strdup(node->set_by, strlen(node->set_by)))) {
    params_free(c);
    return NULL;
  }
  for (size_t i = 0; i < node->n_items; ++i) {
    struct param_node *item = params_copy(node->items[i]);
    ionf_err rc = item ? IONF_OK : IONF_ERR_MEM;
    if (rc == IONF_OK)
      rc = node->kind == PARAM_MAPPING ? params_map_set(c, node->keys[i], item)
                                       : params_seq_append(c, item);
    if (rc != IONF_OK) {
      params_free(c);
      return NULL;
    }
  }
  return c;
}

/* Append without checking for an existing key (the parser checks itself). */
static ionf_err params_map_append(struct param_node *map, const char *key, size_t key_len,
                                  struct param_node *value) {
  char *k = params_strdup(key, key_len);
  if (!k || !params_grow((void **)&map->items, map->n_items, sizeof *map->items) ||
      !params_grow((void **)&map->keys, map->n_items, sizeof *map->keys)) {
    free(k);
    params_free(value);
    return IONF_ERR_MEM;
  }
  map->keys[map->n_items] = k;
  map->items[map->n_items++] = value;
  return IONF_OK;
}

ionf_err params_map_set(struct param_node *map, const char *key, struct param_node *value) {
  if (!map || map->kind != PARAM_MAPPING) {
    params_free(value);
    return ionf_error_set(IONF_ERR_INTERNAL, "params_map_set: '%s' set on a non-mapping", key);
  }
  for (size_t i = 0; i < map->n_items; ++i) {
    if (strcmp(map->keys[i], key) == 0) {
      params_free(map->items[i]);
      map->items[i] = value;
      return IONF_OK;
    }
  }
  return params_map_append(map, key, strlen(key), value);
}

ionf_err params_seq_append(struct param_node *seq, struct param_node *item) {
  if (!seq || seq->kind != PARAM_SEQUENCE) {
    params_free(item);
    return ionf_error_set(IONF_ERR_INTERNAL, "params_seq_append on a non-sequence");
  }
  if (!params_grow((void **)&seq->items, seq->n_items, sizeof *seq->items)) {
    params_free(item);
    return IONF_ERR_MEM;
  }
  seq->items[seq->n_items++] = item;
  return IONF_OK;
}

struct param_node *params_get(const struct param_node *map, const char *key) {
  if (!map || map->kind != PARAM_MAPPING) return NULL;
  for (size_t i = 0; i < map->n_items; ++i)
    if (strcmp(map->keys[i], key) == 0) return map->items[i];
  return NULL;
}

/* ---- parsing --------------------------------------------------------------- */

static ionf_err params_parser_error(struct params_builder *b) {
  const yaml_parser_t *p = &b->parser;
  const char *problem = p->problem ? p->problem : "invalid YAML";
  if (p->error == YAML_MEMORY_ERROR)
    return ionf_error_set(IONF_ERR_MEM, "%s: out of memory while parsing YAML", b->name);
  if (p->error == YAML_READER_ERROR)
    return ionf_error_set(b->code, "%s: %s (at byte %zu)", b->name, problem, p->problem_offset);
  if (p->context)
    return ionf_error_set(b->code, "%s:%zu:%zu: %s (%s at line %zu)", b->name,
                          p->problem_mark.line + 1, p->problem_mark.column + 1, problem,
                          p->context, p->context_mark.line + 1);
  return ionf_error_set(b->code, "%s:%zu:%zu: %s", b->name, p->problem_mark.line + 1,
                        p->problem_mark.column + 1, problem);
}

static ionf_err params_next(struct params_builder *b, yaml_event_t *ev) {
  if (!yaml_parser_parse(&b->parser, ev)) return params_parser_error(b);
  return IONF_OK;
}

static int params_is_null_text(const char *s) {
  return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
         strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

static ionf_err params_count_node(struct params_builder *b, const yaml_mark_t *mark) {
  if (++b->n_nodes > PARAMS_MAX_NODES)
    return ionf_error_set(b->code, "%s:%zu: the document has more than %d values", b->name,
                          mark->line + 1, PARAMS_MAX_NODES);
  return IONF_OK;
}

static ionf_err params_build(struct params_builder *b, yaml_event_t *ev, int depth,
                             struct param_node **out);

static size_t params_size(const struct param_node *n) {
  size_t size = 1;
  for (size_t i = 0; i < n->n_items; ++i) size += params_size(n->items[i]);
  return size;
}

static ionf_err params_build_alias(struct params_builder *b, const yaml_event_t *ev,
                                   struct param_node **out) {
  const char *name = (const char *)ev->data.alias.anchor;
  for (size_t i = b->n_anchors; i-- > 0;) {
    if (strcmp(b->anchors[i].name, name) == 0) {
      /* Aliases are expanded into copies: the tree stays a tree. */
      size_t size = params_size(b->anchors[i].node);
      if (size > PARAMS_MAX_NODES - b->n_nodes)
        return ionf_error_set(b->code, "%s:%zu: the document has more than %d values", b->name,
                              ev->start_mark.line + 1, PARAMS_MAX_NODES);
      b->n_nodes += size;
      *out = params_copy(b->anchors[i].node);
      return *out ? IONF_OK : IONF_ERR_MEM;
    }
  }
  return ionf_error_set(b->code, "%s:%zu:%zu: unknown alias '*%s'", b->name,
                        ev->start_mark.line + 1, ev->start_mark.column + 1, name);
}

static ionf_err params_build_sequence(struct params_builder *b, int depth,
                                      struct param_node *seq) {
  for (;;) {
    yaml_event_t ev;
    IONF_CALL(params_next(b, &ev));
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      return IONF_OK;
    }
    struct param_node *item = NULL;
    IONF_CALL(params_build(b, &ev, depth + 1, &item));
    IONF_CALL(params_seq_append(seq, item));
  }
}

static ionf_err params_build_mapping(struct params_builder *b, int depth,
                                     struct param_node *map) {
  size_t *key_lines = NULL; /* to say where a duplicated key was first given */
  ionf_err rc = IONF_OK;
  for (;;) {
    yaml_event_t ev;
    rc = params_next(b, &ev);
    if (rc != IONF_OK) break;
    if (ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (ev.type != YAML_SCALAR_EVENT) {
      rc = ionf_error_set(b->code, "%s:%zu:%zu: mapping keys must be plain strings", b->name,
                          ev.start_mark.line + 1, ev.start_mark.column + 1);
      yaml_event_delete(&ev);
      break;
    }
    const char *key = (const char *)ev.data.scalar.value;
    size_t line = ev.start_mark.line + 1;
    for (size_t i = 0; i < map->n_items && rc == IONF_OK; ++i)
      if (strcmp(map->keys[i], key) == 0)
        rc = ionf_error_set(b->code, "%s:%zu:%zu: duplicate key '%s' (first given at line %zu)",
                            b->name, line, ev.start_mark.column + 1, key, key_lines[i]);
    if (rc == IONF_OK && !params_grow((void **)&key_lines, map->n_items, sizeof *key_lines))
      rc = IONF_ERR_MEM;
    if (rc != IONF_OK) {
      yaml_event_delete(&ev);
      break;
    }
    key_lines[map->n_items] = line;
    char *key_copy = params_strdup(key, ev.data.scalar.length);
    yaml_event_delete(&ev);
    if (!key_copy) {
      rc = IONF_ERR_MEM;
      break;
    }
    struct param_node *value = NULL;
    rc = params_next(b, &ev);
    if (rc == IONF_OK) rc = params_build(b, &ev, depth + 1, &value);
    if (rc == IONF_OK) rc = params_map_append(map, key_copy, strlen(key_copy), value);
    free(key_copy);
    if (rc != IONF_OK) break;
  }
  free(key_lines);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

/* Build the node that starts with `ev` (consumed and deleted here). */
static ionf_err params_build(struct params_builder *b, yaml_event_t *ev, int depth,
                             struct param_node **out) {
  *out = NULL;
  ionf_err rc = params_count_node(b, &ev->start_mark);
  if (rc == IONF_OK && depth > PARAMS_MAX_DEPTH)
    rc = ionf_error_set(b->code, "%s:%zu:%zu: nested deeper than %d levels", b->name,
                        ev->start_mark.line + 1, ev->start_mark.column + 1, PARAMS_MAX_DEPTH);
  if (rc != IONF_OK) {
    yaml_event_delete(ev);
    return rc;
  }
  const yaml_char_t *anchor = NULL;
  struct param_node *node = NULL;
  switch (ev->type) {
    case YAML_ALIAS_EVENT:
      rc = params_build_alias(b, ev, &node);
      break;
    case YAML_SCALAR_EVENT: {
      const char *text = (const char *)ev->data.scalar.value;
      const char *tag = (const char *)ev->data.scalar.tag;
      /* Only plain scalars take part in implicit typing (numbers, bools, null). */
      int quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
                   (tag && strcmp(tag, YAML_STR_TAG) == 0);
      anchor = ev->data.scalar.anchor;
      if (!quoted && params_is_null_text(text)) {
        node = params_new(PARAM_NULL, NULL);
      } else {
        node = params_new(PARAM_SCALAR, NULL);
        if (node) {
          free(node->scalar);
          node->scalar = params_strdup(text, ev->data.scalar.length);
          if (!node->scalar) {
            params_free(node);
            node = NULL;
          }
        }
        if (node) node->quoted = quoted;
      }
      if (!node) rc = IONF_ERR_MEM;
      break;
    }
    case YAML_SEQUENCE_START_EVENT:
      anchor = ev->data.sequence_start.anchor;
      node = params_new(PARAM_SEQUENCE, NULL);
      rc = node ? IONF_OK : IONF_ERR_MEM;
      break;
    case YAML_MAPPING_START_EVENT:
      anchor = ev->data.mapping_start.anchor;
      node = params_new(PARAM_MAPPING, NULL);
      rc = node ? IONF_OK : IONF_ERR_MEM;
      break;
    default:
      rc = ionf_error_set(IONF_ERR_INTERNAL, "%s:%zu: unexpected YAML event %d", b->name,
                          ev->start_mark.line + 1, (int)ev->type);
      break;
  }
  if (node) node->line = (int)ev->start_mark.line + 1;
  char *anchor_name = NULL;
  if (rc == IONF_OK && anchor) {
    anchor_name = params_strdup((const char *)anchor, strlen((const char *)anchor));
    if (!anchor_name) rc = IONF_ERR_MEM;
  }
  yaml_event_type_t type = ev->type;
  yaml_event_delete(ev);
  if (rc == IONF_OK && type == YAML_SEQUENCE_START_EVENT)
    rc = params_build_sequence(b, depth, node);
  if (rc == IONF_OK && type == YAML_MAPPING_START_EVENT)
    rc = params_build_mapping(b, depth, node);
  /* Register the anchor only once the node is complete, so a node cannot
   * contain an alias of itself. */
  if (rc == IONF_OK && anchor_name) {
    if (params_grow((void **)&b->anchors, b->n_anchors, sizeof *b->anchors)) {
      b->anchors[b->n_anchors].name = anchor_name;
      b->anchors[b->n_anchors++].node = node;
      anchor_name = NULL;
    } else {
      rc = IONF_ERR_MEM;
    }
  }
  free(anchor_name);
  if (rc != IONF_OK) {
    params_free(node);
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  *out = node;
  return IONF_OK;
}

/* Parse the single document the parser is set up for. */
static ionf_err params_build_document(struct params_builder *b, struct param_node **root) {
  yaml_event_t ev;
  struct param_node *node = NULL;
  IONF_CALL(params_next(b, &ev)); /* stream start */
  yaml_event_delete(&ev);
  IONF_CALL(params_next(b, &ev));
  if (ev.type == YAML_STREAM_END_EVENT) { /* an empty text is an empty document */
    yaml_event_delete(&ev);
    *root = params_new(PARAM_NULL, NULL);
    return *root ? IONF_OK : IONF_ERR_MEM;
  }
  yaml_event_delete(&ev); /* document start */
  IONF_CALL(params_next(b, &ev));
  IONF_CALL(params_build(b, &ev, 0, &node));
  ionf_err rc = params_next(b, &ev); /* document end */
  if (rc == IONF_OK) {
    yaml_event_delete(&ev);
    rc = params_next(b, &ev);
  }
  if (rc == IONF_OK) {
    if (ev.type != YAML_STREAM_END_EVENT)
      rc = ionf_error_set(b->code, "%s:%zu: only one YAML document is allowed ('---' starts a second one)",
                          b->name, ev.start_mark.line + 1);
    yaml_event_delete(&ev);
  }
  if (rc != IONF_OK) {
    params_free(node);
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  *root = node;
  return IONF_OK;
}

static void params_builder_done(struct params_builder *b) {
  for (size_t i = 0; i < b->n_anchors; ++i) free(b->anchors[i].name);
  free(b->anchors);
  yaml_parser_delete(&b->parser);
}

static ionf_err params_parse_text(const char *text, const char *name, ionf_err code,
                                  struct param_node **root) {
  struct params_builder b = {.name = name, .code = code};
  *root = NULL;
  if (!yaml_parser_initialize(&b.parser))
    return ionf_error_set(IONF_ERR_MEM, "%s: cannot initialise the YAML parser", name);
  yaml_parser_set_input_string(&b.parser, (const unsigned char *)text, strlen(text));
  ionf_err rc = params_build_document(&b, root);
  params_builder_done(&b);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

ionf_err params_load_string(const char *text, const char *name, struct param_node **root) {
  IONF_CALL(params_parse_text(text, name, IONF_ERR_CONFIG, root));
  return IONF_OK;
}

ionf_err params_load_file(const char *path, struct param_node **root) {
  *root = NULL;
  FILE *f = fopen(path, "rb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot open config file '%s': %s", path, strerror(errno));
  struct params_builder b = {.name = path, .code = IONF_ERR_CONFIG};
  if (!yaml_parser_initialize(&b.parser)) {
    fclose(f);
    return ionf_error_set(IONF_ERR_MEM, "%s: cannot initialise the YAML parser", path);
  }
  yaml_parser_set_input_file(&b.parser, f);
  ionf_err rc = params_build_document(&b, root);
  params_builder_done(&b);
  if (rc == IONF_OK && ferror(f))
    rc = ionf_error_set(IONF_ERR_IO, "error reading config file '%s'", path);
  fclose(f);
  if (rc != IONF_OK) {
    params_free(*root);
    *root = NULL;
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

/* ---- overrides ------------------------------------------------------------- */

const char *params_origin(const struct param_node *n) {
  if (!n || n->set_by) return n ? n->set_by : NULL;
  const char *first = NULL;
  for (size_t i = 0; i < n->n_items; ++i) {
    const char *s = params_origin(n->items[i]);
    if (!s) return NULL;
    if (!first) first = s;
  }
  return first;
}

/* Every node of an override's value: no line, and the assignment that gave it. */
static ionf_err params_mark_set(struct param_node *n, const char *assignment) {
  n->line = 0;
  free(n->set_by);
  n->set_by = params_strdup(assignment, strlen(assignment));
  if (!n->set_by) return IONF_ERR_MEM;
  for (size_t i = 0; i < n->n_items; ++i) IONF_CALL(params_mark_set(n->items[i], assignment));
  return IONF_OK;
}

static int params_is_space(char c) { return c == ' ' || c == '\t'; }

ionf_err params_set_override(struct param_node *root, const char *assignment) {
  IONF_CHECK(root, IONF_ERR_INTERNAL, "params_set_override: no tree");
  const char *eq = strchr(assignment, '=');
  IONF_CHECK(eq, IONF_ERR_USAGE, "--set '%s': expected KEY=VALUE, e.g. 'time.dt=5 Myr'",
             assignment);
  size_t key_len = (size_t)(eq - assignment);
  char *key = params_strdup(assignment, key_len);
  if (!key) return IONF_ERR_MEM;

  /* Split the key path in place; blanks around components are ignored. */
  char *parts[32];
  int n_parts = 0;
  ionf_err rc = IONF_OK;
  for (char *p = key;;) {
    char *dot = strchr(p, '.');
    if (dot) *dot = '\0';
    while (params_is_space(*p)) ++p;
    char *end = p + strlen(p);
    while (end > p && params_is_space(end[-1])) *--end = '\0';
    if (*p == '\0') {
      rc = ionf_error_set(IONF_ERR_USAGE,
                          "--set '%s': empty key name (expected SECTION.KEY=VALUE, e.g. "
                          "'time.dt=5 Myr')",
                          assignment);
      break;
    }
    if (n_parts == (int)(sizeof parts / sizeof parts[0])) {
      rc = ionf_error_set(IONF_ERR_USAGE, "--set '%s': key path is too deep", assignment);
      break;
    }
    parts[n_parts++] = p;
    if (!dot) break;
    p = dot + 1;
  }

  struct param_node *value = NULL;
  if (rc == IONF_OK) {
    char name[256];
    snprintf(name, sizeof name, "--set '%s'", assignment);
    rc = params_parse_text(eq + 1, name, IONF_ERR_USAGE, &value);
  }
  char origin[256];
  snprintf(origin, sizeof origin, "--set %s", assignment);
  if (rc == IONF_OK) rc = params_mark_set(value, origin);

  struct param_node *node = root;
  if (rc == IONF_OK && node->kind == PARAM_NULL) node->kind = PARAM_MAPPING;
  for (int i = 0; rc == IONF_OK && i < n_parts; ++i) {
    if (node->kind != PARAM_MAPPING) {
      /* The path so far is a prefix of the assignment (the key was split in place). */
      const char *path = i ? assignment : "the top level";
      int path_len = i ? (int)(parts[i - 1] + strlen(parts[i - 1]) - key) : (int)strlen(path);
      rc = ionf_error_set(IONF_ERR_USAGE, "--set '%s': '%.*s' is %s, not a mapping of keys",
                          assignment, path_len, path,
                          node->kind == PARAM_SEQUENCE ? "a list" : "a single value");
      break;
    }
    if (i == n_parts - 1) {
      rc = params_map_set(node, parts[i], value);
      value = NULL;
      break;
    }
    struct param_node *child = params_get(node, parts[i]);
    if (!child) {
      child = params_new(PARAM_MAPPING, NULL);
      rc = child ? params_map_set(node, parts[i], child) : IONF_ERR_MEM;
    } else if (child->kind == PARAM_NULL) {
      child->kind = PARAM_MAPPING; /* "grid:" with nothing under it */
    }
    node = child;
  }
  params_free(value);
  free(key);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

/* ---- emitting -------------------------------------------------------------- */

struct params_out {
  char *data;
  size_t len, cap;
};

static int params_write(void *user, unsigned char *buffer, size_t size) {
  struct params_out *o = user;
  if (o->len + size + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 1024;
    while (cap < o->len + size + 1) cap *= 2;
    char *p = realloc(o->data, cap);
    if (!p) return 0;
    o->data = p;
    o->cap = cap;
  }
  memcpy(o->data + o->len, buffer, size);
  o->len += size;
  o->data[o->len] = '\0';
  return 1;
}

/* Flow style "[a, b]" only where every item would stay a plain scalar there:
 * libyaml quotes flow scalars with ',', ':', '#', ... and re-parsing would
 * then mark them quoted. */
static int params_flow_ok(const struct param_node *seq) {
  if (seq->n_items == 0 || seq->n_items > 16) return 0;
  for (size_t i = 0; i < seq->n_items; ++i) {
    const struct param_node *it = seq->items[i];
    if (it->kind == PARAM_NULL) continue;
    if (it->kind != PARAM_SCALAR) return 0;
    if (it->quoted) continue;
    const char *s = it->scalar;
    size_t len = strlen(s);
    if (len == 0 || len > 40 || s[0] == ' ' || s[len - 1] == ' ') return 0;
    for (const char *c = s; *c; ++c) {
      int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
               (*c >= '0' && *c <= '9') || strchr(" .+-_/", *c);
      if (!ok) return 0;
    }
  }
  return 1;
}

static int params_emit_scalar(yaml_emitter_t *e, const char *text, int quoted) {
  yaml_event_t ev;
  /* Both implicit flags set: libyaml must not add "!" tags when it quotes. */
  if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), 1, 1,
                                    quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                           : YAML_ANY_SCALAR_STYLE))
    return 0;
  return yaml_emitter_emit(e, &ev);
}

static int params_emit_node(yaml_emitter_t *e, const struct param_node *n) {
  yaml_event_t ev;
  if (!n || n->kind == PARAM_NULL) return params_emit_scalar(e, "null", 0);
  switch (n->kind) {
    case PARAM_SCALAR:
      return params_emit_scalar(e, n->scalar, n->quoted);
    case PARAM_SEQUENCE:
      if (!yaml_sequence_start_event_initialize(
              &ev, NULL, NULL, 1,
              params_flow_ok(n) ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE) ||
          !yaml_emitter_emit(e, &ev))
        return 0;
      for (size_t i = 0; i < n->n_items; ++i)
        if (!params_emit_node(e, n->items[i])) return 0;
      return yaml_sequence_end_event_initialize(&ev) && yaml_emitter_emit(e, &ev);
    case PARAM_MAPPING:
      if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) ||
          !yaml_emitter_emit(e, &ev))
        return 0;
      for (size_t i = 0; i < n->n_items; ++i)
        if (!params_emit_scalar(e, n->keys[i], 0) || !params_emit_node(e, n->items[i]))
          return 0;
      return yaml_mapping_end_event_initialize(&ev) && yaml_emitter_emit(e, &ev);
    case PARAM_NULL:
      break;
  }
  return 0;
}

char *params_emit_yaml(const struct param_node *root) {
  yaml_emitter_t e;
  yaml_event_t ev;
  struct params_out out = {0};
  if (!yaml_emitter_initialize(&e)) {
    ionf_error_set(IONF_ERR_MEM, "cannot initialise the YAML emitter");
    return NULL;
  }
  yaml_emitter_set_output(&e, params_write, &out);
  yaml_emitter_set_unicode(&e, 1);
  yaml_emitter_set_width(&e, -1); /* never fold long scalars */
  yaml_emitter_set_indent(&e, 2);
  int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
           yaml_emitter_emit(&e, &ev) &&
           yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
           yaml_emitter_emit(&e, &ev) && params_emit_node(&e, root) &&
           yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
           yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) &&
           yaml_emitter_flush(&e);
  if (!ok) {
    ionf_error_set(e.error == YAML_MEMORY_ERROR ? IONF_ERR_MEM : IONF_ERR_INTERNAL,
                   "cannot write the config as YAML: %s",
                   e.problem ? e.problem : "out of memory");
    free(out.data);
    out.data = NULL;
  } else if (!out.data) {
    out.data = params_strdup("", 0);
  }
  yaml_emitter_delete(&e);
  return out.data;
}
