/**
 * @file bvh.c
 * @brief The CPU reference build of the particle BVH (OpenMP), its check, and
 *        comparing trees.  The stages mirror gpu/bvh_build.cu one to one:
 *        keys, sort, gather + merge distances, the particle-level climb that
 *        finds the leaves, the leaf-level climb that fits the boxes.
 */
#include "particles/bvh.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ionf_config.h"

_Static_assert(sizeof(struct bvh_node) == 64, "a node is four 16-byte loads");
_Static_assert(sizeof(struct bvh_leaf) == 8, "a leaf is an int2");

/* Below this many items a loop runs on one thread: on a loaded machine the
 * barriers of small parallel loops cost more than the work. */
#define BVH_PARALLEL_MIN 8192

/* ---- scene ------------------------------------------------------------------------- */

void bvh_scene_of_points(const double *pos, int64_t n, struct bvh_scene *scene) {
  double lo0 = INFINITY, lo1 = INFINITY, lo2 = INFINITY;
  double hi0 = -INFINITY, hi1 = -INFINITY, hi2 = -INFINITY;
#pragma omp parallel for schedule(static) reduction(min : lo0, lo1, lo2) \
    reduction(max : hi0, hi1, hi2) if (n >= BVH_PARALLEL_MIN)
  for (int64_t i = 0; i < n; ++i) {
    const double *p = pos + 3 * i;
    lo0 = p[0] < lo0 ? p[0] : lo0;
    lo1 = p[1] < lo1 ? p[1] : lo1;
    lo2 = p[2] < lo2 ? p[2] : lo2;
    hi0 = p[0] > hi0 ? p[0] : hi0;
    hi1 = p[1] > hi1 ? p[1] : hi1;
    hi2 = p[2] > hi2 ? p[2] : hi2;
  }
  if (n <= 0) lo0 = lo1 = lo2 = hi0 = hi1 = hi2 = 0.0;
  scene->lo[0] = lo0;
  scene->lo[1] = lo1;
  scene->lo[2] = lo2;
  scene->hi[0] = hi0;
  scene->hi[1] = hi1;
  scene->hi[2] = hi2;
}

/* ---- build ------------------------------------------------------------------------- */

struct key_slot {
  uint64_t key;
  int32_t index;
  int32_t pad;
};

/* (key, index): equal keys keep their input order, as CUB's stable radix sort does. */
static int key_slot_cmp(const void *a, const void *b) {
  const struct key_slot *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

void bvh_free(struct bvh *t) {
  if (!t) return;
  free(t->nodes);
  free(t->leaves);
  free(t->order);
  free(t->keys);
  memset(t, 0, sizeof *t);
}

/* Particle-level climb: marks the first particle of every leaf in starts[]. */
static void climb_particles(const double *delta, int64_t n, int max_leaf,
                            atomic_int_least32_t *ends, unsigned char *starts) {
#pragma omp parallel for schedule(static) if (n >= BVH_PARALLEL_MIN)
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = s, j = s;
    while (!(i == 0 && j == n - 1)) {
      int as_right;
      double d_left = i > 0 ? delta[i - 1] : 0.0, d_right = j < n - 1 ? delta[j] : 0.0;
      int64_t p = bvh_parent(i, j, n, d_left, i - 1, d_right, j, &as_right);
      int32_t other = atomic_exchange_explicit(
          &ends[p], (int32_t)bvh_handoff(i, j, as_right), memory_order_acq_rel);
      if (other < 0) break; /* first to arrive: the sibling carries on */
      int64_t left_start, right_start;
      bvh_climb_particles_merge(p, as_right, other, max_leaf, &i, &j, &left_start, &right_start);
      if (left_start >= 0) starts[left_start] = 1;
      if (right_start >= 0) starts[right_start] = 1;
    }
  }
}

