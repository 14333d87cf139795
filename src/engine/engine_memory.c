/**
 * @file engine_memory.c
 * @brief A grid run's memory per rank, estimated from its config and checked before the
 *        fields are allocated.
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "engine/engine_memory.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chem/species_k.h"
#include "grid/decomp.h"
#include "config/config_views.h"
#include "gpu/core/cuda_util.h"
#include "io/io_sources.h"
#include "mpi/comm.h"
#include "rt/asora/asora_cell_k.h" /* struct asora_cell_place; asora_k.h */
#include "rt/planar/planar_k.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* The largest traced domain of a source: one at the centre, within R_max. */
static struct asora_domain memory_centre_domain(const struct ionf_config *cfg) {
  int64_t n = cfg->n_cells_1d;
  int centre[3] = {(int)(n / 2), (int)(n / 2), (int)(n / 2)};
  struct grid_box whole = grid_box_whole(n);
  struct asora_domain dom;
  asora_domain_make(centre, n, cfg->periodic, &whole, cfg->r_max_cells, &dom);
  return dom;
}

/* Cells of one source's column buffers for the largest source domain: its box on the CPU,
   two cube shells on the GPU (rt/asora/asora_cell_k.h, struct asora_columns; asora_k.h,
   struct asora_shell_faces). */
static double memory_domain_cells(const struct asora_domain *dom, int on_gpu) {
  return on_gpu ? 2.0 * (double)asora_domain_shell_cells(dom) : (double)asora_domain_box_cells(dom);
}

void engine_memory_grid(const struct ionf_config *cfg, int64_t rank_sources, int threads,
                        int on_gpu, struct engine_memory *m) {
  engine_memory_grid_box(cfg, grid_cells(cfg->n_cells_1d), rank_sources, threads, on_gpu, m);
}

void engine_memory_grid_box(const struct ionf_config *cfg, int64_t box_cells,
                            int64_t rank_sources, int threads, int on_gpu,
                            struct engine_memory *m) {
  memset(m, 0, sizeof *m);
  m->box_cells = box_cells;
  const double cells = (double)box_cells;
  /* the run's species blocks (grid_fields_make) */
  const double s = (double)config_views_species_count(cfg), d = sizeof(double);
  const int thermal = !cfg->isothermal;
  /* fields_alloc: n_H, x (3 copies), T, Gamma; evolving T: T_av, T_end, heating */
  const double per_cell = thermal ? 4.0 + 5.0 * s : 2.0 + 4.0 * s;
  m->fields_bytes = cells * per_cell * d;
  /* photo_tables_build: thick and thin per species; heating ones for a black body's T */
  const int heating = thermal && cfg->spectrum != SPECTRUM_GREY;
  double tables = PHOTO_TABLE_SPECIES * ((double)cfg->num_tau + 1.0) * d * (heating ? 4.0 : 2.0);
  if (s > 1.0) { /* with helium: grey hydrogen tables, and the band tables (bands.c) */
    const double bins = cfg->band_sub_bins[0] + cfg->band_sub_bins[1] + cfg->band_sub_bins[2];
    tables = PHOTO_TABLE_SPECIES * ((double)cfg->num_tau + 1.0) * d * 2.0 +
             bins * ((double)BANDS_NODES * BANDS_NODE_VALUES * (thermal || cfg->secondary_ionization ? 2.0 : 1.0) +
                     BANDS_N_ABSORBERS) * d;
  }
  const struct asora_domain dom = memory_centre_domain(cfg);
  const double column = s * memory_domain_cells(&dom, on_gpu) * d; /* one source's buffers */
  const int mc = cfg->method == RT_METHOD_MONTECARLO;
  if (!on_gpu && !mc) { /* asora_cpu.c: one buffer, or one per thread over many sources */
    int over_sources = threads > 1 && (rank_sources < 0 || rank_sources >= 2 * (int64_t)threads);
    m->tracer_bytes = column * (over_sources ? threads : 1);
  }
  m->other_bytes = tables;
  if (mc) m->other_bytes += 2.0 * cells * d; /* the tallies and the error of Gamma */
  if (cfg->write_dtb) m->other_bytes += cells * d;
  if (cfg->n_planes > 0) /* planar_cpu.c: a row of columns per thread, during a trace */
    m->other_bytes += (double)cfg->n_cells_1d * threads * sizeof(struct planar_columns);
  m->host_bytes = m->fields_bytes + m->tracer_bytes + m->other_bytes;
  /* the fast table locate's 1 / tau_i (photo_tables.c); on the GPU the ASORA pass's
     absorber densities (asora_cuda.cu) */
  const double inv_tau = cfg->spectrum != SPECTRUM_GREY ? ((double)cfg->num_tau + 1.0) * d : 0.0;
  m->other_bytes += inv_tau;
  m->host_bytes += inv_tau;
  /* helium's X-ray split per cell and pass on the CPU tracer (asora_cpu.c) */
  if (!mc && !on_gpu && s == 3.0 && cfg->secondary_ionization) {
    m->other_bytes += 3.0 * cells * d;
    m->host_bytes += 3.0 * cells * d;
  }
  double asora_gpu = 0.0;
  if (!mc) {
    /* the pass's absorbers, one field per species; with helium's X-ray split, three more */
    asora_gpu += (s + (s == 3.0 && cfg->secondary_ionization ? 3.0 : 0.0)) * cells * d;
    /* the stencils' geometry table, when it is kept */
    const double side = asora_domain_h_max(&dom) + 1.0;
    const double geo = side * side * side * ASORA_GEOMETRY_VALUES * d;
    if (geo <= ASORA_GEOMETRY_TABLE_MAX_BYTES) asora_gpu += geo;
    /* the lane table of whole domains, when it is kept, with the lanes' places */
    if (cfg->r_max_cells > 0.0 && cfg->r_max_cells <= ASORA_LANE_TABLE_R_MAX)
      asora_gpu += asora_sphere_cells_max((int)ceil(cfg->r_max_cells)) *
                   (sizeof(unsigned) + (cfg->r_max_cells <= ASORA_LANE_PLACES_R_MAX
                                            ? sizeof(struct asora_cell_place) : 0));
  }
  if (on_gpu) m->gpu_bytes = m->fields_bytes + tables + inv_tau + (mc ? cells * d : column + asora_gpu);
}

