/**
 * @file test_physics_common.h
 * @brief Helpers shared by the physics tests: a uniform grid and one source.
 */
#ifndef IONF_TEST_PHYSICS_COMMON_H
#define IONF_TEST_PHYSICS_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "rt/asora/asora.h"
#include "core/constants.h"
#include "rt/photo_k.h"

/** A grey-spectrum table view (tables unused for grey). */
static struct photo_table_view test_grey_view(void) {
  struct photo_table_view v;
  memset(&v, 0, sizeof v);
  v.grey = 1;
  v.sp[SPECIES_HI].sigma0_cm2 = IONF_SIGMA_HI_CM2;
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) v.sp[s].opaque_cm2 = PHOTO_MAX_COLUMN_CM2;
  return v;
}

/** Uniform n_H, x = x0, one source of ndot at (si, sj, sk). Caller frees arrays. */
static void test_uniform_setup(int64_t n, double cell_cm, int periodic, double n_h, double x0,
                               const int32_t *src, double ndot, double **n_h_out,
                               double **x_out, struct source_list *sources,
                               struct trace_input *in) {
  int64_t cells = n * n * n;
  *n_h_out = malloc(sizeof(double) * (size_t)cells);
  *x_out = malloc(sizeof(double) * (size_t)cells);
  for (int64_t c = 0; c < cells; ++c) {
    (*n_h_out)[c] = n_h;
    (*x_out)[c] = x0;
  }
  sources->n = 1;
  sources->ijk = malloc(3 * sizeof(int32_t));
  sources->ndot_per_s = malloc(sizeof(double));
  memcpy(sources->ijk, src, 3 * sizeof(int32_t));
  sources->ndot_per_s[0] = ndot;
  memset(in, 0, sizeof *in);
  in->grid.n = n;
  in->grid.cell_cm = cell_cm;
  in->grid.periodic = periodic;
  in->grid.box = grid_box_whole(n);
  in->n_h_cm3 = *n_h_out;
  in->x_ion_av = *x_out;
  in->sources = sources;
  in->first_source = 0;
  in->source_count = 1;
  in->r_max_cells = 0.0;
  in->tables = test_grey_view();
}

#endif
