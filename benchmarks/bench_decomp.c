/**
 * @file bench_decomp.c
 * @brief Time steps of a large periodic grid on every rank's GPU, replicated or split
 *        into slabs (grid.decomposition), with no outputs: the time per step and its
 *        parts, and each rank's GPU memory against (N^3 / P + halo) x bytes per cell.
 *
 * usage: mpirun -np P bench_decomp N R_MAX N_SRC STEPS replicated|slabs|auto [ITER [REDUCTION]]
 *   Uniform n_H = 2e-4 cm^-3 (x_HII 2e-4 at the start) in a periodic box of 100 Mpc per
 *   256 cells, N_SRC sources of 1e52 photons/s at random cells (seed 918: the same set
 *   for every P), ITER ray-tracing/chemistry iterations a step (raytracing.max_iterations,
 *   default 2: at most), mpi.reduction REDUCTION (default auto: NCCL where it loads; in
 *   slabs allreduce|scatter|reduce move the halos through the host instead), dt 1 Myr.  One step first, untimed (NCCL connects its peers on
 *   first use), then STEPS timed.  Rank 0 prints one line: key=value pairs (ranks,
 *   decomposition, seconds per step and per part, GPU memory in use after set-up and at
 *   the end with the fields' and the column buffers' share, the mean x_HII to compare
 *   runs).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_sources.h"
#include "config/config.h"
#include "engine/engine.h"
#include "gpu/core/cuda_util.h"
#include "mpi/comm.h"

static int fail(const char *what) {
  fprintf(stderr, "bench_decomp (rank %d): %s: %s\n", comm_rank(), what, ionf_error_message());
  comm_abort(1);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s N R_MAX N_SRC STEPS replicated|slabs|auto [ITER [REDUCTION]]\n",
            argv[0]);
    return 2;
  }
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  /* the rank's GPU current from the start, as the command line does (no context on GPU 0) */
  if (cuda_util_device_count() > 0) (void)cuda_util_select_device(comm_local_rank());
  int n = atoi(argv[1]), steps = atoi(argv[4]), iters = argc > 6 ? atoi(argv[6]) : 2;
  double r = atof(argv[2]);
  long long n_src = atoll(argv[3]);
  char src_path[256];
  snprintf(src_path, sizeof src_path, "/tmp/ionf_bench_decomp_%d_%lld.txt", n, n_src);
  if (comm_rank() == 0 && access(src_path, R_OK) != 0) {
    if (bench_sources_write(src_path, n, n_src, "1e52") != 0) return 1;
  }
  ionf_err any;
  if (comm_agree(IONF_OK, &any) != IONF_OK) return 1;
  char o[14][320];
  snprintf(o[0], sizeof o[0], "grid.N=%d", n);
  snprintf(o[1], sizeof o[1], "raytracing.R_max=%g", r);
  snprintf(o[2], sizeof o[2], "sources={file: %s, format: text}", src_path);
  snprintf(o[3], sizeof o[3], "raytracing.backend=cuda");
  snprintf(o[4], sizeof o[4], "grid.decomposition=%s", argv[5]);
  snprintf(o[5], sizeof o[5], "grid.box_size=%g Mpc", 100.0 * n / 256.0);
  snprintf(o[6], sizeof o[6], "grid.periodic=true");
  snprintf(o[7], sizeof o[7], "material.n_H=2.0e-4");
  snprintf(o[8], sizeof o[8], "material.x_HII_initial=2.0e-4");
  snprintf(o[9], sizeof o[9], "raytracing.max_iterations=%d", iters);
  snprintf(o[10], sizeof o[10], "time.dt=1 Myr");
  snprintf(o[11], sizeof o[11], "time.t_end=%d Myr", steps + 1);
  snprintf(o[12], sizeof o[12], "output.directory=/tmp/ionf_bench_decomp_out");
  snprintf(o[13], sizeof o[13], "mpi.reduction=%s", argc > 7 ? argv[7] : "auto");
  char *overrides[14];
  for (int i = 0; i < 14; ++i) overrides[i] = o[i];
  struct ionf_config cfg;
  struct engine *e = NULL;
  double c0 = ionf_wtime();
  if (config_load(NULL, "default", overrides, 14, &cfg) != IONF_OK) return fail("config");
  if (engine_create(&cfg, &e) != IONF_OK) return fail("engine_create");
  double create_s = ionf_wtime() - c0;
  size_t free_b = 0, total_b = 0;
  double used_created = 0.0;
  if (cuda_util_memory_info(comm_local_rank(), &free_b, &total_b) == IONF_OK)
    used_created = (double)(total_b - free_b);
  struct engine_step_info info;
  if (engine_step(e, 3.15576e13, &info) != IONF_OK) return fail("warm-up step");
  memset(&e->timers, 0, sizeof e->timers);
  double t0 = ionf_wtime();
  int total_iters = 0;
  for (int s = 0; s < steps; ++s) {
    if (engine_step(e, 3.15576e13, &info) != IONF_OK) return fail("engine_step");
    total_iters += info.iterations;
  }
  double wall = ionf_wtime() - t0;
  /* this rank's GPU memory in use, and the fields' share of it */
  double used = 0.0;
  if (cuda_util_memory_info(comm_local_rank(), &free_b, &total_b) == IONF_OK)
    used = (double)(total_b - free_b);
  int64_t box = grid_box_cells(&e->grid.box);
  double per_cell = e->memory.fields_bytes / (double)e->memory.box_cells; /* bytes a cell */
  double ideal = ((double)e->global_cells / comm_size() +
                  (double)(box - e->decomp.own_count * e->decomp.plane_cells)) *
                 per_cell;
  const struct tracer *tr = e->tracers[0];
  double columns = tr->column_bytes_per_source * (double)tr->inflight_sources;
  enum { K = 6 };
  double mine[K] = {used, used / ideal, e->timers.trace_s, e->timers.reduce_s, used_created,
                    columns};
  double most[K] = {0};
  for (int q = 0; q < K; ++q) most[q] = mine[q];
  /* the largest over the ranks (max of a few numbers through the sum of one-hot arrays) */
  int p = comm_size();
  double *all = calloc((size_t)(K * p), sizeof *all);
  for (int q = 0; q < K; ++q) all[K * comm_rank() + q] = mine[q];
  if (comm_allreduce_sum(all, K * p) != IONF_OK) return fail("sum");
  for (int rk = 0; rk < p; ++rk)
    for (int q = 0; q < K; ++q)
      if (all[K * rk + q] > most[q]) most[q] = all[K * rk + q];
  free(all);
  if (comm_rank() == 0)
    printf("ranks=%d N=%d R=%g sources=%lld decomposition=%s halo_on_gpus=%d halo=%lld box_cells=%lld "
           "steps=%d iterations=%d create_s=%.2f wall_s=%.3f per_step_s=%.3f trace_s=%.3f "
           "reduce_s=%.3f chem_s=%.3f max_trace_s=%.3f max_reduce_s=%.3f imbalance=%.3f "
           "gpu_used_GB_max=%.2f gpu_used_after_create_GB_max=%.2f fields_GB=%.2f "
           "columns_GB_max=%.2f bytes_per_cell=%.0f ideal_GB=%.2f used_over_ideal_max=%.3f "
           "x_mean=%.15e\n",
           p, n, r, n_src, decomp_kind_name(e->decomp.kind), e->backend->ops.halo != NULL,
           (long long)e->decomp.halo,
           (long long)box, steps, total_iters, create_s, wall, wall / steps, e->timers.trace_s,
           e->timers.reduce_s, e->timers.chemistry_s, most[2], most[3], e->source_imbalance,
           most[0] / 1e9, most[4] / 1e9, e->memory.fields_bytes / 1e9, most[5] / 1e9, per_cell,
           ideal / 1e9, most[1], info.x_mean_volume);
  engine_destroy(e);
  config_free(&cfg);
  comm_finalize();
  return 0;
}