/* Leaf-level climb: leaf records and boxes, nodes, root. */
static void climb_leaves(const double *sorted, const double *delta, const int32_t *leaf_first,
                         int64_t n_leaves, atomic_int_least32_t *ends, int32_t *heights,
                         struct bvh *t) {
  struct bvh_node *nodes = t->nodes;
#pragma omp parallel for schedule(static) if (n_leaves >= BVH_PARALLEL_MIN)
  for (int64_t w = 0; w < n_leaves; ++w) {
    int32_t first = leaf_first[w], count = leaf_first[w + 1] - leaf_first[w];
    t->leaves[w].first = first;
    t->leaves[w].count = count;
    struct bvh_box box;
    bvh_leaf_box(sorted, first, count, &box);
    int32_t ref = bvh_leaf_ref((int32_t)w), height = 0;
    int64_t i = w, j = w;
    for (;;) {
      if (i == 0 && j == n_leaves - 1) { /* only one thread gets here */
        t->root = ref;
        t->root_box = box;
        t->height = height;
        if (!bvh_ref_is_leaf(ref)) nodes[ref].parent = -1;
        break;
      }
      int as_right;
      int64_t p = bvh_climb_attach(nodes, leaf_first, delta, n_leaves, i, j, ref, &box,
                                   &as_right);
      int32_t other = atomic_exchange_explicit(
          &ends[p], (int32_t)bvh_handoff(i, j, as_right), memory_order_acq_rel);
      if (other < 0) break;
      int64_t a, b;
      bvh_merged_range(i, j, as_right, other, &a, &b);
      bvh_node_union_box(&nodes[p], &box);
      nodes[p].count = leaf_first[b + 1] - leaf_first[a];
      int32_t sibling = nodes[p].child[!as_right];
      int32_t sibling_height = bvh_ref_is_leaf(sibling) ? 0 : heights[sibling];
      height = 1 + (height > sibling_height ? height : sibling_height);
      heights[p] = height; /* published by my next hand-off */
      ref = (int32_t)p;
      i = a;
      j = b;
    }
  }
}

ionf_err bvh_build_cpu(const double *pos, const double *h, int64_t n,
                       const struct bvh_scene *scene, int max_leaf, struct bvh *out,
                       struct bvh_build_times *times) {
  IONF_CHECK(pos && h && out, IONF_ERR_INTERNAL, "bvh_build_cpu: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CHECK(n >= 1 && n <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "BVH build: %lld particles; the tree holds 1 to %lld", (long long)n,
             (long long)BVH_MAX_PARTICLES);
  IONF_CHECK(max_leaf >= 1 && max_leaf <= BVH_MAX_LEAF_LIMIT, IONF_ERR_INPUT,
             "BVH build: maximum leaf size %d; it must be in [1, %d]", max_leaf,
             BVH_MAX_LEAF_LIMIT);
  double t0 = omp_get_wtime(), t_mark = t0;
  struct bvh_build_times tm;
  memset(&tm, 0, sizeof tm);

  out->n_particles = n;
  out->max_leaf = max_leaf;
  if (scene)
    out->scene = *scene;
  else
    bvh_scene_of_points(pos, n, &out->scene);
  double lo[3], scale[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = out->scene.lo[a];
    scale[a] = bvh_morton_scale(out->scene.hi[a] - out->scene.lo[a]);
  }

  ionf_err rc = IONF_OK;
  struct key_slot *slots = ionf_malloc((size_t)n * sizeof *slots, "BVH sort keys");
  double *sorted = ionf_malloc((size_t)n * 4 * sizeof *sorted, "BVH sorted particles");
  double *delta = ionf_malloc((size_t)n * sizeof *delta, "BVH merge distances");
  unsigned char *starts = ionf_calloc((size_t)n, 1, "BVH leaf flags");
  int32_t *leaf_first = ionf_malloc(((size_t)n + 1) * sizeof *leaf_first, "BVH leaf starts");
  int32_t *heights = ionf_malloc((size_t)n * sizeof *heights, "BVH node heights");
  atomic_int_least32_t *ends = ionf_malloc((size_t)n * sizeof *ends, "BVH climb flags");
  out->order = ionf_malloc((size_t)n * sizeof *out->order, "BVH order");
  out->keys = ionf_malloc((size_t)n * sizeof *out->keys, "BVH keys");
  if (!slots || !sorted || !delta || !starts || !leaf_first || !heights || !ends || !out->order ||
      !out->keys) {
    rc = IONF_ERR_MEM;
    goto done;
  }

  /* keys */
#pragma omp parallel for schedule(static) if (n >= BVH_PARALLEL_MIN)
  for (int64_t i = 0; i < n; ++i) {
    slots[i].key = bvh_morton_key(pos + 3 * i, lo, scale);
    slots[i].index = (int32_t)i;
    slots[i].pad = 0;
  }
  tm.keys_s = omp_get_wtime() - t_mark;
  t_mark = omp_get_wtime();

  /* sort (the reference: qsort, not the fastest) */
  qsort(slots, (size_t)n, sizeof *slots, key_slot_cmp);
  tm.sort_s = omp_get_wtime() - t_mark;
  t_mark = omp_get_wtime();

  /* gather into sorted order; merge distances */
#pragma omp parallel for schedule(static) if (n >= BVH_PARALLEL_MIN)
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = slots[s].index;
    out->keys[s] = slots[s].key;
    out->order[s] = (int32_t)i;
    sorted[4 * s] = pos[3 * i];
    sorted[4 * s + 1] = pos[3 * i + 1];
    sorted[4 * s + 2] = pos[3 * i + 2];
    sorted[4 * s + 3] = h[i];
  }
