/**
 * @file asora_k.h
 * @brief ASORA short characteristics: octahedral shells and the upstream
 *        interpolation of column density (shared host/device maths).
 *
 * Shell q holds the cells at L1 distance q from the source,
 * |di| + |dj| + |dk| = q: 1 cell for q = 0, 4q^2 + 2 otherwise.  A cell's
 * incoming column is interpolated from up to four cells of the layer one step
 * closer to the source along the ray's dominant axis (C2-Ray's cinterp, as in
 * its code, not the paper's Eq. 11).  Every neighbour with a non-zero weight
 * lies in a lower shell, so shells can be processed in order with all cells of
 * one shell independent: the causality ASORA parallelises.
 */
#ifndef IONF_ASORA_K_H
#define IONF_ASORA_K_H

#include <math.h>

#include "chem/species_k.h" /* IONF_MAX_SPECIES */
#include "core/ionf_hd.h"
#include "grid/grid.h"

/** Optical-depth floor of the interpolation weights (C2-Ray's tau_0 = 0.6). */
#ifndef ASORA_TAU_WEIGHT_FLOOR /* overridable only for experiments on the weighting */
#define ASORA_TAU_WEIGHT_FLOOR 0.6
#endif

/** Number of cells in shell q. */
IONF_HD IONF_INLINE long long asora_shell_size(int q) {
  return q == 0 ? 1LL : 4LL * q * q + 2LL;
}

/** Number of cells in shells 0..q (the octahedron of radius q). */
IONF_HD IONF_INLINE long long asora_octahedron_size(int q) {
  long long qq = q;
  return (2 * qq + 1) * (2 * qq * qq + 2 * qq + 3) / 3;
}

/** Shell radius needed to cover a sphere of radius r_cells (its L1 ball). */
IONF_HD IONF_INLINE int asora_shell_radius_for(double r_cells) {
  return (int)ceil(sqrt(3.0) * r_cells);
}

/* Map index s of the 2q(q+1)+1 cells of the top half-shell to in-plane (u, v). */
IONF_HD IONF_INLINE void asora_map_half_shell(long long s, int q, int *u, int *v) {
  if (s == 0) {
    *u = q;
    *v = 0;
    return;
  }
  long long b = (s - 1) / (2LL * q);
  long long a = (s - 1) % (2LL * q);
  if (a + 2 * b > 2LL * q) { /* translate the upper-left triangle into the gap */
    a += 1;
    b -= 1 + q;
  }
  *u = (int)(a + b - q);
  *v = (int)b;
}

/**
 * Offset (di, dj, dk) of the s-th cell of shell q (0 <= s < asora_shell_size(q)):
 * the top half (dk >= 0) has 2q(q+1)+1 cells, the bottom half (dk < 0) the
 * top-half layout of q-1.
 */
IONF_HD IONF_INLINE void asora_shell_cell(long long s, int q, int *di, int *dj, int *dk) {
  if (q == 0) {
    *di = *dj = *dk = 0;
    return;
  }
  long long n_top = 2LL * q * (q + 1) + 1;
  int u, v;
  if (s < n_top) {
    asora_map_half_shell(s, q, &u, &v);
    *dk = q - abs(u) - abs(v);
  } else {
    asora_map_half_shell(s - n_top, q - 1, &u, &v);
    *dk = -(q - abs(u) - abs(v));
  }
  *di = u;
  *dj = v;
}

/**
 * The four candidate upstream neighbours of one cell and their geometric
 * weights; a neighbour with weight 0 is never read (it may lie outside the
 * traced region).  Fixed-size, fixed-order entries keep everything in
 * registers on the GPU (no run-time array indices).
 */
struct asora_stencil {
  int off[4][3];       /*!< offsets from the source */
  double s[4];         /*!< geometric (bilinear) weights, 0 for unused entries */
  double ds_cells;     /*!< path length of the ray through the cell [cells] */
  double volume_cells; /*!< the shell volume 4 pi r^2 ds [cells^3] */
  double corner_factor;/*!< sqrt(3) / sqrt(2) next to the source, else 1 */
  int axis;            /*!< the dominant axis a (0, 1, 2 = x, y, z) */
  int sa, sp, sq;      /*!< the signs of d along a and the in-plane axes p, q: entry m is d
                            stepped back by sa along a, by sp along p unless m is odd, by sq
                            along q unless m >= 2 */
};

