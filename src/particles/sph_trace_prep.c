/**
 * @file sph_trace_prep.c
 * @brief Input checks and host-side preparation of a tracer pass.
 */
#include "particles/sph_trace_prep.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "particles/sph_kernel_table.h"
#include "particles/sph_periodic_k.h"
#include "particles/sph_rays.h"

/* A periodic set: a box, a finite r_max of at most SPH_PERIODIC_MAX_R_BOXES
   smallest sides (rays wrap across the box and must end), particles and sources
   in the box. */
static ionf_err check_periodic(const struct sph_trace_input *in) {
  const struct particle_set *p = in->particles;
  if (!p->periodic) return IONF_OK;
  IONF_CHECK(p->has_box, IONF_ERR_INPUT, "sph_trace: a periodic particle set without a box size");
  double l_min = INFINITY;
  for (int a = 0; a < 3; ++a) {
    IONF_CHECK(p->box_size_cm[a] > 0.0 && isfinite(p->box_size_cm[a]), IONF_ERR_INPUT,
               "sph_trace: periodic box side %c = %g cm must be finite and > 0", "xyz"[a],
               p->box_size_cm[a]);
    l_min = fmin(l_min, p->box_size_cm[a]);
  }
  IONF_CHECK(in->r_max_cm > 0.0, IONF_ERR_INPUT,
             "sph_trace: r_max = %g cm with a periodic particle set: rays wrap across the box "
             "and need a finite r_max > 0 (raytracing.R_max)",
             in->r_max_cm);
  IONF_CHECK(in->r_max_cm <= SPH_PERIODIC_MAX_R_BOXES * l_min, IONF_ERR_INPUT,
             "sph_trace: r_max = %g cm is more than %g times the periodic box's smallest side "
             "(%g cm)",
             in->r_max_cm, SPH_PERIODIC_MAX_R_BOXES, l_min);
  /* the image ranges (sph_periodic_ranges) assume centres in the box; the first
     coordinate outside is found in parallel (a pass may be one of many per step) */
  int64_t bad = INT64_MAX, n3 = 3 * p->count;
#pragma omp parallel for reduction(min : bad) schedule(static)
  for (int64_t k = 0; k < n3; ++k) {
    double x = p->pos_cm[k];
    if (!(x >= 0.0 && x <= p->box_size_cm[k % 3]) && k < bad) bad = k;
  }
  IONF_CHECK(bad == INT64_MAX, IONF_ERR_INPUT,
             "sph_trace: particle %lld at %c = %g cm lies outside the periodic box [0, %g] cm",
             (long long)(bad / 3), "xyz"[bad % 3], p->pos_cm[bad], p->box_size_cm[bad % 3]);
  for (int64_t s = 0; s < in->sources.count; ++s)
    for (int a = 0; a < 3; ++a) {
      double x = in->sources.pos_cm[3 * s + a];
      IONF_CHECK(x >= 0.0 && x <= p->box_size_cm[a], IONF_ERR_INPUT,
                 "sph_trace: source %lld at %c = %g cm lies outside the periodic box [0, %g] cm",
                 (long long)s, "xyz"[a], x, p->box_size_cm[a]);
    }
  return IONF_OK;
}

