/**
 * @file params.h
 * @brief A YAML document as a small tree (built with libyaml), plus
 *        `--set section.key=VALUE` overrides whose VALUE is parsed as YAML.
 *
 * The tree keeps line numbers so that config errors can name where a value
 * came from.  Typed access and validation live in config.c.
 */
#ifndef IONF_PARAMS_H
#define IONF_PARAMS_H

#include <stddef.h>

#include "core/error.h"

enum param_kind { PARAM_NULL, PARAM_SCALAR, PARAM_SEQUENCE, PARAM_MAPPING };

struct param_node {
  enum param_kind kind;
  char *scalar;              /*!< text of a scalar (NULL otherwise) */
  int quoted;                /*!< scalar was quoted: always a string */
  size_t n_items;            /*!< items of a sequence, or pairs of a mapping */
  struct param_node **items; /*!< sequence items / mapping values */
  char **keys;               /*!< mapping keys (NULL for sequences) */
  int line;                  /*!< 1-based line in the source text (0 if from --set) */
  char *set_by;              /*!< "--set KEY=VALUE": the override that gave this value
                                  (NULL: from the text); config messages blame it */
};

/** Parse a YAML file into a tree. Errors name the file, line and column. */
IONF_NODISCARD ionf_err params_load_file(const char *path, struct param_node **root);
/** Parse YAML text; `name` is used in error messages (e.g. "built-in iliev1"). */
IONF_NODISCARD ionf_err params_load_string(const char *text, const char *name,
                                           struct param_node **root);
/** Apply "a.b.c=VALUE": VALUE is parsed as YAML; missing mappings are created.  Every
    node of VALUE records the assignment (set_by "--set a.b.c=VALUE"). */
IONF_NODISCARD ionf_err params_set_override(struct param_node *root, const char *assignment);
/** The "--set KEY=VALUE" that gave `n`: its own set_by, or, for a mapping or list all of
    whose values came from --set (a section a --set made), its first value's; NULL when
    `n` (or a part of it) comes from the text. */
const char *params_origin(const struct param_node *n);
/** Mapping lookup (NULL when absent or `map` is not a mapping). */
struct param_node *params_get(const struct param_node *map, const char *key);
/** Emit the tree back as YAML text (malloc'd; caller frees). */
char *params_emit_yaml(const struct param_node *root);
/** A new node: PARAM_SCALAR copies `scalar`; other kinds ignore it (NULL + IONF_ERR_MEM on failure). */
struct param_node *params_new(enum param_kind kind, const char *scalar);
/** Deep copy (NULL for NULL, or on allocation failure with IONF_ERR_MEM set). */
struct param_node *params_copy(const struct param_node *node);
/** Set `key` of a mapping, replacing an existing value; takes `value` (freed on failure). */
IONF_NODISCARD ionf_err params_map_set(struct param_node *map, const char *key,
                                       struct param_node *value);
/** Append to a sequence; takes `item` (freed on failure). */
IONF_NODISCARD ionf_err params_seq_append(struct param_node *seq, struct param_node *item);
/** Free a tree (NULL is fine). */
void params_free(struct param_node *root);

#endif /* IONF_PARAMS_H */
