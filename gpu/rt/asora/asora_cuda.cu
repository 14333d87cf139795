/**
 * @file asora_cuda.cu
 * @brief ASORA on the GPU, behind the tracer interface (src/rt/asora/asora.h):
 *        the fields and rates are the CUDA backend's arrays in GPU memory.
 *
 * Kernels (the per-cell maths is src/rt/asora/asora_k.h, shared with the CPU):
 *  - asora_trace_kernel: one block per source of a batch; the source's cells
 *    in cube shells h = 0, 1, ..., a block barrier between shells (every
 *    upstream neighbour of shell h is in shell h - 1); Gamma by double-precision
 *    atomicAdd.  With a photon radius only the shell's cells inside it get lanes
 *    (its rows clipped to the sphere, asora_cube_shell_row).  Each source in flight
 *    has a column buffer: two shell buffers (struct asora_columns' shell layout: shell h
 *    written in one, shell h - 1 read from the other, each face by face (struct
 *    asora_shell_faces), so a warp's reads and writes are consecutive on every face and a
 *    cell's four upstream neighbours are one index less strides), sized by the largest
 *    shell of its domain: memory follows the work.
 *    With raytracing.transmission_cutoff (CUT 1) a source is done at the first shell none
 *    of whose cells passes light on (every outgoing column above the tables'
 *    opaque_cm2): the cells behind would take no rate.
 *  - asora_whole_kernel: the same when every source's domain is whole (a periodic box):
 *    the lanes and each lane's place in the shell buffers (struct asora_cell_place) from
 *    the pass's lane table, the cell step asora_cell_step_placed; no per-shell set-up.
 *  - asora_shell_kernel: for few sources, one launch per cube shell with many
 *    blocks per source, so one source (Test 1) still fills the GPU.
 */
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/rt/asora/asora_kinds.h" /* C++: templates */

extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/rt/asora/asora_geometry.h"
#include "gpu/rt/asora/asora_lanes.h"
#include "gpu/rt/tracer_cuda.h"
#include "grid/sources.h"
#include "rt/asora/asora.h"
#include "rt/asora/asora_cell_k.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define TRACE_THREADS 256
/* blocks of the block-per-source kernel per SM (the register cap: 4 -> 64 registers) */
#ifndef ASORA_TRACE_MIN_BLOCKS
#define ASORA_TRACE_MIN_BLOCKS 4
#endif
/* the same for helium with whole-band tables (more registers for the bicubic tables) */
#ifndef ASORA_TRACE_WB_MIN_BLOCKS
#define ASORA_TRACE_WB_MIN_BLOCKS 2
#endif
/* rows of a cube shell a block lays out in shared memory (6 (2h + 1) for shell h: up to
   R = 42 cells); shells with more rows, or no photon radius, go face by face */
#define TRACE_ROWS_MAX 512
/* lanes of a shell laid out at once (a shell's cells inside the sphere: at most 8658 at
   R = 30, 16986 at R = 42) */
#define TRACE_MAP_MAX 8192

struct trace_kernel_args {
  const double *n_h_cm3;
  const double *x_ion_av;       /* [species][box cells] */
  const double *n_abs_cm3;      /* [species][box cells] the pass's absorber densities */
  const double *split;          /* [3][box cells] the X-ray electrons' split, or NULL */
  const double *geo;            /* the stencils' geometry by |d| (asora_stencil_geometry), or NULL */
  int geo_side;
  double abundance_he;          /* n_He / n_H */
  double *gamma;                /* [species][box cells] */
  double *heat;                 /* [species][box cells] photo-heating (thermal runs), else NULL */
  double *columns;              /* batch x column_stride (each: the domain's box, or with
                                   shell_layout two shell buffers of column_stride / 2
                                   doubles, [cell][species]) */
  long long column_stride;
  int shell_layout;             /* columns in two shell buffers (else the domain's box) */
  const int *src_ijk;           /* this rank's sources */
  const double *src_ndot;
  long long first;              /* first source of the batch (index into src_*) */
  long long count;              /* sources in the batch */
  long long n;
  int periodic;
  struct grid_box box;
  double cell_cm;
  double r_max_cells;
  struct photo_table_view tables;
  struct bands_view bands;
  unsigned long long *cells_visited;
  unsigned long long *next_source; /* asora_whole_kernel's next source (from 0 each pass) */
  /* the pass's lanes of a whole (unclipped) domain [-lane_h, lane_h]^3 inside the photon
     sphere, shell by shell (asora_lanes_build), or NULL */
  const unsigned *lanes;
  const int *lane_start;        /* shell h's lanes: lanes[lane_start[h] .. lane_start[h + 1]) */
  int lane_h;
  /* each lane's struct asora_cell_place in the lane table's four parts (asora_lanes.h): at[4]
     and (store[3], corner) as int4 at places[t], places[lane_count + t]; geo as double2 at
     place_geo[t], place_geo[lane_count + t]; or NULL */
  const int4 *places;
  const double2 *place_geo;
  int lane_count;
};

/* What tracing source s needs, from the kernel arguments; with helium the band tables of
   the kernel's kind alone (WB: whole bands, else sub-bins), so that the other kind's code
   is compiled out (bands_rates tests their counts). */