#pragma omp parallel for schedule(static) if (n - 1 >= BVH_PARALLEL_MIN)
  for (int64_t s = 0; s < n - 1; ++s) delta[s] = bvh_dist2(sorted + 4 * s, sorted + 4 * (s + 1));
  tm.gather_s = omp_get_wtime() - t_mark;
  t_mark = omp_get_wtime();

  /* leaves: climb the particle-level tree, then list the flagged starts */
#pragma omp parallel for schedule(static) if (n >= BVH_PARALLEL_MIN)
  for (int64_t i = 0; i < n; ++i) atomic_init(&ends[i], -1);
  starts[0] = 1;
  climb_particles(delta, n, max_leaf, ends, starts);
  int64_t n_leaves = 0;
  for (int64_t s = 0; s < n; ++s)
    if (starts[s]) leaf_first[n_leaves++] = (int32_t)s;
  leaf_first[n_leaves] = (int32_t)n;
  tm.leaves_s = omp_get_wtime() - t_mark;
  t_mark = omp_get_wtime();

  /* nodes: climb the leaf-level tree fitting boxes */
  out->n_leaves = (int32_t)n_leaves;
  out->n_nodes = (int32_t)(n_leaves - 1);
  out->leaves = ionf_malloc((size_t)n_leaves * sizeof *out->leaves, "BVH leaves");
  out->nodes = ionf_calloc((size_t)(n_leaves > 1 ? n_leaves - 1 : 1), sizeof *out->nodes,
                           "BVH nodes");
  if (!out->leaves || !out->nodes) {
    rc = IONF_ERR_MEM;
    goto done;
  }
#pragma omp parallel for schedule(static) if (n_leaves >= BVH_PARALLEL_MIN)
  for (int64_t i = 0; i < n_leaves; ++i) atomic_init(&ends[i], -1);
  climb_leaves(sorted, delta, leaf_first, n_leaves, ends, heights, out);
  tm.nodes_s = omp_get_wtime() - t_mark;
  tm.total_s = omp_get_wtime() - t0;

done:
  free(slots);
  free(sorted);
  free(delta);
  free(starts);
  free(leaf_first);
  free(heights);
  free(ends);
  if (rc != IONF_OK) {
    bvh_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  } else if (times) {
    *times = tm;
  }
  return rc;
}

/* ---- check ------------------------------------------------------------------------- */

static ionf_err check_fail(const char *fmt, int64_t a, int64_t b) {
  char what[256];
  snprintf(what, sizeof what, fmt, (long long)a, (long long)b);
  return ionf_error_set(IONF_ERR_INTERNAL, "BVH check: %s", what);
}

/* Box of child `ref` as its own children see it: the union of its stored child boxes. */
static void child_union(const struct bvh *t, int32_t node, struct bvh_box *u) {
  struct bvh_box r;
  bvh_node_box(&t->nodes[node], 0, u);
  bvh_node_box(&t->nodes[node], 1, &r);
  bvh_box_add_box(u, &r);
}

static ionf_err check_leaf_spheres(const struct bvh *t, int32_t leaf, const struct bvh_box *b,
                                   const double *pos, const double *h) {
  const struct bvh_leaf *l = &t->leaves[leaf];
  for (int32_t s = l->first; s < l->first + l->count; ++s) {
    int32_t i = t->order[s];
    if (!bvh_box_contains_sphere(b, pos + 3 * (int64_t)i, h[i]))
      return check_fail("particle %lld (leaf %lld) sticks out of its leaf's box", i, leaf);
  }
  return IONF_OK;
}

/* order is a permutation; keys sorted, match the positions, ties in input order
   (seen: n bytes of zeros). */
