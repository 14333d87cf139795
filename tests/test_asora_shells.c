/**
 * @file test_asora_shells.c
 * @brief Octahedral shells: the shell-index mapping enumerates every cell at
 *        L1 distance q exactly once; every interpolation neighbour with a
 *        non-zero weight lies in a lower shell, between the cell and the
 *        source; the CPU sweep visits each cell of its domain exactly once
 *        (non-periodic, periodic odd/even, with and without a photon radius),
 *        and its fast line order gives bit for bit the rates and columns of
 *        the shell order; cube shells (the GPU's order) hold each cell once with
 *        its upstream neighbours one shell down, and their rows inside the photon
 *        sphere hold exactly the cells traced.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rt/asora/asora_k.h"
#include "test_physics_common.h"
#include "test_util.h"

#define QMAX 24

static void check_shell_mapping(void) {
  int side = 2 * QMAX + 1;
  unsigned char *seen = calloc((size_t)side * side * side, 1);
  long long total = 0;
  for (int q = 0; q <= QMAX; ++q) {
    long long size = asora_shell_size(q);
    long long brute = 0;
    for (int i = -q; i <= q; ++i)
      for (int j = -q; j <= q; ++j)
        for (int k = -q; k <= q; ++k) brute += abs(i) + abs(j) + abs(k) == q;
    EXPECT(size == brute, "shell %d: size %lld, lattice count %lld", q, size, brute);
    for (long long s = 0; s < size; ++s) {
      int di, dj, dk;
      asora_shell_cell(s, q, &di, &dj, &dk);
      EXPECT(abs(di) + abs(dj) + abs(dk) == q, "shell %d index %lld -> (%d,%d,%d) not on shell",
             q, s, di, dj, dk);
      size_t at = ((size_t)(di + QMAX) * side + (size_t)(dj + QMAX)) * side + (size_t)(dk + QMAX);
      EXPECT(!seen[at], "cell (%d,%d,%d) enumerated twice", di, dj, dk);
      seen[at] = 1;
    }
    total += size;
    EXPECT(asora_octahedron_size(q) == total, "octahedron %d: %lld vs %lld", q,
           asora_octahedron_size(q), total);
  }
  free(seen);
}

static void check_stencils(void) {
  for (int q = 1; q <= QMAX; ++q) {
    for (long long s = 0; s < asora_shell_size(q); ++s) {
      int d[3];
      asora_shell_cell(s, q, &d[0], &d[1], &d[2]);
      struct asora_stencil st;
      asora_stencil_make(d[0], d[1], d[2], NULL, &st);
      double wsum = 0.0;
      int used = 0;
      for (int m = 0; m < 4; ++m) used += st.s[m] > 0.0;
      EXPECT(used >= 1, "(%d,%d,%d): no neighbour with weight", d[0], d[1], d[2]);
      for (int m = 0; m < 4; ++m) {
        if (!(st.s[m] > 0.0)) continue;
        const int *o = st.off[m];
        int l1 = abs(o[0]) + abs(o[1]) + abs(o[2]);
        EXPECT(l1 < q, "(%d,%d,%d): neighbour (%d,%d,%d) with weight %g is not in a lower shell",
               d[0], d[1], d[2], o[0], o[1], o[2], st.s[m]);
        for (int a = 0; a < 3; ++a) {
          int between = d[a] >= 0 ? (o[a] >= 0 && o[a] <= d[a]) : (o[a] <= 0 && o[a] >= d[a]);
          EXPECT(between, "(%d,%d,%d): neighbour (%d,%d,%d) not between cell and source", d[0],
                 d[1], d[2], o[0], o[1], o[2]);
        }
        wsum += st.s[m];
      }
      EXPECT(fabs(wsum - 1.0) < 1e-12, "(%d,%d,%d): weights sum to %.15g", d[0], d[1], d[2], wsum);
      EXPECT(st.ds_cells >= 1.0 && st.ds_cells <= sqrt(3.0) + 1e-12, "path %g", st.ds_cells);
      /* the geometry by |d| (the GPU's table) against C2-Ray's signed formula, written out
         here: dp = |sp len_a - d_p| / len_a along the in-plane axes of the dominant one, the
         path |d| / len_a */
      {
        const int ad[3] = {abs(d[0]), abs(d[1]), abs(d[2])};
        const int a = (ad[2] >= ad[0] && ad[2] >= ad[1]) ? 2 : (ad[1] >= ad[0] ? 1 : 0);
        const int p = a == 0 ? 1 : 0, qq = a == 2 ? 1 : 2, len = ad[a];
        const double dp = (double)abs((d[p] >= 0 ? 1 : -1) * len - d[p]) / (double)len;
        const double dq = (double)abs((d[qq] >= 0 ? 1 : -1) * len - d[qq]) / (double)len;
        double g[ASORA_GEOMETRY_VALUES];
        asora_stencil_geometry(ad[0], ad[1], ad[2], g);
        EXPECT(g[0] == dp && g[1] == dq &&
                   g[2] == sqrt((double)(ad[0] * ad[0] + ad[1] * ad[1] + ad[2] * ad[2])) / len &&
                   st.s[0] == (1.0 - dp) * (1.0 - dq) && st.s[3] == dp * dq && st.axis == a,
               "(%d,%d,%d): geometry %.17g %.17g %.17g, signed formula %.17g %.17g", d[0], d[1],
               d[2], g[0], g[1], g[2], dp, dq);
      }
      EXPECT(st.volume_cells * 2.0 * 2.0 * 2.0 ==
                 asora_shell_volume_cm3(d[0], d[1], d[2], st.ds_cells, 2.0),
             "(%d,%d,%d): volume %.17g", d[0], d[1], d[2], st.volume_cells);
    }
  }
}