template <int WB>
__device__ static void source_view(const struct trace_kernel_args *a, long long s,
                                   struct asora_source_view *v) {
  v->n_h_cm3 = a->n_h_cm3;
  v->x_ion_av = a->x_ion_av;
  v->n_abs_cm3 = a->n_abs_cm3;
  v->split = a->split;
  v->geo = a->geo;
  v->geo_side = a->geo_side;
  v->abundance_he = a->abundance_he;
  v->n = a->n;
  v->periodic = a->periodic;
  v->box = a->box;
  v->cell_cm = a->cell_cm;
  v->src[0] = a->src_ijk[3 * s];
  v->src[1] = a->src_ijk[3 * s + 1];
  v->src[2] = a->src_ijk[3 * s + 2];
  v->ndot_per_s = a->src_ndot[s];
  asora_domain_make(v->src, a->n, a->periodic, &a->box, a->r_max_cells, &v->dom);
  v->tables = a->tables;
  v->bands = a->bands;
  if (WB)
    v->bands.n_bins = 0;
  else
    v->bands.whole.n_bands = 0;
}

/* The margin of add_rates's exit test (relative): far above the few double roundings of
   asora_column_in's weighted mean. */
#define TRACE_EXIT_MARGIN 1e-12

/* One traced cell's rates (box cell idx) onto Gamma (and heating) of every species (NS of
   them).  With CUT (raytracing.transmission_cutoff) returns 1 where the cell passes light
   on: one of its outgoing columns below the tables' opaque_cm2 with a margin for rounding
   (a cell of the next shell, whose incoming column is a weighted mean of such columns,
   then takes no rate either); 0 otherwise and without CUT. */
template <int NS, int CUT>
__device__ static int add_rates(const struct trace_kernel_args *a, long long idx, const double *g,
                                const double *heat, const double *col_out, long long cells) {
  int open = 0;
  for (int s = 0; s < NS; ++s) {
    long long at = s * cells + idx;
    if (g[s] != 0.0) atomicAdd(&a->gamma[at], g[s]);
    if (a->heat && heat[s] != 0.0) atomicAdd(&a->heat[at], heat[s]);
    if (CUT) open = open || col_out[s] < a->tables.sp[s].opaque_cm2 * (1.0 + TRACE_EXIT_MARGIN);
  }
  return open;
}

/* One cell traced (asora_cell_step) and its rates added (add_rates): 0 beyond the photon
   radius. */
template <int NS, int CUT>
__device__ static int add_cell(const struct trace_kernel_args *a, const struct asora_source_view *v,
                               const struct asora_columns *cols, int di, int dj, int dk,
                               long long cells, unsigned long long *visited) {
  long long idx;
  double g[NS], heat[NS], col_out[NS];
  /* heat always points at registers (a pointer chosen at run time would put the array in
     local memory); the tables say whether it is computed, a->heat whether it is kept */
  if (!asora_cell_step(v, NS, a->shell_layout, CUT, cols, di, dj, dk, &idx, g, heat, col_out))
    return 0;
  ++*visited;
  return add_rates<NS, CUT>(a, idx, g, heat, col_out, cells);
}

/*
 * A shell's rows inside the photon sphere laid out for the block (asora_cube_shell_row):
 * each thread sizes ROWS_MAX / THREADS rows, a block scan gives each row's first lane
 * (first[r]; first[rows] = the total), and info[r] packs the row's face f, its u and its
 * first v (f | (u + 64) << 3 | (v_first + 64) << 10: |u|, |v| <= h <= 42 here).
 * Returns the shell's cells inside the sphere (the lanes the block runs).
 */
template <int THREADS>
__device__ static int shell_rows(const struct asora_cube_shell &cs, double r2_max, int *first,
                                 unsigned *info) {
  constexpr int ITEMS = (TRACE_ROWS_MAX + THREADS - 1) / THREADS;
  typedef cub::BlockScan<int, THREADS> scan_t;
  __shared__ typename scan_t::TempStorage tmp;
  int count[ITEMS];
  unsigned packed[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    int r = (int)threadIdx.x * ITEMS + i, f = 0, u = 0, vf = 0;
    count[i] = r < cs.row_start[6] ? asora_cube_shell_row(&cs, r, r2_max, &f, &u, &vf) : 0;
    packed[i] = (unsigned)f | (unsigned)(u + 64) << 3 | (unsigned)(vf + 64) << 10;
  }
  int total;
  scan_t(tmp).ExclusiveSum(count, count, total);
  for (int i = 0; i < ITEMS; ++i) {
    int r = (int)threadIdx.x * ITEMS + i;
    if (r < cs.row_start[6]) {
      first[r] = count[i];
      info[r] = packed[i];
    }
  }
  if (threadIdx.x == 0) first[cs.row_start[6]] = total;
  return total;
}

