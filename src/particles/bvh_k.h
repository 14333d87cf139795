/**
 * @file bvh_k.h
 * @brief Shared per-element maths of the particle BVH: Morton keys, the merge
 *        order of the agglomerative build, boxes rounded outward to float,
 *        and the node layout.  The CPU reference (src/bvh.c) and the CUDA
 *        build (gpu/bvh_build.cu) call these, so both build the same tree.
 *
 * The tree (Apetrei 2014, "Fast and simple agglomerative LBVH construction",
 * with grace's wide leaves):
 *  - particles sorted by a 63-bit Morton key of their centre (21 bits per axis
 *    in the scene box; ties kept in input order);
 *  - gap k sits between sorted particles k and k+1; its merge distance is the
 *    squared Euclidean distance of the two centres, delta(k) = |r_k - r_k+1|^2
 *    (grace's default metric; the XOR of the keys is the plain LBVH one);
 *  - a cluster covering items [i, j] merges across whichever of its two
 *    bounding gaps, i-1 or j, comes first in the merge order; internal node k
 *    is the merge across gap k.  The ends of the sorted range are gaps of
 *    infinite distance, so the cluster [0, n-1] is the root;
 *  - merge order: smaller delta first; equal delta (duplicate positions,
 *    lattices) by the number of trailing one bits of the gap index, then by
 *    the index.  That tie-break makes a run of equal distances a balanced
 *    subtree instead of a chain of depth n (it is Karras's "append the index
 *    to equal keys" idea, applied to distances); any strict total order gives
 *    a valid tree, and this one depends on the sorted data only, so every
 *    thread schedule on every device gives the same tree;
 *  - leaves are the largest subtrees holding at most max_leaf particles
 *    (<= 32 by default); the tree above them is the same merge order applied
 *    to the gaps between leaves.
 *
 * Everything here compiles as C17 and as CUDA C++ (see ionf_hd.h).  Distances
 * use explicit fma() so that host and device round identically (nvcc would
 * otherwise contract a*b + c on the device only).
 */
#ifndef IONF_BVH_K_H
#define IONF_BVH_K_H

#include <math.h>
#include <stdint.h>

#include "core/ionf_hd.h"

#define BVH_MORTON_BITS_PER_AXIS 21
#define BVH_MORTON_CELLS 2097152.0 /* 2^21 cells per axis */
#define BVH_KEY_BITS 63            /* bits the keys use: sort bits [0, 63) */
#define BVH_MAX_LEAF_DEFAULT 32
#define BVH_MAX_LEAF_LIMIT 1024

#if defined(__cplusplus)
#define BVH_ALIGN16 alignas(16)
#else
#define BVH_ALIGN16 _Alignas(16)
#endif

/**
 * An inner node: both children's boxes, so that one 64-byte fetch (four
 * 16-byte loads) answers both slab tests (Aila & Laine's layout).  Boxes are
 * float, rounded outward from the double-precision spheres, so they are
 * conservative.  child >= 0 is an inner node, child < 0 the leaf -1 - child.
 */
struct bvh_node {
  BVH_ALIGN16 float left_xy[4]; /*!< left child's box: x_lo, x_hi, y_lo, y_hi */
  float right_xy[4];            /*!< right child's box: x_lo, x_hi, y_lo, y_hi */
  float z[4];                   /*!< left z_lo, z_hi, right z_lo, z_hi */
  int32_t child[2];             /*!< left, right: node index, or -1 - leaf index */
  int32_t parent;               /*!< parent node; -1 at the root */
  int32_t count;                /*!< particles below this node */
};

/** A leaf: `count` consecutive particles of the sorted order from `first`. */
struct bvh_leaf {
  int32_t first;
  int32_t count;
};

/** An axis-aligned box in float. */
struct bvh_box {
  float lo[3];
  float hi[3];
};

/* ---- child references ------------------------------------------------------------- */

IONF_HD IONF_INLINE int32_t bvh_leaf_ref(int32_t leaf) { return -1 - leaf; }
IONF_HD IONF_INLINE int bvh_ref_is_leaf(int32_t ref) { return ref < 0; }
IONF_HD IONF_INLINE int32_t bvh_ref_leaf(int32_t ref) { return -1 - ref; }