static ionf_err check_order(const struct bvh *t, const double *pos, unsigned char *seen) {
  const int64_t n = t->n_particles;
  ionf_err rc = IONF_OK;
  double lo[3], scale[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = t->scene.lo[a];
    scale[a] = bvh_morton_scale(t->scene.hi[a] - t->scene.lo[a]);
  }
  for (int64_t s = 0; s < n && rc == IONF_OK; ++s) {
    int32_t i = t->order[s];
    if (i < 0 || i >= n)
      rc = check_fail("order[%lld] = %lld is not a particle index", s, i);
    else if (seen[i]++)
      rc = check_fail("particle %lld appears twice in the order (slot %lld)", i, s);
    else if (t->keys[s] != bvh_morton_key(pos + 3 * (int64_t)i, lo, scale))
      rc = check_fail("key of slot %lld (particle %lld) is not its Morton key", s, i);
    else if (s > 0 && (t->keys[s] < t->keys[s - 1] ||
                       (t->keys[s] == t->keys[s - 1] && i < t->order[s - 1])))
      rc = check_fail("slots %lld and %lld are out of (key, index) order", s - 1, s);
  }
  return rc;
}

/* leaves partition the sorted slots into runs of 1..max_leaf */
static ionf_err check_leaves(const struct bvh *t) {
  const int64_t n = t->n_particles, n_leaves = t->n_leaves;
  ionf_err rc = IONF_OK;
  int64_t next = 0;
  for (int64_t w = 0; w < n_leaves && rc == IONF_OK; ++w) {
    const struct bvh_leaf *l = &t->leaves[w];
    if (l->first != next)
      rc = check_fail("leaf %lld starts at slot %lld, not where the previous one ended", w,
                      l->first);
    else if (l->count < 1 || l->count > t->max_leaf)
      rc = check_fail("leaf %lld holds %lld particles, outside [1, max_leaf]", w, l->count);
    next += l->count;
  }
  if (rc == IONF_OK && next != n)
    rc = check_fail("the leaves hold %lld particles of %lld", next, n);
  return rc;
}

/* one parent each; parent fields; children in range; inner nodes hold > max_leaf
   (node_refs, leaf_refs: zeros in, the parents counted out) */
static ionf_err check_nodes(const struct bvh *t, int32_t *node_refs, int32_t *leaf_refs) {
  const int64_t n_leaves = t->n_leaves, n_nodes = t->n_nodes;
  ionf_err rc = IONF_OK;
  for (int64_t p = 0; p < n_nodes && rc == IONF_OK; ++p) {
    const struct bvh_node *nd = &t->nodes[p];
    int64_t below = 0;
    for (int side = 0; side < 2 && rc == IONF_OK; ++side) {
      int32_t c = nd->child[side];
      if (bvh_ref_is_leaf(c)) {
        int32_t w = bvh_ref_leaf(c);
        if (w >= n_leaves) {
          rc = check_fail("node %lld points at leaf %lld, which does not exist", p, w);
        } else {
          ++leaf_refs[w];
          below += t->leaves[w].count;
        }
      } else if (c >= n_nodes) {
        rc = check_fail("node %lld points at node %lld, which does not exist", p, c);
      } else if (c == p) {
        rc = check_fail("node %lld is its own child (%lld)", p, c);
      } else {
        ++node_refs[c];
        below += t->nodes[c].count;
        if (t->nodes[c].parent != p)
          rc = check_fail("node %lld says its parent is %lld", c, t->nodes[c].parent);
      }
    }
    if (rc == IONF_OK && nd->count != below)
      rc = check_fail("node %lld counts %lld particles; its children hold another number", p,
                      nd->count);
    if (rc == IONF_OK && nd->count <= t->max_leaf)
      rc = check_fail("inner node %lld holds %lld particles, no more than max_leaf", p,
                      nd->count);
  }
  return rc;
}