/** Entries of a stencil's geometry (asora_stencil_geometry). */
#define ASORA_GEOMETRY_VALUES 4
/** The GPU keeps the geometry as a table up to this size (a side of 101 cells, R = 100:
    32 MB); beyond it the cell step computes it (no photon radius over a large grid). */
#define ASORA_GEOMETRY_TABLE_MAX_BYTES 33554432.0

/**
 * The part of a stencil that depends on |d| alone, for offset (ad0, ad1, ad2) >= 0 (not all
 * 0): g[0], g[1] = dp, dq (where the ray crosses the upstream face, as fractions of a cell
 * from the shared corner), g[2] = ds_cells, g[3] = 4 pi r^2 ds_cells.  Dominant axis a: the
 * largest, ties broken z, then y, then x (C2-Ray); (p, q) = (y, z), (x, z), (x, y) for
 * a = x, y, z.  Integer numerators, one correctly rounded division each: the values are
 * then bit-identical on host and device, and a table of them (the GPU's) gives the bits
 * the computation gives.
 */
IONF_HD IONF_INLINE void asora_stencil_geometry(int ad0, int ad1, int ad2, double *g) {
  const int a = (ad2 >= ad0 && ad2 >= ad1) ? 2 : (ad1 >= ad0 ? 1 : 0);
  const int len_a = a == 2 ? ad2 : (a == 1 ? ad1 : ad0);
  const int k_p = len_a - (a == 0 ? ad1 : ad0), k_q = len_a - (a == 2 ? ad1 : ad2);
  /* (0 without dividing: a GPU's division of a zero numerator takes its slow path, which
     a fifth of the cells would take) */
  g[0] = k_p == 0 ? 0.0 : (double)k_p / (double)len_a;
  g[1] = k_q == 0 ? 0.0 : (double)k_q / (double)len_a;
  g[2] = sqrt((double)(ad0 * ad0 + ad1 * ad1 + ad2 * ad2)) / (double)len_a;
  const double r2 = (double)ad0 * ad0 + (double)ad1 * ad1 + (double)ad2 * ad2;
  g[3] = 4.0 * 3.14159265358979323846 * r2 * g[2];
}

/** The corner factor of code c (asora_stencil_corner): 1, sqrt(2) or sqrt(3). */
IONF_HD IONF_INLINE double asora_corner_factor(int c) {
  return c == 2 ? sqrt(3.0) : (c == 1 ? sqrt(2.0) : 1.0);
}

/** The part of a stencil its geometry g (asora_stencil_geometry) and corner code give:
    the weights s[], ds_cells, volume_cells and corner_factor (not the offsets, axis or
    signs). */
IONF_HD IONF_INLINE void asora_stencil_weights(const double *g, int corner,
                                               struct asora_stencil *st) {
  const double dp = g[0], dq = g[1];
  st->s[0] = (1.0 - dp) * (1.0 - dq);
  st->s[1] = dp * (1.0 - dq);
  st->s[2] = (1.0 - dp) * dq;
  st->s[3] = dp * dq;
  st->ds_cells = g[2];
  st->volume_cells = g[3];
  st->corner_factor = asora_corner_factor(corner);
}

/** The corner code of offset d != 0 (asora_corner_factor): where |d_a| = 1 along the
    dominant axis the only upstream cell is the source, whose stored column is the
    axis-parallel half cell; a diagonal ray crosses sqrt(2) or sqrt(3) more (code 1, 2: the
    in-plane axes with |d| = 1). */
IONF_HD IONF_INLINE int asora_stencil_corner(int di, int dj, int dk) {
  const int ad0 = abs(di), ad1 = abs(dj), ad2 = abs(dk);
  const int a = (ad2 >= ad0 && ad2 >= ad1) ? 2 : (ad1 >= ad0 ? 1 : 0);
  const int len_a = a == 2 ? ad2 : (a == 1 ? ad1 : ad0);
  const int ap = a == 0 ? ad1 : ad0, aq = a == 2 ? ad1 : ad2;
  return len_a == 1 ? (ap == 1) + (aq == 1) : 0;
}

