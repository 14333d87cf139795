/**
 * @file sph_trace.cu
 * @brief The particle tracer on the GPU: the same function as
 *        src/sph_trace_cpu.c, from the shared per-ray maths of
 *        src/sph_trace_k.h (the sph_trace*.cu files are compiled with
 *        --fmad=false so that the device rounds the hit tests as the host
 *        does: both paths find the same hits and walk them in the same
 *        sph_hit_key order).
 *
 * This file keeps the tree, the sorted particles and their hydrogen atoms on
 * the device between calls for the same particles/tree (pointers and sizes
 * compared; sph_trace_cuda_release frees everything), uploads a pass's
 * ionized fractions and sources, runs the rays with one of the two schedules
 * of gpu/sph_trace_gpu.h (one warp per ray by default; one thread per ray for
 * trees deeper than WARP_RAYS_MAX_HEIGHT, when the warp schedule meets a ray
 * too dense for its windows, or with tuning.schedule THREAD), scatters the
 * rates back to particle order and copies them out.  struct sph_trace_stats
 * returns each pass's phase times and the warp schedule's window counts.
 */
#include <cuda_runtime.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/particles/bvh_build.h"
#include "core/error.h"
#include "particles/sph_trace.h"
#include "particles/sph_trace_k.h"
#include "particles/sph_rays.h"
#include "particles/sph_trace_prep.h"
}
#include "gpu/particles/sph_trace_gpu.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

/* ---- errors ------------------------------------------------------------------------ */

ionf_err trace_cuda_fail(cudaError_t err, const char *what) {
  cudaGetLastError();
  ionf_err code = err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU;
  return ionf_error_set(code, "GPU particle tracer: CUDA %s failed: %s (%s)", what,
                        cudaGetErrorName(err), cudaGetErrorString(err));
}

/* ---- device state kept between calls ---------------------------------------------------- */

ionf_err dbuf_ensure(struct dbuf *b, size_t bytes, const char *what) {
  if (bytes == 0) bytes = 1;
  if (b->bytes >= bytes) return IONF_OK;
  if (b->p) cudaFree(b->p);
  b->p = NULL;
  b->bytes = 0;
  cudaError_t err = cudaMalloc(&b->p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError();
    b->p = NULL;
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    return ionf_error_set(IONF_ERR_GPU_MEM,
                          "GPU particle tracer: out of GPU memory allocating %.3f GB for %s "
                          "(%.3f GB free of %.3f GB)",
                          (double)bytes / 1e9, what, (double)free_b / 1e9, (double)total_b / 1e9);
  }
  b->bytes = bytes;
  return IONF_OK;
}

void dbuf_free(struct dbuf *b) {
  if (b->p) cudaFree(b->p);
  b->p = NULL;
  b->bytes = 0;
}

struct trace_state {
  /* which particles/tree the resident copies are of */
  const void *particles_key, *tree_key, *pos_key, *nodes_key, *order_key, *atoms_key;
  int64_t n;
  int32_t n_nodes, n_leaves, root;
  int resident;
  /* resident: sorted particles, their hydrogen atoms, the tree */
  struct dbuf xyzh, n_h_atoms, nodes, leaves, order, slots4;
  /* per call */
  struct dbuf x_hii, n_hi, gamma_s, heat_s, gamma_out, heat_out;
  struct dbuf dirs, table, src_pos, src_ndot, photo[5]; /* photo[4]: 1 / tau_i */
  struct dbuf absorbers, band[5];  /* with helium: per sorted slot; the band tables (sub-bins:
                                      0-2, whole bands: 3-4) */
  int64_t dirs_nside;            /* the directions on the device: nside and share */
  int64_t dirs_first, dirs_stride;
  int table_ready;
  double h_max_cm;               /* of the resident particles */
  struct dbuf bad_x;             /* the first particle whose x_HII is outside [0, 1] */
  void *pinned[8];               /* callers' arrays page-locked (sph_trace_cuda_pin_host) */
  int n_pinned;
  /* the two schedules' scratch */
  struct thread_rays_state thread_rays;
  struct warp_rays_state warp_rays;
  cudaStream_t stream;
};

