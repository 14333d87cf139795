/**
 * @file tracer.c
 * @brief What every tracer shares: allocation, release and the pass over a list.
 */
#include "rt/tracer.h"

#include <stdlib.h>

#include "chem/species_k.h"

ionf_err tracer_alloc(const char *name, enum tracer_memory memory, const struct tracer_ops *ops,
                      size_t impl_size, struct tracer **out) {
  *out = NULL;
  struct tracer *t = ionf_calloc(1, sizeof *t, "a tracer");
  if (!t) return IONF_ERR_MEM;
  t->impl = ionf_calloc(1, impl_size ? impl_size : 1, "a tracer's state");
  if (!t->impl) {
    free(t);
    return IONF_ERR_MEM;
  }
  t->name = name;
  t->memory = memory;
  t->ops = *ops;
  *out = t;
  return IONF_OK;
}

void tracer_clear_host(const struct tracer_fields *f, const struct tracer_rates *r, int heating) {
  if (r->accumulate) return;
  int64_t count = f->cells * f->n_species;
  double *gamma = r->gamma_per_s, *heat = heating ? r->heating_erg_per_s : NULL;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < count; ++c) {
    gamma[c] = 0.0;
    if (heat) heat[c] = 0.0;
  }
}

ionf_err tracer_set_sources(struct tracer *t, const struct tracer_sources *s) {
  t->sources = *s;
  return t->ops.set_sources ? t->ops.set_sources(t, s) : IONF_OK;
}

void tracer_destroy(struct tracer *t) {
  if (!t) return;
  if (t->ops.destroy) t->ops.destroy(t);
  free(t->impl);
  free(t);
}

ionf_err tracer_pass(struct tracer *const *tracers, int n_tracers, const struct tracer_fields *f,
                     double *gamma_per_s, double *heating_erg_per_s, struct trace_stats *stats) {
  struct tracer_rates r = {gamma_per_s, heating_erg_per_s, 0};
  for (int i = 0; i < n_tracers; ++i) {
    IONF_CALL(tracers[i]->ops.trace(tracers[i], f, &r, stats));
    r.accumulate = 1;
  }
  return IONF_OK;
}