static ionf_err check_input(const struct sph_trace_input *in, const struct sph_trace_output *out) {
  IONF_CHECK(in && out, IONF_ERR_INTERNAL, "sph_trace: no input or output");
  const struct particle_set *p = in->particles;
  IONF_CHECK(p && in->tree, IONF_ERR_INTERNAL, "sph_trace: no particles or tree");
  IONF_CHECK(in->tree->n_particles == p->count, IONF_ERR_INTERNAL,
             "sph_trace: the tree holds %lld particles, the set %lld",
             (long long)in->tree->n_particles, (long long)p->count);
  IONF_CHECK(in->x_hii || p->count == 0, IONF_ERR_INTERNAL, "sph_trace: no ionized fractions");
  IONF_CHECK(out->gamma_hi_per_s || p->count == 0, IONF_ERR_INTERNAL,
             "sph_trace: no gamma output array");
  IONF_CHECK(!in->heating || out->heating_erg_per_s || p->count == 0, IONF_ERR_INTERNAL,
             "sph_trace: heating asked for without a heating output array");
  IONF_CHECK(in->tables.sp[SPECIES_HI].sigma0_cm2 > 0.0 && isfinite(in->tables.sp[SPECIES_HI].sigma0_cm2), IONF_ERR_INPUT,
             "sph_trace: cross-section sigma0 = %g cm^2 must be finite and > 0",
             in->tables.sp[SPECIES_HI].sigma0_cm2);
  IONF_CHECK(in->tables.grey || (in->tables.sp[SPECIES_HI].thick && in->tables.sp[SPECIES_HI].thin && in->tables.num_tau > 0),
             IONF_ERR_INTERNAL, "sph_trace: black-body spectrum without rate tables");
  IONF_CHECK(isfinite(in->r_max_cm), IONF_ERR_INPUT, "sph_trace: r_max = %g cm is not finite",
             in->r_max_cm);
  IONF_CHECK(in->sources.count >= 0, IONF_ERR_INPUT, "sph_trace: source count %lld < 0",
             (long long)in->sources.count);
  for (int64_t s = 0; s < in->sources.count; ++s) {
    const double *x = in->sources.pos_cm + 3 * s;
    double nd = in->sources.ndot_per_s[s];
    IONF_CHECK(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]), IONF_ERR_INPUT,
               "sph_trace: source %lld position (%g, %g, %g) cm is not finite", (long long)s,
               x[0], x[1], x[2]);
    IONF_CHECK(isfinite(nd) && nd >= 0.0, IONF_ERR_INPUT,
               "sph_trace: source %lld photon rate %g /s must be finite and >= 0", (long long)s,
               nd);
  }
  IONF_CHECK(in->n_species == 0 || in->n_species == 1 || in->n_species == 3, IONF_ERR_INTERNAL,
             "sph_trace: %d species (1, or 3 with helium)", in->n_species);
  if (in->n_species == 3) {
    IONF_CHECK(in->species_stride >= p->count && bands_view_built(&in->bands) &&
                   in->abundance_he >= 0.0,
               IONF_ERR_INTERNAL, "sph_trace: helium without band tables, abundance or stride");
    IONF_CHECK(!in->heating || in->bands.heating || !in->tables.heating, IONF_ERR_INTERNAL,
               "sph_trace: helium heating without the band tables' energy tables");
  }
  IONF_CALL(check_periodic(in));
  return IONF_OK;
}

ionf_err sph_trace_bad_x_hii(int64_t i, double x) {
  return ionf_error_set(IONF_ERR_INPUT,
                        "sph_trace: particle %lld ionized fraction x_HII = %g outside [0, 1]",
                        (long long)i, x);
}

ionf_err sph_trace_bad_x_ion(int64_t k, int64_t stride, double x) {
  static const char *const names[3] = {"x_HII", "x_HeII", "x_HeIII"};
  int64_t s = k / stride;
  return ionf_error_set(IONF_ERR_INPUT, "sph_trace: particle %lld ion fraction %s = %g outside [0, 1]",
                        (long long)(k % stride), names[s < 3 ? s : 2], x);
}

/* With helium: every species' fractions in [0, 1] (the first bad value, species-major). */
static ionf_err check_x_ion(const double *x, int64_t stride, int64_t n) {
  int64_t bad = INT64_MAX;
  for (int s = 0; s < 3 && bad == INT64_MAX; ++s) {
#pragma omp parallel for reduction(min : bad) schedule(static)
    for (int64_t i = 0; i < n; ++i)
      if (!(x[s * stride + i] >= 0.0 && x[s * stride + i] <= 1.0) && s * stride + i < bad)
        bad = s * stride + i;
  }
  return bad == INT64_MAX ? IONF_OK : sph_trace_bad_x_ion(bad, stride, x[bad]);
}

static ionf_err check_x_hii(const double *x_hii, int64_t n) {
  int64_t bad = INT64_MAX; /* the first, found in parallel */
#pragma omp parallel for reduction(min : bad) schedule(static)
  for (int64_t i = 0; i < n; ++i)
    if (!(x_hii[i] >= 0.0 && x_hii[i] <= 1.0) && i < bad) bad = i;
  return bad == INT64_MAX ? IONF_OK : sph_trace_bad_x_hii(bad, x_hii[bad]);
}