static struct trace_state g_trace;

/* ---- kernels ----------------------------------------------------------------------- */

/*
 * Neutral atoms per sorted slot (N_H from the resident copy, in sorted order),
 * and the input check of x_HII in [0, 1] (*bad: the smallest particle index
 * outside; the host scan it replaces read every value once more per pass).
 */
__global__ void neutral_kernel(const double *n_h_sorted, const double *x_hii, const int32_t *order,
                               int64_t n, double *n_hi, unsigned long long *bad) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int32_t i = order[s];
  double x = x_hii[i];
  if (!(x >= 0.0 && x <= 1.0)) atomicMin(bad, (unsigned long long)i);
  n_hi[s] = n_h_sorted[s] * (1.0 - x);
}

/*
 * With helium: each sorted slot's absorbers (sph_absorbers_of: N_H from the resident
 * copy, the three ion fractions of particle order[s]) and the check of every fraction in
 * [0, 1] (*bad: the smallest species-major index s * n + i outside).
 */
__global__ void absorbers_kernel(const double *n_h_sorted, const double *x_ion,
                                 const int32_t *order, int64_t n, double abundance_he,
                                 struct sph_absorbers *out, unsigned long long *bad) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int32_t i = order[s];
  for (int sp = 0; sp < BANDS_N_ABSORBERS; ++sp) {
    double x = x_ion[sp * n + i];
    if (!(x >= 0.0 && x <= 1.0)) atomicMin(bad, (unsigned long long)(sp * n + i));
  }
  sph_absorbers_of(n_h_sorted[s], x_ion, n, i, abundance_he, &out[s]);
}

__global__ void scatter_kernel(const double *sorted, const int32_t *order, int64_t n,
                               double *out) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < n) out[order[s]] = sorted[s];
}

/* ---- host side --------------------------------------------------------------------- */

extern "C" void sph_trace_cuda_release(void) {
  struct trace_state *g = &g_trace;
  struct dbuf *all[] = {&g->xyzh,     &g->n_h_atoms, &g->nodes,    &g->leaves,   &g->order,
                        &g->slots4,
                        &g->x_hii,    &g->n_hi,      &g->gamma_s,  &g->heat_s,   &g->gamma_out,
                        &g->heat_out, &g->dirs,      &g->table,    &g->src_pos,  &g->src_ndot,
                        &g->photo[0], &g->photo[1],  &g->photo[2], &g->photo[3], &g->photo[4], &g->bad_x,
                        &g->absorbers, &g->band[0],  &g->band[1],  &g->band[2], &g->band[3], &g->band[4]};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) dbuf_free(all[k]);
  sph_trace_thread_rays_free(&g->thread_rays);
  sph_trace_warp_rays_free(&g->warp_rays);
  for (int i = 0; i < g->n_pinned; ++i) cudaHostUnregister(g->pinned[i]);
  if (g->stream) cudaStreamDestroy(g->stream);
  memset(g, 0, sizeof *g);
}

extern "C" void sph_trace_cuda_pin_host(void *p, size_t bytes) {
  struct trace_state *g = &g_trace;
  if (!p || bytes == 0 || g->n_pinned == (int)(sizeof g->pinned / sizeof g->pinned[0])) return;
  for (int i = 0; i < g->n_pinned; ++i)
    if (g->pinned[i] == p) return;
  if (cudaHostRegister(p, bytes, cudaHostRegisterDefault) == cudaSuccess)
    g->pinned[g->n_pinned++] = p;
  else
    cudaGetLastError(); /* pageable copies then */
}