template <int THREADS, int MIN_BLOCKS, int NS, int CUT, int WB>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    asora_trace_kernel(struct trace_kernel_args a) {
  if (blockIdx.x >= a.count) return;
  struct asora_source_view v;
  source_view<WB>(&a, a.first + blockIdx.x, &v);
  double *buffers = a.columns + (long long)blockIdx.x * a.column_stride;
  const long long half = a.column_stride / 2;
  const long long cells = grid_box_cells(&a.box); /* species stride of gamma and heat */
  int h_max = asora_domain_h_max(&v.dom);
  unsigned long long visited = 0;
  /* shells h and h - 1 (cube[h & 1], cube[(h + 1) & 1]), one copy per block, not 200 B per
     thread; their columns in the two halves of the block's buffer alike */
  __shared__ struct asora_cube_shell cube[2];
  __shared__ struct asora_shell_faces faces[2]; /* the shell layout's columns of h, h - 1 */
  __shared__ int row_first[TRACE_ROWS_MAX + 1];
  __shared__ unsigned row_info[TRACE_ROWS_MAX];
  __shared__ unsigned short lane_map[TRACE_MAP_MAX];
  const int clip = a.r_max_cells > 0.0;
  /* a whole domain (most sources of a periodic box): its lanes from the pass's table */
  int whole = a.lanes != NULL && v.dom.r2_max_cells == a.r_max_cells * a.r_max_cells;
  for (int ax = 0; ax < 3; ++ax)
    whole = whole && v.dom.lo[ax] == -a.lane_h && v.dom.hi[ax] == a.lane_h;
  /* CUT: whether a cell of shell h passes light on (add_cell), set in lit[h % 3] during
     shell h and read after it; lit[(h + 1) % 3] is cleared before, where no thread can
     still be reading it */
  __shared__ int lit[3];
  if (CUT && threadIdx.x == 0) lit[0] = 0;
  for (int h = 0; h <= h_max; ++h) {
    if (threadIdx.x == 0) {
      if (CUT) lit[(h + 1) % 3] = 0;
      if (!whole) asora_cube_shell_make(&v.dom, h, &cube[h & 1]);
      if (a.shell_layout) asora_shell_faces_make(&v.dom, h, &faces[h & 1]);
    }
    __syncthreads();
    const struct asora_cube_shell &cs = cube[h & 1];
    const struct asora_columns cols =
        a.shell_layout ? (struct asora_columns){NULL, &faces[h & 1], &faces[(h + 1) & 1],
                                                buffers + (h & 1) * half, buffers + ((h + 1) & 1) * half}
                       : (struct asora_columns){buffers, NULL, NULL, NULL, NULL};
    int open = 0; /* CUT: a cell of this thread's passes light on */
    /* Which cells get lanes, in one loop (one add_cell: its registers are the kernel's):
       whole (0): the pass's lane table; mapped (1): only the cells inside the photon
       sphere (the same cells as below: those beyond it return at once there), in half the
       warps at R = 30, lane t's row and place in it from a map in shared memory (lane_map[t]
       = row << 7 | v - v_first, up to TRACE_MAP_MAX lanes at a time), filled a warp per row;
       else (2) every cell of the cube shell */
    const int rows = whole ? 0 : cs.row_start[6];
    const int how = whole ? 0 : (clip && rows <= TRACE_ROWS_MAX ? 1 : 2);
    const int first = whole ? a.lane_start[h] : 0;
    const int lanes = how == 0 ? a.lane_start[h + 1] - first
                      : how == 1 ? shell_rows<THREADS>(cs, v.dom.r2_max_cells, row_first, row_info)
                                 : (int)cs.start[6];
    const int chunk = how == 1 ? TRACE_MAP_MAX : (lanes > 0 ? lanes : 1);
    const int warp = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31;
    for (int base = 0; base < lanes; base += chunk) {
      const int end = lanes - base < chunk ? lanes : base + chunk;
      if (how == 1) {
        __syncthreads(); /* the rows laid out; the map free (the chunk before is done) */
        for (int r = warp; r < rows; r += THREADS / 32) {
          const int row0 = row_first[r];
          const int lo = row0 > base ? row0 : base;
          const int hi = row_first[r + 1] < end ? row_first[r + 1] : end;
          for (int t = lo + lane; t < hi; t += 32)
            lane_map[t - base] = (unsigned short)(r << 7 | (t - row0));
        }
        __syncthreads();
      }
      for (int t = base + (int)threadIdx.x; t < end; t += THREADS) {
        int di, dj, dk;
        if (how == 0) { /* packed (di + 512) | (dj + 512) << 10 | (dk + 512) << 20 */
          const unsigned p = a.lanes[first + t];
          di = (int)(p & 1023u) - 512;
          dj = (int)((p >> 10) & 1023u) - 512;
          dk = (int)(p >> 20) - 512;
        } else if (how == 1) {
          const unsigned m = lane_map[t - base], info = row_info[m >> 7];
          asora_cube_shell_face_cell(&cs, (int)(info & 7u), (int)((info >> 3) & 127u) - 64,
                                     (int)((info >> 10) & 127u) - 64 + (int)(m & 127u), &di,
                                     &dj, &dk);
        } else {
          asora_cube_shell_cell(&cs, t, &di, &dj, &dk);
        }
        open |= add_cell<NS, CUT>(&a, &v, &cols, di, dj, dk, cells, &visited);
      }
    }
    if (CUT && open) atomicOr(&lit[h % 3], 1);
    __syncthreads(); /* shell h is complete (and shell h - 1's buffer and cube, the rows
                        free) before shell h + 1 */
    if (CUT && !lit[h % 3]) break; /* no later shell takes any rate */
  }
  typedef cub::BlockReduce<unsigned long long, THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  unsigned long long total = reduce_t(tmp).Sum(visited);
  if (threadIdx.x == 0) atomicAdd(a.cells_visited, total);
}

/* p, the compiler no longer seeing how it was made: kept as one pointer (a lane's index
   into it then costs one instruction), not rebuilt from the kernel argument and a 64-bit
   offset at every use. */