/**
 * Build the stencil of the cell at offset d = (di, dj, dk) != 0 from the source, with its
 * geometry `geo` (asora_stencil_geometry of |d|, e.g. from a table) or, when NULL,
 * computed.  The ray crosses the upstream face of the cell at in-plane distances
 * (dp, dq) from the shared corner; the four cells around that point in the layer one step
 * back along a get bilinear weights (C2-Ray's cinterp, as in its code).  (The axes are
 * picked by selects, not by indexing a local array with a run-time index: a GPU would keep
 * such an array in local memory.)
 */
IONF_HD IONF_INLINE void asora_stencil_make(int di, int dj, int dk, const double *geo,
                                            struct asora_stencil *st) {
  const int ad0 = abs(di), ad1 = abs(dj), ad2 = abs(dk);
  double g_own[ASORA_GEOMETRY_VALUES];
  const double *g = geo;
  if (!g) {
    asora_stencil_geometry(ad0, ad1, ad2, g_own);
    g = g_own;
  }
  /* a = 2: (p, q) = (0, 1); a = 1: (0, 2); a = 0: (1, 2) */
  const int a = (ad2 >= ad0 && ad2 >= ad1) ? 2 : (ad1 >= ad0 ? 1 : 0);
  const int d_a = a == 2 ? dk : (a == 1 ? dj : di);
  const int d_p = a == 0 ? dj : di;
  const int d_q = a == 2 ? dj : dk;
  const int sa = d_a >= 0 ? 1 : -1, sp = d_p >= 0 ? 1 : -1, sq = d_q >= 0 ? 1 : -1;
  asora_stencil_weights(g, asora_stencil_corner(di, dj, dk), st);
  st->axis = a;
  st->sa = sa;
  st->sp = sp;
  st->sq = sq;
  /* entry m steps back along a, and along p unless m is odd, along q unless m >= 2 */
  for (int m = 0; m < 4; ++m) {
    const int o_a = d_a - sa;
    const int o_p = d_p - ((m & 1) ? 0 : sp);
    const int o_q = d_q - ((m & 2) ? 0 : sq);
    st->off[m][0] = a == 0 ? o_a : o_p;
    st->off[m][1] = a == 1 ? o_a : (a == 0 ? o_p : o_q);
    st->off[m][2] = a == 2 ? o_a : o_q;
  }
}

/**
 * The interpolation's blend of the neighbours (C2-Ray, Mellema et al. 2006 App. A): weights
 * s_m / max(tau_0, tau_m), normalised, so optically thick neighbours count less, with tau_m
 * the neighbour's optical depth.  On the GPU, where an fp64 division is tens of
 * instructions, asora_column_in and asora_columns_in take them as u_m = s_m prod_{k != m}
 * max(tau_0, tau_k) and the common factor corner_factor / sum_m u_m: one division instead of
 * five (max(tau_0, .) >= 0.6, so the products neither vanish nor overflow for columns below
 * 1e70 cm^-2); measured 4-7% of the whole kernel on an H200.  An unused entry (s_m = 0, its
 * column 0) has u_m = 0 and counts tau_0 in the others' products, a factor common to every
 * u_m that the normalisation takes out again, to rounding (no select per entry: 4-13% of
 * the kernel at R = 10-30 on an H200, benchmarks/RESULTS.md).  On the CPU the weights
 * themselves, one division each (the product form measured 7-10% slower there).  The two
 * agree to rounding (~1e-16).
 */
