/**
 * @file test_bvh_build.c
 * @brief The CPU BVH build: bvh_check passes on random, lattice, clustered and
 *        degenerate inputs (all particles at one point, many in one Morton
 *        cell, on a line) for 1, 2, 31, 32, 33 ... particles and leaf limits
 *        1 to 64; the tree equals an independent top-down construction of the
 *        same merge order; it does not depend on the thread count; runs of
 *        equal distances stay shallow; and bvh_check catches broken trees.
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "bvh_test_inputs.h"
#include "core/error.h"
#include "test_util.h"

/* ---- the top-down reference ------------------------------------------------------------ */

/* The tree the merge order defines, built top-down: a range of more than
 * max_leaf particles splits at its gap that merges last.  Records, for each
 * split gap g, the two children: a split gap (>= 0) or -1 - first particle of a leaf. */
struct reference {
  const double *delta;
  int max_leaf;
  int64_t *left, *right; /* indexed by split gap */
  unsigned char *is_split;
  int64_t *leaf_starts;
  int64_t n_leaves;
};

static int64_t reference_build(struct reference *r, int64_t i, int64_t j) {
  if (j - i + 1 <= r->max_leaf) {
    r->leaf_starts[r->n_leaves++] = i;
    return -1 - i;
  }
  int64_t g = i;
  for (int64_t k = i + 1; k < j; ++k)
    if (bvh_gap_before(r->delta[g], g, r->delta[k], k)) g = k;
  r->is_split[g] = 1;
  r->left[g] = reference_build(r, i, g);
  r->right[g] = reference_build(r, g + 1, j);
  return g;
}

/* The built tree's child, in the reference's terms. */
static int64_t as_reference(const struct bvh *t, int32_t ref) {
  if (bvh_ref_is_leaf(ref)) return -1 - (int64_t)t->leaves[bvh_ref_leaf(ref)].first;
  return t->leaves[ref + 1].first - 1; /* node k splits leaves k and k+1 */
}

static int matches_reference(const struct bvh *t, const double *pos, const char *what) {
  const int64_t n = t->n_particles;
  struct reference r;
  memset(&r, 0, sizeof r);
  double *delta = calloc((size_t)n, sizeof *delta);
  r.left = calloc((size_t)n, sizeof *r.left);
  r.right = calloc((size_t)n, sizeof *r.right);
  r.is_split = calloc((size_t)n, 1);
  r.leaf_starts = calloc((size_t)n, sizeof *r.leaf_starts);
  r.delta = delta;
  r.max_leaf = t->max_leaf;
  for (int64_t s = 0; s + 1 < n; ++s)
    delta[s] = bvh_dist2(pos + 3 * (int64_t)t->order[s], pos + 3 * (int64_t)t->order[s + 1]);
  int64_t root = reference_build(&r, 0, n - 1);
  int ok = r.n_leaves == t->n_leaves;
  EXPECT(ok, "%s: reference has %lld leaves, tree %d", what, (long long)r.n_leaves, t->n_leaves);
  for (int64_t w = 0; ok && w < r.n_leaves; ++w)
    if (r.leaf_starts[w] != t->leaves[w].first) {
      ok = 0;
      EXPECT(0, "%s: leaf %lld starts at %lld in the reference, %d in the tree", what,
             (long long)w, (long long)r.leaf_starts[w], t->leaves[w].first);
    }
  if (ok) {
    EXPECT(as_reference(t, t->root) == root, "%s: roots differ", what);
    for (int32_t p = 0; p < t->n_nodes && ok; ++p) {
      int64_t g = as_reference(t, p);
      if (!r.is_split[g] || r.left[g] != as_reference(t, t->nodes[p].child[0]) ||
          r.right[g] != as_reference(t, t->nodes[p].child[1])) {
        ok = 0;
        EXPECT(0, "%s: node %d (gap %lld) differs from the reference", what, p, (long long)g);
      }
    }
  }
  free(delta);
  free(r.left);
  free(r.right);
  free(r.is_split);
  free(r.leaf_starts);
  return ok;
}