template <typename T> __device__ static T *opaque(T *p) {
  asm("" : "+l"(p));
  __builtin_assume(__isGlobal(p)); /* (global loads and stores, not generic ones) */
  return p;
}

/*
 * The block-per-source kernel for passes whose every domain is whole ([-H, H]^3, H =
 * lane_h: a periodic box at least 2H + 1 cells a side): shell h's lanes and each lane's
 * place (struct asora_cell_place: its upstream neighbours and its own indices in the shell
 * buffers, the same for every such source) from the pass's lane table, so no thread finds
 * them and no shell needs a set-up or a second barrier.  The same cells, order and per-cell
 * maths (asora_cell_step_placed) as asora_trace_kernel.  Persistent: each block (with its
 * own column buffers) takes the pass's sources one after another from a counter, in their
 * (Morton) order, so the whole pass is one launch with no waves' tails.
 */
template <int THREADS, int MIN_BLOCKS, int NS, int CUT, int WB>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    asora_whole_kernel(struct trace_kernel_args a) {
  double *buffers = a.columns + (long long)blockIdx.x * a.column_stride;
  const long long half = a.column_stride / 2;
  const long long cells = grid_box_cells(&a.box); /* species stride of gamma and heat */
  unsigned long long visited = 0;
  __shared__ long long source; /* the block's source */
  __shared__ int lit[3];       /* CUT: as in asora_trace_kernel */
  for (;;) {
    if (threadIdx.x == 0) {
      source = (long long)atomicAdd(a.next_source, 1ULL);
      if (CUT) lit[0] = 0;
    }
    __syncthreads(); /* the source taken (and lit cleared) before anyone reads them */
    if (source >= a.count) break;
    struct asora_source_view v;
    source_view<WB>(&a, a.first + source, &v);
    for (int h = 0; h <= a.lane_h; ++h) {
      if (CUT && threadIdx.x == 0) lit[(h + 1) % 3] = 0;
      const struct asora_columns cols = {NULL, NULL, NULL, opaque(buffers + (h & 1) * half),
                                         opaque(buffers + ((h + 1) & 1) * half)};
      int open = 0;
      const int end = a.lane_start[h + 1];
      for (int t = a.lane_start[h] + (int)threadIdx.x; t < end; t += THREADS) {
        const unsigned p = a.lanes[t]; /* (di + 512) | (dj + 512) << 10 | (dk + 512) << 20 */
        const int4 p0 = a.places[t], p1 = a.places[a.lane_count + t];
        const double2 g0 = a.place_geo[t], g1 = a.place_geo[a.lane_count + t];
        const struct asora_cell_place pl = {
            {p0.x, p0.y, p0.z, p0.w}, {p1.x, p1.y, p1.z}, p1.w, {g0.x, g0.y, g1.x, g1.y}};
        long long idx;
        double g[NS], heat[NS], col_out[NS];
        asora_cell_step_placed(&v, NS, CUT, &cols, (int)(p & 1023u) - 512,
                               (int)((p >> 10) & 1023u) - 512, (int)(p >> 20) - 512, &pl, &idx,
                               g, heat, col_out);
        ++visited;
        open |= add_rates<NS, CUT>(&a, idx, g, heat, col_out, cells);
      }
      if (CUT && open) atomicOr(&lit[h % 3], 1);
      __syncthreads(); /* shell h is complete (and shell h - 1's buffer free) before h + 1 */
      if (CUT && !lit[h % 3]) break; /* no later shell takes any rate */
    }
    __syncthreads(); /* everyone is done with this source before the next is taken */
  }
  typedef cub::BlockReduce<unsigned long long, THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  unsigned long long total = reduce_t(tmp).Sum(visited);
  if (threadIdx.x == 0) atomicAdd(a.cells_visited, total);
}

/*
 * Few sources (fewer than fill the GPU with one block each): every cell of cube
 * shell h of every source of the batch in one launch, many blocks per source
 * (blockIdx.y = source), one launch per shell; the launch boundary orders the
 * shells.  Same per-cell maths, same results as the block-per-source kernel.
 */
template <int NS, int CUT, int WB>
__global__ void __launch_bounds__(TRACE_THREADS)
    asora_shell_kernel(struct trace_kernel_args a, int h) {
  struct asora_source_view v;
  source_view<WB>(&a, a.first + blockIdx.y, &v);
  if (h > asora_domain_h_max(&v.dom)) return;
  __shared__ struct asora_cube_shell cs;              /* shell h */
  __shared__ struct asora_shell_faces faces, prev;    /* the columns of h and h - 1 */
  if (threadIdx.x == 0) {
    asora_cube_shell_make(&v.dom, h, &cs);
    if (a.shell_layout) asora_shell_faces_make(&v.dom, h, &faces);
    if (h > 0 && a.shell_layout) asora_shell_faces_make(&v.dom, h - 1, &prev);
  }
  __syncthreads();
  /* shell h's columns in half h & 1 of the source's buffer, shell h - 1's in the other
     (the previous launch wrote them); or the domain's box */
  double *buffers = a.columns + (long long)blockIdx.y * a.column_stride;
  const long long half = a.column_stride / 2;
  const struct asora_columns cols =
      a.shell_layout ? (struct asora_columns){NULL, &faces, &prev, buffers + (h & 1) * half,
                                              buffers + ((h + 1) & 1) * half}
                     : (struct asora_columns){buffers, NULL, NULL, NULL, NULL};
  const long long cells = grid_box_cells(&a.box); /* species stride of gamma and heat */
  unsigned long long visited = 0;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < cs.start[6];
       t += (long long)gridDim.x * blockDim.x) {
    int di, dj, dk;
    asora_cube_shell_cell(&cs, t, &di, &dj, &dk);
    add_cell<NS, CUT>(&a, &v, &cols, di, dj, dk, cells, &visited); /* no early end here:
                                                      the cells behind add zeros */
  }
  typedef cub::BlockReduce<unsigned long long, TRACE_THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  unsigned long long total = reduce_t(tmp).Sum(visited);
  if (threadIdx.x == 0 && total) atomicAdd(a.cells_visited, total);
}

