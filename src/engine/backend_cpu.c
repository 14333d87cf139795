/**
 * @file backend_cpu.c
 * @brief The CPU backend: the working fields are the engine's host arrays, so
 *        nothing moves; the step's copies and the dilution are OpenMP loops.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"

struct cpu_backend {
  struct fields *host;
};

static struct cpu_backend *cpu_of(struct backend *be) { return be->impl; }

static ionf_err cpu_setup(struct backend *be, const struct backend_setup *s) {
  cpu_of(be)->host = s->host;
  be->work = *s->host;
  be->tables = photo_tables_view(s->tables);
  memset(&be->bands, 0, sizeof be->bands);
  if (s->bands) be->bands = bands_view_of(s->bands);
  return IONF_OK;
}

/* The working fields are the host fields: nothing to move. */
static ionf_err cpu_move(struct backend *be, unsigned mask, int64_t first, int64_t count) {
  return IONF_OK;
}

static void copy_field(double *dst, const double *src, int64_t cells) {
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) dst[c] = src[c];
}

/* x_av, x_end := x (and T) at a step's start; x := x_end (and T) at its end */
static ionf_err cpu_step_copies(struct backend *be, int at_end) {
  double *dst[4];
  const double *src[4];
  int64_t count[4];
  int n = backend_step_copies(cpu_of(be)->host, at_end, dst, src, count);
  for (int i = 0; i < n; ++i) copy_field(dst[i], src[i], count[i]);
  return IONF_OK;
}

static ionf_err cpu_step_begin(struct backend *be) { return cpu_step_copies(be, 0); }

static ionf_err cpu_step_end(struct backend *be) { return cpu_step_copies(be, 1); }

static ionf_err cpu_scale_density(struct backend *be, double factor) {
  struct fields *f = cpu_of(be)->host;
  double *n_h = f->n_h_cm3;
  int64_t cells = f->cells;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < cells; ++c) n_h[c] *= factor;
  return IONF_OK;
}

static ionf_err cpu_read_strided(struct backend *be, unsigned bit, int64_t first, int64_t stride,
                                 int64_t count, double *out) {
  const double *a = backend_field_array(cpu_of(be)->host, bit);
  IONF_CHECK(a, IONF_ERR_INTERNAL, "field %u is not held", bit);
  for (int64_t m = 0; m < count; ++m) out[m] = a[first + m * stride];
  return IONF_OK;
}

static void cpu_destroy(struct backend *be) {
  free(be->impl);
  free(be);
}

ionf_err backend_create_cpu(struct backend **out) {
  struct backend *be = ionf_calloc(1, sizeof *be, "the CPU backend");
  if (!be) return IONF_ERR_MEM;
  be->impl = ionf_calloc(1, sizeof(struct cpu_backend), "the CPU backend state");
  if (!be->impl) {
    free(be);
    return IONF_ERR_MEM;
  }
  /* no sum_rates: the host arrays are reduced by MPI directly */
  static const struct backend_ops ops = {cpu_setup,      cpu_move,          cpu_move,
                                         cpu_step_begin, cpu_step_end,      cpu_scale_density,
                                         NULL,           cpu_read_strided,  cpu_destroy,
                                         NULL /* halo: through the host arrays */};
  be->type_name = "cpu";
  be->device = -1;
  be->ops = ops;
  snprintf(be->description, sizeof be->description, "CPU, %d OpenMP thread(s)",
           omp_get_max_threads());
  *out = be;
  return IONF_OK;
}