IONF_HD IONF_INLINE double asora_blend(const struct asora_stencil *st, const double *tau,
                                       double *u) {
  double t[4];
  for (int m = 0; m < 4; ++m)
    t[m] = tau[m] > ASORA_TAU_WEIGHT_FLOOR ? tau[m] : ASORA_TAU_WEIGHT_FLOOR;
  const double t01 = t[0] * t[1], t23 = t[2] * t[3];
  u[0] = st->s[0] * (t[1] * t23);
  u[1] = st->s[1] * (t[0] * t23);
  u[2] = st->s[2] * (t[3] * t01);
  u[3] = st->s[3] * (t[2] * t01);
  return st->corner_factor / ((u[0] + u[1]) + (u[2] + u[3]));
}

/**
 * Incoming column density [cm^-2] from the neighbours' outgoing columns
 * col[m] (entries with weight 0 count nothing; their col must be finite): the blend of
 * asora_blend with tau_m = sigma0 N_m.
 */
IONF_HD IONF_INLINE double asora_column_in(const struct asora_stencil *st, const double *col,
                                           double sigma0_cm2) {
#ifdef __CUDA_ARCH__ /* asora_blend */
  double tau[4], u[4];
  for (int m = 0; m < 4; ++m) tau[m] = sigma0_cm2 * col[m];
  const double scale = asora_blend(st, tau, u);
  return scale * ((u[0] * col[0] + u[1] * col[1]) + (u[2] * col[2] + u[3] * col[3]));
#else
  double sum_w = 0.0, sum_wn = 0.0;
  for (int m = 0; m < 4; ++m) {
    if (!(st->s[m] > 0.0)) continue;
    double tau = sigma0_cm2 * col[m];
    double w = st->s[m] / (tau > ASORA_TAU_WEIGHT_FLOOR ? tau : ASORA_TAU_WEIGHT_FLOOR);
    sum_w += w;
    sum_wn += w * col[m];
  }
  return st->corner_factor * sum_wn / sum_w;
#endif
}

/**
 * Incoming columns of the NS absorbers (hydrogen and helium) from the neighbours'
 * interleaved outgoing columns (col[NS m + s]): one set of weights for all of them,
 * s_m / max(tau_0, tau_m) with tau_m = sum_s sigma0_s N_s,m the neighbour's optical
 * depth at every absorber's own threshold, so each absorber's column comes from the
 * same blend of paths (asora_blend; one set of weights for all NS absorbers).
 */
IONF_HD IONF_INLINE void asora_columns_in(const struct asora_stencil *st, const int ns,
                                          const double *col, const double *sigma0_cm2,
                                          double *col_in) {
#ifdef __CUDA_ARCH__ /* asora_blend */
  double tau[4], u[4];
  for (int m = 0; m < 4; ++m) {
    tau[m] = 0.0;
    for (int s = 0; s < ns; ++s) tau[m] += sigma0_cm2[s] * col[ns * m + s];
  }
  const double scale = asora_blend(st, tau, u);
  for (int s = 0; s < ns; ++s)
    col_in[s] = scale * ((u[0] * col[s] + u[1] * col[ns + s]) +
                         (u[2] * col[2 * ns + s] + u[3] * col[3 * ns + s]));
#else
  double sum_w = 0.0, sum_wn[IONF_MAX_SPECIES];
  for (int s = 0; s < ns; ++s) sum_wn[s] = 0.0;
  for (int m = 0; m < 4; ++m) {
    if (!(st->s[m] > 0.0)) continue;
    double tau = 0.0;
    for (int s = 0; s < ns; ++s) tau += sigma0_cm2[s] * col[ns * m + s];
    double w = st->s[m] / (tau > ASORA_TAU_WEIGHT_FLOOR ? tau : ASORA_TAU_WEIGHT_FLOOR);
    sum_w += w;
    for (int s = 0; s < ns; ++s) sum_wn[s] += w * col[ns * m + s];
  }
  const double scale = st->corner_factor / sum_w;
  for (int s = 0; s < ns; ++s) col_in[s] = scale * sum_wn[s];
#endif
}

/** Shell volume 4 pi r^2 ds [cm^3] of a cell at offset d (not the source cell). */
IONF_HD IONF_INLINE double asora_shell_volume_cm3(int di, int dj, int dk, double ds_cells,
                                                  double cell_cm) {
  double r2 = (double)di * di + (double)dj * dj + (double)dk * dk;
  return 4.0 * 3.14159265358979323846 * r2 * ds_cells * cell_cm * cell_cm * cell_cm;
}