/* Slot q of a four-wide node: the child (or grandchild) `ref` of box b. */
static void slot4_set(const struct bvh *t, int32_t ref, const struct bvh_box *b,
                      struct bvh4_slot *out) {
  for (int a = 0; a < 3; ++a) {
    out->lo[a] = b->lo[a];
    out->hi[a] = b->hi[a];
  }
  if (bvh_ref_is_leaf(ref)) {
    const struct bvh_leaf *l = &t->leaves[bvh_ref_leaf(ref)];
    out->ref = l->first;
    out->count = l->count;
  } else {
    out->ref = ref;
    out->count = -1;
  }
}

/* The four-wide view (struct bvh4_slot) of every binary node. */
static void slots4_fill(const struct bvh *t, struct bvh4_slot *slots) {
#pragma omp parallel for schedule(static)
  for (int32_t i = 0; i < t->n_nodes; ++i) {
    struct bvh4_slot *out = slots + 4 * (int64_t)i;
    memset(out, 0, 4 * sizeof *out);
    int q = 0;
    for (int side = 0; side < 2; ++side) {
      const struct bvh_node *n = &t->nodes[i];
      struct bvh_box b;
      bvh_node_box(n, side, &b);
      int32_t c = n->child[side];
      if (bvh_ref_is_leaf(c)) {
        slot4_set(t, c, &b, &out[q++]);
        continue;
      }
      for (int side2 = 0; side2 < 2; ++side2) { /* the inner child's own children */
        bvh_node_box(&t->nodes[c], side2, &b);
        slot4_set(t, t->nodes[c].child[side2], &b, &out[q++]);
      }
    }
  }
}

/* Copy the tree and the sorted particles unless they are the resident ones. */
static ionf_err make_resident(const struct sph_trace_input *in) {
  struct trace_state *g = &g_trace;
  const struct particle_set *p = in->particles;
  const struct bvh *t = in->tree;
  if (g->resident && g->particles_key == p && g->tree_key == t && g->pos_key == p->pos_cm &&
      g->atoms_key == p->n_h_atoms && g->nodes_key == t->nodes && g->order_key == t->order && g->n == p->count &&
      g->n_nodes == t->n_nodes && g->n_leaves == t->n_leaves && g->root == t->root)
    return IONF_OK;
  g->resident = 0;
  int64_t n = p->count;
  std::vector<double> xyzh((size_t)(4 * n)), atoms((size_t)n);
  double h_max = 0.0;
#pragma omp parallel for reduction(max : h_max) schedule(static)
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = t->order[s];
    for (int a = 0; a < 3; ++a) xyzh[(size_t)(4 * s + a)] = p->pos_cm[3 * i + a];
    xyzh[(size_t)(4 * s + 3)] = p->h_cm[i];
    h_max = fmax(h_max, p->h_cm[i]);
    atoms[(size_t)s] = p->n_h_atoms[i];
  }
  g->h_max_cm = h_max;
  IONF_CALL(dbuf_ensure(&g->xyzh, xyzh.size() * sizeof(double), "sorted particles"));
  IONF_CALL(dbuf_ensure(&g->n_h_atoms, atoms.size() * sizeof(double), "hydrogen atoms"));
  IONF_CALL(dbuf_ensure(&g->nodes, (size_t)t->n_nodes * sizeof(struct bvh_node), "tree nodes"));
  IONF_CALL(dbuf_ensure(&g->leaves, (size_t)t->n_leaves * sizeof(struct bvh_leaf), "tree leaves"));
  IONF_CALL(dbuf_ensure(&g->order, (size_t)n * sizeof(int32_t), "sorted order"));
  TRACE_CUDA(cudaMemcpyAsync(g->xyzh.p, xyzh.data(), xyzh.size() * sizeof(double),
                        cudaMemcpyHostToDevice, g->stream), "copy of the particles");
  TRACE_CUDA(cudaMemcpyAsync(g->n_h_atoms.p, atoms.data(), atoms.size() * sizeof(double),
                        cudaMemcpyHostToDevice, g->stream), "copy of the hydrogen atoms");
  if (t->n_nodes > 0)
    TRACE_CUDA(cudaMemcpyAsync(g->nodes.p, t->nodes, (size_t)t->n_nodes * sizeof(struct bvh_node),
                          cudaMemcpyHostToDevice, g->stream), "copy of the tree nodes");
  if (t->n_nodes > 0) {
    std::vector<struct bvh4_slot> slots((size_t)(4 * (int64_t)t->n_nodes));
    slots4_fill(t, slots.data());
    IONF_CALL(dbuf_ensure(&g->slots4, slots.size() * sizeof(struct bvh4_slot), "tree (four-wide)"));
    TRACE_CUDA(cudaMemcpyAsync(g->slots4.p, slots.data(), slots.size() * sizeof(struct bvh4_slot),
                          cudaMemcpyHostToDevice, g->stream), "copy of the tree (four-wide)");
    TRACE_CUDA(cudaStreamSynchronize(g->stream), "the upload of the tree"); /* slots dies here */
  }
  if (t->n_leaves > 0)
    TRACE_CUDA(cudaMemcpyAsync(g->leaves.p, t->leaves, (size_t)t->n_leaves * sizeof(struct bvh_leaf),
                          cudaMemcpyHostToDevice, g->stream), "copy of the tree leaves");
  if (n > 0)
    TRACE_CUDA(cudaMemcpyAsync(g->order.p, t->order, (size_t)n * sizeof(int32_t),
                          cudaMemcpyHostToDevice, g->stream), "copy of the sorted order");
  /* on the trace stream and waited for: a plain cudaMemcpy from pageable memory may still
     be in flight when it returns, and the trace stream (non-blocking) would not wait for it;
     the host vectors above must also outlive the copies */
  TRACE_CUDA(cudaStreamSynchronize(g->stream), "the upload of the particles and the tree");
  g->particles_key = p;
  g->tree_key = t;
  g->pos_key = p->pos_cm;
  g->atoms_key = p->n_h_atoms;
  g->nodes_key = t->nodes;
  g->order_key = t->order;
  g->n = n;
  g->n_nodes = t->n_nodes;
  g->n_leaves = t->n_leaves;
  g->root = t->root;
  g->resident = 1;
  return IONF_OK;
}