/* Brute-force count of the cells a source's sweep must visit. */
static long long domain_count(int64_t n, const int32_t *src, int periodic, double r_max) {
  int s[3] = {src[0], src[1], src[2]};
  struct asora_domain dom;
  struct grid_box whole = grid_box_whole(n);
  asora_domain_make(s, n, periodic, &whole, r_max, &dom);
  long long count = 0;
  for (int i = dom.lo[0]; i <= dom.hi[0]; ++i)
    for (int j = dom.lo[1]; j <= dom.hi[1]; ++j)
      for (int k = dom.lo[2]; k <= dom.hi[2]; ++k)
        count += (double)i * i + (double)j * j + (double)k * k <= dom.r2_max_cells;
  return count;
}

static void check_sweep(int64_t n, int32_t si, int32_t sj, int32_t sk, int periodic, double r_max,
                        int threads) {
  int32_t src[3] = {si, sj, sk};
  double *n_h, *x;
  struct source_list sources;
  struct trace_input in;
  double cell = 0.01 * IONF_KPC_CM;
  test_uniform_setup(n, cell, periodic, 1e-4, 0.0, src, 1e50, &n_h, &x, &sources, &in);
  in.r_max_cells = r_max;
  int64_t cells = n * n * n;
  for (int64_t c = 0; c < cells; ++c) n_h[c] = 1e-3 * (1.0 + 0.9 * sin(0.37 * (double)c));
  double *gamma = calloc((size_t)cells, sizeof(double));
  double *column = malloc(sizeof(double) * (size_t)cells);
  for (int64_t c = 0; c < cells; ++c) column[c] = -1.0;
  in.column_out = column;
  omp_set_num_threads(threads);
  struct trace_stats stats;
  EXPECT(asora_cpu_trace(&in, gamma, &stats, NULL) == IONF_OK, "trace failed: %s", ionf_error_message());
  long long expect = domain_count(n, src, periodic, r_max);
  EXPECT(stats.cells_traced == expect,
         "N=%lld src (%d,%d,%d) periodic=%d R=%g: visited %lld cells, domain has %lld",
         (long long)n, si, sj, sk, periodic, r_max, (long long)stats.cells_traced, expect);
  int64_t written = 0;
  for (int64_t c = 0; c < cells; ++c) written += column[c] >= 0.0;
  EXPECT(written == expect, "column written in %lld cells, expected %lld", (long long)written,
         expect);
  if (periodic && r_max <= 0)
    EXPECT(expect == cells, "periodic window must cover the box once: %lld of %lld", expect,
           (long long)cells);
  /* the shell order (ASORA's) gives identical rates and columns */
  double *gamma_shells = calloc((size_t)cells, sizeof(double));
  double *column_shells = malloc(sizeof(double) * (size_t)cells);
  for (int64_t c = 0; c < cells; ++c) column_shells[c] = -1.0;
  in.column_out = column_shells;
  in.order = ASORA_ORDER_SHELLS;
  EXPECT(asora_cpu_trace(&in, gamma_shells, &stats, NULL) == IONF_OK, "shell-order trace");
  EXPECT(stats.cells_traced == expect, "shell order visited %lld, expected %lld",
         (long long)stats.cells_traced, expect);
  EXPECT(!memcmp(gamma, gamma_shells, sizeof(double) * (size_t)cells),
         "shell and line orders give different rates");
  EXPECT(!memcmp(column, column_shells, sizeof(double) * (size_t)cells),
         "shell and line orders give different columns");
  /* and so does the cube-shell order of the GPU */
  for (int64_t c = 0; c < cells; ++c) column_shells[c] = -1.0;
  memset(gamma_shells, 0, sizeof(double) * (size_t)cells);
  in.order = ASORA_ORDER_CUBES;
  EXPECT(asora_cpu_trace(&in, gamma_shells, &stats, NULL) == IONF_OK, "cube-order trace");
  EXPECT(stats.cells_traced == expect, "cube order visited %lld, expected %lld",
         (long long)stats.cells_traced, expect);
  EXPECT(!memcmp(gamma, gamma_shells, sizeof(double) * (size_t)cells),
         "cube and line orders give different rates");
  EXPECT(!memcmp(column, column_shells, sizeof(double) * (size_t)cells),
         "cube and line orders give different columns");
  free(gamma_shells);
  free(column_shells);
  free(gamma);
  free(column);
  free(n_h);
  free(x);
  free(sources.ijk);
  free(sources.ndot_per_s);
}

