/**
 * @file test_clumps_paint.c
 * @brief Clumps in the initial conditions (clumps.c and the engine's set-up).
 *
 * 1. Painting equals a brute-force pass over every cell (cell centre at
 *    (i + 1/2) dx from the corner, inside when its distance to the clump centre
 *    is at most the radius; later clumps win), for random overlapping clumps,
 *    some reaching out of the box.
 * 2. The cell-centre rule at its edge: a clump centred on a cell corner covers
 *    the 8 cells around it when its radius exceeds half their diagonal, none when
 *    it falls short; clumps_covers_a_cell (the config's check) agrees with painting.
 * 3. The engine (iliev3 at 16^3): n_H and the initial T, T_av, T_end are the
 *    clump's inside and the medium's outside; a clump makes the medium
 *    non-uniform, so no single-source front (ifront.csv, analytic comparison)
 *    is claimed, nor with a plane source, while one point source in a uniform
 *    medium still gets it.
 * 4. Painting a box of the grid (wrapping across periodic faces, below 0 and above n
 *    on each axis) gives the whole grid's values at the box's cells, bit for bit.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/clumps.h"
#include "grid/grid.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "test_util.h"

static double uniform01(unsigned *seed) { return rand_r(seed) / ((double)RAND_MAX + 1.0); }

static void check_brute_force(void) {
  const int64_t n = 20;
  const double dx = 3.0e20;
  const struct grid_box whole = grid_box_whole(n);
  int64_t cells = n * n * n;
  double *nh = malloc(sizeof(double) * (size_t)cells), *t = malloc(sizeof(double) * (size_t)cells);
  double *nh_ref = malloc(sizeof(double) * (size_t)cells);
  double *t_ref = malloc(sizeof(double) * (size_t)cells);
  unsigned seed = 31;
  int empty = 0;
  for (int trial = 0; trial < 40; ++trial) {
    struct clump c[4];
    int n_clumps = 1 + trial % 4;
    for (int q = 0; q < n_clumps; ++q) {
      for (int a = 0; a < 3; ++a) c[q].center_cm[a] = (1.2 * uniform01(&seed) - 0.1) * n * dx;
      /* from smaller than half a cell's diagonal (may cover nothing) to a third of the box */
      c[q].radius_cm = (0.2 + 6.0 * uniform01(&seed) * uniform01(&seed)) * dx;
      c[q].n_h_cm3 = 1.0 + q;
      c[q].temperature_k = 100.0 * (q + 1);
    }
    for (int64_t x = 0; x < cells; ++x) nh[x] = nh_ref[x] = t[x] = t_ref[x] = -1.0;
    int64_t painted = clumps_paint(c, n_clumps, n, &whole, dx, nh, t);
    int64_t painted_ref = 0;
    for (int q = 0; q < n_clumps; ++q)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          for (int64_t k = 0; k < n; ++k) {
            double r[3] = {(i + 0.5) * dx, (j + 0.5) * dx, (k + 0.5) * dx};
            double d2 = 0.0;
            for (int a = 0; a < 3; ++a) d2 += (r[a] - c[q].center_cm[a]) * (r[a] - c[q].center_cm[a]);
            if (d2 > c[q].radius_cm * c[q].radius_cm) continue;
            nh_ref[(i * n + j) * n + k] = c[q].n_h_cm3;
            t_ref[(i * n + j) * n + k] = c[q].temperature_k;
            ++painted_ref;
          }
    EXPECT(painted == painted_ref, "trial %d: %lld cells painted, brute force %lld", trial,
           (long long)painted, (long long)painted_ref);
    EXPECT(memcmp(nh, nh_ref, sizeof(double) * (size_t)cells) == 0 &&
               memcmp(t, t_ref, sizeof(double) * (size_t)cells) == 0,
           "trial %d: painted fields differ from the brute-force ones", trial);
    for (int q = 0; q < n_clumps; ++q) {
      int64_t alone = clumps_paint(&c[q], 1, n, &whole, dx, NULL, NULL);
      empty += alone == 0;
      EXPECT(clumps_covers_a_cell(&c[q], n, dx) == (alone > 0),
             "trial %d: clump %d paints %lld cells; covers_a_cell says %d", trial, q,
             (long long)alone, clumps_covers_a_cell(&c[q], n, dx));
    }
  }
  printf("random clumps: %d of them cover no cell centre\n", empty);
  EXPECT(empty > 0, "no random clump between cell centres: the empty case is not exercised");
  free(nh);
  free(t);
  free(nh_ref);
  free(t_ref);
}

/* Painting a box -- wrapping below 0 or above n on each axis, on all at once, a whole-
   extent box shifted across faces, the whole grid -- gives exactly the whole grid's
   painting at the box's cells (global cell lo + offset, mod n), cells outside every
   clump untouched, and counts the box's painted cells. */