/**
 * The part of a source's octahedron that is traced: offsets lo..hi per axis
 * (the box, or the periodic window that keeps images apart, clipped to the
 * photon radius) and the largest shell needed.
 */
struct asora_domain {
  int lo[3], hi[3];     /*!< offset range per axis, inclusive */
  int q_max;            /*!< last shell */
  double r2_max_cells;  /*!< squared photon radius [cells^2]; rates only inside */
};

/**
 * The offsets a source at global cell src may reach in the cells `box` holds of an
 * n^3 grid.  A periodic axis the box spans whole: [-n/2, n/2 - 1 + n%2] (C2-Ray), so
 * no two offsets map to the same cell.  Otherwise the box's cells (a non-periodic
 * axis also stops at the grid's faces; a periodic one, a slab's box, also keeps to that
 * window).  r_max_cells <= 0 means no radius.
 */
IONF_HD IONF_INLINE void asora_domain_make(const int *src, long long n, int periodic,
                                           const struct grid_box *box, double r_max_cells,
                                           struct asora_domain *dom) {
  int r_int = r_max_cells > 0.0 ? (int)ceil(r_max_cells) : 0;
  int l1 = 0;
  for (int a = 0; a < 3; ++a) {
    int lo, hi;
    if (periodic && box->extent[a] >= n) {
      lo = -(int)(n / 2);
      hi = (int)(n / 2) - 1 + (int)(n % 2);
    } else {
      lo = (int)(box->lo[a] - src[a]);
      hi = (int)(box->lo[a] + box->extent[a] - 1 - src[a]);
      if (!periodic && lo < -src[a]) lo = -src[a];
      if (!periodic && hi > (int)n - 1 - src[a]) hi = (int)n - 1 - src[a];
      /* a slab's box on a periodic grid: the same window, so no image is traced twice */
      if (periodic && lo < -(int)(n / 2)) lo = -(int)(n / 2);
      if (periodic && hi > (int)(n / 2) - 1 + (int)(n % 2)) hi = (int)(n / 2) - 1 + (int)(n % 2);
    }
    if (r_int > 0) {
      if (lo < -r_int) lo = -r_int;
      if (hi > r_int) hi = r_int;
    }
    dom->lo[a] = lo;
    dom->hi[a] = hi;
    l1 += (-lo > hi ? -lo : hi);
  }
  dom->q_max = l1;
  if (r_max_cells > 0.0) {
    int q_r = asora_shell_radius_for(r_max_cells);
    if (q_r < dom->q_max) dom->q_max = q_r;
    dom->r2_max_cells = r_max_cells * r_max_cells;
  } else {
    dom->r2_max_cells = 1e300;
  }
}

/** Cells of the domain's bounding box (size of a dense per-source column buffer: the
    box layout of struct asora_columns). */
IONF_HD IONF_INLINE long long asora_domain_box_cells(const struct asora_domain *dom) {
  return (long long)(dom->hi[0] - dom->lo[0] + 1) * (dom->hi[1] - dom->lo[1] + 1) *
         (dom->hi[2] - dom->lo[2] + 1);
}

/** Index of offset (di, dj, dk) in the domain's bounding box. */
IONF_HD IONF_INLINE long long asora_domain_box_index(const struct asora_domain *dom, int di,
                                                     int dj, int dk) {
  return ((long long)(di - dom->lo[0]) * (dom->hi[1] - dom->lo[1] + 1) + (dj - dom->lo[1])) *
             (dom->hi[2] - dom->lo[2] + 1) +
         (dk - dom->lo[2]);
}

/** Coordinate c (relative to the box's first cell) moved into [0, n) on a periodic grid
    (32-bit: a coordinate of a grid of up to 2^30 cells a side). */
IONF_HD IONF_INLINE int asora_wrap(int c, int n, int periodic) {
  if (!periodic || (c >= 0 && c < n)) return c;
  /* a traced offset is within half a box of the source: one n away at most (a remainder
     costs a GPU tens of instructions; the result is the same) */
  if (c < 0 && c >= -n) return c + n;
  if (c >= n && c < 2 * n) return c - n;
  int m = c % n;
  return m < 0 ? m + n : m;
}

