/**
 * @file bvh_build.cu
 * @brief The particle BVH built on the GPU; the same stages and the same
 *        per-element rules (src/bvh_k.h) as the CPU reference (src/bvh.c), so
 *        the trees agree bit for bit.
 *
 * Kernels:
 *  - keys_kernel: 63-bit Morton key and index per particle;
 *  - cub::DeviceRadixSort::SortPairs over bits [0, 63) (stable: equal keys
 *    keep input order, as the CPU's (key, index) sort does);
 *  - gather_kernel, delta_kernel: particles (x, y, z, h) in sorted order and
 *    the squared distances across the gaps;
 *  - climb_particles_kernel: one thread per particle climbs the particle-level
 *    tree; a cluster hands its far end to its parent with atomicExch, and the
 *    second to arrive knows the parent's range and carries on; a parent of
 *    more than max_leaf particles marks its smaller children as leaves;
 *  - cub::DeviceScan::ExclusiveSum + scatter_leaves_kernel: the leaf list;
 *  - climb_leaves_kernel: one thread per leaf fits the leaf's box, then
 *    climbs the leaf-level tree writing each child's box into its parent
 *    (fence, then atomicExch; the second arrival reads both boxes past L1),
 *    and the node heights (into the scan's buffer, free by then).
 */
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/particles/bvh_build.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BVH_THREADS 256

/* ---- kernels ----------------------------------------------------------------------- */

struct key_frame {
  double lo[3];
  double scale[3];
};

/* What the root's thread leaves behind. */
struct root_info {
  int32_t root;
  int32_t height;
  struct bvh_box box;
};

static unsigned int blocks_for(int64_t n) {
  return (unsigned int)((n + BVH_THREADS - 1) / BVH_THREADS);
}

__global__ void keys_kernel(const double *__restrict__ pos, int64_t n, struct key_frame f,
                            uint64_t *__restrict__ keys, int32_t *__restrict__ index) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double p[3] = {pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]};
  keys[i] = bvh_morton_key(p, f.lo, f.scale);
  index[i] = (int32_t)i;
}

__global__ void gather_kernel(const double *__restrict__ pos, const double *__restrict__ h,
                              const int32_t *__restrict__ order, int64_t n,
                              double *__restrict__ sorted) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int64_t i = order[s];
  sorted[4 * s] = pos[3 * i];
  sorted[4 * s + 1] = pos[3 * i + 1];
  sorted[4 * s + 2] = pos[3 * i + 2];
  sorted[4 * s + 3] = h[i];
}

__global__ void delta_kernel(const double *__restrict__ sorted, int64_t n,
                             double *__restrict__ delta) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n - 1) return;
  delta[s] = bvh_dist2(sorted + 4 * s, sorted + 4 * (s + 1));
}

__global__ void climb_particles_kernel(const double *__restrict__ delta, int64_t n, int max_leaf,
                                       int32_t *ends, int32_t *starts) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  if (s == 0) starts[0] = 1;
  int64_t i = s, j = s;
  while (!(i == 0 && j == n - 1)) {
    int as_right;
    double d_left = i > 0 ? delta[i - 1] : 0.0, d_right = j < n - 1 ? delta[j] : 0.0;
    int64_t p = bvh_parent(i, j, n, d_left, i - 1, d_right, j, &as_right);
    int32_t other = atomicExch(&ends[p], (int32_t)bvh_handoff(i, j, as_right));
    if (other < 0) return; /* first to arrive: the sibling carries on */
    int64_t left_start, right_start;
      bvh_climb_particles_merge(p, as_right, other, max_leaf, &i, &j, &left_start, &right_start);
      if (left_start >= 0) starts[left_start] = 1;
      if (right_start >= 0) starts[right_start] = 1;
  }
}

/* leaf_first[rank] = slot for every flagged slot; the count and the end sentinel. */
__global__ void scatter_leaves_kernel(const int32_t *__restrict__ starts,
                                      const int32_t *__restrict__ rank, int64_t n,
                                      int32_t *__restrict__ leaf_first,
                                      int32_t *__restrict__ n_leaves) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  if (starts[s]) leaf_first[rank[s]] = (int32_t)s;
  if (s == n - 1) {
    int32_t count = rank[s] + starts[s];
    *n_leaves = count;
    leaf_first[count] = (int32_t)n;
  }
}