static void check_boxes(void) {
  const int64_t n = 13;
  const double dx = 2.5e20;
  const struct grid_box whole = grid_box_whole(n);
  const struct grid_box boxes[] = {
      {{0, 0, 0}, {13, 13, 13}, 0},  {{-3, 2, 0}, {7, 5, 13}, 1}, {{9, 0, 4}, {8, 13, 3}, 0},
      {{1, 11, 10}, {4, 6, 9}, 0},   {{-5, -13, 12}, {13, 13, 13}, 0},
      {{-1, 12, -2}, {13, 3, 5}, 1}, {{12, 12, 12}, {1, 1, 1}, 0}};
  int64_t cells = n * n * n;
  double *nh = malloc(sizeof(double) * (size_t)cells), *t = malloc(sizeof(double) * (size_t)cells);
  double *bn = malloc(sizeof(double) * (size_t)cells), *bt = malloc(sizeof(double) * (size_t)cells);
  unsigned seed = 77;
  for (int trial = 0; trial < 24; ++trial) {
    struct clump c[3];
    int n_clumps = 1 + trial % 3;
    for (int q = 0; q < n_clumps; ++q) {
      for (int a = 0; a < 3; ++a) c[q].center_cm[a] = (1.2 * uniform01(&seed) - 0.1) * n * dx;
      c[q].radius_cm = (0.5 + 5.0 * uniform01(&seed)) * dx;
      c[q].n_h_cm3 = 1.0 / (3.0 + q);
      c[q].temperature_k = 100.0 * (q + 1) + 1.0 / 7.0;
    }
    for (int64_t x = 0; x < cells; ++x) nh[x] = t[x] = -1.0;
    clumps_paint(c, n_clumps, n, &whole, dx, nh, t);
    for (size_t q = 0; q < sizeof boxes / sizeof boxes[0]; ++q) {
      const struct grid_box *b = &boxes[q];
      for (int64_t x = 0; x < cells; ++x) bn[x] = bt[x] = -1.0;
      int64_t painted = clumps_paint(c, n_clumps, n, b, dx, bn, bt), painted_ref = 0;
      int64_t wrong = 0, spill = 0, x = 0;
      for (int64_t li = 0; li < b->extent[0]; ++li)
        for (int64_t lj = 0; lj < b->extent[1]; ++lj)
          for (int64_t lk = 0; lk < b->extent[2]; ++lk, ++x) {
            int64_t g[3] = {b->lo[0] + li, b->lo[1] + lj, b->lo[2] + lk};
            for (int a = 0; a < 3; ++a) g[a] = (g[a] % n + n) % n;
            int64_t w = grid_index(n, g[0], g[1], g[2]);
            wrong += memcmp(&bn[x], &nh[w], sizeof(double)) != 0 ||
                     memcmp(&bt[x], &t[w], sizeof(double)) != 0;
            for (int k = 0; k < n_clumps; ++k)
              painted_ref += clumps_contains_cell(&c[k], dx, g[0], g[1], g[2]);
          }
      for (; x < cells; ++x) spill += bn[x] != -1.0 || bt[x] != -1.0;
      EXPECT(wrong == 0 && spill == 0,
             "trial %d, box %zu: %lld cells differ from the whole grid's, %lld written past it",
             trial, q, (long long)wrong, (long long)spill);
      EXPECT(painted == painted_ref, "trial %d, box %zu: %lld cells painted, expected %lld",
             trial, q, (long long)painted, (long long)painted_ref);
    }
  }
  free(nh);
  free(t);
  free(bn);
  free(bt);
}

static int64_t cells_of(const struct clump *c, int64_t n, double dx) {
  const struct grid_box whole = grid_box_whole(n);
  return clumps_paint(c, 1, n, &whole, dx, NULL, NULL);
}

static void check_corner(void) {
  const int64_t n = 16;
  const double dx = 1.0;
  struct clump c = {{8.0, 8.0, 8.0}, 0.5 * sqrt(3.0) * 1.0001, 1.0, 1.0};
  EXPECT(cells_of(&c, n, dx) == 8 && clumps_covers_a_cell(&c, n, dx),
         "radius just over half a diagonal: %lld cells", (long long)cells_of(&c, n, dx));
  c.radius_cm = 0.5 * sqrt(3.0) * 0.9999;
  EXPECT(cells_of(&c, n, dx) == 0 && !clumps_covers_a_cell(&c, n, dx),
         "radius just under half a diagonal: %lld cells", (long long)cells_of(&c, n, dx));
  struct clump edge = {{0.0, 0.0, 0.0}, 0.5 * sqrt(3.0) * 1.0001, 1.0, 1.0};
  EXPECT(cells_of(&edge, n, dx) == 1 && clumps_covers_a_cell(&edge, n, dx),
         "a clump on the box corner: the corner cell");
  struct clump far = {{16.0, 16.0, 16.0}, 0.5 * sqrt(3.0) * 0.9999, 1.0, 1.0};
  EXPECT(cells_of(&far, n, dx) == 0 && !clumps_covers_a_cell(&far, n, dx),
         "a small clump on the far corner covers nothing");
}

