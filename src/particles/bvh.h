/**
 * @file bvh.h
 * @brief The bounding volume hierarchy over SPH particles (spheres of radius
 *        h about each centre): the CPU reference build, the structural
 *        check, and comparing two trees.
 *
 * The tree is a linear BVH built bottom-up (Apetrei 2014) over particles
 * sorted by 63-bit Morton keys, merging across the gap of smallest squared
 * centre distance first, with wide leaves of at most max_leaf particles; the
 * rules are in bvh_k.h, shared with the CUDA build (gpu/bvh_build.h), which
 * gives the same tree bit for bit.
 *
 * Layout for traversal (stack-based, CPU or GPU): n_leaves - 1 inner nodes of
 * 64 bytes holding both children's float boxes (struct bvh_node), leaves as
 * ranges of the sorted order, `order` mapping sorted slots to particle
 * indices.  The root is node `root`, or the single leaf -1 - root when the
 * tree is one leaf (n <= max_leaf); `root_box` bounds everything.  Inner node
 * k is the merge across the gap between leaves k and k + 1, so node indices
 * follow the sorted order (the root is not node 0 in general).
 *
 * The height depends on the data: about log2(n / max_leaf) plus a few for
 * clustered sets, but merge distances that grow monotonically along the
 * sorted order (points on a line with growing spacing) make chains.  A
 * traversal sizes its stack from `height`.
 */
#ifndef IONF_BVH_H
#define IONF_BVH_H

#include <stddef.h>
#include <stdint.h>

#include "particles/bvh_k.h"
#include "core/error.h"

/** The box the Morton keys quantise (keys of points outside it are clamped). */
struct bvh_scene {
  double lo[3];
  double hi[3];
};

struct bvh {
  int64_t n_particles;
  int32_t n_leaves;
  int32_t n_nodes;        /*!< n_leaves - 1 */
  int32_t root;           /*!< root node, or -1 - leaf when n_nodes == 0 */
  int32_t max_leaf;       /*!< leaf size limit the tree was built with */
  int32_t height;         /*!< edges on the longest root-to-leaf path: a traversal
                               stack needs this many entries (0: one leaf) */
  struct bvh_box root_box;/*!< bounds every particle's sphere */
  struct bvh_scene scene; /*!< the keys' box */
  struct bvh_node *nodes; /*!< n_nodes */
  struct bvh_leaf *leaves;/*!< n_leaves, in sorted order */
  int32_t *order;         /*!< n_particles: sorted slot -> particle index */
  uint64_t *keys;         /*!< n_particles: sorted Morton keys */
};

/** Seconds spent in each stage of a build (wall clock on the CPU). */
struct bvh_build_times {
  double keys_s, sort_s, gather_s, leaves_s, nodes_s, total_s;
};

/** Largest particle count a tree holds (int32 indices). */
#define BVH_MAX_PARTICLES ((int64_t)INT32_MAX - 1)

/** The bounding box of n centres (positions n x 3). */
void bvh_scene_of_points(const double *pos, int64_t n, struct bvh_scene *scene);

/**
 * Build the tree of n particles (positions n x 3 [cm], support radii h [cm])
 * on the CPU with OpenMP.  scene: the keys' box (NULL: the centres' bounding
 * box).  max_leaf in [1, BVH_MAX_LEAF_LIMIT].  times may be NULL.  `out` is
 * overwritten (free it with bvh_free).
 */
IONF_NODISCARD ionf_err bvh_build_cpu(const double *pos, const double *h, int64_t n,
                                      const struct bvh_scene *scene, int max_leaf,
                                      struct bvh *out, struct bvh_build_times *times);
/**
 * The same tree built on the GPU (gpu/particles/bvh_build.cu; CUDA builds, else
 * IONF_ERR_UNSUPPORTED): copies pos (n x 3) and h to the device, builds, copies the
 * tree back into `out` (free with bvh_free).  scene NULL: the centres' bounding box,
 * computed on the host as bvh_build_cpu does.
 */
IONF_NODISCARD ionf_err bvh_build_cuda(const double *pos, const double *h, int64_t n,
                                       const struct bvh_scene *scene, int max_leaf,
                                       struct bvh *out);

void bvh_free(struct bvh *t);

/**
 * Check the tree against its particles: the leaves partition the sorted
 * slots, every leaf holds 1..max_leaf particles, `order` is a permutation,
 * keys are sorted, every node but the root has exactly one parent (and its
 * parent field says so), all nodes and leaves are reachable from the root,
 * counts add up, inner nodes hold more than max_leaf particles (leaves are the
 * largest subtrees that fit), `height` is the longest root-to-leaf path, every
 * stored child box contains that child's boxes and every leaf's box its
 * particles' spheres (position +- h), root_box contains all.
 * IONF_ERR_INTERNAL with the first violation.
 */
IONF_NODISCARD ionf_err bvh_check(const struct bvh *t, const double *pos, const double *h);

/**
 * 1 when a and b are the same tree bit for bit (nodes, leaves, order, keys,
 * root and root box); else 0 and a description of the first difference in msg.
 */
int bvh_equal(const struct bvh *a, const struct bvh *b, char *msg, size_t msg_size);

/** Depth of the deepest leaf (the root alone: 0), for statistics. */
int bvh_depth(const struct bvh *t);

#endif /* IONF_BVH_H */