/* The team (one source, threads within shells) computes exactly what one thread does. */
static void check_threads_agree(void) {
  int64_t n = 24;
  int32_t src[3] = {5, 11, 17};
  double *n_h, *x;
  struct source_list sources;
  struct trace_input in;
  test_uniform_setup(n, 0.05 * IONF_KPC_CM, 0, 1e-3, 0.0, src, 1e50, &n_h, &x, &sources, &in);
  for (int64_t c = 0; c < n * n * n; ++c) n_h[c] = 1e-3 * (1.0 + 0.5 * sin(0.37 * (double)c));
  double *g1 = calloc((size_t)(n * n * n), sizeof(double));
  double *g2 = calloc((size_t)(n * n * n), sizeof(double));
  struct trace_stats st;
  omp_set_num_threads(1);
  EXPECT(asora_cpu_trace(&in, g1, &st, NULL) == IONF_OK, "trace");
  omp_set_num_threads(3);
  EXPECT(asora_cpu_trace(&in, g2, &st, NULL) == IONF_OK, "trace");
  EXPECT(memcmp(g1, g2, sizeof(double) * (size_t)(n * n * n)) == 0,
         "1 and 3 threads give different rates");
  free(g1);
  free(g2);
  free(n_h);
  free(x);
  free(sources.ijk);
  free(sources.ndot_per_s);
}

/* Cube shells: each cell of a clipped domain once, upstream neighbours one shell down. */
static void check_cube_shells(void) {
  const int src[3] = {3, 0, 9};
  struct asora_domain dom;
  struct grid_box whole = grid_box_whole(14);
  asora_domain_make(src, 14, 0, &whole, 0.0, &dom);
  int side = 14;
  unsigned char *seen = calloc((size_t)side * side * side, 1);
  long long total = 0;
  for (int h = 0; h <= asora_domain_h_max(&dom); ++h) {
    struct asora_cube_shell cs;
    asora_cube_shell_make(&dom, h, &cs);
    for (long long t = 0; t < cs.start[6]; ++t) {
      int d[3];
      asora_cube_shell_cell(&cs, t, &d[0], &d[1], &d[2]);
      int m = abs(d[0]) > abs(d[1]) ? abs(d[0]) : abs(d[1]);
      if (abs(d[2]) > m) m = abs(d[2]);
      EXPECT(m == h, "cube shell %d holds (%d,%d,%d)", h, d[0], d[1], d[2]);
      size_t at = ((size_t)(src[0] + d[0]) * side + (size_t)(src[1] + d[1])) * side +
                  (size_t)(src[2] + d[2]);
      EXPECT(!seen[at], "(%d,%d,%d) twice", d[0], d[1], d[2]);
      seen[at] = 1;
      ++total;
    }
  }
  EXPECT(total == (long long)side * side * side, "cube shells cover %lld of %d cells", total,
         side * side * side);
  free(seen);
  for (int i = -15; i <= 15; ++i)
    for (int j = -15; j <= 15; ++j)
      for (int k = -15; k <= 15; ++k) {
        if (!i && !j && !k) continue;
        int h = abs(i) > abs(j) ? abs(i) : abs(j);
        if (abs(k) > h) h = abs(k);
        struct asora_stencil st;
        asora_stencil_make(i, j, k, NULL, &st);
        for (int m = 0; m < 4; ++m) {
          if (!(st.s[m] > 0.0)) continue;
          int hm = abs(st.off[m][0]) > abs(st.off[m][1]) ? abs(st.off[m][0]) : abs(st.off[m][1]);
          if (abs(st.off[m][2]) > hm) hm = abs(st.off[m][2]);
          EXPECT(hm == h - 1, "(%d,%d,%d): neighbour in cube shell %d, not %d", i, j, k, hm, h - 1);
        }
      }
}