static ionf_err upload(struct dbuf *b, const void *src, size_t bytes, const char *what) {
  IONF_CALL(dbuf_ensure(b, bytes, what));
  if (bytes) TRACE_CUDA(cudaMemcpyAsync(b->p, src, bytes, cudaMemcpyHostToDevice, g_trace.stream), what);
  return IONF_OK;
}

/* With helium: the band tables to the device (*bv: in->bands with device pointers). */
static ionf_err upload_bands(const struct sph_trace_input *in, struct bands_view *bv) {
  struct trace_state *g = &g_trace;
  *bv = in->bands;
  size_t sig = (size_t)(bv->n_bins * BANDS_N_ABSORBERS) * sizeof(double);
  size_t tb = (size_t)bv->n_bins * BANDS_NODES * BANDS_NODE_VALUES * sizeof(double);
  IONF_CALL(upload(&g->band[0], bv->sigma_cm2, sig, "band cross-sections"));
  IONF_CALL(upload(&g->band[1], bv->table, tb, "band tables"));
  bv->table = (const double *)g->band[1].p;
  if (bv->e_table) { /* the energy table only when built */
    IONF_CALL(upload(&g->band[2], bv->e_table, tb, "band tables"));
    bv->e_table = (const double *)g->band[2].p;
  }
  bv->sigma_cm2 = (const double *)g->band[0].p;
  if (bv->whole.n_bands) { /* the whole-band tables */
    const size_t wb = sizeof(double) * (size_t)bv->whole.doubles;
    IONF_CALL(upload(&g->band[3], bv->whole.table, wb, "whole-band tables"));
    bv->whole.table = (const double *)g->band[3].p;
    if (bv->whole.e_table) {
      IONF_CALL(upload(&g->band[4], bv->whole.e_table, wb, "whole-band tables"));
      bv->whole.e_table = (const double *)g->band[4].p;
    }
  }
  return IONF_OK;
}