/* A node as another thread left it: loaded at L2 (ld.global.cg), never a stale L1 line. */
__device__ static void load_node_cg(const struct bvh_node *src, struct bvh_node *dst) {
  const float4 *q = reinterpret_cast<const float4 *>(src);
  float4 a = __ldcg(q), b = __ldcg(q + 1), c = __ldcg(q + 2);
  memcpy(dst->left_xy, &a, sizeof a); /* float[4] each: the same bytes */
  memcpy(dst->right_xy, &b, sizeof b);
  memcpy(dst->z, &c, sizeof c);
}

__global__ void climb_leaves_kernel(const double *__restrict__ sorted,
                                    const double *__restrict__ delta,
                                    const int32_t *__restrict__ leaf_first, int64_t n_leaves,
                                    int32_t *ends, int32_t *heights, struct bvh_node *nodes,
                                    struct bvh_leaf *__restrict__ leaves,
                                    struct root_info *root) {
  int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= n_leaves) return;
  int32_t first = leaf_first[w], count = leaf_first[w + 1] - first;
  leaves[w].first = first;
  leaves[w].count = count;
  struct bvh_box box;
  bvh_leaf_box(sorted, first, count, &box);
  int32_t ref = bvh_leaf_ref((int32_t)w), height = 0;
  int64_t i = w, j = w;
  for (;;) {
    if (i == 0 && j == n_leaves - 1) {
      root->root = ref;
      root->height = height;
      root->box = box;
      if (!bvh_ref_is_leaf(ref)) nodes[ref].parent = -1;
      return;
    }
    int as_right;
    int64_t p = bvh_climb_attach(nodes, leaf_first, delta, n_leaves, i, j, ref, &box, &as_right);
    __threadfence(); /* my box is visible before my hand-off */
    int32_t other = atomicExch(&ends[p], (int32_t)bvh_handoff(i, j, as_right));
    if (other < 0) return;
    __threadfence();
    int64_t a, b;
    bvh_merged_range(i, j, as_right, other, &a, &b);
    struct bvh_node seen;
    load_node_cg(&nodes[p], &seen);
    bvh_node_union_box(&seen, &box); /* left then right, as on the CPU */
    nodes[p].count = leaf_first[b + 1] - leaf_first[a];
    int32_t sibling = __ldcg(&nodes[p].child[!as_right]);
    int32_t sibling_height = bvh_ref_is_leaf(sibling) ? 0 : __ldcg(&heights[sibling]);
    height = 1 + (height > sibling_height ? height : sibling_height);
    heights[p] = height; /* published by my next hand-off's fence */
    ref = (int32_t)p;
    i = a;
    j = b;
  }
}

/* ---- context ------------------------------------------------------------------------- */

struct bvh_cuda {
  int64_t capacity, n;
  cudaStream_t stream;
  cudaEvent_t ev[7];
  double *pos, *h, *sorted, *delta;
  uint64_t *keys_in, *keys_out;
  int32_t *index_in, *index_out, *ends, *starts, *rank, *leaf_first, *n_leaves_dev;
  void *temp;
  size_t temp_bytes;
  struct bvh_node *nodes;
  struct bvh_leaf *leaves;
  int64_t leaf_capacity;
  struct root_info *root;
  /* the last build */
  int built, max_leaf;
  int64_t n_leaves;
  struct bvh_scene scene;
};

extern "C" void bvh_cuda_destroy(struct bvh_cuda *b) {
  if (!b) return;
  void *bufs[] = {b->pos,    b->h,         b->sorted, b->delta,      b->keys_in,
                  b->keys_out, b->index_in, b->index_out, b->ends,     b->starts,
                  b->rank,   b->leaf_first, b->n_leaves_dev, b->temp, b->nodes,
                  b->leaves, b->root};
  for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; ++k)
    if (bufs[k]) cudaFree(bufs[k]);
  for (int e = 0; e < 7; ++e)
    if (b->ev[e]) cudaEventDestroy(b->ev[e]);
  if (b->stream) cudaStreamDestroy(b->stream);
  free(b);
}

