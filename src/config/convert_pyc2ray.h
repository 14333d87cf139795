/**
 * @file convert_pyc2ray.h
 * @brief `ionfront convert`: a pyC²Ray parameter file (YAML sections Grid, Material,
 *        CGS, Abundances, Photo, Sinks, BlackBodySource, Sources, Cosmology, Output,
 *        Raytracing) made into a complete, commented ionfront config, as text.
 *
 * Every key of the file is either converted (its ionfront line names it in a comment:
 * "Section.key: value (what was done)") or listed at the end of the text as not
 * converted, with the reason; keys pyC²Ray does not read are listed too.  What
 * pyC²Ray's driving script supplies (the sources, the time steps, the redshifts of its
 * input files) becomes placeholders, or the values the options give.  The mapping is
 * one table, `convert_pyc2ray_table.c` (docs/pyc2ray.md explains it); this module never
 * prints or writes a file: the command line does (src/cli/convert_cli.c).
 */
#ifndef IONF_CONVERT_PYC2RAY_H
#define IONF_CONVERT_PYC2RAY_H

#include "core/error.h"

/** What the driving script would give; NULL: a placeholder, marked as one. */
struct convert_pyc2ray_options {
  const char *sources_file; /*!< a C²-Ray source list for `sources: {file: ..., format: text}` */
  const char *dt;           /*!< time.dt as text ("10 Myr"; a bare number is in Myr) */
  const char *t_end;        /*!< time.t_end as text */
};

/** The converted config and what happened to the file's keys. */
struct convert_pyc2ray_result {
  char *text;          /*!< the config (malloc'd; the caller frees it) */
  int n_converted;     /*!< keys converted into ionfront lines (live or commented) */
  int n_not_converted; /*!< keys listed as not converted, the unknown ones included */
  int n_unknown;       /*!< of those, keys pyC²Ray does not read */
};

/**
 * Convert the pyC²Ray parameter file `path`.  Errors (IONF_ERR_CONFIG, IONF_ERR_IO,
 * IONF_ERR_USAGE for a bad option) name the file, the line, the key and the value;
 * on error `out->text` is NULL.
 */
IONF_NODISCARD ionf_err convert_pyc2ray_file(const char *path,
                                             const struct convert_pyc2ray_options *opt,
                                             struct convert_pyc2ray_result *out);

/** The same for YAML text; `name` stands for the file in messages and in the header. */
IONF_NODISCARD ionf_err convert_pyc2ray_string(const char *yaml, const char *name,
                                               const struct convert_pyc2ray_options *opt,
                                               struct convert_pyc2ray_result *out);

#endif /* IONF_CONVERT_PYC2RAY_H */