/* The pass's uploads: directions (when prepared), the column table (once), the sources,
   x_HII (with helium: every species, and the band tables into *bv); the per-pass buffers;
   the rate tables (*tv: in->tables with device pointers). */
static ionf_err upload_inputs(const struct sph_trace_input *in, const struct sph_trace_prep *prep,
                              int heating, struct photo_table_view *tv, struct bands_view *bv) {
  struct trace_state *g = &g_trace;
  int64_t n = in->particles->count, ns = in->sources.count;
  if (prep->dirs) {
    IONF_CALL(upload(&g->dirs, prep->dirs, (size_t)(3 * prep->n_rays) * sizeof(double),
                     "ray directions"));
    g->dirs_nside = prep->nside;
    g->dirs_first = prep->ray_first;
    g->dirs_stride = prep->ray_stride;
  }
  if (!g->table_ready) { /* the column table is the same for every pass */
    IONF_CALL(upload(&g->table, prep->column_table, sizeof prep->column_table,
                     "kernel column table"));
    g->table_ready = 1;
  }
  IONF_CALL(upload(&g->src_pos, in->sources.pos_cm, (size_t)(3 * ns) * sizeof(double),
                   "source positions"));
  IONF_CALL(upload(&g->src_ndot, in->sources.ndot_per_s, (size_t)ns * sizeof(double),
                   "source photon rates"));
  const int n_sp = sph_trace_species(in);
  const size_t all = (size_t)(n_sp * n) * sizeof(double);
  if (n_sp == 1) {
    IONF_CALL(upload(&g->x_hii, in->x_hii, (size_t)n * sizeof(double), "ionized fractions"));
    IONF_CALL(dbuf_ensure(&g->n_hi, (size_t)n * sizeof(double), "neutral atoms"));
  } else { /* helium: the species blocks packed n apart, the absorbers, the band tables */
    IONF_CALL(dbuf_ensure(&g->x_hii, all, "ion fractions"));
    for (int sp = 0; sp < n_sp && n > 0; ++sp)
      TRACE_CUDA(cudaMemcpyAsync((double *)g->x_hii.p + sp * n, in->x_hii + sp * in->species_stride,
                                 (size_t)n * sizeof(double), cudaMemcpyHostToDevice, g->stream),
                 "ion fractions");
    IONF_CALL(dbuf_ensure(&g->absorbers, (size_t)n * sizeof(struct sph_absorbers), "absorbers"));
    IONF_CALL(upload_bands(in, bv));
  }
  IONF_CALL(dbuf_ensure(&g->gamma_s, all, "rates"));
  IONF_CALL(dbuf_ensure(&g->gamma_out, all, "rates (particle order)"));
  if (heating) {
    IONF_CALL(dbuf_ensure(&g->heat_s, all, "heating rates"));
    IONF_CALL(dbuf_ensure(&g->heat_out, all, "heating (particle order)"));
  }
  *tv = in->tables;
  if (!tv->grey) {
    size_t tb = (size_t)(tv->num_tau + 1) * sizeof(double);
    const double *host[4] = {tv->sp[SPECIES_HI].thick, tv->sp[SPECIES_HI].thin,
                             tv->sp[SPECIES_HI].heat_thick, tv->sp[SPECIES_HI].heat_thin};
    for (int k = 0; k < 4; ++k)
      if (host[k]) IONF_CALL(upload(&g->photo[k], host[k], tb, "rate tables"));
    tv->sp[SPECIES_HI].thick = (const double *)g->photo[0].p;
    tv->sp[SPECIES_HI].thin = (const double *)g->photo[1].p;
    tv->sp[SPECIES_HI].heat_thick = tv->sp[SPECIES_HI].heat_thick ? (const double *)g->photo[2].p : NULL;
    tv->sp[SPECIES_HI].heat_thin = tv->sp[SPECIES_HI].heat_thin ? (const double *)g->photo[3].p : NULL;
    if (tv->inv_tau) { /* the nodes' inverses (photo_table_locate_fast) */
      IONF_CALL(upload(&g->photo[4], tv->inv_tau, tb, "rate tables"));
      tv->inv_tau = (const double *)g->photo[4].p;
    }
  }
  return IONF_OK;
}

