/**
 * @file convert_pyc2ray_internal.h
 * @brief Between the conversion's machinery (`convert_pyc2ray.c`: reading, type checks,
 *        lines, printing) and its table (`convert_pyc2ray_table.c`: which pyC²Ray key
 *        becomes which ionfront key, and how).
 */
#ifndef IONF_CONVERT_PYC2RAY_INTERNAL_H
#define IONF_CONVERT_PYC2RAY_INTERNAL_H

#include <stddef.h>

#include "config/convert_pyc2ray.h"
#include "core/error.h"

/** What a pyC²Ray value must be (checked for every key of the table before converting). */
enum cv_type {
  CV_NUMBER,  /*!< a finite number ("1e4", "-0.7") */
  CV_INTEGER, /*!< a whole number ("256") */
  CV_BOOL,    /*!< pyC²Ray's 0 / 1 (true / false accepted) */
  CV_STRING   /*!< a word or a path ("constant", "./results/"); "None" reads as not set */
};

struct cv_ctx;
struct cv_row;
/** A row's own conversion: it uses (cv_use / cv_skip) at least the row's key. */
typedef ionf_err cv_fn(struct cv_ctx *c, const struct cv_row *row);

/**
 * One pyC²Ray key.  Present in the file and not yet used by an earlier row's function:
 *   fn set              fn(c, row);
 *   target set          the value copied to the ionfront key `target`, `note` in the comment;
 *   neither             listed as not converted, `note` being why.
 */
struct cv_row {
  const char *section, *key; /*!< pyC²Ray's */
  enum cv_type type;
  const char *target; /*!< ionfront's key path, e.g. "chemistry.alpha_B" */
  cv_fn *fn;
  const char *note;
};

/** An ionfront key with no pyC²Ray key, written when no row wrote it. */
struct cv_fixed {
  const char *target, *value, *comment;
};

/** An ionfront section, in the order printed; `template_only`: printed commented out. */
struct cv_section {
  const char *name;
  int template_only;
};

/* ---- the table (convert_pyc2ray_table.c) ---- */
extern const struct cv_row convert_pyc2ray_rows[];
extern const size_t convert_pyc2ray_n_rows;
extern const struct cv_fixed convert_pyc2ray_fixed[];
extern const size_t convert_pyc2ray_n_fixed;
extern const struct cv_section convert_pyc2ray_sections[];
extern const size_t convert_pyc2ray_n_sections;
/** ionfront key paths (or their prefixes) in the order printed within their mapping. */
extern const char *const convert_pyc2ray_layout[];
extern const size_t convert_pyc2ray_n_layout;
/** The sources:, time: and sequence: lines of what the driving script supplies. */
IONF_NODISCARD ionf_err convert_pyc2ray_script_keys(struct cv_ctx *c,
                                                    const struct convert_pyc2ray_options *opt);

/* ---- the machinery's services to the table (convert_pyc2ray.c) ---- */
enum cv_emit_flags { CV_LIVE = 0, CV_COMMENTED = 1 };
/** 1 when Section.key is in the file (a null or "None" string counts as absent). */
int cv_has(struct cv_ctx *c, const char *section, const char *key);
/** The value as text (numbers as written, booleans 0 / 1), not marking it used; NULL absent. */
const char *cv_text(struct cv_ctx *c, const char *section, const char *key);
/** The number (a CV_NUMBER / CV_INTEGER / CV_BOOL key) or `fallback` when absent. */
double cv_number(struct cv_ctx *c, const char *section, const char *key, double fallback);
/** Mark Section.key converted (counted); returns its text (NULL when absent). */
const char *cv_use(struct cv_ctx *c, const char *section, const char *key);
/** "Section.key: value", marking the key converted; kept until the conversion ends. */
const char *cv_says(struct cv_ctx *c, const char *section, const char *key);
/** Copy the row's value to `row->target`, `row->note` in the comment (what a row with a
    target and no function does). */
IONF_NODISCARD ionf_err cv_copy(struct cv_ctx *c, const struct cv_row *row);
/** IONF_ERR_CONFIG naming the file, `needed` and why, unless `needed` is present. */
IONF_NODISCARD ionf_err cv_require(struct cv_ctx *c, const char *section, const char *key,
                                   const char *needed, const char *why);
/** A line `target: value  # comment` (comment printf-style); a second line for the same
    target is an internal error (check cv_emitted). */
IONF_NODISCARD ionf_err cv_emit(struct cv_ctx *c, int flags, const char *target,
                                const char *value, const char *fmt, ...) IONF_PRINTF(5, 6);
/** List Section.key (with its value) as not converted, `fmt` saying why. */
IONF_NODISCARD ionf_err cv_skip(struct cv_ctx *c, const char *section, const char *key,
                                const char *fmt, ...) IONF_PRINTF(4, 5);
/** A comment line printed just before ionfront section `section`. */
IONF_NODISCARD ionf_err cv_note(struct cv_ctx *c, const char *section, const char *fmt, ...)
    IONF_PRINTF(3, 4);
/** 1 when a line for ionfront key `target` was written. */
int cv_emitted(struct cv_ctx *c, const char *target);
/** 1 when some line of ionfront section `section` (e.g. "sequence") was written. */
int cv_section_used(struct cv_ctx *c, const char *section);
/** A number as the config writes it (%.10g) into `buf`; returns buf. */
const char *cv_format(double v, char *buf, size_t cap);
/** `text` as a single-quoted YAML scalar into `buf`; returns buf. */
const char *cv_quote(const char *text, char *buf, size_t cap);
/** The file's name, for messages. */
const char *cv_name(struct cv_ctx *c);
/** The line of Section.key in the file (0: absent). */
int cv_line(struct cv_ctx *c, const char *section, const char *key);

#endif /* IONF_CONVERT_PYC2RAY_INTERNAL_H */