/* A "Key:  N kB" line of /proc/meminfo in bytes (-1: not there). */
static double memory_meminfo(const char *key) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1.0;
  char line[256];
  double v = -1.0;
  size_t len = strlen(key);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, len) && line[len] == ':') {
      double kb;
      if (sscanf(line + len + 1, "%lf", &kb) == 1) v = kb * 1024.0;
      break;
    }
  fclose(f);
  return v;
}

/* The room a cgroup (v2: a SLURM job's) leaves: memory.max - memory.current (-1: none). */
static double memory_cgroup_room(void) {
  FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
  if (!f) return -1.0;
  double max = -1.0, current = 0.0;
  char text[64] = "";
  if (fgets(text, sizeof text, f) && strncmp(text, "max", 3) != 0) max = strtod(text, NULL);
  fclose(f);
  if (max < 0.0) return -1.0;
  f = fopen("/sys/fs/cgroup/memory.current", "r");
  if (f) {
    if (fgets(text, sizeof text, f)) current = strtod(text, NULL);
    fclose(f);
  }
  return max > current ? max - current : 0.0;
}

/* `bytes` for a message: "1.5 GiB", "320 MiB" */
static const char *memory_text(double bytes, char *buf, size_t cap) {
  if (bytes >= GIB) snprintf(buf, cap, "%.1f GiB", bytes / GIB);
  else snprintf(buf, cap, "%.0f MiB", ceil(bytes / (1024.0 * 1024.0)));
  return buf;
}

void engine_memory_available(double *host_bytes, double *gpu_bytes) {
  double host = memory_meminfo("MemAvailable");
  if (host < 0.0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    host = pages > 0 && page > 0 ? (double)pages * (double)page : INFINITY;
  }
  double room = memory_cgroup_room();
  if (room >= 0.0 && room < host) host = room;
  int local = comm_local_size() > 0 ? comm_local_size() : 1;
  *host_bytes = host / local;
  size_t free_b = 0, total_b = 0;
  *gpu_bytes = 0.0;
  int gpus = cuda_util_device_count();
  if (gpus > 0 && cuda_util_memory_info(comm_local_rank(), &free_b, &total_b) == IONF_OK) {
    int sharing = (local + gpus - 1) / gpus; /* ranks on one GPU (local_rank mod count) */
    *gpu_bytes = (double)free_b / (sharing > 0 ? sharing : 1);
  }
  ionf_error_clear();
}

/* This rank's point sources at the start (-1: not known before the run, as a sequence's). */
static int64_t memory_rank_sources(const struct ionf_config *cfg) {
  int64_t total = cfg->n_sources_inline;
  if (cfg->sequence.halo_pattern[0]) return -1;
  if (cfg->source_file[0]) {
    struct source_list s = {0};
    if (io_sources_read(cfg->source_file, cfg->source_format, &s) != IONF_OK) {
      ionf_error_clear(); /* the run reads it again and says what is wrong */
      return -1;
    }
    total = s.n;
    sources_free(&s);
  }
  return (total + comm_size() - 1) / comm_size();
}