/* ---- cube shells: the GPU's order -------------------------------------------- */

/**
 * Cube shell h: the cells with max(|di|, |dj|, |dk|) = h inside a domain.  A
 * cell's non-zero-weight upstream neighbours all lie in cube shell h - 1 (the
 * dominant coordinate steps back by one; a tied coordinate has weight only on
 * the neighbours that step it back too), so shells can be processed in order
 * with all cells of one shell independent.  The shell is cut into six
 * rectangles (faces x = +-h, then y = +-h, then z = +-h, edges counted once);
 * on the x and y faces consecutive indices are consecutive dk, i.e.
 * consecutive memory, which keeps GPU loads and atomics coalesced.
 */
struct asora_cube_shell {
  int h;
  long long start[7];     /*!< first index of each face; start[6] = cells in the shell */
  int axis[6], value[6];  /*!< the face's fixed axis (f / 2) and its offset (+-h); its
                               in-plane axes (u, v) are (y, z), (x, z), (x, y) */
  int u_lo[6], v_lo[6], v_len[6];
  int row_start[7];       /*!< the faces' rows (one per u, v running along): first row of
                               each face; row_start[6] = rows in the shell */
};

IONF_HD IONF_INLINE void asora_cube_shell_make(const struct asora_domain *dom, int h,
                                               struct asora_cube_shell *cs) {
  cs->h = h;
  long long total = 0;
  int rows = 0;
  for (int f = 0; f < 6; ++f) {
    int axis = f / 2, value = (f % 2 == 0) ? h : -h;
    int ua = axis == 0 ? 1 : 0, va = axis == 2 ? 1 : 2;
    /* faces of later axes exclude the edges earlier faces already hold */
    int u_ext = axis >= 1 ? h - 1 : h, v_ext = axis >= 2 ? h - 1 : h;
    int u_lo = dom->lo[ua] > -u_ext ? dom->lo[ua] : -u_ext;
    int u_hi = dom->hi[ua] < u_ext ? dom->hi[ua] : u_ext;
    int v_lo = dom->lo[va] > -v_ext ? dom->lo[va] : -v_ext;
    int v_hi = dom->hi[va] < v_ext ? dom->hi[va] : v_ext;
    long long count = 0;
    int present = value >= dom->lo[axis] && value <= dom->hi[axis] && !(h == 0 && f % 2 == 1);
    if (h == 0 && axis > 0) present = 0; /* the source cell is face 0 only */
    if (present && u_hi >= u_lo && v_hi >= v_lo)
      count = (long long)(u_hi - u_lo + 1) * (v_hi - v_lo + 1);
    cs->start[f] = total;
    cs->axis[f] = axis;
    cs->value[f] = value;
    cs->u_lo[f] = u_lo;
    cs->v_lo[f] = v_lo;
    cs->v_len[f] = v_hi >= v_lo ? v_hi - v_lo + 1 : 1;
    cs->row_start[f] = rows;
    rows += count > 0 ? u_hi - u_lo + 1 : 0;
    total += count;
  }
  cs->start[6] = total;
  cs->row_start[6] = rows;
}

/** The offset of the cell at in-plane (u, v) of face f of cube shell cs: face f's fixed
    axis is f / 2 (x, x, y, y, z, z), its (u, v) axes (y, z), (x, z), (x, y). */
IONF_HD IONF_INLINE void asora_cube_shell_face_cell(const struct asora_cube_shell *cs, int f, int u,
                                                    int v, int *di, int *dj, int *dk) {
  const int axis = f >> 1, value = cs->value[f];
  *di = axis == 0 ? value : u;
  *dj = axis == 1 ? value : (axis == 0 ? u : v);
  *dk = axis == 2 ? value : v;
}