/* ---- Morton keys ------------------------------------------------------------------- */

/** Cells per unit length along an axis of extent `extent` (0 for a flat axis). */
IONF_HD IONF_INLINE double bvh_morton_scale(double extent) {
  return extent > 0.0 ? BVH_MORTON_CELLS / extent : 0.0;
}

/** The 21-bit cell of coordinate x along an axis starting at lo; clamped to the box. */
IONF_HD IONF_INLINE uint32_t bvh_morton_cell(double x, double lo, double scale) {
  double v = (x - lo) * scale;
  if (!(v > 0.0)) return 0u; /* below the box (and NaN) */
  if (v >= BVH_MORTON_CELLS) return (1u << BVH_MORTON_BITS_PER_AXIS) - 1u;
  return (uint32_t)v; /* truncation is floor for v > 0 */
}

/** The 21 low bits of v spread to every third bit (bit b goes to bit 3b). */
IONF_HD IONF_INLINE uint64_t bvh_morton_spread(uint32_t v) {
  uint64_t x = (uint64_t)(v & 0x1fffffu);
  x = (x | (x << 32)) & 0x001f00000000ffffull;
  x = (x | (x << 16)) & 0x001f0000ff0000ffull;
  x = (x | (x << 8)) & 0x100f00f00f00f00full;
  x = (x | (x << 4)) & 0x10c30c30c30c30c3ull;
  x = (x | (x << 2)) & 0x1249249249249249ull;
  return x;
}

/** 63-bit key from three cells: bits x20 y20 z20 x19 y19 z19 ... x0 y0 z0. */
IONF_HD IONF_INLINE uint64_t bvh_morton_interleave(uint32_t cx, uint32_t cy, uint32_t cz) {
  return (bvh_morton_spread(cx) << 2) | (bvh_morton_spread(cy) << 1) | bvh_morton_spread(cz);
}

/** Key of position p in the scene box starting at lo, with per-axis scales. */
IONF_HD IONF_INLINE uint64_t bvh_morton_key(const double *p, const double *lo,
                                            const double *scale) {
  return bvh_morton_interleave(bvh_morton_cell(p[0], lo[0], scale[0]),
                               bvh_morton_cell(p[1], lo[1], scale[1]),
                               bvh_morton_cell(p[2], lo[2], scale[2]));
}

/* ---- merge distances and order ------------------------------------------------------- */

/** Squared distance of two centres, rounded the same on host and device. */
IONF_HD IONF_INLINE double bvh_dist2(const double *a, const double *b) {
  double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return fma(dx, dx, fma(dy, dy, dz * dz));
}

/** Trailing one bits of g >= 0 (0, 1, 0, 2, 0, 1, 0, 3, ...: the balanced tie-break). */
IONF_HD IONF_INLINE int bvh_trailing_ones(int64_t g) {
  uint64_t v = ~(uint64_t)g;
#if IONF_ON_DEVICE
  return __ffsll((long long)v) - 1;
#elif defined(__GNUC__)
  return __builtin_ctzll(v);
#else
  int t = 0;
  while (v & 1u) {
    v >>= 1;
    ++t;
  }
  return t;
#endif
}

/** 1 when gap a (distance da, gap index ga) merges before gap b. */
IONF_HD IONF_INLINE int bvh_gap_before(double da, int64_t ga, double db, int64_t gb) {
  if (da != db) return da < db;
  int ta = bvh_trailing_ones(ga), tb = bvh_trailing_ones(gb);
  if (ta != tb) return ta < tb;
  return ga < gb;
}

/**
 * The parent of the cluster covering items [i, j] of n (not the root): the
 * internal node of its bounding gap that merges first.  d_left, g_left are
 * gap i-1's distance and global gap index (unused when i == 0), d_right,
 * g_right gap j's (unused when j == n-1).  *as_right is 1 when the cluster
 * is the parent's right child (parent i - 1), 0 when its left (parent j).
 */
IONF_HD IONF_INLINE int64_t bvh_parent(int64_t i, int64_t j, int64_t n, double d_left,
                                       int64_t g_left, double d_right, int64_t g_right,
                                       int *as_right) {
  int right;
  if (i == 0)
    right = 0;
  else if (j == n - 1)
    right = 1;
  else
    right = bvh_gap_before(d_left, g_left, d_right, g_right);
  *as_right = right;
  return right ? i - 1 : j;
}

