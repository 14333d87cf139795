/**
 * @file sph_tracer.c
 * @brief The particle tracer behind the tracer interface (rt/tracer.h): a pass
 *        function (CPU, CUDA or a test's) over this rank's sources, on the host
 *        arrays of the particle engine's fields.
 */
#include <stdio.h>
#include <string.h>

#include "chem/species_k.h"
#include "particles/sph_trace.h"

struct sph_tracer {
  struct sph_tracer_setup s;
  sph_trace_fn fn;
};

static struct sph_tracer *sph_of(struct tracer *t) { return t->impl; }

static ionf_err sph_set_sources(struct tracer *t, const struct tracer_sources *s) {
  IONF_CHECK(s->count == 0 || s->list->pos_cm, IONF_ERR_INTERNAL,
             "the particle tracer takes sources by position");
  return IONF_OK;
}

static ionf_err sph_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                          struct trace_stats *stats) {
  struct sph_tracer *st = sph_of(t);
  IONF_CHECK(!r->accumulate, IONF_ERR_INTERNAL,
             "the particle tracer sets every particle's rate: it must be a pass's first tracer");
  const int64_t n = f->cells, hi = (int64_t)SPECIES_HI * n;
  const int heating = r->heating_erg_per_s != NULL;
  const int ns = st->s.n_species > 1 ? st->s.n_species : 1;
  IONF_CHECK(ns == f->n_species, IONF_ERR_INTERNAL,
             "the particle tracer was made for %d species, the fields hold %d", ns, f->n_species);
  if (t->sources.count <= 0) { /* more ranks than sources */
    memset(r->gamma_per_s + hi, 0, sizeof(double) * (size_t)(ns * n));
    if (heating) memset(r->heating_erg_per_s + hi, 0, sizeof(double) * (size_t)(ns * n));
    return IONF_OK;
  }
  const struct source_list *list = t->sources.list;
  struct sph_trace_input in;
  memset(&in, 0, sizeof in);
  in.particles = st->s.particles;
  in.tree = st->s.tree;
  in.x_hii = f->x_ion_av + hi;
  in.tables = st->s.tables;
  in.heating = heating;
  in.sources.count = t->sources.count;
  in.sources.pos_cm = list->pos_cm + 3 * t->sources.first;
  in.sources.ndot_per_s = list->ndot_per_s + t->sources.first;
  in.n_rays = st->s.n_rays;
  in.ray_first = st->s.ray_first;
  in.ray_stride = st->s.ray_stride;
  in.r_max_cm = st->s.r_max_cm;
  in.tuning = st->s.tuning;
  if (ns > 1) {
    in.n_species = ns;
    in.abundance_he = st->s.abundance_he;
    in.species_stride = n;
    in.bands = st->s.bands;
  }
  struct sph_trace_output out = {r->gamma_per_s + hi, heating ? r->heating_erg_per_s + hi : NULL};
  struct sph_trace_stats ps;
  memset(&ps, 0, sizeof ps);
  IONF_CALL(st->fn(&in, &out, &ps));
  if (stats) {
    stats->rays += ps.rays;
    stats->hits += ps.hits;
  }
  return IONF_OK;
}

ionf_err sph_tracer_create(const struct sph_tracer_setup *s, sph_trace_fn fn, const char *name,
                           struct tracer **out) {
  static const struct tracer_ops ops = {sph_set_sources, sph_trace, NULL, NULL};
  IONF_CALL(tracer_alloc("sph", TRACER_HOST, &ops, sizeof(struct sph_tracer), out));
  struct sph_tracer *st = sph_of(*out);
  st->s = *s;
  st->fn = fn;
  snprintf((*out)->description, sizeof (*out)->description, "%s pass", name);
  return IONF_OK;
}