/* the root, and every node and leaf but the root with exactly one parent */
static ionf_err check_root(const struct bvh *t, const int32_t *node_refs,
                           const int32_t *leaf_refs) {
  const int64_t n_leaves = t->n_leaves, n_nodes = t->n_nodes;
  ionf_err rc = IONF_OK;
  if (n_nodes == 0) {
    if (t->root != bvh_leaf_ref(0) || t->height != 0)
      rc = check_fail("one leaf, but the root is %lld and the height %lld", t->root, t->height);
  } else if (t->root < 0 || t->root >= n_nodes) {
    rc = check_fail("root %lld is not a node (of %lld)", t->root, n_nodes);
  } else if (t->nodes[t->root].parent != -1) {
    rc = check_fail("root %lld has parent %lld", t->root, t->nodes[t->root].parent);
  }
  for (int64_t p = 0; p < n_nodes && rc == IONF_OK; ++p)
    if (node_refs[p] != (p == t->root ? 0 : 1))
      rc = check_fail("node %lld has %lld parents", p, node_refs[p]);
  for (int64_t w = 0; w < n_leaves && rc == IONF_OK && n_nodes > 0; ++w)
    if (leaf_refs[w] != 1) rc = check_fail("leaf %lld has %lld parents", w, leaf_refs[w]);
  return rc;
}

/* reachable from the root; boxes nest; every sphere in its leaf's box; the height
   (stack: n_nodes + n_leaves + 1 entries) */
static ionf_err check_reachable(const struct bvh *t, const double *pos, const double *h,
                                int32_t *stack) {
  const int64_t n_leaves = t->n_leaves, n_nodes = t->n_nodes;
  ionf_err rc = IONF_OK;
  if (n_nodes == 0) return check_leaf_spheres(t, 0, &t->root_box, pos, h);
  {
    struct bvh_box u;
    child_union(t, t->root, &u);
    if (!bvh_box_contains(&t->root_box, &u))
      rc = check_fail("root box does not contain the root's children (root %lld)", t->root, 0);
  }
  int64_t top = 0, nodes_seen = 0, leaves_seen = 0;
  stack[top++] = t->root;
  while (top > 0 && rc == IONF_OK) {
    int32_t p = stack[--top];
    ++nodes_seen;
    for (int side = 0; side < 2 && rc == IONF_OK; ++side) {
      int32_t c = t->nodes[p].child[side];
      struct bvh_box b;
      bvh_node_box(&t->nodes[p], side, &b);
      if (bvh_ref_is_leaf(c)) {
        ++leaves_seen;
        rc = check_leaf_spheres(t, bvh_ref_leaf(c), &b, pos, h);
      } else {
        struct bvh_box u;
        child_union(t, c, &u);
        if (!bvh_box_contains(&b, &u))
          rc = check_fail("node %lld's box for child %lld does not contain its children", p, c);
        else if (nodes_seen + top >= n_nodes + 1)
          rc = check_fail("more nodes reachable than exist (%lld); a cycle at node %lld",
                          n_nodes, c);
        else
          stack[top++] = c;
      }
    }
  }
  if (rc == IONF_OK && (nodes_seen != n_nodes || leaves_seen != n_leaves))
    rc = check_fail("%lld nodes and %lld leaves reachable from the root", nodes_seen,
                    leaves_seen);
  if (rc == IONF_OK && bvh_depth(t) != t->height)
    rc = check_fail("height %lld recorded, the deepest leaf is at %lld", t->height, bvh_depth(t));
  return rc;
}

ionf_err bvh_check(const struct bvh *t, const double *pos, const double *h) {
  IONF_CHECK(t && pos && h, IONF_ERR_INTERNAL, "bvh_check: NULL argument");
  const int64_t n = t->n_particles, n_leaves = t->n_leaves, n_nodes = t->n_nodes;
  if (n < 1 || n_leaves < 1 || n_leaves > n || n_nodes != n_leaves - 1)
    return check_fail("%lld particles, %lld leaves, inconsistent counts", n, n_leaves);
  if (!t->nodes || !t->leaves || !t->order || !t->keys)
    return check_fail("missing arrays (%lld particles, %lld leaves)", n, n_leaves);

  ionf_err rc = IONF_OK;
  unsigned char *seen = calloc((size_t)n, 1);
  int32_t *node_refs = calloc((size_t)(n_nodes > 0 ? n_nodes : 1), sizeof *node_refs);
  int32_t *leaf_refs = calloc((size_t)n_leaves, sizeof *leaf_refs);
  int32_t *stack = malloc((size_t)(n_nodes + n_leaves + 1) * sizeof *stack);
  if (!seen || !node_refs || !leaf_refs || !stack)
    rc = ionf_error_set(IONF_ERR_MEM, "bvh_check: no memory for %lld particles", (long long)n);
  if (rc == IONF_OK) rc = check_order(t, pos, seen);
  if (rc == IONF_OK) rc = check_leaves(t);
  if (rc == IONF_OK) rc = check_nodes(t, node_refs, leaf_refs);
  if (rc == IONF_OK) rc = check_root(t, node_refs, leaf_refs);
  if (rc == IONF_OK) rc = check_reachable(t, pos, h, stack);
  free(seen);
  free(node_refs);
  free(leaf_refs);
  free(stack);
  return rc;
}

