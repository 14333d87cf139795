/**
 * @file config_time.c
 * @brief time: (step, end, output times) and the output times of a sequence.
 */
#include "config/config_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/constants.h"

static int config_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* time.outputs past t_end (a shortened run, --set time.t_end): dropped from the effective
 * list `n` with a note naming them; the run then ends with a snapshot at t_end. */
static ionf_err config_time_drop_late(struct config_ctx *ctx, struct param_node *n,
                                      const unsigned char *late, const char *t_end_text,
                                      struct ionf_config *cfg) {
  char list[512] = "", t[CONFIG_TEXT_MAX];
  size_t used = 0, n_late = 0;
  size_t count = n->kind == PARAM_SEQUENCE ? n->n_items : 1;
  for (size_t i = 0; i < count; ++i) {
    if (!late[i]) continue;
    const struct param_node *item = n->kind == PARAM_SEQUENCE ? n->items[i] : n;
    if (used < sizeof list)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", n_late ? ", " : "",
                               config_text(item, t, sizeof t));
    ++n_late;
  }
  ionf_message0("note: time.outputs %s %s after time.t_end = %s: not written; the run ends with "
                "a snapshot at t_end",
                list, n_late == 1 ? "is" : "are", t_end_text);
  /* the effective list: the kept times and t_end */
  struct param_node *end = params_new(PARAM_SCALAR, t_end_text);
  IONF_CHECK(end, IONF_ERR_MEM, "out of memory");
  if (n->kind != PARAM_SEQUENCE) { /* the one time given was late: t_end takes its place */
    free(n->scalar);
    n->scalar = end->scalar;
    end->scalar = NULL;
    params_free(end);
    n->quoted = 0;
  } else {
    size_t kept = 0;
    for (size_t i = 0; i < n->n_items; ++i) {
      if (late[i]) params_free(n->items[i]);
      else n->items[kept++] = n->items[i];
    }
    n->n_items = kept;
    IONF_CALL(params_seq_append(n, end));
  }
  cfg->output_times_s[cfg->n_outputs++] = cfg->t_end_s;
  return IONF_OK;
}

/* The output times: time.outputs (`n`, the effective node; NULL when not given) and the
 * `n_more` times `more`, each in (0, t_end] (later ones are dropped with a note), sorted,
 * duplicates dropped. */
ionf_err config_time_outputs(struct config_ctx *ctx, struct param_node *n,
                             const char *t_end_text, const double *more, size_t n_more,
                             struct ionf_config *cfg) {
  char t[CONFIG_TEXT_MAX];
  size_t count = 0;
  if (n) {
    IONF_CHECK(n->kind != PARAM_MAPPING, IONF_ERR_CONFIG,
               "%s: time.outputs: expected a time or a list of times like [10 Myr, 50 Myr], got "
               "a mapping",
               ctx->name);
    count = n->kind == PARAM_SEQUENCE ? n->n_items : 1;
    IONF_CHECK(count > 0, IONF_ERR_CONFIG,
               "%s: time.outputs is an empty list (leave it out to write only at t_end)",
               ctx->name);
  }
  /* room for t_end too, which replaces late outputs */
  cfg->output_times_s =
      ionf_malloc((count + n_more + 1) * sizeof *cfg->output_times_s, "output times");
  unsigned char *late = ionf_calloc(count + 1, 1, "output flags");
  if (!cfg->output_times_s || !late) {
    free(late);
    return ionf_error_set(IONF_ERR_MEM, "out of memory");
  }
  size_t n_late = 0;
  cfg->n_outputs = 0;
  ionf_err rc = IONF_OK;
  for (size_t i = 0; i < count && rc == IONF_OK; ++i) {
    const struct param_node *item = n->kind == PARAM_SEQUENCE ? n->items[i] : n;
    char path[64];
    if (n->kind == PARAM_SEQUENCE)
      snprintf(path, sizeof path, "time.outputs[%zu]", i);
    else
      snprintf(path, sizeof path, "time.outputs");
    double v = 0.0;
    rc = config_quantity(ctx, path, item, UNIT_TIME, IONF_MYR_S, 0.0, &v);
    /* "0.5 Gyr" and "500 Myr" may differ in the last bit. */
    if (v > cfg->t_end_s && v <= cfg->t_end_s * (1 + 1e-12)) v = cfg->t_end_s;
    if (rc == IONF_OK && !(v > 0))
      rc = ionf_error_set(IONF_ERR_CONFIG,
                          "%s: %s = %s is out of range (must be in (0, t_end], t_end = %s)",
                          ctx->name, path, config_text(item, t, sizeof t), t_end_text);
    if (rc == IONF_OK && v > cfg->t_end_s) late[i] = 1, ++n_late;
    else if (rc == IONF_OK) cfg->output_times_s[cfg->n_outputs++] = v;
  }
  if (rc == IONF_OK && n_late > 0) rc = config_time_drop_late(ctx, n, late, t_end_text, cfg);
  free(late);
  IONF_CALL(rc);
  size_t total = (size_t)cfg->n_outputs;
  for (size_t i = 0; i < n_more; ++i) cfg->output_times_s[total++] = more[i];
  qsort(cfg->output_times_s, total, sizeof *cfg->output_times_s, config_cmp_double);
  size_t kept = 0;
  for (size_t i = 0; i < total; ++i)
    if (kept == 0 || cfg->output_times_s[i] - cfg->output_times_s[kept - 1] > 1e-9 * cfg->t_end_s)
      cfg->output_times_s[kept++] = cfg->output_times_s[i];
  cfg->n_outputs = (int)kept;
  return IONF_OK;
}

