/**
 * @file test_planar_rates.c
 * @brief Rates of plane-parallel sources (planar_k.h, planar_cpu.c, the CPU backend).
 *
 * 1. Thin medium: every cell of every face's columns gets Gamma = F sigma0 (grey)
 *    or F sigma0 thin(0) (black body), to 1e-8 (the column's tau is 1e-9).
 * 2. Photon conservation per column: the photons the cells absorb, sum of
 *    Gamma n_HI V_cell, equal F dx^2 [1 - e^-tau_total] (grey) or
 *    F dx^2 [thick(0) - thick(tau_total)] (black body, and the same for the
 *    heating with the energy tables) to 1e-12, in random media of thick cells and
 *    of thick and thin cells mixed (thin cells: the first-order form, 1e-10).
 * 3. Geometry: a face's rates on a medium equal, cell for cell and bit for bit,
 *    x_low's on the medium mirrored or with its axes swapped accordingly.
 * 4. Behind an opaque column nothing is added, and rates add to what Gamma held.
 * 5. Through the CPU backend of an engine: Gamma and the heating of a plane and a
 *    point source together equal the sums of each alone (to 1e-13).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "config/config_views.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "rt/photo_tables.h"
#include "rt/planar/planar.h"
#include "test_util.h"

#define CELL_CM (0.05 * IONF_KPC_CM)

struct medium {
  int64_t n;
  double *n_h, *x;
};

static struct medium medium_new(int64_t n) {
  struct medium m = {n, calloc((size_t)(n * n * n), sizeof(double)),
                     calloc((size_t)(n * n * n), sizeof(double))};
  return m;
}

static void medium_free(struct medium *m) {
  free(m->n_h);
  free(m->x);
}

static double uniform01(unsigned *seed) { return rand_r(seed) / ((double)RAND_MAX + 1.0); }

static struct photo_table_view grey_view(void) {
  struct photo_table_view v;
  memset(&v, 0, sizeof v);
  v.grey = 1;
  v.sp[SPECIES_HI].sigma0_cm2 = IONF_SIGMA_HI_CM2;
  return v;
}

static struct photo_tables bb_tables(void) {
  struct ionf_config cfg;
  config_defaults(&cfg);
  cfg.spectrum = SPECTRUM_BLACKBODY;
  cfg.t_eff_k = 1e5;
  cfg.isothermal = 0; /* heating tables too */
  struct photo_spectrum spectrum = config_views_spectrum(&cfg);
  struct species_data species[IONF_MAX_SPECIES];
  config_views_species(&cfg, species);
  struct photo_tables t;
  if (photo_tables_build(&spectrum, species, !cfg.isothermal, &t) != IONF_OK) {
    fprintf(stderr, "table build failed: %s\n", ionf_error_message());
    exit(1);
  }
  return t;
}

/* Gamma (and heat, may be NULL) of one plane source on medium m, from zero. */
static void trace(const struct medium *m, int face, double flux, struct photo_table_view view,
                  double *gamma, double *heat) {
  int64_t cells = m->n * m->n * m->n;
  memset(gamma, 0, sizeof(double) * (size_t)cells);
  if (heat) memset(heat, 0, sizeof(double) * (size_t)cells);
  struct planar_source p = {face, flux};
  struct planar_input in;
  in.grid.n = m->n;
  in.grid.cell_cm = CELL_CM;
  in.grid.periodic = 0;
  in.n_h_cm3 = m->n_h;
  in.x_ion_av = m->x;
  in.n_species = 1;
  in.abundance_he = 0.0;
  in.planes = &p;
  in.n_planes = 1;
  in.tables = view;
  in.heating_out = heat;
  int64_t visited = 0;
  EXPECT(planar_cpu_trace(&in, gamma, &visited) == IONF_OK, "trace: %s", ionf_error_message());
  EXPECT(visited == cells, "cells traced %lld, want %lld", (long long)visited, (long long)cells);
}

static double table_at(const double *table, const struct photo_table_view *v, double tau) {
  return photo_table_lookup(table, v->num_tau, v->min_log_tau, v->dlog_tau, tau);
}