/* The pass's absorber densities of the NS species per cell, once (the cell step then
   reads NS fields, not NS + 1, and computes none, for each of the many sources that cross
   a cell); with split (helium's X-rays) each cell's secondary_split_at(x_HII) as well, so
   that no cell step spends six pow() on it. */
template <int NS>
__global__ void asora_absorbers_kernel(const double *n_h_cm3, const double *x_ion_av,
                                       double abundance_he, long long cells, double *n_abs_cm3,
                                       double *split) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells;
       c += (long long)gridDim.x * blockDim.x) {
    double x[NS];
    for (int s = 0; s < NS; ++s) x[s] = x_ion_av[s * cells + c];
    for (int s = 0; s < NS; ++s)
      n_abs_cm3[s * cells + c] = species_absorber_density(s, n_h_cm3[c], x, abundance_he);
    if (split) {
      const struct secondary_split f = secondary_split_at(x[SPECIES_HI]);
      split[c] = f.heat;
      split[cells + c] = f.ion_hi;
      split[2 * cells + c] = f.ion_hei;
    }
  }
}

/* ---- the tracer ---------------------------------------------------------------- */

struct asora_cuda {
  struct asora_tracer_setup s;
  cudaStream_t stream;
  int sm_count;
  struct tracer_cuda_sources src; /* this rank's sources on the device */
  double *d_columns;
  size_t columns_bytes;         /* size of d_columns */
  long long column_stride;      /* doubles per in-flight source */
  long long batch;              /* sources in flight */
  int h_max;                    /* largest cube shell of any source */
  unsigned long long *d_visited; /* cells visited, then asora_whole_kernel's next source */
  double *d_n_abs;              /* the pass's absorber densities, [species][cells], then
                                   with helium's X-rays the split, [3][cells] */
  long long n_abs_values;       /* its size */
  struct asora_geometry geo;    /* the stencils' geometry table (or none) */
  struct asora_lanes lanes;     /* the pass's lane table of whole domains */
};

static struct asora_cuda *cuda_of(struct tracer *t) { return (struct asora_cuda *)t->impl; }

/* Hydrogen whose sources' shells end at TRACE_SMALL_H_MAX: blocks of TRACE_SMALL_THREADS
   (measured on an H200 at R = 13: 4% faster, 9% with 32 sources per SM in flight; at R = 30
   3-8% slower, helium 11% slower). */
#define TRACE_SMALL_H_MAX 16
#define TRACE_SMALL_THREADS 128
static int asora_small_blocks(const struct asora_cuda *ac, int h_max) {
  return ac->s.n_species == 1 && h_max <= TRACE_SMALL_H_MAX;
}

/* Whether every source's domain is whole for photon radius r_max_cells (the lane table's
   [-H, H]^3, H = ceil(r_max_cells)): a periodic grid the box holds whole (every source's
   domain is then the same) at least 2H + 1 cells a side and fewer than 2^32 cells
   (asora_whole_cell). */
static int all_whole(const struct asora_cuda *ac, double r_max_cells) {
  const struct grid *g = &ac->s.grid;
  if (!g->periodic || !(r_max_cells > 0.0) || (double)g->n * g->n * g->n >= 4294967296.0)
    return 0;
  for (int a = 0; a < 3; ++a)
    if (g->box.extent[a] != g->n || g->box.lo[a] != 0) return 0;
  const int origin[3] = {0, 0, 0};
  struct asora_domain dom;
  asora_domain_make(origin, g->n, g->periodic, &g->box, r_max_cells, &dom);
  const int h = (int)ceil(r_max_cells);
  int whole = dom.r2_max_cells == r_max_cells * r_max_cells;
  for (int a = 0; a < 3; ++a) whole = whole && dom.lo[a] == -h && dom.hi[a] == h;
  return whole;
}

/* Sources in flight: enough blocks to fill the GPU several times over, as many
   as half the free memory holds (counting `reusable` bytes of buffers that would
   be freed), never more than there are sources. */
static long long choose_batch(const struct asora_cuda *ac, long long bytes_per_source,
                              size_t reusable) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  long long by_memory =
      (long long)(0.5 * ((double)free_b + (double)reusable) / (double)bytes_per_source);
  /* two waves of the resident blocks; four of the small blocks; where every pass's domains
     will be whole (asora_whole_kernel: its blocks take the sources one by one), one buffer
     per block it keeps resident, 8 (small blocks) or 4 an SM */
  long long want = (asora_small_blocks(ac, ac->h_max) ? 32LL : 8LL) * ac->sm_count;
  if (ac->s.r_max_cells <= ASORA_LANE_PLACES_R_MAX && all_whole(ac, ac->s.r_max_cells))
    want = 8LL * ac->sm_count;
  long long batch = want < by_memory ? want : by_memory;
  if (batch > ac->src.count) batch = ac->src.count;
  return batch < 1 ? 1 : batch;
}