/**
 * What a cluster hands its parent in the climb: its far end (left end for a
 * left child, right end for a right child).  The second child to arrive
 * learns the other's end and so the parent's range.
 */
IONF_HD IONF_INLINE int64_t bvh_handoff(int64_t i, int64_t j, int as_right) {
  return as_right ? j : i;
}

/** The parent's range from my range, my side and the sibling's handoff. */
IONF_HD IONF_INLINE void bvh_merged_range(int64_t i, int64_t j, int as_right, int64_t other,
                                          int64_t *lo, int64_t *hi) {
  *lo = as_right ? other : i;
  *hi = as_right ? j : other;
}

/**
 * Leaves among the children of internal node p covering particles [a, b]:
 * a child holding at most max_leaf particles whose parent holds more is a
 * leaf.  Sets *left_start / *right_start to the first particle of a child
 * that is a leaf, -1 otherwise.
 */
IONF_HD IONF_INLINE void bvh_leaf_children(int64_t a, int64_t p, int64_t b, int max_leaf,
                                           int64_t *left_start, int64_t *right_start) {
  *left_start = -1;
  *right_start = -1;
  if (b - a + 1 <= max_leaf) return;
  if (p - a + 1 <= max_leaf) *left_start = a;
  if (b - p <= max_leaf) *right_start = p + 1;
}

/**
 * The particle-level climb after the hand-off at node p came back with the sibling's
 * `other` (the second to arrive carries on): [*i, *j] moves up to the parent's range,
 * and *left_start / *right_start are the first particles of its children that are
 * leaves (-1: not a leaf; bvh_leaf_children).  CPU and GPU climbs alike (their
 * hand-offs differ: C11 atomics, atomicExch).
 */
IONF_HD IONF_INLINE void bvh_climb_particles_merge(int64_t p, int as_right, int64_t other,
                                                   int max_leaf, int64_t *i, int64_t *j,
                                                   int64_t *left_start, int64_t *right_start) {
  int64_t a, b;
  bvh_merged_range(*i, *j, as_right, other, &a, &b);
  bvh_leaf_children(a, p, b, max_leaf, left_start, right_start);
  *i = a;
  *j = b;
}

/* ---- boxes -------------------------------------------------------------------------- */

/** The largest float below x (strictly: absorbs the double rounding of x too). */
IONF_HD IONF_INLINE float bvh_float_below(double x) {
  float f = (float)x;
  if ((double)f >= x) f = nextafterf(f, -INFINITY);
  return f;
}

/** The smallest float above x (strictly). */
IONF_HD IONF_INLINE float bvh_float_above(double x) {
  float f = (float)x;
  if ((double)f <= x) f = nextafterf(f, INFINITY);
  return f;
}

IONF_HD IONF_INLINE void bvh_box_empty(struct bvh_box *b) {
  for (int a = 0; a < 3; ++a) {
    b->lo[a] = INFINITY;
    b->hi[a] = -INFINITY;
  }
}

/** b := b u (the sphere of radius r about p), rounded outward to float. */
IONF_HD IONF_INLINE void bvh_box_add_sphere(struct bvh_box *b, const double *p, double r) {
  for (int a = 0; a < 3; ++a) {
    float lo = bvh_float_below(p[a] - r), hi = bvh_float_above(p[a] + r);
    b->lo[a] = lo < b->lo[a] ? lo : b->lo[a];
    b->hi[a] = hi > b->hi[a] ? hi : b->hi[a];
  }
}

/** b := b u c (exact in float). */
IONF_HD IONF_INLINE void bvh_box_add_box(struct bvh_box *b, const struct bvh_box *c) {
  for (int a = 0; a < 3; ++a) {
    b->lo[a] = c->lo[a] < b->lo[a] ? c->lo[a] : b->lo[a];
    b->hi[a] = c->hi[a] > b->hi[a] ? c->hi[a] : b->hi[a];
  }
}