/* 1. */
static void check_thin(struct photo_table_view view, const char *label) {
  struct medium m = medium_new(12);
  int64_t cells = 12 * 12 * 12;
  for (int64_t c = 0; c < cells; ++c) m.n_h[c] = 1e-13; /* tau per cell 1e-10 */
  double flux = 1e6;
  double expect = flux * view.sp[SPECIES_HI].sigma0_cm2 * (view.grey ? 1.0 : view.sp[SPECIES_HI].thin[0]);
  double *gamma = malloc(sizeof(double) * (size_t)cells);
  for (int face = 0; face < PLANAR_N_FACES; ++face) {
    trace(&m, face, flux, view, gamma, NULL);
    double worst = 0.0;
    for (int64_t c = 0; c < cells; ++c) worst = test_worst(worst, test_rel_diff(gamma[c], expect, 0.0));
    EXPECT(worst < 1e-8, "%s, face %s: thin-medium Gamma off F sigma by %.3g", label,
           planar_face_names[face], worst);
    /* the columns are alike: the s-th cells of all columns hold the same rate */
    for (int64_t s = 0; s < 12; ++s)
      for (int64_t col = 1; col < 144; ++col)
        if (gamma[planar_cell_index(12, face, col, s)] != gamma[planar_cell_index(12, face, 0, s)]) {
          EXPECT(0, "%s, face %s: columns differ at depth %lld", label, planar_face_names[face],
                 (long long)s);
          col = 144;
          s = 12;
        }
  }
  free(gamma);
  medium_free(&m);
}

/* 2. `thin_every`: every this-th cell nearly fully ionized (a thin cell); 0: none. */
static void check_conservation(struct photo_table_view view, double tau_cell, int thin_every,
                               const char *label) {
  int64_t n = 24, cells = n * n * n;
  struct medium m = medium_new(n);
  unsigned seed = 99;
  double n_mean = tau_cell / (IONF_SIGMA_HI_CM2 * CELL_CM);
  for (int64_t c = 0; c < cells; ++c) {
    m.n_h[c] = n_mean * exp(uniform01(&seed) * 2.0 - 1.0);
    m.x[c] = thin_every && rand_r(&seed) % thin_every == 0 ? 1.0 - 1e-15
                                                            : 0.9 * uniform01(&seed);
  }
  double *gamma = malloc(sizeof(double) * (size_t)cells);
  double *heat = view.heating ? malloc(sizeof(double) * (size_t)cells) : NULL;
  double flux = 1e6, ndot = flux * CELL_CM * CELL_CM, v_cell = CELL_CM * CELL_CM * CELL_CM;
  double tol = thin_every ? 1e-10 : 1e-12;
  int face = 0;
  trace(&m, face, flux, view, gamma, heat);
  double worst = 0.0, worst_heat = 0.0, least_absorbed = 1.0;
  for (int64_t col = 0; col < n * n; ++col) {
    double absorbed = 0.0, heated = 0.0, column = 0.0;
    for (int64_t s = 0; s < n; ++s) {
      int64_t c = planar_cell_index(n, face, col, s);
      double n_hi = m.n_h[c] * (1.0 - m.x[c]);
      absorbed += gamma[c] * n_hi * v_cell;
      if (heat) heated += heat[c] * n_hi * v_cell;
      column += n_hi * CELL_CM;
    }
    double tau = view.sp[SPECIES_HI].sigma0_cm2 * column;
    double expect = view.grey ? ndot * -expm1(-tau)
                              : ndot * (table_at(view.sp[SPECIES_HI].thick, &view, 0.0) -
                                        table_at(view.sp[SPECIES_HI].thick, &view, tau));
    worst = test_worst(worst, test_rel_diff(absorbed, expect, 0.0));
    least_absorbed = fmin(least_absorbed, absorbed / ndot);
    if (heat) {
      double e = ndot * (table_at(view.sp[SPECIES_HI].heat_thick, &view, 0.0) -
                         table_at(view.sp[SPECIES_HI].heat_thick, &view, tau));
      worst_heat = test_worst(worst_heat, test_rel_diff(heated, e, 0.0));
    }
  }
  printf("%s: photons absorbed per column / F dx^2 (1 - thick(tau)): worst relative error %.3g"
         "%s; at least %.4f of the column's photons absorbed\n",
         label, worst, heat ? " (heating likewise)" : "", least_absorbed);
  EXPECT(worst <= tol, "%s: photon budget of a column off by %.3g", label, worst);
  EXPECT(!heat || worst_heat <= tol, "%s: energy budget of a column off by %.3g", label,
         worst_heat);
  free(gamma);
  free(heat);
  medium_free(&m);
}