/* The rows of a cube shell inside the photon sphere (asora_cube_shell_row, the GPU's
   lanes): exactly the shell's cells with r^2 <= r2_max, each once, for domains clipped
   by walls, periodic windows and photon radii (R = 0: every cell); and the shell layout
   of the columns (struct asora_shell_faces): every shell fits asora_domain_shell_cells,
   no two cells share an index, and every used upstream neighbour is read where it wrote. */
static void check_cube_shell_rows_in(int n, int si, int sj, int sk, int periodic, double r_max,
                                     int slab_lo, int slab_extent) {
  const int src[3] = {si, sj, sk};
  struct grid_box box = grid_box_whole(n);
  if (slab_extent > 0) { /* a rank's slab (with its halo) along x */
    box.lo[0] = slab_lo;
    box.extent[0] = slab_extent;
  }
  struct asora_domain dom;
  asora_domain_make(src, n, periodic, &box, r_max, &dom);
  int side = 2 * n + 1; /* offsets -n .. n */
  unsigned char *want = calloc((size_t)side * side * side, 1);
  long long cells = 0, rows_cells = 0;
  for (int h = 0; h <= asora_domain_h_max(&dom); ++h) {
    struct asora_cube_shell cs;
    asora_cube_shell_make(&dom, h, &cs);
    EXPECT(cs.start[6] <= asora_domain_shell_cells(&dom), "n %d, R %g, shell %d: %lld cells, "
           "more than the shell buffer's %lld", n, r_max, h, cs.start[6],
           asora_domain_shell_cells(&dom));
    struct asora_shell_faces sf, pf;
    memset(&pf, 0, sizeof pf);
    asora_shell_faces_make(&dom, h, &sf);
    if (h > 0) asora_shell_faces_make(&dom, h - 1, &pf);
    EXPECT(sf.cells <= asora_domain_shell_cells(&dom), "n %d, R %g, shell %d: %lld face cells, "
           "more than the shell buffer's %lld", n, r_max, h, sf.cells,
           asora_domain_shell_cells(&dom));
    long long *owner = malloc(sizeof(long long) * (size_t)(sf.cells > 0 ? sf.cells : 1));
    for (long long i = 0; i < sf.cells; ++i) owner[i] = -1;
    for (long long t = 0; t < cs.start[6]; ++t) {
      int d[3];
      asora_cube_shell_cell(&cs, t, &d[0], &d[1], &d[2]);
      /* the faces that keep this cell's column: each index inside the shell's, its own */
      for (int a = 0; a < 3; ++a) {
        if (abs(d[a]) != h) continue;
        const int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
        long long at = asora_shell_faces_index(&sf, a, d[a] < 0, d[p], d[q]);
        EXPECT(at >= 0 && at < sf.cells && sf.base[a][d[a] < 0] >= 0,
               "n %d, shell %d: (%d,%d,%d) at %lld of %lld in face %d", n, h, d[0], d[1], d[2],
               at, sf.cells, a);
        if (at >= 0 && at < sf.cells) {
          EXPECT(owner[at] < 0 || owner[at] == t, "n %d, shell %d: cells %lld and %lld share "
                 "index %lld", n, h, owner[at], t, at);
          owner[at] = t;
        }
      }
      double r2 = (double)d[0] * d[0] + (double)d[1] * d[1] + (double)d[2] * d[2];
      if (r2 > dom.r2_max_cells) continue;
      /* every used neighbour, read as asora_cell_step reads it (entry 3's index in face
         (a, sign d_a) of shell h - 1 less the steps along p and q), is where that neighbour
         wrote its column */
      if (h > 0) {
        struct asora_stencil st;
        asora_stencil_make(d[0], d[1], d[2], NULL, &st);
        const int a = st.axis, p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
        long long at3 = asora_shell_faces_index(&pf, a, st.sa < 0, d[p], d[q]);
        for (int m = 0; m < 4; ++m) {
          if (!(st.s[m] > 0.0)) continue;
          const int *o = st.off[m];
          long long read = at3 - ((m & 1) ? 0 : (long long)st.sp * pf.qlen[a]) - ((m & 2) ? 0 : st.sq);
          long long wrote = asora_shell_faces_index(&pf, a, o[a] < 0, o[p], o[q]);
          EXPECT(abs(o[a]) == h - 1 && read == wrote && read >= 0 && read < pf.cells,
                 "n %d, shell %d: (%d,%d,%d) reads neighbour %d (%d,%d,%d) at %lld, written "
                 "at %lld", n, h, d[0], d[1], d[2], m, o[0], o[1], o[2], read, wrote);
        }
      }
      want[((size_t)(d[0] + n) * side + (size_t)(d[1] + n)) * side + (size_t)(d[2] + n)] = 1;
      ++cells;
    }
    free(owner);
    EXPECT(cs.row_start[6] <= 6 * (2 * h + 1), "shell %d: %d rows", h, cs.row_start[6]);
    for (int r = 0; r < cs.row_start[6]; ++r) {
      int f, u, v0;
      int count = asora_cube_shell_row(&cs, r, dom.r2_max_cells, &f, &u, &v0);
      for (int v = v0; v < v0 + count; ++v) {
        int d[3];
        asora_cube_shell_row_cell(&cs, f, u, v, &d[0], &d[1], &d[2]);
        size_t at = ((size_t)(d[0] + n) * side + (size_t)(d[1] + n)) * side + (size_t)(d[2] + n);
        EXPECT(want[at] == 1, "n %d, R %g, shell %d, row %d: (%d,%d,%d) %s", n, r_max, h, r,
               d[0], d[1], d[2], want[at] == 2 ? "twice" : "not a traced cell of the shell");
        want[at] = 2;
        ++rows_cells;
      }
    }
  }
  EXPECT(rows_cells == cells, "n %d, R %g: the rows hold %lld cells, the shells trace %lld", n,
         r_max, rows_cells, cells);
  free(want);
}