extern "C" ionf_err bvh_cuda_create(int64_t capacity, struct bvh_cuda **out) {
  IONF_CHECK(out, IONF_ERR_INTERNAL, "bvh_cuda_create: NULL argument");
  *out = NULL;
  IONF_CHECK(capacity >= 1 && capacity <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "GPU BVH build: capacity of %lld particles; the tree holds 1 to %lld",
             (long long)capacity, (long long)BVH_MAX_PARTICLES);
  struct bvh_cuda *b = (struct bvh_cuda *)calloc(1, sizeof *b);
  IONF_CHECK(b, IONF_ERR_MEM, "GPU BVH build: no host memory for the context");
  b->capacity = capacity;
  ionf_err rc = IONF_OK;
  const size_t n = (size_t)capacity;
#define BVH_ALLOC(ptr, bytes, what)                                       \
  do {                                                                    \
    if (rc == IONF_OK) rc = cuda_util_alloc((void **)&(ptr), (bytes), (what)); \
  } while (0)
  BVH_ALLOC(b->pos, 3 * n * sizeof(double), "particle positions");
  BVH_ALLOC(b->h, n * sizeof(double), "smoothing lengths");
  BVH_ALLOC(b->sorted, 4 * n * sizeof(double), "sorted particles");
  BVH_ALLOC(b->delta, n * sizeof(double), "merge distances");
  BVH_ALLOC(b->keys_in, n * sizeof(uint64_t), "Morton keys");
  BVH_ALLOC(b->keys_out, n * sizeof(uint64_t), "sorted Morton keys");
  BVH_ALLOC(b->index_in, n * sizeof(int32_t), "particle indices");
  BVH_ALLOC(b->index_out, n * sizeof(int32_t), "sorted order");
  BVH_ALLOC(b->ends, n * sizeof(int32_t), "climb hand-offs");
  BVH_ALLOC(b->starts, n * sizeof(int32_t), "leaf flags");
  BVH_ALLOC(b->rank, n * sizeof(int32_t), "leaf ranks");
  BVH_ALLOC(b->leaf_first, (n + 1) * sizeof(int32_t), "leaf starts");
  BVH_ALLOC(b->n_leaves_dev, sizeof(int32_t), "leaf count");
  BVH_ALLOC(b->root, sizeof(struct root_info), "root");
#undef BVH_ALLOC
  if (rc == IONF_OK) {
    size_t sort_bytes = 0, scan_bytes = 0;
    cudaError_t e1 = cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, b->keys_in, b->keys_out,
                                                     b->index_in, b->index_out, (int)capacity, 0,
                                                     BVH_KEY_BITS);
    cudaError_t e2 = cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, b->starts, b->rank,
                                                   (int)capacity);
    if (e1 != cudaSuccess || e2 != cudaSuccess)
      rc = cuda_util_fail((int)(e1 != cudaSuccess ? e1 : e2), "temporary storage query");
    else {
      b->temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
      rc = cuda_util_alloc(&b->temp, b->temp_bytes, "CUB temporary storage");
    }
  }
  if (rc == IONF_OK) {
    cudaError_t err = cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking);
    for (int e = 0; e < 7 && err == cudaSuccess; ++e) err = cudaEventCreate(&b->ev[e]);
    if (err != cudaSuccess) rc = cuda_util_fail((int)(err), "stream and event creation");
  }
  if (rc != IONF_OK) {
    bvh_cuda_destroy(b);
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  *out = b;
  return IONF_OK;
}

extern "C" ionf_err bvh_cuda_upload(struct bvh_cuda *b, const double *pos, const double *h,
                                    int64_t n) {
  IONF_CHECK(b && pos && h, IONF_ERR_INTERNAL, "bvh_cuda_upload: NULL argument");
  IONF_CHECK(n >= 1 && n <= b->capacity, IONF_ERR_INPUT,
             "GPU BVH build: %lld particles for a context of %lld", (long long)n,
             (long long)b->capacity);
  CUDA_CHECK(cudaMemcpyAsync(b->pos, pos, 3 * (size_t)n * sizeof(double), cudaMemcpyHostToDevice,
                           b->stream),
           "copy of the positions to the GPU");
  CUDA_CHECK(cudaMemcpyAsync(b->h, h, (size_t)n * sizeof(double), cudaMemcpyHostToDevice,
                           b->stream),
           "copy of the smoothing lengths to the GPU");
  CUDA_CHECK(cudaStreamSynchronize(b->stream), "upload");
  b->n = n;
  b->built = 0;
  return IONF_OK;
}