/* A cell's place on the Morton (Z-order) curve: the bits of i, j, k interleaved. */
static unsigned long long morton_key(const int32_t *ijk) {
  unsigned long long key = 0;
  for (int b = 0; b < 21; ++b)
    for (int a = 0; a < 3; ++a)
      key |= (unsigned long long)(((unsigned)ijk[a] >> b) & 1u) << (3 * b + (2 - a));
  return key;
}

struct morton_item {
  unsigned long long key;
  long long index;
};

static int morton_cmp(const void *x, const void *y) {
  const struct morton_item *a = (const struct morton_item *)x, *b = (const struct morton_item *)y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->index < b->index ? -1 : (a->index > b->index);
}

/*
 * The sources in Morton order of their cells: the blocks resident at once (a few hundred
 * sources) then trace neighbouring parts of the grid and share its fields and Gamma in the
 * L2 cache, where a list in cell order spreads them over whole planes.  Only the order in
 * which Gamma's atomic additions meet changes (unordered already).  *out holds copies
 * (free with sources_free); an empty list is passed through.
 */
static ionf_err morton_sources(const struct tracer_sources *src, struct source_list *out) {
  memset(out, 0, sizeof *out);
  if (src->count <= 0) return IONF_OK;
  IONF_CALL(sources_alloc(src->count, out));
  struct morton_item *items =
      (struct morton_item *)malloc(sizeof(struct morton_item) * (size_t)src->count);
  if (!items) {
    sources_free(out);
    return ionf_error_set(IONF_ERR_MEM, "ASORA: no memory to order %lld sources",
                          (long long)src->count);
  }
  for (long long i = 0; i < src->count; ++i) {
    items[i].key = morton_key(src->list->ijk + 3 * (src->first + i));
    items[i].index = src->first + i;
  }
  qsort(items, (size_t)src->count, sizeof *items, morton_cmp);
  for (long long i = 0; i < src->count; ++i) {
    memcpy(out->ijk + 3 * i, src->list->ijk + 3 * items[i].index, 3 * sizeof(int32_t));
    out->ndot_per_s[i] = src->list->ndot_per_s[items[i].index];
  }
  free(items);
  return IONF_OK;
}

/*
 * This rank's sources to the GPU, and the per-source column buffers sized for
 * them (the largest traced domain) with the batch chosen from their count: at
 * set-up and whenever the sources change.  Buffers grow when needed and are
 * otherwise reused; the description says what is in flight.
 */
static ionf_err cuda_set_sources(struct tracer *t, const struct tracer_sources *src) {
  struct asora_cuda *ac = cuda_of(t);
  CUDA_CHECK(cudaStreamSynchronize(ac->stream), "waiting for the GPU before new sources");
  struct source_list ordered;
  IONF_CALL(morton_sources(src, &ordered));
  const struct tracer_sources in_order = {&ordered, 0, src->count > 0 ? src->count : 0};
  ionf_err taken = tracer_cuda_sources_take(&ac->src, src->count > 0 ? &in_order : src);
  sources_free(&ordered);
  IONF_CALL(taken);
  const struct grid *g = &ac->s.grid;
  /* the column buffer (the box, or two cube shells) of the largest traced domain sizes
     every in-flight slot */
  long long stride = 1;
  ac->h_max = 0;
  for (long long i = 0; i < ac->src.count; ++i) {
    const int32_t *p = src->list->ijk + 3 * (src->first + i);
    int ijk[3] = {p[0], p[1], p[2]};
    struct asora_domain dom;
    asora_domain_make(ijk, g->n, g->periodic, &g->box, ac->s.r_max_cells, &dom);
    long long c = ac->s.n_species * (asora_columns_in_shells(ac->s.r_max_cells)
                                         ? 2LL * asora_domain_shell_cells(&dom) /* two shells */
                                         : asora_domain_box_cells(&dom));
    if (c > stride) stride = c;
    int h = asora_domain_h_max(&dom);
    if (h > ac->h_max) ac->h_max = h;
  }
  IONF_CALL(asora_geometry_build(&ac->geo, ac->h_max));
  ac->column_stride = stride;
  ac->batch = choose_batch(ac, stride * (long long)sizeof(double), ac->columns_bytes);
  if (ac->s.source_batch_size > 0)
    ac->batch = ac->s.source_batch_size < ac->src.count ? ac->s.source_batch_size : ac->src.count;
  if (ac->batch < 1) ac->batch = 1;
  size_t used = (size_t)ac->batch * (size_t)stride * sizeof(double);
  if (used > ac->columns_bytes) {
    cudaFree(ac->d_columns);
    ac->d_columns = NULL;
    ac->columns_bytes = 0;
    IONF_CALL(cuda_util_alloc((void **)&ac->d_columns, used, "the per-source column buffers"));
    ac->columns_bytes = used;
  }
  t->inflight_sources = ac->batch;
  t->column_bytes_per_source = 8.0 * (double)stride;
  snprintf(t->description, sizeof t->description,
           "%lld source(s) in flight, %.2f MB of column buffer each (%.2f GB)", ac->batch,
           8.0 * (double)stride / 1e6, (double)used / 1e9);
  return IONF_OK;
}

