/**
 * @file bench_raytrace.c
 * @brief Ray-tracing benchmark in pyC2Ray's protocol: a uniform N^3 grid
 *        (n_H = 1e-3 cm^-3, black body 1e5 K, periodic), N_src random source
 *        positions, photon radius R cells, ray tracing alone; prints
 *        t / ((4/3) pi R^3 N_src) in ns per source per voxel, and the chemistry
 *        pass's throughput.
 *
 * usage: bench_raytrace BACKEND N R N_SRC [BATCH [REPEATS [SPECIES [KEY=VALUE...]]]]
 *   BACKEND cpu|cuda; BATCH 0 = automatic; SPECIES h (hydrogen alone, the default) or
 *   he[:B1,B2,B3] (H + He, n_He / n_H = 0.08, the spectrum's sub-bins per band: C2-Ray's
 *   1,26,20 by default; issue 21's helium-against-hydrogen cost); KEY=VALUE: more config
 *   overrides (up to 6), e.g. raytracing.precision=mixed.  One result line:
 *   backend N R n_src batch ms_per_trace ns_per_source_voxel column_MB_per_source
 *   column_GB_total chem_ms chem_GBps copy_GBps (the fields' device-to-device copy: the
 *   bandwidth ceiling the chemistry pass is measured against)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_sources.h"
#include "engine/backend.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "engine/engine.h"

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s cpu|cuda N R N_SRC [BATCH [REPEATS [h|he[:B1,B2,B3] [KEY=VALUE...]]]]\n",
            argv[0]);
    return 2;
  }
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  const char *backend = argv[1];
  int n = atoi(argv[2]);
  double r = atof(argv[3]);
  long long n_src = atoll(argv[4]);
  long long batch = argc > 5 ? atoll(argv[5]) : 0;
  int repeats = argc > 6 ? atoi(argv[6]) : 3;
  const char *species = argc > 7 ? argv[7] : "h";
  if (strcmp(species, "h") != 0 && strncmp(species, "he", 2) != 0) {
    fprintf(stderr, "bench_raytrace: SPECIES '%s' is neither h nor he[:B1,B2,B3]\n", species);
    return 2;
  }

  char dir[] = "/tmp/ionfront_bench_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char src_path[256];
  snprintf(src_path, sizeof src_path, "%s/sources.txt", dir);
  if (bench_sources_write(src_path, n, n_src, "1e52") != 0) return 1;

  char o[16][320];
  snprintf(o[0], sizeof o[0], "grid.N=%d", n);
  snprintf(o[1], sizeof o[1], "raytracing.R_max=%g", r);
  snprintf(o[2], sizeof o[2], "sources={file: %s, format: text}", src_path);
  snprintf(o[3], sizeof o[3], "raytracing.backend=%s", backend);
  snprintf(o[4], sizeof o[4], "raytracing.source_batch_size=%lld", batch);
  snprintf(o[5], sizeof o[5], "spectrum={type: blackbody, T_eff: 1.0e5}");
  snprintf(o[6], sizeof o[6], "grid.periodic=true");
  snprintf(o[7], sizeof o[7], "output.directory=%s", dir);
  int n_over = 8;
  if (species[0] == 'h' && species[1] == 'e') {
    snprintf(o[n_over++], sizeof o[0], "material.abundance_He=0.08");
    if (species[2] == ':') snprintf(o[n_over++], sizeof o[0], "spectrum.sub_bins=[%s]", species + 3);
  }
  for (int i = 8; i < argc && i < 14; ++i) snprintf(o[n_over++], sizeof o[0], "%s", argv[i]);
  char *overrides[16];
  for (int i = 0; i < n_over; ++i) overrides[i] = o[i];
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (config_load(NULL, "default", overrides, n_over, &cfg) != IONF_OK ||
      engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "bench_raytrace: %s\n", ionf_error_message());
    return 1;
  }
  struct backend *be = e->backend;
  const struct tracer *tr = e->tracers[0];
  struct trace_stats st;
  if (be->ops.step_begin(be) != IONF_OK || engine_trace_pass(e, &st) != IONF_OK) { /* warm-up */
    fprintf(stderr, "bench_raytrace: %s\n", ionf_error_message());
    return 1;
  }
  double t0 = ionf_wtime();
  for (int i = 0; i < repeats; ++i)
    if (engine_trace_pass(e, &st) != IONF_OK) {
      fprintf(stderr, "bench_raytrace: %s\n", ionf_error_message());
      return 1;
    }
  double t_trace = (ionf_wtime() - t0) / repeats;
  struct chem_pass_result cr;
  double c0 = ionf_wtime();
  for (int i = 0; i < repeats; ++i)
    if (engine_chemistry_pass(e, 3.15e13, 0, (int64_t)n * n * n, &cr) != IONF_OK) return 1;
  double t_chem = (ionf_wtime() - c0) / repeats;
  double cells = (double)n * n * n;
  /* the copy ceiling: step_begin copies x to x_av and x_end (2 fields read + written) */
  double b0 = ionf_wtime();
  for (int i = 0; i < repeats; ++i)
    if (be->ops.step_begin(be) != IONF_OK || be->ops.step_end(be) != IONF_OK) return 1;
  double t_copy = (ionf_wtime() - b0) / repeats;
  double copy_gbps = 3.0 * 2.0 * 8.0 * cells / t_copy / 1e9;
  /* chemistry moves n_H, T, Gamma, x, x_av in and x_av, x_end out: 7 doubles a cell */
  double chem_gbps = 7.0 * 8.0 * cells / t_chem / 1e9;
  /* sources in one cell are merged (as in pyC2Ray): count the distinct ones traced */
  double voxels = 4.0 / 3.0 * 3.141592653589793 * r * r * r * (double)e->sources.n;
  printf("%s%s%s %d %g %lld %lld %.3f %.4f %.3f %.3f %.3f %.1f copy_GBps=%.0f visited_per_source=%.0f\n",
         backend, strcmp(species, "h") ? "/" : "", strcmp(species, "h") ? species : "", n, r,
         n_src, (long long)tr->inflight_sources, 1e3 * t_trace, 1e9 * t_trace / voxels,
         tr->column_bytes_per_source / 1e6,
         tr->column_bytes_per_source * (double)tr->inflight_sources / 1e9, 1e3 * t_chem,
         chem_gbps, copy_gbps, (double)st.cells_traced / (double)e->sources.n);
  engine_destroy(e);
  config_free(&cfg);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  comm_finalize();
  return 0;
}