/* ---- cases -------------------------------------------------------------------------- */

static void build_and_check(enum bvh_input_kind kind, int64_t n, int max_leaf, int with_reference) {
  struct bvh_input in;
  char what[128];
  snprintf(what, sizeof what, "%s n=%lld max_leaf=%d", bvh_input_names[kind], (long long)n,
           max_leaf);
  if (!bvh_input_make(kind, n, 1234u + (unsigned)n, &in)) {
    EXPECT(0, "%s: no memory", what);
    return;
  }
  struct bvh t;
  ionf_err rc = bvh_build_cpu(in.pos, in.h, n, NULL, max_leaf, &t, NULL);
  EXPECT(rc == IONF_OK, "%s: build failed: %s", what, ionf_error_message());
  if (rc == IONF_OK) {
    rc = bvh_check(&t, in.pos, in.h);
    EXPECT(rc == IONF_OK, "%s: %s", what, ionf_error_message());
    if (with_reference && rc == IONF_OK) matches_reference(&t, in.pos, what);
    if (getenv("IONF_TEST_VERBOSE"))
      printf("%-36s leaves %7d  mean leaf %5.1f  depth %3d\n", what, t.n_leaves,
             (double)n / t.n_leaves, bvh_depth(&t));
    bvh_free(&t);
  }
  ionf_error_clear();
  bvh_input_free(&in);
}

/* Damage one thing and expect bvh_check to notice. */
static void expect_caught(const struct bvh *good, const struct bvh_input *in, int damage,
                          const char *what) {
  struct bvh t = *good;
  size_t node_bytes = (size_t)good->n_nodes * sizeof *t.nodes;
  size_t leaf_bytes = (size_t)good->n_leaves * sizeof *t.leaves;
  t.nodes = malloc(node_bytes);
  t.leaves = malloc(leaf_bytes);
  t.order = malloc((size_t)good->n_particles * sizeof *t.order);
  t.keys = malloc((size_t)good->n_particles * sizeof *t.keys);
  memcpy(t.nodes, good->nodes, node_bytes);
  memcpy(t.leaves, good->leaves, leaf_bytes);
  memcpy(t.order, good->order, (size_t)good->n_particles * sizeof *t.order);
  memcpy(t.keys, good->keys, (size_t)good->n_particles * sizeof *t.keys);
  int32_t p = good->root;
  switch (damage) {
    case 0: t.nodes[p].left_xy[1] = t.nodes[p].left_xy[0]; break;   /* shrink a box */
    case 1: t.nodes[p].child[1] = t.nodes[p].child[0]; break;        /* a child twice */
    case 2: t.leaves[0].count += 1; break;                           /* overlapping leaves */
    case 3: { int32_t x = t.order[0]; t.order[0] = t.order[1]; t.order[1] = x; break; }
    case 4: t.nodes[p].count += 1; break;                            /* counts */
    case 5: t.nodes[t.nodes[p].child[0] >= 0 ? t.nodes[p].child[0] : t.nodes[p].child[1]]
                .parent = -1; break;                                  /* parent field */
    case 6: t.root_box.hi[2] = t.root_box.lo[2]; break;
  }
  ionf_err rc = bvh_check(&t, in->pos, in->h);
  if (getenv("IONF_TEST_VERBOSE")) printf("damage %s -> %s\n", what, ionf_error_message());
  EXPECT(rc == IONF_ERR_INTERNAL, "bvh_check missed: %s", what);
  ionf_error_clear();
  free(t.nodes);
  free(t.leaves);
  free(t.order);
  free(t.keys);
}