/* 3. m2(i, j, k) = m(map(i, j, k)) for the face's geometry; its rates must be x_low's, mapped. */
static int64_t mapped(int face, int64_t n, int64_t i, int64_t j, int64_t k) {
  switch (face) {
    case 1: return grid_index(n, n - 1 - i, j, k);  /* x_high: mirror in x */
    case 2: return grid_index(n, j, i, k);          /* y_low: swap x and y */
    case 3: return grid_index(n, n - 1 - j, i, k);  /* y_high: swap, mirror */
    case 4: return grid_index(n, k, j, i);          /* z_low: swap x and z */
    case 5: return grid_index(n, n - 1 - k, j, i);  /* z_high: swap, mirror */
    default: return grid_index(n, i, j, k);
  }
}

static void check_geometry(struct photo_table_view view) {
  int64_t n = 10, cells = n * n * n;
  struct medium m = medium_new(n), m2 = medium_new(n);
  unsigned seed = 5;
  for (int64_t c = 0; c < cells; ++c) {
    m.n_h[c] = 1e-3 * exp(4.0 * uniform01(&seed) - 2.0);
    m.x[c] = uniform01(&seed);
  }
  double *g = malloc(sizeof(double) * (size_t)cells), *g2 = malloc(sizeof(double) * (size_t)cells);
  trace(&m, 0, 1e6, view, g, NULL);
  for (int face = 1; face < PLANAR_N_FACES; ++face) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t k = 0; k < n; ++k) {
          int64_t c = grid_index(n, i, j, k), src = mapped(face, n, i, j, k);
          m2.n_h[c] = m.n_h[src];
          m2.x[c] = m.x[src];
        }
    trace(&m2, face, 1e6, view, g2, NULL);
    int64_t differ = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t k = 0; k < n; ++k)
          differ += g2[grid_index(n, i, j, k)] != g[mapped(face, n, i, j, k)];
    EXPECT(differ == 0, "face %s: %lld cells differ from x_low's mapped rates",
           planar_face_names[face], (long long)differ);
  }
  free(g);
  free(g2);
  medium_free(&m);
  medium_free(&m2);
}

/* 4. */
static void check_opaque_and_adding(void) {
  int64_t n = 8, cells = n * n * n;
  struct medium m = medium_new(n);
  for (int64_t c = 0; c < cells; ++c) m.n_h[c] = 1e-3;
  m.n_h[grid_index(n, 3, 2, 5)] = 1e13; /* N_HI > 2e30 cm^-2 in one cell */
  double *gamma = malloc(sizeof(double) * (size_t)cells);
  trace(&m, 0, 1e6, grey_view(), gamma, NULL);
  for (int64_t i = 0; i < n; ++i) {
    double g = gamma[grid_index(n, i, 2, 5)];
    EXPECT(i <= 3 ? g > 0.0 : g == 0.0, "cell %lld behind an opaque cell: Gamma %g", (long long)i,
           g);
  }
  EXPECT(gamma[grid_index(n, 7, 2, 4)] > 0.0, "the neighbouring column is lit");
  /* rates are added to Gamma, not written over it */
  double *again = malloc(sizeof(double) * (size_t)cells);
  for (int64_t c = 0; c < cells; ++c) again[c] = 1.0;
  struct planar_source p = {0, 1e6};
  struct planar_input in;
  memset(&in, 0, sizeof in);
  in.grid.n = n;
  in.grid.cell_cm = CELL_CM;
  in.n_h_cm3 = m.n_h;
  in.x_ion_av = m.x;
  in.planes = &p;
  in.n_planes = 1;
  in.tables = grey_view();
  EXPECT(planar_cpu_trace(&in, again, NULL) == IONF_OK, "trace");
  int64_t wrong = 0;
  for (int64_t c = 0; c < cells; ++c) wrong += again[c] != 1.0 + gamma[c];
  EXPECT(wrong == 0, "%lld cells: the plane's rate was not added to Gamma", (long long)wrong);
  free(gamma);
  free(again);
  medium_free(&m);
}