static struct engine *make_engine(char **sets, int n_sets, struct ionf_config *cfg) {
  struct engine *e = NULL;
  if (config_load(NULL, "iliev3", sets, n_sets, cfg) != IONF_OK ||
      engine_create(cfg, &e) != IONF_OK) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return NULL;
  }
  return e;
}

static void check_engine(void) {
  char *sets[] = {"grid.N=16", "raytracing.backend=cpu", "output.progress=false"};
  struct ionf_config cfg;
  struct engine *e = make_engine(sets, 3, &cfg);
  EXPECT(e != NULL, "iliev3 at 16^3");
  if (e) {
    int64_t n = e->grid.n, inside = 0, wrong = 0;
    double dx = cfg.box_size_cm / (double)n;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t k = 0; k < n; ++k) {
          int64_t c = grid_index(n, i, j, k);
          double d2 = pow((i + 0.5) * dx - 5.0 * IONF_KPC_CM, 2) +
                      pow((j + 0.5) * dx - 3.3 * IONF_KPC_CM, 2) +
                      pow((k + 0.5) * dx - 3.3 * IONF_KPC_CM, 2);
          int in = d2 <= pow(0.8 * IONF_KPC_CM, 2);
          inside += in;
          double want_n = in ? 0.04 : 2e-4, want_t = in ? 40.0 : 8000.0;
          wrong += e->fields.n_h_cm3[c] != want_n || e->fields.temperature_k[c] != want_t ||
                   e->fields.temperature_av_k[c] != want_t ||
                   e->fields.temperature_end_k[c] != want_t ||
                   e->fields.x_ion[SPECIES_HI * grid_cells(n) + c] != cfg.x_hii_initial;
        }
    printf("iliev3 at 16^3: %lld cells in the clump\n", (long long)inside);
    EXPECT(inside > 0 && inside == e->clump_cells, "clump cells %lld, engine says %lld",
           (long long)inside, (long long)e->clump_cells);
    EXPECT(wrong == 0, "%lld cells with the wrong initial n_H, T, T_av, T_end or x", (long long)wrong);
    EXPECT(!e->uniform_density && !e->uniform_temperature, "a clump makes the medium non-uniform");
  }
  engine_destroy(e);
  config_free(&cfg);

  /* which runs claim a single-source front */
  char *point_clump[] = {"grid.N=16", "sources=[{position: [0, 8, 8], Ndot: 1e50}]",
                         "material.isothermal=true"};
  char *point_plane[] = {"grid.N=16", "material.clumps=[]", "material.isothermal=true",
                         "sources=[{position: [0, 8, 8], Ndot: 1e50}, {plane: x_low, flux: 1}]"};
  char *point_only[] = {"grid.N=16", "material.clumps=[]", "material.isothermal=true",
                        "sources=[{position: [0, 8, 8], Ndot: 1e50}]"};
  char *warm_clump[] = {"grid.N=16", "material.isothermal=true",
                        "sources=[{position: [0, 8, 8], Ndot: 1e50}]",
                        "material.clumps=[{center: [5 kpc, 3.3 kpc, 3.3 kpc], radius: 0.8 kpc, "
                        "n_H: 2.0e-4, temperature: 1e4}]"};
  struct {
    char **sets;
    int n;
    int front, analytic;
    const char *what;
  } cases[] = {{point_clump, 3, 0, 0, "a point source and a clump"},
               {point_plane, 4, 0, 0, "a point and a plane source"},
               {point_only, 4, 1, 1, "one point source, uniform medium"},
               {warm_clump, 4, 0, 0, "a clump of the same density but another temperature"}};
  for (size_t q = 0; q < sizeof cases / sizeof cases[0]; ++q) {
    e = make_engine(cases[q].sets, cases[q].n, &cfg);
    EXPECT(e != NULL, "%s", cases[q].what);
    if (e) {
      EXPECT(engine_has_single_source_front(e) == cases[q].front, "%s: single-source front %d",
             cases[q].what, engine_has_single_source_front(e));
      EXPECT(engine_has_analytic_front(e) == cases[q].analytic, "%s: analytic front %d",
             cases[q].what, engine_has_analytic_front(e));
    }
    engine_destroy(e);
    config_free(&cfg);
  }
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  check_brute_force();
  check_corner();
  check_boxes();
  check_engine();
  comm_finalize();
  TEST_RETURN();
}