/* The block-per-source kernel of the batch's kind (NS, CUT, WB), THREADS a block. */
template <int THREADS, int MIN_BLOCKS, int NS, int CUT, int WB>
static void launch_trace(const struct asora_cuda *ac, const struct trace_kernel_args *a) {
  unsigned blocks = (unsigned)a->count;
  if (a->places) { /* every domain whole: asora_whole_kernel, a block per column buffer in
                      flight, taking the pass's a->count sources one by one */
    long long most = (long long)MIN_BLOCKS * ac->sm_count; /* resident at once */
    if (ac->batch < most) most = ac->batch;
    if (most < a->count) blocks = (unsigned)most;
    asora_whole_kernel<THREADS, MIN_BLOCKS, NS, CUT, WB><<<blocks, THREADS, 0, ac->stream>>>(*a);
    return;
  }
  asora_trace_kernel<THREADS, MIN_BLOCKS, NS, CUT, WB><<<blocks, THREADS, 0, ac->stream>>>(*a);
}

/* One batch of sources: a block per source when they fill the GPU, else shell by shell
   (cube shells 0..h_max: none of this pass's domains goes further). */
static ionf_err launch_batch(struct asora_cuda *ac, struct trace_kernel_args *a, int h_max) {
  const int cut = photo_tables_cut_any(&ac->s.tables); /* raytracing.transmission_cutoff */
  const int whole = ac->s.bands.whole.n_bands > 0;
  if (a->count >= 2LL * ac->sm_count) {
    /* 256 threads capped at 64 registers: 4 blocks (32 warps) per SM; measured
       7-12% faster than 3 blocks of 76 registers; hydrogen at small photon radii: 128
       threads, 8 blocks per SM (fewer idle lanes in the small shells; benchmarks/RESULTS.md);
       helium's whole bands: ASORA_TRACE_WB_MIN_BLOCKS */
    const int small = asora_small_blocks(ac, h_max);
    with_species_cut(ac->s.n_species, whole, cut, [&](auto ns, auto ct, auto wb) {
      constexpr int NS = decltype(ns)::value, CUT = decltype(ct)::value, WB = decltype(wb)::value;
      if constexpr (NS == 1) {
        if (small) {
          launch_trace<TRACE_SMALL_THREADS, 8, NS, CUT, WB>(ac, a);
          return;
        }
      }
      launch_trace<TRACE_THREADS, WB ? ASORA_TRACE_WB_MIN_BLOCKS : ASORA_TRACE_MIN_BLOCKS, NS, CUT, WB>(ac, a);
    });
    CUDA_CHECK(cudaGetLastError(), "launch of the ray-tracing kernel");
    return IONF_OK;
  }
  /* few sources: spread each shell over the whole GPU */
  long long blocks_total = 4LL * ac->sm_count;
  long long per_source = (blocks_total + a->count - 1) / a->count;
  long long shell_max = 6LL * (2LL * h_max + 1) * (2LL * h_max + 1);
  long long need = (shell_max + TRACE_THREADS - 1) / TRACE_THREADS;
  if (per_source > need) per_source = need;
  if (per_source < 1) per_source = 1;
  dim3 grid((unsigned)per_source, (unsigned)a->count);
  for (int h = 0; h <= h_max; ++h) {
    with_species_cut(ac->s.n_species, whole, cut, [&](auto ns, auto ct, auto wb) {
      asora_shell_kernel<decltype(ns)::value, decltype(ct)::value, decltype(wb)::value>
          <<<grid, TRACE_THREADS, 0, ac->stream>>>(*a, h);
    });
    CUDA_CHECK(cudaGetLastError(), "launch of the ray-tracing kernel");
  }
  return IONF_OK;
}