/* 5. Gamma and heating after one trace of the CPU backend of an engine. */
static int engine_rates(const char *sources, double *gamma, double *heat) {
  char set_sources[256];
  snprintf(set_sources, sizeof set_sources, "sources=%s", sources);
  char *sets[] = {"grid.N=16", set_sources, "raytracing.backend=cpu", "output.progress=false"};
  struct ionf_config cfg;
  if (config_load(NULL, "iliev3", sets, 4, &cfg) != IONF_OK) {
    fprintf(stderr, "config: %s\n", ionf_error_message());
    return 1;
  }
  struct engine *e = NULL;
  if (engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "engine: %s\n", ionf_error_message());
    config_free(&cfg);
    return 1;
  }
  int64_t cells = grid_cells(e->grid.n);
  /* a partly ionized state, so that the rates depend on x */
  for (int64_t c = 0; c < cells; ++c) e->fields.x_ion[SPECIES_HI * cells + c] = 0.5 + 0.4 * sin((double)c);
  struct trace_stats ts;
  int rc = e->backend->ops.upload(e->backend, FIELD_X, 0, cells) != IONF_OK ||
           e->backend->ops.step_begin(e->backend) != IONF_OK ||
           engine_trace_pass(e, &ts) != IONF_OK ||
           e->backend->ops.download(e->backend, FIELD_GAMMA | FIELD_HEAT, 0, cells) != IONF_OK;
  if (!rc) {
    memcpy(gamma, fields_species(e->fields.gamma_per_s, e->fields.cells, SPECIES_HI), sizeof(double) * (size_t)cells);
    memcpy(heat, e->fields.heating_erg_per_s, sizeof(double) * (size_t)cells);
  }
  engine_destroy(e);
  config_free(&cfg);
  return rc;
}

static void check_engine_superposition(void) {
  int64_t cells = 16 * 16 * 16;
  double *g[3], *h[3];
  for (int i = 0; i < 3; ++i) {
    g[i] = malloc(sizeof(double) * (size_t)cells);
    h[i] = malloc(sizeof(double) * (size_t)cells);
  }
  const char *both = "[{plane: y_high, flux: 1.0e6}, {position: [4, 9, 7], Ndot: 1.0e50}]";
  if (engine_rates(both, g[0], h[0]) || engine_rates("[{plane: y_high, flux: 1.0e6}]", g[1], h[1]) ||
      engine_rates("[{position: [4, 9, 7], Ndot: 1.0e50}]", g[2], h[2])) {
    EXPECT(0, "engine runs failed");
  } else {
    double worst = 0.0, worst_h = 0.0;
    int64_t lit = 0;
    for (int64_t c = 0; c < cells; ++c) {
      double sum = g[1][c] + g[2][c], sum_h = h[1][c] + h[2][c];
      lit += g[1][c] > 0.0 && g[2][c] > 0.0;
      /* every cell, unlit ones too (0 == 0; a NaN anywhere reads as +inf) */
      worst = test_worst(worst, test_rel_diff(g[0][c], sum, 1e-300));
      worst_h = test_worst(worst_h, test_rel_diff(h[0][c], sum_h, 1e-300));
    }
    printf("engine, plane + point source: largest relative difference from the sum of each "
           "alone: Gamma %.3g, heating %.3g (%lld cells lit by both)\n",
           worst, worst_h, (long long)lit);
    EXPECT(lit > cells / 2, "only %lld cells lit by both sources", (long long)lit);
    EXPECT(worst <= 1e-13, "Gamma of both sources differs from the sum by %.3g", worst);
    EXPECT(worst_h <= 1e-13, "heating of both sources differs from the sum by %.3g", worst_h);
  }
  for (int i = 0; i < 3; ++i) {
    free(g[i]);
    free(h[i]);
  }
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  struct photo_tables bb = bb_tables();
  struct photo_table_view bbv = photo_tables_view(&bb);
  check_thin(grey_view(), "grey");
  check_thin(bbv, "black body 1e5 K");
  check_conservation(grey_view(), 3.0, 0, "grey, thick cells (tau ~ 3)");
  check_conservation(grey_view(), 0.5, 0, "grey, cells of tau ~ 0.5");
  check_conservation(grey_view(), 0.5, 3, "grey, thick and thin cells");
  check_conservation(bbv, 2.0, 0, "black body, thick cells");
  check_conservation(bbv, 0.2, 4, "black body, thick and thin cells");
  check_geometry(grey_view());
  check_geometry(bbv);
  check_opaque_and_adding();
  check_engine_superposition();
  photo_tables_free(&bb);
  comm_finalize();
  TEST_RETURN();
}