/** 1 when outer contains inner (closed boxes). */
IONF_HD IONF_INLINE int bvh_box_contains(const struct bvh_box *outer,
                                         const struct bvh_box *inner) {
  for (int a = 0; a < 3; ++a)
    if (!(outer->lo[a] <= inner->lo[a] && inner->hi[a] <= outer->hi[a])) return 0;
  return 1;
}

/** 1 when the sphere of radius r about p lies in the box (compared in double). */
IONF_HD IONF_INLINE int bvh_box_contains_sphere(const struct bvh_box *b, const double *p,
                                                double r) {
  for (int a = 0; a < 3; ++a)
    if (!((double)b->lo[a] <= p[a] - r && p[a] + r <= (double)b->hi[a])) return 0;
  return 1;
}

/** Squared distance from point c to box b (0 inside), in double. */
IONF_HD IONF_INLINE double bvh_box_dist2(const struct bvh_box *b, const double *c) {
  double d2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    double lo = (double)b->lo[a], hi = (double)b->hi[a];
    double d = c[a] < lo ? lo - c[a] : (c[a] > hi ? c[a] - hi : 0.0);
    d2 = fma(d, d, d2);
  }
  return d2;
}

/** Store box b as child `side` (0 left, 1 right) of a node. */
IONF_HD IONF_INLINE void bvh_node_set_box(struct bvh_node *n, int side,
                                          const struct bvh_box *b) {
  float *xy = side ? n->right_xy : n->left_xy;
  xy[0] = b->lo[0];
  xy[1] = b->hi[0];
  xy[2] = b->lo[1];
  xy[3] = b->hi[1];
  n->z[2 * side] = b->lo[2];
  n->z[2 * side + 1] = b->hi[2];
}

/** Child `side`'s box of a node. */
IONF_HD IONF_INLINE void bvh_node_box(const struct bvh_node *n, int side, struct bvh_box *b) {
  const float *xy = side ? n->right_xy : n->left_xy;
  b->lo[0] = xy[0];
  b->hi[0] = xy[1];
  b->lo[1] = xy[2];
  b->hi[1] = xy[3];
  b->lo[2] = n->z[2 * side];
  b->hi[2] = n->z[2 * side + 1];
}

/* ---- the box-fitting climb (bvh.c's climb_leaves, bvh_build.cu's climb_leaves_kernel) ---- */

/** The box of a leaf: particles [first, first + count) of `sorted` (x, y, z, h). */
IONF_HD IONF_INLINE void bvh_leaf_box(const double *sorted, int32_t first, int32_t count,
                                      struct bvh_box *box) {
  bvh_box_empty(box);
  for (int32_t k = first; k < first + count; ++k)
    bvh_box_add_sphere(box, sorted + 4 * (int64_t)k, sorted[4 * (int64_t)k + 3]);
}

/**
 * One step up: the cluster [i, j] (node or leaf `ref`, box `box`) finds its
 * parent p, becomes its child on side *as_right and writes its box there.
 * The caller then publishes this (fence / release) before its hand-off.
 */
IONF_HD IONF_INLINE int64_t bvh_climb_attach(struct bvh_node *nodes, const int32_t *leaf_first,
                                             const double *delta, int64_t n_leaves, int64_t i,
                                             int64_t j, int32_t ref, const struct bvh_box *box,
                                             int *as_right) {
  int64_t g_left = leaf_first[i] - 1, g_right = leaf_first[j + 1] - 1;
  int64_t p = bvh_parent(i, j, n_leaves, i > 0 ? delta[g_left] : 0.0, g_left,
                         j < n_leaves - 1 ? delta[g_right] : 0.0, g_right, as_right);
  nodes[p].child[*as_right] = ref;
  bvh_node_set_box(&nodes[p], *as_right, box);
  if (!bvh_ref_is_leaf(ref)) nodes[ref].parent = (int32_t)p;
  return p;
}

/** The second to arrive at a node: its box is the union of the two children's
 *  (left then right, whoever arrived second: the same bits on every schedule). */
IONF_HD IONF_INLINE void bvh_node_union_box(const struct bvh_node *seen, struct bvh_box *box) {
  struct bvh_box right;
  bvh_node_box(seen, 0, box);
  bvh_node_box(seen, 1, &right);
  bvh_box_add_box(box, &right);
}

#endif /* IONF_BVH_K_H */
