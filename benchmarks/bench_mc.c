/**
 * @file bench_mc.c
 * @brief Monte Carlo transport benchmark: one pass of photon packets (raytracing.method:
 *        montecarlo) through a uniform N^3 box (n_H = 1e-3 cm^-3, x_HII as given, grey,
 *        not periodic, 6.6 kpc: Test 1's medium), N_SRC random sources, PACKETS each;
 *        prints the pass's time and the throughput in packet-cell crossings per second
 *        (the walk's unit of work) and packets per second.  Under mpirun the sources are
 *        shared among the ranks (one GPU each) and the rates are those of all ranks.
 *
 * usage: bench_mc cpu|cuda N N_SRC PACKETS [X_HII [REPEATS]]
 *   One result line: backend ranks N n_src packets x_hii ms_per_pass crossings
 *   crossings_per_s packets_per_s
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
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
    fprintf(stderr, "usage: %s cpu|cuda N N_SRC PACKETS [X_HII [REPEATS]]\n", argv[0]);
    return 2;
  }
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  const char *backend = argv[1];
  int n = atoi(argv[2]);
  long long n_src = atoll(argv[3]);
  long long packets = atoll(argv[4]);
  double x_hii = argc > 5 ? atof(argv[5]) : 0.999;
  int repeats = argc > 6 ? atoi(argv[6]) : 3;

  char dir[] = "/tmp/ionfront_bench_mc_XXXXXX";
  if (comm_rank() == 0 && !mkdtemp(dir)) return 1;
  if (comm_size() > 1) MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  char src_path[256];
  snprintf(src_path, sizeof src_path, "%s/sources.txt", dir);
  if (comm_rank() == 0) {
    if (bench_sources_write(src_path, n, n_src, "5e48") != 0) return 1;
  }
  if (comm_size() > 1) MPI_Barrier(MPI_COMM_WORLD);

  char o[9][320];
  snprintf(o[0], sizeof o[0], "grid.N=%d", n);
  snprintf(o[1], sizeof o[1], "sources={file: %s, format: text}", src_path);
  snprintf(o[2], sizeof o[2], "raytracing.backend=%s", backend);
  snprintf(o[3], sizeof o[3], "raytracing.method=montecarlo");
  snprintf(o[4], sizeof o[4], "montecarlo={packets_per_source: %lld, seed: 1}", packets);
  snprintf(o[5], sizeof o[5], "material.x_HII_initial=%g", x_hii);
  snprintf(o[6], sizeof o[6], "output.directory=%s", dir);
  snprintf(o[7], sizeof o[7], "grid.box_size=6.6 kpc");
  snprintf(o[8], sizeof o[8], "spectrum={type: grey}");
  char *overrides[9];
  for (int i = 0; i < 9; ++i) overrides[i] = o[i];
  struct ionf_config cfg;
  struct engine *e = NULL;
  if (config_load(NULL, "default", overrides, 9, &cfg) != IONF_OK ||
      engine_create(&cfg, &e) != IONF_OK) {
    fprintf(stderr, "bench_mc: %s\n", ionf_error_message());
    return 1;
  }
  struct backend *be = e->backend;
  struct trace_stats st;
  if (be->ops.step_begin(be) != IONF_OK || engine_trace_pass(e, &st) != IONF_OK) { /* warm-up */
    fprintf(stderr, "bench_mc: %s\n", ionf_error_message());
    return 1;
  }
  if (comm_size() > 1) MPI_Barrier(MPI_COMM_WORLD);
  double t0 = ionf_wtime();
  double crossed = 0.0;
  for (int i = 0; i < repeats; ++i) {
    memset(&st, 0, sizeof st);
    if (engine_trace_pass(e, &st) != IONF_OK) {
      fprintf(stderr, "bench_mc: %s\n", ionf_error_message());
      return 1;
    }
    crossed += (double)st.cells_traced;
  }
  if (comm_size() > 1) MPI_Barrier(MPI_COMM_WORLD); /* the slowest rank's time */
  double t_pass = (ionf_wtime() - t0) / repeats;
  crossed /= repeats;
  if (comm_size() > 1 && comm_allreduce_sum(&crossed, 1) != IONF_OK) return 1;
  double all_packets = (double)packets * (double)e->sources.n;
  if (comm_rank() == 0)
    printf("%s %d %d %lld %lld %g %.3f %.4g %.4g %.4g\n", backend, comm_size(), n, n_src,
           packets, x_hii, 1e3 * t_pass, crossed, crossed / t_pass, all_packets / t_pass);
  engine_destroy(e);
  config_free(&cfg);
  if (comm_rank() == 0) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
  }
  comm_finalize();
  return 0;
}