/* ---- comparing and statistics ----------------------------------------------------------- */

int bvh_equal(const struct bvh *a, const struct bvh *b, char *msg, size_t msg_size) {
  char scratch[8];
  if (!msg || msg_size == 0) {
    msg = scratch;
    msg_size = sizeof scratch;
  }
  msg[0] = '\0';
  if (a->n_particles != b->n_particles || a->n_leaves != b->n_leaves ||
      a->n_nodes != b->n_nodes || a->max_leaf != b->max_leaf) {
    snprintf(msg, msg_size, "sizes differ: %lld/%d/%d particles/leaves/nodes vs %lld/%d/%d",
             (long long)a->n_particles, a->n_leaves, a->n_nodes, (long long)b->n_particles,
             b->n_leaves, b->n_nodes);
    return 0;
  }
  if (a->root != b->root || a->height != b->height) {
    snprintf(msg, msg_size, "roots or heights differ: root %d height %d vs root %d height %d",
             a->root, a->height, b->root, b->height);
    return 0;
  }
  if (memcmp(&a->root_box, &b->root_box, sizeof a->root_box) ||
      memcmp(&a->scene, &b->scene, sizeof a->scene)) {
    snprintf(msg, msg_size, "root box or scene differs");
    return 0;
  }
  for (int64_t s = 0; s < a->n_particles; ++s)
    if (a->order[s] != b->order[s] || a->keys[s] != b->keys[s]) {
      snprintf(msg, msg_size, "sorted slot %lld differs: particle %d key %llx vs %d key %llx",
               (long long)s, a->order[s], (unsigned long long)a->keys[s], b->order[s],
               (unsigned long long)b->keys[s]);
      return 0;
    }
  for (int32_t w = 0; w < a->n_leaves; ++w)
    if (a->leaves[w].first != b->leaves[w].first || a->leaves[w].count != b->leaves[w].count) {
      snprintf(msg, msg_size, "leaf %d differs: [%d, +%d) vs [%d, +%d)", w, a->leaves[w].first,
               a->leaves[w].count, b->leaves[w].first, b->leaves[w].count);
      return 0;
    }
  for (int32_t p = 0; p < a->n_nodes; ++p)
    if (memcmp(&a->nodes[p], &b->nodes[p], sizeof a->nodes[p])) {
      const struct bvh_node *x = &a->nodes[p], *y = &b->nodes[p];
      snprintf(msg, msg_size,
               "node %d differs: children %d %d parent %d count %d vs %d %d %d %d%s", p,
               x->child[0], x->child[1], x->parent, x->count, y->child[0], y->child[1],
               y->parent, y->count,
               (x->child[0] == y->child[0] && x->child[1] == y->child[1]) ? " (boxes)" : "");
      return 0;
    }
  return 1;
}

int bvh_depth(const struct bvh *t) {
  if (!t || t->n_nodes == 0) return 0;
  int64_t cap = (int64_t)t->n_nodes + 1;
  int32_t *stack = malloc((size_t)cap * 2 * sizeof *stack);
  if (!stack) return -1;
  int64_t top = 0;
  int deepest = 0;
  stack[0] = t->root;
  stack[1] = 0;
  top = 1;
  while (top > 0) {
    --top;
    int32_t p = stack[2 * top], d = stack[2 * top + 1];
    for (int side = 0; side < 2; ++side) {
      int32_t c = t->nodes[p].child[side];
      if (bvh_ref_is_leaf(c)) {
        if (d + 1 > deepest) deepest = d + 1;
      } else if (top < cap) {
        stack[2 * top] = c;
        stack[2 * top + 1] = d + 1;
        ++top;
      }
    }
  }
  free(stack);
  return deepest;
}

/* ---- builds without CUDA ----------------------------------------------------------------- */

#if !IONF_HAVE_CUDA
ionf_err bvh_build_cuda(const double *pos, const double *h, int64_t n,
                        const struct bvh_scene *scene, int max_leaf, struct bvh *out) {
  (void)pos, (void)h, (void)n, (void)scene, (void)max_leaf, (void)out;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "the GPU BVH build needs a CUDA build of ionfront (this one has none)");
}
#endif