extern "C" ionf_err bvh_cuda_build(struct bvh_cuda *b, const struct bvh_scene *scene,
                                   int max_leaf, struct bvh_cuda_times *times) {
  IONF_CHECK(b && scene, IONF_ERR_INTERNAL, "bvh_cuda_build: NULL argument");
  IONF_CHECK(b->n >= 1, IONF_ERR_INTERNAL, "bvh_cuda_build: no particles uploaded");
  IONF_CHECK(max_leaf >= 1 && max_leaf <= BVH_MAX_LEAF_LIMIT, IONF_ERR_INPUT,
             "BVH build: maximum leaf size %d; it must be in [1, %d]", max_leaf,
             BVH_MAX_LEAF_LIMIT);
  const int64_t n = b->n;
  cudaStream_t st = b->stream;
  struct key_frame f;
  for (int a = 0; a < 3; ++a) {
    f.lo[a] = scene->lo[a];
    f.scale[a] = bvh_morton_scale(scene->hi[a] - scene->lo[a]);
  }
  b->built = 0;

  CUDA_CHECK(cudaEventRecord(b->ev[0], st), "event");
  keys_kernel<<<blocks_for(n), BVH_THREADS, 0, st>>>(b->pos, n, f, b->keys_in, b->index_in);
  CUDA_CHECK(cudaGetLastError(), "keys_kernel launch");
  CUDA_CHECK(cudaEventRecord(b->ev[1], st), "event");

  size_t temp_bytes = b->temp_bytes;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b->temp, temp_bytes, b->keys_in, b->keys_out,
                                           b->index_in, b->index_out, (int)n, 0, BVH_KEY_BITS,
                                           st),
           "radix sort of the keys");
  CUDA_CHECK(cudaEventRecord(b->ev[2], st), "event");

  gather_kernel<<<blocks_for(n), BVH_THREADS, 0, st>>>(b->pos, b->h, b->index_out, n, b->sorted);
  CUDA_CHECK(cudaGetLastError(), "gather_kernel launch");
  if (n > 1) {
    delta_kernel<<<blocks_for(n - 1), BVH_THREADS, 0, st>>>(b->sorted, n, b->delta);
    CUDA_CHECK(cudaGetLastError(), "delta_kernel launch");
  }
  CUDA_CHECK(cudaEventRecord(b->ev[3], st), "event");

  CUDA_CHECK(cudaMemsetAsync(b->ends, 0xff, (size_t)n * sizeof(int32_t), st), "memset");
  CUDA_CHECK(cudaMemsetAsync(b->starts, 0, (size_t)n * sizeof(int32_t), st), "memset");
  climb_particles_kernel<<<blocks_for(n), BVH_THREADS, 0, st>>>(b->delta, n, max_leaf, b->ends,
                                                                b->starts);
  CUDA_CHECK(cudaGetLastError(), "climb_particles_kernel launch");
  temp_bytes = b->temp_bytes;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b->temp, temp_bytes, b->starts, b->rank, (int)n, st),
           "scan of the leaf flags");
  scatter_leaves_kernel<<<blocks_for(n), BVH_THREADS, 0, st>>>(b->starts, b->rank, n,
                                                               b->leaf_first, b->n_leaves_dev);
  CUDA_CHECK(cudaGetLastError(), "scatter_leaves_kernel launch");
  int32_t n_leaves = 0;
  CUDA_CHECK(cudaMemcpyAsync(&n_leaves, b->n_leaves_dev, sizeof n_leaves, cudaMemcpyDeviceToHost,
                           st),
           "copy of the leaf count");
  CUDA_CHECK(cudaStreamSynchronize(st), "leaf stage");
  CUDA_CHECK(cudaEventRecord(b->ev[4], st), "event");
  IONF_CHECK(n_leaves >= 1 && n_leaves <= n, IONF_ERR_INTERNAL,
             "GPU BVH build: %d leaves for %lld particles", n_leaves, (long long)n);

  if (n_leaves > b->leaf_capacity) { /* grows once; later builds reuse it */
    if (b->nodes) cudaFree(b->nodes);
    if (b->leaves) cudaFree(b->leaves);
    b->nodes = NULL;
    b->leaves = NULL;
    b->leaf_capacity = 0;
    IONF_CALL(cuda_util_alloc((void **)&b->nodes, (size_t)n_leaves * sizeof(struct bvh_node),
                             "BVH nodes"));
    IONF_CALL(cuda_util_alloc((void **)&b->leaves, (size_t)n_leaves * sizeof(struct bvh_leaf),
                             "BVH leaves"));
    b->leaf_capacity = n_leaves;
  }
  CUDA_CHECK(cudaMemsetAsync(b->ends, 0xff, (size_t)n_leaves * sizeof(int32_t), st), "memset");
  CUDA_CHECK(cudaMemsetAsync(b->nodes, 0, (size_t)n_leaves * sizeof(struct bvh_node), st),
           "memset");
  climb_leaves_kernel<<<blocks_for(n_leaves), BVH_THREADS, 0, st>>>(
      b->sorted, b->delta, b->leaf_first, n_leaves, b->ends, b->rank, b->nodes, b->leaves,
      b->root);
  CUDA_CHECK(cudaGetLastError(), "climb_leaves_kernel launch");
  CUDA_CHECK(cudaEventRecord(b->ev[5], st), "event");
  CUDA_CHECK(cudaEventSynchronize(b->ev[5]), "BVH build");

  b->built = 1;
  b->max_leaf = max_leaf;
  b->n_leaves = n_leaves;
  b->scene = *scene;
  if (times) {
    CUDA_CHECK(cudaEventElapsedTime(&times->keys_ms, b->ev[0], b->ev[1]), "timing");
    CUDA_CHECK(cudaEventElapsedTime(&times->sort_ms, b->ev[1], b->ev[2]), "timing");
    CUDA_CHECK(cudaEventElapsedTime(&times->gather_ms, b->ev[2], b->ev[3]), "timing");
    CUDA_CHECK(cudaEventElapsedTime(&times->leaves_ms, b->ev[3], b->ev[4]), "timing");
    CUDA_CHECK(cudaEventElapsedTime(&times->nodes_ms, b->ev[4], b->ev[5]), "timing");
    CUDA_CHECK(cudaEventElapsedTime(&times->build_ms, b->ev[0], b->ev[5]), "timing");
  }
  return IONF_OK;
}