/* Neutral atoms per sorted slot, and the check of x_HII in [0, 1] (sph_trace_prepare
   left the scan to this kernel): the first bad particle fails the pass. */
static ionf_err neutral_atoms(const struct sph_trace_input *in, cudaStream_t st) {
  struct trace_state *g = &g_trace;
  int64_t n = in->particles->count;
  if (n == 0) return IONF_OK;
  IONF_CALL(dbuf_ensure(&g->bad_x, sizeof(unsigned long long), "input check"));
  unsigned long long *bad = (unsigned long long *)g->bad_x.p, bad_host = 0;
  TRACE_CUDA(cudaMemsetAsync(bad, 0xff, sizeof *bad, st), "clear");
  const int helium = sph_trace_species(in) == 3;
  if (helium)
    absorbers_kernel<<<trace_blocks_for(n), TRACE_THREADS, 0, st>>>(
        (const double *)g->n_h_atoms.p, (const double *)g->x_hii.p, (const int32_t *)g->order.p,
        n, in->abundance_he, (struct sph_absorbers *)g->absorbers.p, bad);
  else
    neutral_kernel<<<trace_blocks_for(n), TRACE_THREADS, 0, st>>>(
        (const double *)g->n_h_atoms.p, (const double *)g->x_hii.p, (const int32_t *)g->order.p,
        n, (double *)g->n_hi.p, bad);
  TRACE_CUDA(cudaMemcpyAsync(&bad_host, bad, sizeof bad_host, cudaMemcpyDeviceToHost, st),
             "input check");
  TRACE_CUDA(cudaStreamSynchronize(st), "input check");
  if (bad_host == ~0ull) return IONF_OK;
  if (!helium) return sph_trace_bad_x_hii((int64_t)bad_host, in->x_hii[bad_host]);
  int64_t k = (int64_t)bad_host, sp = k / n, i = k % n;
  return sph_trace_bad_x_ion(sp * in->species_stride + i, in->species_stride,
                             in->x_hii[sp * in->species_stride + i]);
}

/* What the traversal and the walk read (device pointers of the resident state). */
static void scene_and_walk(const struct sph_trace_input *in, const struct sph_trace_prep *prep,
                           const struct photo_table_view *tv, const struct bands_view *bv,
                           int heating, struct trace_scene *s, struct trace_walk *w) {
  const struct trace_state *g = &g_trace;
  const struct bvh *tree = in->tree;
  s->xyzh = (const double *)g->xyzh.p;
  s->nodes = (const struct bvh_node *)g->nodes.p;
  s->slots4 = (const struct bvh4_slot *)g->slots4.p;
  s->leaves = (const struct bvh_leaf *)g->leaves.p;
  s->root = tree->root;
  s->n_leaves = tree->n_leaves;
  s->height = tree->height;
  s->root_box = tree->root_box;
  s->dirs = (const double *)g->dirs.p;
  s->src_pos = (const double *)g->src_pos.p;
  s->n_rays = prep->n_rays;
  s->n_rays_source = prep->n_rays_source;
  s->r_max_cm = in->r_max_cm;
  s->reach = in->r_max_cm > 0.0 ? in->r_max_cm + g->h_max_cm : INFINITY;
  s->h_max_cm = g->h_max_cm;
  s->table = (const double *)g->table.p;
  s->periodic = prep->periodic;
  for (int a = 0; a < 3; ++a) s->box_cm[a] = prep->box_cm[a];
  w->tv = *tv;
  w->heating = heating;
  w->ndot = (const double *)g->src_ndot.p;
  w->n_hi = (const double *)g->n_hi.p;
  w->gamma = (double *)g->gamma_s.p;
  w->heat = (double *)g->heat_s.p;
  w->n_species = sph_trace_species(in);
  w->n = in->particles->count;
  w->bands = *bv;
  w->absorbers = (const struct sph_absorbers *)g->absorbers.p;
}