static ionf_err cuda_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                           struct trace_stats *stats) {
  struct asora_cuda *ac = cuda_of(t);
  /* the pass's photon radius (raytracing.mean_free_path) within the one the buffers and
     shells were sized for */
  IONF_CHECK(tracer_radius_fits(f->r_max_cells, ac->s.r_max_cells), IONF_ERR_INTERNAL,
             "ASORA: a pass's photon radius %g cells exceeds the %g it was made with",
             f->r_max_cells, ac->s.r_max_cells);
  int h_max = ac->h_max;
  if (f->r_max_cells > 0.0 && ceil(f->r_max_cells) < (double)h_max) h_max = (int)ceil(f->r_max_cells);
  size_t species_bytes = sizeof(double) * (size_t)f->cells * (size_t)f->n_species;
  double *heat = ac->s.tables.heating || ac->s.bands.heating ? r->heating_erg_per_s : NULL;
  if (!r->accumulate) {
    CUDA_CHECK(cudaMemsetAsync(r->gamma_per_s, 0, species_bytes, ac->stream), "clearing Gamma");
    if (heat)
      CUDA_CHECK(cudaMemsetAsync(heat, 0, species_bytes, ac->stream), "clearing the heating rates");
  }
  CUDA_CHECK(cudaMemsetAsync(ac->d_visited, 0, 2 * sizeof(unsigned long long), ac->stream),
             "clearing the counters");
  struct trace_kernel_args a;
  memset(&a, 0, sizeof a);
  a.n_h_cm3 = f->n_h_cm3;
  a.x_ion_av = f->x_ion_av;
  a.geo = ac->geo.d_geo;
  a.geo_side = ac->geo.side;
  if (ac->src.count > 0 && (f->n_species == 1 || f->n_species == 3)) {
    /* the absorbers once per pass (asora_absorbers_kernel) */
    /* with helium's X-ray split: three more fields (bands_secondary_split) */
    const int with_split = f->n_species == 3 && ac->s.bands.secondary;
    const long long values = f->cells * (f->n_species + (with_split ? 3 : 0));
    if (ac->n_abs_values < values) {
      cudaFree(ac->d_n_abs);
      ac->d_n_abs = NULL;
      ac->n_abs_values = 0;
      IONF_CALL(cuda_util_alloc((void **)&ac->d_n_abs, sizeof(double) * (size_t)values,
                                "the absorber densities"));
      ac->n_abs_values = values;
    }
    long long blocks = (f->cells + 255) / 256;
    if (blocks > 8LL * ac->sm_count) blocks = 8LL * ac->sm_count;
    if (blocks < 1) blocks = 1;
    double *split = with_split ? ac->d_n_abs + f->cells * f->n_species : NULL;
    if (f->n_species == 3)
      asora_absorbers_kernel<3><<<(unsigned)blocks, 256, 0, ac->stream>>>(
          f->n_h_cm3, f->x_ion_av, f->abundance_he, f->cells, ac->d_n_abs, split);
    else
      asora_absorbers_kernel<1><<<(unsigned)blocks, 256, 0, ac->stream>>>(
          f->n_h_cm3, f->x_ion_av, f->abundance_he, f->cells, ac->d_n_abs, NULL);
    CUDA_CHECK(cudaGetLastError(), "launch of the absorber kernel");
    a.n_abs_cm3 = ac->d_n_abs;
    a.split = split;
  }
  a.abundance_he = f->abundance_he;
  a.gamma = r->gamma_per_s;
  a.heat = heat;
  a.columns = ac->d_columns;
  a.column_stride = ac->column_stride;
  a.shell_layout = asora_columns_in_shells(ac->s.r_max_cells);
  a.src_ijk = ac->src.ijk;
  a.src_ndot = ac->src.ndot_per_s;
  a.n = ac->s.grid.n;
  a.periodic = ac->s.grid.periodic;
  a.box = ac->s.grid.box;
  a.cell_cm = f->cell_cm;
  a.r_max_cells = f->r_max_cells;
  a.tables = ac->s.tables;
  a.bands = ac->s.bands;
  a.cells_visited = ac->d_visited;
  a.next_source = ac->d_visited + 1;
  if (ac->src.count >= 2LL * ac->sm_count) IONF_CALL(asora_lanes_build(&ac->lanes, f->r_max_cells));
  if (ac->lanes.r > 0.0 && ac->lanes.r == f->r_max_cells) {
    a.lanes = ac->lanes.d_lanes;
    a.lane_start = ac->lanes.d_start;
    a.lane_h = ac->lanes.h;
    if (ac->lanes.d_places && all_whole(ac, f->r_max_cells)) {
      a.places = (const int4 *)ac->lanes.d_places;
      a.place_geo = (const double2 *)(ac->lanes.d_places + 32 * ac->lanes.count);
      a.lane_count = (int)ac->lanes.count;
    }
  }
  /* batches run in order on one stream: a slot's buffer is free when the next batch starts
     (every domain whole: one launch, its blocks take the sources) */
  const long long per_launch = a.places ? ac->src.count : ac->batch;
  for (long long first = 0; first < ac->src.count; first += per_launch) {
    a.first = first;
    a.count = ac->src.count - first < per_launch ? ac->src.count - first : per_launch;
    IONF_CALL(launch_batch(ac, &a, h_max));
  }
  unsigned long long visited = 0;
  CUDA_CHECK(cudaMemcpyAsync(&visited, ac->d_visited, sizeof visited, cudaMemcpyDeviceToHost,
                             ac->stream),
             "ray tracing");
  CUDA_CHECK(cudaStreamSynchronize(ac->stream), "ray tracing");
  if (stats) stats->cells_traced += (int64_t)visited;
  return IONF_OK;
}

static void cuda_destroy(struct tracer *t) {
  struct asora_cuda *ac = cuda_of(t);
  tracer_cuda_sources_free(&ac->src);
  cudaFree(ac->d_columns);
  cudaFree(ac->d_visited);
  cudaFree(ac->d_n_abs);
  asora_geometry_free(&ac->geo);
  asora_lanes_free(&ac->lanes);
}

extern "C" ionf_err asora_tracer_create_cuda(const struct asora_tracer_setup *s,
                                             struct tracer **out) {
  static const struct tracer_ops ops = {cuda_set_sources, cuda_trace, NULL, cuda_destroy};
  IONF_CALL(tracer_alloc("asora", TRACER_DEVICE, &ops, sizeof(struct asora_cuda), out));
  struct asora_cuda *ac = cuda_of(*out);
  ac->s = *s;
  ac->stream = (cudaStream_t)s->stream;
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&ac->sm_count, cudaDevAttrMultiProcessorCount, device);
  ionf_err rc = err == cudaSuccess ? IONF_OK : cuda_util_fail((int)err, "ray-tracing set-up");
  if (rc == IONF_OK)
    rc = cuda_util_alloc((void **)&ac->d_visited, 2 * sizeof(unsigned long long), "two counters");
  if (rc != IONF_OK) {
    tracer_destroy(*out);
    *out = NULL;
  }
  return rc;
}