extern "C" ionf_err bvh_cuda_download(struct bvh_cuda *b, struct bvh *out) {
  IONF_CHECK(b && out, IONF_ERR_INTERNAL, "bvh_cuda_download: NULL argument");
  IONF_CHECK(b->built, IONF_ERR_INTERNAL, "bvh_cuda_download: nothing built");
  memset(out, 0, sizeof *out);
  const int64_t n = b->n, n_leaves = b->n_leaves;
  out->n_particles = n;
  out->n_leaves = (int32_t)n_leaves;
  out->n_nodes = (int32_t)(n_leaves - 1);
  out->max_leaf = b->max_leaf;
  out->scene = b->scene;
  out->nodes = (struct bvh_node *)ionf_calloc((size_t)(n_leaves > 1 ? n_leaves - 1 : 1),
                                              sizeof(struct bvh_node), "BVH nodes");
  out->leaves = (struct bvh_leaf *)ionf_malloc((size_t)n_leaves * sizeof(struct bvh_leaf),
                                               "BVH leaves");
  out->order = (int32_t *)ionf_malloc((size_t)n * sizeof(int32_t), "BVH order");
  out->keys = (uint64_t *)ionf_malloc((size_t)n * sizeof(uint64_t), "BVH keys");
  if (!out->nodes || !out->leaves || !out->order || !out->keys) {
    bvh_free(out);
    return IONF_ERR_MEM;
  }
  struct root_info root;
  cudaError_t err = cudaMemcpy(&root, b->root, sizeof root, cudaMemcpyDeviceToHost);
  if (err == cudaSuccess && n_leaves > 1)
    err = cudaMemcpy(out->nodes, b->nodes, (size_t)(n_leaves - 1) * sizeof(struct bvh_node),
                     cudaMemcpyDeviceToHost);
  if (err == cudaSuccess)
    err = cudaMemcpy(out->leaves, b->leaves, (size_t)n_leaves * sizeof(struct bvh_leaf),
                     cudaMemcpyDeviceToHost);
  if (err == cudaSuccess)
    err = cudaMemcpy(out->order, b->index_out, (size_t)n * sizeof(int32_t),
                     cudaMemcpyDeviceToHost);
  if (err == cudaSuccess)
    err = cudaMemcpy(out->keys, b->keys_out, (size_t)n * sizeof(uint64_t),
                     cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    bvh_free(out);
    return cuda_util_fail((int)(err), "copy of the tree to the host");
  }
  out->root = root.root;
  out->height = root.height;
  out->root_box = root.box;
  return IONF_OK;
}

extern "C" ionf_err bvh_build_cuda(const double *pos, const double *h, int64_t n,
                                   const struct bvh_scene *scene, int max_leaf,
                                   struct bvh *out) {
  IONF_CHECK(pos && h && out, IONF_ERR_INTERNAL, "bvh_build_cuda: NULL argument");
  IONF_CHECK(n >= 1 && n <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "BVH build: %lld particles; the tree holds 1 to %lld", (long long)n,
             (long long)BVH_MAX_PARTICLES);
  struct bvh_scene own;
  if (!scene) {
    bvh_scene_of_points(pos, n, &own);
    scene = &own;
  }
  struct bvh_cuda *b = NULL;
  IONF_CALL(bvh_cuda_create(n, &b));
  ionf_err rc = bvh_cuda_upload(b, pos, h, n);
  if (rc == IONF_OK) rc = bvh_cuda_build(b, scene, max_leaf, NULL);
  if (rc == IONF_OK) rc = bvh_cuda_download(b, out);
  bvh_cuda_destroy(b);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}