/* grid.decomposition resolved (the same on every rank: collective), and the estimate of
   the way chosen in *m. */
static ionf_err memory_decide(const struct ionf_config *cfg, int on_gpu, double host, double gpu,
                              struct engine_memory *m) {
  const int64_t n = cfg->n_cells_1d, rank_sources = memory_rank_sources(cfg);
  const int threads = omp_get_max_threads(), p = comm_size();
  engine_memory_grid(cfg, rank_sources, threads, on_gpu, m);
  const double rep_host = m->host_bytes, rep_gpu = m->gpu_bytes;
  const int64_t slab_cells = decomp_max_box_cells(DECOMP_SLABS, n, cfg->periodic,
                                                  cfg->r_max_cells, p);
  const char *whole_needed = cfg->method == RT_METHOD_MONTECARLO ? "Monte Carlo packets cross the grid"
                             : cfg->n_planes > 0 ? "plane sources cross the grid"
                             : cfg->write_c2ray_binary ? "output.c2ray_binary writes whole grids from rank 0"
                             : n < p                ? "fewer planes than ranks"
                                                    : NULL;
  int kind = DECOMP_REPLICATED;
  const char *why = "one rank";
  if (cfg->decomposition == DECOMPOSITION_SLABS) {
    IONF_CHECK(!whole_needed, IONF_ERR_CONFIG,
               "grid.decomposition = slabs: not possible here (%s); use replicated or auto",
               whole_needed);
    kind = p > 1 ? DECOMP_SLABS : DECOMP_REPLICATED;
    why = p > 1 ? "grid.decomposition: slabs" : "one rank";
  } else if (cfg->decomposition == DECOMPOSITION_REPLICATED) {
    why = "grid.decomposition: replicated";
  } else if (p > 1) {
    int local_short = rep_host > host || (on_gpu && gpu > 0.0 && rep_gpu > gpu), any_short = 0;
    IONF_CALL(comm_max_int(local_short, &any_short));
    if (whole_needed) why = whole_needed;
    else if (slab_cells >= grid_cells(n)) why = "R_max reaches round the box: slabs would hold it all";
    else if (!any_short) why = "the whole grid fits every rank";
    else {
      kind = DECOMP_SLABS;
      why = "the whole grid does not fit a rank";
    }
  }
  if (kind == DECOMP_SLABS) engine_memory_grid_box(cfg, slab_cells, rank_sources, threads, on_gpu, m);
  m->decomposition = kind;
  m->decomposition_reason = why;
  m->replicated_host_bytes = rep_host;
  m->replicated_gpu_bytes = rep_gpu;
  return IONF_OK;
}

ionf_err engine_memory_check_grid(const struct ionf_config *cfg, struct engine_memory *m) {
  int on_gpu = cfg->backend == BACKEND_CUDA ||
               (cfg->backend == BACKEND_AUTO && cuda_util_device_count() > 0);
  double host = 0.0, gpu = 0.0;
  engine_memory_available(&host, &gpu);
  IONF_CALL(memory_decide(cfg, on_gpu, host, gpu, m));
  ionf_err rc = IONF_OK;
  char t[5][32];
  if (m->host_bytes > host)
    rc = ionf_error_set(IONF_ERR_MEM,
                        "not enough memory on host %s (rank %d) for grid.N = %lld: the run needs "
                        "about %s per rank (fields %s, ray-tracing buffers %s, other %s), but "
                        "%s are available to each of its %d rank(s) there; use a smaller "
                        "grid.N, more nodes, or a raytracing.R_max",
                        comm_host_name(), comm_rank(), (long long)cfg->n_cells_1d,
                        memory_text(m->host_bytes, t[0], 32), memory_text(m->fields_bytes, t[1], 32),
                        memory_text(m->tracer_bytes, t[2], 32), memory_text(m->other_bytes, t[3], 32),
                        memory_text(host, t[4], 32), comm_local_size());
  else if (on_gpu && gpu > 0.0 && m->gpu_bytes > gpu)
    rc = ionf_error_set(IONF_ERR_GPU_MEM,
                        "not enough GPU memory on host %s (rank %d) for grid.N = %lld: the run "
                        "needs about %s on its GPU, but %s are free for it (cudaMemGetInfo); "
                        "use a smaller grid.N, more GPUs, or raytracing.backend: cpu",
                        comm_host_name(), comm_rank(), (long long)cfg->n_cells_1d,
                        memory_text(m->gpu_bytes, t[0], 32), memory_text(gpu, t[1], 32));
  ionf_err any = IONF_OK;
  IONF_CALL(comm_agree(rc, &any));
  if (rc == IONF_OK && any != IONF_OK)
    return ionf_error_set(IONF_ERR_PEER, "another rank has not enough memory for the run");
  return rc;
}