/** Offset of the t-th cell (0 <= t < start[6]) of a cube shell. */
IONF_HD IONF_INLINE void asora_cube_shell_cell(const struct asora_cube_shell *cs, long long t,
                                               int *di, int *dj, int *dk) {
  int f = 0;
  while (f < 5 && t >= cs->start[f + 1]) ++f;
  long long local = t - cs->start[f];
  asora_cube_shell_face_cell(cs, f, cs->u_lo[f] + (int)(local / cs->v_len[f]),
                             cs->v_lo[f] + (int)(local % cs->v_len[f]), di, dj, dk);
}

/**
 * A cube shell's cells inside the photon sphere, row by row (the GPU gives its lanes
 * only these: beyond h = R / sqrt(3) the cube shell's corners lie outside the sphere,
 * and at R = 30 half of the cube's cells do).  Row r (0 <= r < cs->row_start[6]) is
 * face f's row at u = u_lo[f] + r - row_start[f]; its cells with
 * h^2 + u^2 + v^2 <= r2_max_cells (exact: integers in doubles) are v = *v_first ..
 * *v_first + count - 1, the count returned (0: none).  Together the rows hold exactly
 * the cells of asora_cube_shell_cell that asora_cell_step traces (tests/test_asora_shells.c).
 */
IONF_HD IONF_INLINE int asora_cube_shell_row(const struct asora_cube_shell *cs, int r,
                                             double r2_max_cells, int *face, int *u,
                                             int *v_first) {
  int f = 0;
  while (f < 5 && r >= cs->row_start[f + 1]) ++f;
  *face = f;
  *u = cs->u_lo[f] + (r - cs->row_start[f]);
  int v_lo = cs->v_lo[f], v_hi = v_lo + cs->v_len[f] - 1;
  *v_first = v_lo;
  double w2 = r2_max_cells - (double)cs->h * cs->h - (double)*u * *u; /* v^2 <= w2 */
  if (!(w2 >= 0.0)) return 0;
  if (w2 < (double)v_lo * v_lo || w2 < (double)v_hi * v_hi) { /* the sphere cuts the row */
    int w = (int)sqrt(w2); /* w2 < v^2 < 2^31 here; then the exact integer root */
    while ((double)(w + 1) * (w + 1) <= w2) ++w;
    while (w > 0 && (double)w * w > w2) --w;
    if (v_lo < -w) v_lo = -w;
    if (v_hi > w) v_hi = w;
  }
  *v_first = v_lo;
  return v_hi >= v_lo ? v_hi - v_lo + 1 : 0;
}

/** The offset of cell v of face f's row at u (asora_cube_shell_row). */
IONF_HD IONF_INLINE void asora_cube_shell_row_cell(const struct asora_cube_shell *cs, int f, int u,
                                                   int v, int *di, int *dj, int *dk) {
  asora_cube_shell_face_cell(cs, f, u, v, di, dj, dk);
}

/**
 * Where the GPU keeps one cube shell's columns (struct asora_columns' shell layout): face by
 * face, a face per axis a and side (d_a = +h, -h), each a rectangle over the face's in-plane
 * axes (p, q) = (y, z), (x, z), (x, y) clipped to the domain, q running fastest; a cell on
 * an edge or corner of the shell is kept in every face that holds it.  Then every upstream
 * neighbour of a cell of shell h + 1 with dominant axis a lies in face (a, sign d_a) of shell
 * h (it has |o_a| = h and |o_p|, |o_q| <= h), and the four of them are one index less a
 * stride per step back along p and q, as in the box.  A warp's reads and writes are
 * consecutive on every face.
 */
struct asora_shell_faces {
  int plo[3], qlo[3], qlen[3]; /*!< per face axis a: the first p and q, and q's length */
  long long base[3][2];        /*!< the first index of face (a, +h) and (a, -h) (shell 0: both
                                    the source cell's) */
  long long cells;             /*!< the shell's indices in all */
};