int main(void) {
  const int64_t sizes[] = {1, 2, 3, 31, 32, 33, 64, 65, 1000, 4096};
  const int leaf_limits[] = {1, 4, 32, 64};
  for (int kind = 0; kind < INPUT_KINDS; ++kind)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      for (size_t l = 0; l < sizeof leaf_limits / sizeof leaf_limits[0]; ++l)
        build_and_check((enum bvh_input_kind)kind, sizes[s], leaf_limits[l], 1);
  /* larger sets: the check only (the reference is quadratic in bad cases) */
  for (int kind = 0; kind < INPUT_KINDS; ++kind) build_and_check((enum bvh_input_kind)kind, 100000, 32, 0);

  /* one particle and a tree that is one leaf */
  {
    struct bvh_input in;
    bvh_input_make(INPUT_RANDOM, 20, 5u, &in);
    struct bvh t;
    EXPECT(bvh_build_cpu(in.pos, in.h, 20, NULL, 32, &t, NULL) == IONF_OK, "20 particles");
    EXPECT(t.n_leaves == 1 && t.n_nodes == 0 && t.root == bvh_leaf_ref(0),
           "20 particles with max_leaf 32: one leaf, the root (got %d leaves, root %d)",
           t.n_leaves, t.root);
    bvh_free(&t);
    bvh_input_free(&in);
  }

  /* equal distances make balanced subtrees, not chains */
  {
    struct bvh_input in;
    bvh_input_make(INPUT_IDENTICAL, 1 << 16, 9u, &in);
    struct bvh t;
    EXPECT(bvh_build_cpu(in.pos, in.h, in.n, NULL, 32, &t, NULL) == IONF_OK, "identical");
    int depth = bvh_depth(&t);
    EXPECT(depth <= 12, "2^16 identical particles: depth %d, balanced would be 11", depth);
    EXPECT(t.n_leaves == (1 << 16) / 32, "2^16 identical particles: %d leaves of 32 expected %d",
           t.n_leaves, (1 << 16) / 32);
    bvh_free(&t);
    bvh_input_free(&in);
  }

  /* the same tree on 1 and 2 threads, and with an explicit scene */
  {
    struct bvh_input in;
    bvh_input_make(INPUT_CLUSTERED, 200000, 77u, &in);
    struct bvh a, b;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    EXPECT(bvh_build_cpu(in.pos, in.h, in.n, NULL, 32, &a, NULL) == IONF_OK, "1 thread");
    omp_set_num_threads(threads > 1 ? threads : 2);
    EXPECT(bvh_build_cpu(in.pos, in.h, in.n, NULL, 32, &b, NULL) == IONF_OK, "threads");
    char msg[256];
    EXPECT(bvh_equal(&a, &b, msg, sizeof msg), "thread count changes the tree: %s", msg);
    bvh_free(&b);
    struct bvh_scene scene = {{0.0, 0.0, 0.0}, {1e22, 1e22, 1e22}};
    EXPECT(bvh_build_cpu(in.pos, in.h, in.n, &scene, 32, &b, NULL) == IONF_OK, "scene");
    EXPECT(bvh_check(&b, in.pos, in.h) == IONF_OK, "with the box as scene: %s",
           ionf_error_message());

    /* every kind of damage is caught */
    const char *damage[] = {"a child box shrunk", "a child referenced twice", "leaves overlap",
                            "order swapped against the keys", "a wrong count",
                            "a wrong parent field", "the root box shrunk"};
    for (int d = 0; d < 7; ++d) expect_caught(&a, &in, d, damage[d]);
    bvh_free(&a);
    bvh_free(&b);
    bvh_input_free(&in);
  }

  /* bad arguments */
  {
    double p[3] = {0, 0, 0}, h = 1;
    struct bvh t;
    EXPECT(bvh_build_cpu(p, &h, 0, NULL, 32, &t, NULL) == IONF_ERR_INPUT, "0 particles");
    ionf_error_clear();
    EXPECT(bvh_build_cpu(p, &h, 1, NULL, 0, &t, NULL) == IONF_ERR_INPUT, "max_leaf 0");
    EXPECT(strstr(ionf_error_message(), "leaf size 0"), "message: %s", ionf_error_message());
    ionf_error_clear();
  }
  TEST_RETURN();
}
