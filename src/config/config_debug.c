/**
 * @file config_debug.c
 * @brief debug: the test suite's hooks (fault injection), off unless given.
 */
#include "config/config_internal.h"

/* debug: only when given (absent: no section in the effective config, every hook off). */
ionf_err config_debug(struct config_ctx *ctx, const struct param_node *root,
                      struct ionf_config *cfg) {
  static const char *const keys[] = {"signal_after_step", "fail_trace_rank", "fail_load_rank",
                                     "fail_log_step"};
  const struct param_node *u = params_get(root, "debug");
  if (!u || u->kind == PARAM_NULL) return IONF_OK;
  struct debug_config *d = &cfg->debug;
  struct config_section s;
  struct param_node *n;
  int64_t v = 0;
  IONF_CALL(config_open_section(ctx, root, "debug", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "signal_after_step", "-1", &n));
  IONF_CALL(config_int(ctx, s.path, n, -1, 1000000000000LL, &d->signal_after_step));
  if (d->signal_after_step == 0)
    return config_range(ctx, s.path, n, "must be a step >= 1, or -1: off");
  IONF_CALL(config_take(&s, "fail_trace_rank", "-1", &n));
  IONF_CALL(config_int(ctx, s.path, n, -1, 1000000, &v));
  d->fail_trace_rank = (int)v;
  IONF_CALL(config_take(&s, "fail_load_rank", "-1", &n));
  IONF_CALL(config_int(ctx, s.path, n, -1, 1000000, &v));
  d->fail_load_rank = (int)v;
  IONF_CALL(config_take(&s, "fail_log_step", "-1", &n));
  IONF_CALL(config_int(ctx, s.path, n, -1, 1000000000000LL, &d->fail_log_step));
  IONF_CHECK(d->fail_load_rank < 0 || ctx->seq_given, IONF_ERR_CONFIG,
             "%s: debug.fail_load_rank = %d: only a run with a sequence: reads inputs after its "
             "start (leave it out, or -1)",
             ctx->name, d->fail_load_rank);
  return IONF_OK;
}