double sph_trace_h_max(const struct particle_set *p) {
  double h_max = 0.0;
#pragma omp parallel for reduction(max : h_max) schedule(static)
  for (int64_t i = 0; i < p->count; ++i) h_max = fmax(h_max, p->h_cm[i]);
  return h_max;
}

ionf_err sph_trace_ray_share(const struct sph_trace_input *in, int64_t *first, int64_t *stride,
                             int64_t *count) {
  *stride = in->ray_stride > 1 ? in->ray_stride : 1;
  *first = in->ray_first;
  IONF_CHECK(*first >= 0 && *first < *stride, IONF_ERR_INTERNAL,
             "sph_trace: ray share %lld of %lld (0 <= first < stride)", (long long)*first,
             (long long)*stride);
  *count = in->n_rays > *first ? (in->n_rays - *first + *stride - 1) / *stride : 0;
  return IONF_OK;
}

/* The share's directions: rays first, first + stride, ... of the source's HEALPix set. */
static ionf_err share_directions(struct sph_trace_prep *prep) {
  IONF_CALL(sph_rays_directions(prep->nside, &prep->dirs));
  if (prep->ray_stride == 1) return IONF_OK;
  for (int64_t j = 0; j < prep->n_rays; ++j) /* in place: j <= first + j * stride */
    for (int a = 0; a < 3; ++a)
      prep->dirs[3 * j + a] = prep->dirs[3 * (prep->ray_first + j * prep->ray_stride) + a];
  return IONF_OK;
}

ionf_err sph_trace_prepare(const struct sph_trace_input *in, const struct sph_trace_output *out,
                           unsigned what, struct sph_trace_prep *prep) {
  memset(prep, 0, sizeof *prep);
  IONF_CALL(check_input(in, out));
  prep->periodic = in->particles->periodic;
  for (int a = 0; a < 3; ++a) prep->box_cm[a] = in->particles->box_size_cm[a];
  IONF_CALL(sph_rays_nside(in->n_rays, &prep->nside));
  IONF_CALL(sph_trace_ray_share(in, &prep->ray_first, &prep->ray_stride, &prep->n_rays));
  prep->n_rays_source = in->n_rays;
  prep->n_particles = in->particles->count;
  IONF_CALL(sph_kernel_table_copy(prep->column_table));
  if (what & SPH_PREP_DIRECTIONS) IONF_CALL(share_directions(prep));
  const struct particle_set *p = in->particles;
  const int helium = sph_trace_species(in) == 3;
  if (what & SPH_PREP_SCANS) {
    IONF_CALL(helium ? check_x_ion(in->x_hii, in->species_stride, p->count)
                     : check_x_hii(in->x_hii, p->count));
    prep->h_max_cm = sph_trace_h_max(p);
  }
  if (!(what & SPH_PREP_PARTICLES) || p->count == 0) return IONF_OK;
  int64_t n = p->count;
  prep->xyzh = ionf_malloc((size_t)n * 4 * sizeof(double), "the tracer's sorted particles");
  if (helium)
    prep->absorbers = ionf_malloc((size_t)n * sizeof(struct sph_absorbers), "the tracer's absorbers");
  else
    prep->n_hi = ionf_malloc((size_t)n * sizeof(double), "the tracer's neutral atoms");
  if (!prep->xyzh || !(helium ? (void *)prep->absorbers : (void *)prep->n_hi)) {
    sph_trace_prep_free(prep);
    return IONF_ERR_MEM;
  }
  const int32_t *order = in->tree->order;
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = order[s];
    for (int a = 0; a < 3; ++a) prep->xyzh[4 * s + a] = p->pos_cm[3 * i + a];
    prep->xyzh[4 * s + 3] = p->h_cm[i];
    if (helium)
      sph_absorbers_of(p->n_h_atoms[i], in->x_hii, in->species_stride, i, in->abundance_he,
                       &prep->absorbers[s]);
    else
      prep->n_hi[s] = p->n_h_atoms[i] * (1.0 - in->x_hii[i]);
  }
  return IONF_OK;
}

void sph_trace_prep_free(struct sph_trace_prep *prep) {
  free(prep->dirs);
  free(prep->xyzh);
  free(prep->n_hi);
  free(prep->absorbers);
  prep->dirs = prep->xyzh = prep->n_hi = NULL;
  prep->absorbers = NULL;
}
