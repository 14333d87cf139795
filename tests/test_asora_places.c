/**
 * @file test_asora_places.c
 * @brief The GPU's whole-domain path (asora_whole_kernel): for every cell of a whole domain
 *        (every source of a periodic box), in the lane table's order, asora_cell_step_placed
 *        with the cell's place (asora_cell_place_make) and the geometry table gives bit for
 *        bit what asora_cell_step gives in the shell layout: the box index, the rates, the
 *        outgoing columns and where they are stored; a black body (tables) and a grey
 *        spectrum, with and without a transmission cutoff, at photon radii whose cube
 *        corners lie outside the sphere (13) and inside it (2.5).
 */
#include <stdlib.h>
#include <string.h>

#include "rt/asora/asora_cell_k.h"
#include "rt/photo_tables.h"
#include "test_util.h"

static struct photo_tables tables_of(enum spectrum_type type) {
  struct photo_spectrum spectrum = {type, 5e4, 2000, -20.0, 4.0};
  struct species_data species[IONF_MAX_SPECIES];
  struct species_params p = {.sigma0_cm2 = IONF_SIGMA_HI_CM2, .sigma_power_law_index = 2.8};
  species_table(&p, species);
  struct photo_tables t;
  if (photo_tables_build(&spectrum, species, 0, &t) != IONF_OK) {
    fprintf(stderr, "photo_tables_build: %s\n", ionf_error_message());
    exit(1);
  }
  return t;
}

/* A deterministic value in [0, 1) from an integer. */
static double hash01(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return (double)(k >> 11) / 9007199254740992.0;
}