IONF_HD IONF_INLINE void asora_shell_faces_make(const struct asora_domain *dom, int h,
                                                struct asora_shell_faces *sf) {
  long long total = 0;
  for (int a = 0; a < 3; ++a) {
    const int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
    const int plo = dom->lo[p] > -h ? dom->lo[p] : -h, phi = dom->hi[p] < h ? dom->hi[p] : h;
    const int qlo = dom->lo[q] > -h ? dom->lo[q] : -h, qhi = dom->hi[q] < h ? dom->hi[q] : h;
    const long long plen = phi >= plo ? phi - plo + 1 : 0, qlen = qhi >= qlo ? qhi - qlo + 1 : 0;
    sf->plo[a] = plo;
    sf->qlo[a] = qlo;
    sf->qlen[a] = (int)qlen;
    for (int side = 0; side < 2; ++side) {
      const int value = side ? -h : h;
      if (h == 0 && side == 1) { /* the source cell: one face per axis */
        sf->base[a][1] = sf->base[a][0];
        continue;
      }
      const int present = value >= dom->lo[a] && value <= dom->hi[a] && plen > 0 && qlen > 0;
      sf->base[a][side] = present ? total : -1;
      total += present ? plen * qlen : 0;
    }
  }
  sf->cells = total;
}

/** The index in shell faces sf of the cell at in-plane (o_p, o_q) of face (a, side), side
    1 for d_a < 0. */
IONF_HD IONF_INLINE long long asora_shell_faces_index(const struct asora_shell_faces *sf, int a,
                                                      int side, int o_p, int o_q) {
  return sf->base[a][side] + (long long)(o_p - sf->plo[a]) * sf->qlen[a] + (o_q - sf->qlo[a]);
}

/** The GPU keeps the lanes of whole domains as a table up to this photon radius [cells]
    (gpu/rt/asora/asora_lanes.cu, asora_lanes_build: 4 bytes a cell of the sphere, 17 MB at 100). */
#define ASORA_LANE_TABLE_R_MAX 100.0
/** ... and each lane's place (struct asora_cell_place, 64 bytes a cell of the sphere: 36 MB
    at 50) up to this radius [cells]. */
#define ASORA_LANE_PLACES_R_MAX 50.0

/** At least the cells of a sphere of radius r <= h cells ((4/3) pi (r + sqrt(3)/2)^3: each
    cell's unit cube lies inside radius r + sqrt(3)/2), for sizing the lane table. */
IONF_HD IONF_INLINE double asora_sphere_cells_max(int h) {
  return 4.2 * (h + 1.0) * (h + 1.0) * (h + 1.0) + 64.0;
}

/** The last cube shell of a domain. */
IONF_HD IONF_INLINE int asora_domain_h_max(const struct asora_domain *dom) {
  int h = 0;
  for (int a = 0; a < 3; ++a) {
    if (-dom->lo[a] > h) h = -dom->lo[a];
    if (dom->hi[a] > h) h = dom->hi[a];
  }
  return h;
}

/* ---- the columns' buffers ------------------------------------------------------ */

/** Whether the GPU's columns of a pass with photon radius r_max_cells (<= 0: none) take
    the shell layout of struct asora_columns: at every radius.  (Below R = 20 cells the box
    was kept while a neighbour's shell index meant a search of the faces; with the faces of
    struct asora_shell_faces the shells measured faster at R = 10-13 too, on an H200:
    benchmarks/RESULTS.md.)  The CPU sweeps the box. */
IONF_HD IONF_INLINE int asora_columns_in_shells(double r_max_cells) {
  (void)r_max_cells;
  return 1;
}

/** At least the cells of any cube shell of the domain in its faces (a shell buffer of
    asora_columns, struct asora_shell_faces): shell h's faces are rectangles of at most
    min(extent, 2h + 1) cells a side, which grows with h, so the bound of the last shell
    holds for all. */
IONF_HD IONF_INLINE long long asora_domain_shell_cells(const struct asora_domain *dom) {
  long long side = 2LL * asora_domain_h_max(dom) + 1, face[3];
  for (int a = 0; a < 3; ++a) {
    long long ext = dom->hi[a] - dom->lo[a] + 1;
    face[a] = ext < side ? ext : side;
  }
  long long cells = 2 * (face[1] * face[2] + face[0] * face[2] + face[0] * face[1]);
  return cells > 1 ? cells : 1;
}

#endif /* IONF_ASORA_K_H */