/* The rays with the tuning's schedule: one warp per ray unless the tree is too deep for
   it or the schedule is THREAD; a pass the warp schedule finds too dense is traced again
   with one thread per ray.  stats: the schedule that traced, the warp's window counts. */
static ionf_err trace_rays(const struct sph_trace_input *in, const struct trace_scene *s,
                           const struct trace_walk *w, int64_t total_rays, int heating,
                           cudaStream_t st, int64_t *hits, struct sph_trace_stats *stats) {
  struct trace_state *g = &g_trace;
  const struct sph_trace_tuning *tuning = &in->tuning;
  int64_t n = in->particles->count * sph_trace_species(in); /* the rates to clear */
  IONF_CHECK(tuning->schedule == SPH_TRACE_SCHEDULE_WARP ||
                 tuning->schedule == SPH_TRACE_SCHEDULE_THREAD,
             IONF_ERR_CONFIG, "GPU particle tracer: tuning.schedule = %d: give warp (%d) or "
             "thread (%d)", (int)tuning->schedule, (int)SPH_TRACE_SCHEDULE_WARP,
             (int)SPH_TRACE_SCHEDULE_THREAD);
  int use_warp = tuning->schedule == SPH_TRACE_SCHEDULE_WARP;
  if (use_warp && in->tree->height > WARP_RAYS_MAX_HEIGHT) use_warp = 0;
  *hits = 0;
  for (int attempt = 0; attempt < 2 && in->particles->count > 0; ++attempt) {
    TRACE_CUDA(cudaMemsetAsync(g->gamma_s.p, 0, (size_t)n * sizeof(double), st), "clear");
    if (heating)
      TRACE_CUDA(cudaMemsetAsync(g->heat_s.p, 0, (size_t)n * sizeof(double), st), "clear");
    if (!use_warp) {
      IONF_CALL(sph_trace_thread_rays(s, w, total_rays, tuning->hit_capacity, st,
                                      &g->thread_rays, hits));
      break;
    }
    int too_dense = 0;
    IONF_CALL(sph_trace_warp_rays(s, w, total_rays, tuning, st, &g->warp_rays, hits, &too_dense,
                                  stats));
    if (!too_dense) break;
    ionf_warning("GPU particle tracer: a ray has more than a window's hits at one distance; "
                 "this pass is traced again with one thread per ray");
    use_warp = 0;
  }
  stats->schedule = use_warp ? SPH_TRACE_SCHEDULE_WARP : SPH_TRACE_SCHEDULE_THREAD;
  TRACE_CUDA(cudaStreamSynchronize(st), "tracing pass");
  return IONF_OK;
}

/* The rates from sorted slots to particle order, and to the caller's arrays. */
static ionf_err rates_out(const struct sph_trace_input *in, struct sph_trace_output *out,
                          int heating, cudaStream_t st) {
  struct trace_state *g = &g_trace;
  int64_t n = in->particles->count;
  if (n == 0) return IONF_OK;
  const int ns = sph_trace_species(in);
  const int64_t stride = ns == 3 ? in->species_stride : 0; /* the caller's blocks */
  for (int sp = 0; sp < ns; ++sp) { /* species blocks n apart on the device */
    scatter_kernel<<<trace_blocks_for(n), TRACE_THREADS, 0, st>>>(
        (const double *)g->gamma_s.p + sp * n, (const int32_t *)g->order.p, n,
        (double *)g->gamma_out.p + sp * n);
    if (heating)
      scatter_kernel<<<trace_blocks_for(n), TRACE_THREADS, 0, st>>>(
          (const double *)g->heat_s.p + sp * n, (const int32_t *)g->order.p, n,
          (double *)g->heat_out.p + sp * n);
    TRACE_CUDA(cudaMemcpyAsync(out->gamma_hi_per_s + sp * stride, (double *)g->gamma_out.p + sp * n,
                               (size_t)n * sizeof(double), cudaMemcpyDeviceToHost, st),
               "copy of the rates");
    if (heating)
      TRACE_CUDA(cudaMemcpyAsync(out->heating_erg_per_s + sp * stride,
                                 (double *)g->heat_out.p + sp * n, (size_t)n * sizeof(double),
                                 cudaMemcpyDeviceToHost, st), "copy of the heating rates");
  }
  TRACE_CUDA(cudaStreamSynchronize(st), "copy of the rates");
  for (int sp = 0; sp < ns && in->heating && !heating; ++sp)
    memset(out->heating_erg_per_s + sp * stride, 0, (size_t)n * sizeof(double));
  return IONF_OK;
}