static void check_places(enum spectrum_type type, double cutoff, int n, double r_max) {
  struct photo_tables t = tables_of(type);
  if (cutoff > 0.0) photo_tables_cut(&t, cutoff);
  const long long cells = (long long)n * n * n;
  double *n_abs = malloc(sizeof(double) * (size_t)cells);
  for (long long c = 0; c < cells; ++c) n_abs[c] = 1e-4 * (0.05 + hash01((unsigned long long)c));
  const int h_max = (int)ceil(r_max);
  const int side = h_max + 1;
  double *geo = calloc((size_t)side * side * side * ASORA_GEOMETRY_VALUES, sizeof(double));
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k)
        if (i || j || k)
          asora_stencil_geometry(i, j, k, geo + ASORA_GEOMETRY_VALUES * ((i * side + j) * side + k));
  struct asora_source_view v;
  memset(&v, 0, sizeof v);
  v.n_abs_cm3 = n_abs;
  v.n = n;
  v.periodic = 1;
  struct grid_box box = {{0, 0, 0}, {n, n, n}, 0};
  v.box = box;
  v.cell_cm = 3e22;
  v.src[0] = 1;
  v.src[1] = n / 2;
  v.src[2] = n - 2; /* the domain wraps */
  v.ndot_per_s = 1e54;
  asora_domain_make(v.src, n, 1, &box, r_max, &v.dom);
  v.geo = geo;
  v.geo_side = side;
  v.tables = photo_tables_view(&t);
  struct asora_domain whole = v.dom;
  for (int a = 0; a < 3; ++a)
    EXPECT(whole.lo[a] == -h_max && whole.hi[a] == h_max, "n %d, R %g: domain [%d, %d] on axis %d",
           n, r_max, whole.lo[a], whole.hi[a], a);
  const long long shell_max = asora_domain_shell_cells(&v.dom);
  double *prev = malloc(sizeof(double) * (size_t)shell_max);
  double *cur_a = malloc(sizeof(double) * (size_t)shell_max);
  double *cur_b = malloc(sizeof(double) * (size_t)shell_max);
  long long traced = 0, mismatched = 0, lit = 0;
  for (int h = 0; h <= h_max; ++h) {
    struct asora_shell_faces cf, pf;
    asora_shell_faces_make(&v.dom, h, &cf);
    asora_shell_faces_make(&v.dom, h > 0 ? h - 1 : 0, &pf);
    /* the shell before: columns up to a few hundred optical depths, some opaque */
    for (long long i = 0; i < shell_max; ++i)
      prev[i] = hash01((unsigned long long)(h * 1000003LL + i)) * 3e19 * (h + 1);
    for (long long i = 0; i < shell_max; ++i) cur_a[i] = cur_b[i] = -1.0;
    struct asora_cube_shell cs;
    asora_cube_shell_make(&v.dom, h, &cs);
    const struct asora_columns cols_a = {NULL, &cf, &pf, cur_a, prev};
    const struct asora_columns cols_b = {NULL, &cf, &pf, cur_b, prev};
    for (int r = 0; r < cs.row_start[6]; ++r) {
      int f, u, v0;
      const int count = asora_cube_shell_row(&cs, r, v.dom.r2_max_cells, &f, &u, &v0);
      for (int vv = v0; vv < v0 + count; ++vv) {
        int d[3];
        asora_cube_shell_row_cell(&cs, f, u, vv, &d[0], &d[1], &d[2]);
        long long idx_a = -1, idx_b = -2;
        double g_a[1] = {-1.0}, g_b[1] = {-2.0}, heat_a[1], heat_b[1], col_a[1] = {-1.0},
               col_b[1] = {-2.0};
        const int in = cutoff > 0.0
                           ? asora_cell_step(&v, 1, 1, 1, &cols_a, d[0], d[1], d[2], &idx_a, g_a,
                                             heat_a, col_a)
                           : asora_cell_step(&v, 1, 1, 0, &cols_a, d[0], d[1], d[2], &idx_a, g_a,
                                             heat_a, col_a);
        struct asora_cell_place pl;
        asora_cell_place_make(&whole, d[0], d[1], d[2], &pl);
        if (cutoff > 0.0)
          asora_cell_step_placed(&v, 1, 1, &cols_b, d[0], d[1], d[2], &pl, &idx_b, g_b, heat_b,
                                 col_b);
        else
          asora_cell_step_placed(&v, 1, 0, &cols_b, d[0], d[1], d[2], &pl, &idx_b, g_b, heat_b,
                                 col_b);
        ++traced;
        lit += g_a[0] > 0.0;
        /* bit for bit: memcmp (a NaN would differ from itself under ==) */
        if (!in || idx_a != idx_b || memcmp(g_a, g_b, sizeof g_a) != 0 ||
            memcmp(col_a, col_b, sizeof col_a) != 0) {
          if (mismatched++ < 5)
            EXPECT(0, "n %d, R %g, cutoff %g: (%d,%d,%d) in %d, index %lld / %lld, Gamma %.17g / "
                   "%.17g, column %.17g / %.17g", n, r_max, cutoff, d[0], d[1], d[2], in, idx_a,
                   idx_b, g_a[0], g_b[0], col_a[0], col_b[0]);
        }
      }
    }
    EXPECT(memcmp(cur_a, cur_b, sizeof(double) * (size_t)shell_max) == 0,
           "n %d, R %g: shell %d's stored columns differ", n, r_max, h);
  }
  EXPECT(mismatched == 0, "n %d, R %g, cutoff %g: %lld of %lld cells differ", n, r_max, cutoff,
         mismatched, traced);
  EXPECT(traced > 0 && lit > 0 && (cutoff == 0.0 || lit < traced),
         "n %d, R %g, cutoff %g: %lld cells traced, %lld with a rate", n, r_max, cutoff, traced,
         lit);
  free(prev);
  free(cur_a);
  free(cur_b);
  free(geo);
  free(n_abs);
  photo_tables_free(&t);
}

int main(void) {
  check_places(SPECTRUM_BLACKBODY, 0.0, 32, 13.0);
  check_places(SPECTRUM_BLACKBODY, 1e-6, 32, 13.0);
  check_places(SPECTRUM_GREY, 0.0, 33, 12.8);
  check_places(SPECTRUM_BLACKBODY, 0.0, 9, 2.5);
  TEST_RETURN();
}