ionf_err config_time(struct config_ctx *ctx, const struct param_node *root,
                     struct ionf_config *cfg) {
  static const char *const keys[] = {"dt", "t_end", "outputs"};
  struct config_section s;
  struct param_node *dt, *t_end, *n;
  IONF_CALL(config_open_section(ctx, root, "time", keys, CONFIG_N(keys), &s));

  IONF_CALL(config_take(&s, "dt", NULL, &dt));
  IONF_CALL(config_require(&s, dt, "the time step, e.g. '5 Myr'; a bare number is in Myr"));
  IONF_CALL(config_quantity(ctx, s.path, dt, UNIT_TIME, IONF_MYR_S, 0.0, &cfg->dt_s));
  if (!(cfg->dt_s > 0)) return config_range(ctx, s.path, dt, "must be > 0");

  IONF_CALL(config_take(&s, "t_end", NULL, &t_end));
  if (ctx->seq_given) { /* t_end and the outputs follow from sequence.redshifts */
    if (!t_end) { /* its place in the effective tree, filled in by config_sequence */
      struct param_node *slot = params_new(PARAM_NULL, NULL);
      IONF_CHECK(slot, IONF_ERR_MEM, "out of memory");
      IONF_CALL(params_map_set(s.eff, "t_end", slot));
    }
    IONF_CALL(config_take(&s, "outputs", NULL, &n));
    ctx->time_eff = s.eff;
    ctx->t_end_node = t_end;
    ctx->outputs_node = n;
    return IONF_OK;
  }
  IONF_CALL(config_require(&s, t_end, "the end time, e.g. '500 Myr'; a bare number is in Myr"));
  IONF_CALL(config_quantity(ctx, s.path, t_end, UNIT_TIME, IONF_MYR_S, 0.0, &cfg->t_end_s));
  if (!(cfg->t_end_s > 0)) return config_range(ctx, s.path, t_end, "must be > 0");
  IONF_CHECK(cfg->dt_s <= cfg->t_end_s, IONF_ERR_CONFIG,
             "%s: time.dt = %s is larger than time.t_end = %s", ctx->name, dt->scalar,
             t_end->scalar);

  IONF_CALL(config_take(&s, "outputs", NULL, &n));
  if (!n) { /* default: one output at t_end */
    struct param_node *end_copy = params_copy(t_end);
    n = params_new(PARAM_SEQUENCE, NULL);
    if (!n || !end_copy) {
      params_free(n);
      params_free(end_copy);
      return ionf_error_set(IONF_ERR_MEM, "out of memory");
    }
    IONF_CALL(params_map_set(s.eff, "outputs", n));
    IONF_CALL(params_seq_append(n, end_copy));
  }
  return config_time_outputs(ctx, n, t_end->scalar, NULL, 0, cfg);
}