/* One pass after the host preparation; stats: hits, schedule, windows, phase times. */
static ionf_err trace_pass(const struct sph_trace_input *in, struct sph_trace_output *out,
                           const struct sph_trace_prep *prep, struct sph_trace_stats *stats) {
  struct trace_state *g = &g_trace;
  int heating = in->heating && (sph_trace_species(in) == 3 ? in->bands.heating : in->tables.heating);
  double t0 = omp_get_wtime();
  if (!g->stream)
    TRACE_CUDA(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), "stream creation");
  IONF_CALL(make_resident(in));
  cudaStream_t st = g->stream;
  double t_resident = omp_get_wtime();
  struct photo_table_view tv;
  struct bands_view bv;
  memset(&bv, 0, sizeof bv);
  IONF_CALL(upload_inputs(in, prep, heating, &tv, &bv));
  IONF_CALL(neutral_atoms(in, st));
  struct trace_scene s;
  struct trace_walk w;
  scene_and_walk(in, prep, &tv, &bv, heating, &s, &w);
  int64_t total_rays = in->sources.count * prep->n_rays, hits = 0;
  double t_upload = omp_get_wtime();
  IONF_CALL(trace_rays(in, &s, &w, total_rays, heating, st, &hits, stats));
  double t_trace = omp_get_wtime();
  IONF_CALL(rates_out(in, out, heating, st));
  stats->hits = hits;
  stats->resident_s = t_resident - t0;
  stats->upload_s = t_upload - t_resident;
  stats->trace_s = t_trace - t_upload;
  stats->rates_out_s = omp_get_wtime() - t_trace;
  return IONF_OK;
}

extern "C" ionf_err sph_trace_cuda(const struct sph_trace_input *in, struct sph_trace_output *out,
                                   struct sph_trace_stats *stats) {
  double t0 = omp_get_wtime();
  IONF_CHECK(cuda_util_device_count() > 0, IONF_ERR_UNSUPPORTED,
             "sph_trace_cuda: no CUDA device found");
  struct sph_trace_prep prep;
  int64_t nside = 0;
  unsigned what = 0;
  int64_t first = 0, stride = 1, share = 0;
  if (sph_rays_nside(in->n_rays, &nside) == IONF_OK &&
      sph_trace_ray_share(in, &first, &stride, &share) == IONF_OK &&
      (nside != g_trace.dirs_nside || first != g_trace.dirs_first || stride != g_trace.dirs_stride))
    what |= SPH_PREP_DIRECTIONS; /* else the device copy stands (errors: prepare says) */
  IONF_CALL(sph_trace_prepare(in, out, what, &prep));
  struct sph_trace_stats pass;
  memset(&pass, 0, sizeof pass);
  pass.prepare_s = omp_get_wtime() - t0;
  ionf_err rc = trace_pass(in, out, &prep, &pass);
  sph_trace_prep_free(&prep);
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  if (stats) {
    *stats = pass;
    stats->rays = in->sources.count * prep.n_rays;
    stats->seconds = omp_get_wtime() - t0;
  }
  return IONF_OK;
}