static void check_cube_shell_rows(int n, int si, int sj, int sk, int periodic, double r_max) {
  check_cube_shell_rows_in(n, si, sj, sk, periodic, r_max, 0, 0);
}

int main(void) {
  check_shell_mapping();
  check_stencils();
  check_cube_shells();
  check_cube_shell_rows(14, 3, 0, 9, 0, 0.0);    /* no radius: every cell */
  check_cube_shell_rows(32, 2, 16, 30, 0, 6.5);  /* a radius near the walls */
  check_cube_shell_rows(40, 20, 20, 20, 1, 15.0); /* periodic, a whole sphere */
  check_cube_shell_rows(31, 0, 15, 30, 1, 17.3);  /* periodic, odd N, the sphere cut by the window */
  check_cube_shell_rows(64, 5, 60, 31, 0, 30.0);  /* the benchmark's radius */
  check_cube_shell_rows(9, 4, 4, 4, 1, 0.0);      /* periodic, odd N, no radius */
  check_cube_shell_rows_in(48, 20, 5, 40, 1, 12.0, 14, 16); /* a slab with its halo */
  check_cube_shell_rows_in(48, 2, 30, 3, 0, 0.0, 0, 9);     /* a thin slab, no radius */
  for (int threads = 1; threads <= 2; ++threads) {
    check_sweep(20, 0, 0, 0, 0, 0.0, threads);     /* corner source, whole box */
    check_sweep(17, 3, 16, 8, 0, 0.0, threads);    /* off-centre, odd N */
    check_sweep(16, 8, 8, 8, 1, 0.0, threads);     /* periodic, even N */
    check_sweep(15, 0, 7, 14, 1, 0.0, threads);    /* periodic, odd N, source at edges */
    check_sweep(32, 2, 16, 30, 0, 6.5, threads);   /* photon radius near the walls */
    check_sweep(20, 1, 1, 1, 1, 4.0, threads);     /* periodic with radius */
  }
  check_threads_agree();
  TEST_RETURN();
}
