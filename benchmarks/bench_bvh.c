/**
 * @file bench_bvh.c
 * @brief BVH build benchmark: N random particles (uniform, or clustered: 70%
 *        in 16 Gaussian blobs) in a periodic 10 Mpc box, h from the density
 *        model with 48 neighbours; the tree built REPEATS times; medians.
 *
 * usage: bench_bvh cpu|cuda N uniform|clustered [REPEATS [MAX_LEAF]]
 *
 * One result line:
 *   backend N kind max_leaf repeats build_ms ns_per_particle total_ms
 *   total_ns_per_particle keys_ms sort_ms gather_ms leaves_ms nodes_ms n_leaves height
 * cpu: build = total = wall clock of bvh_build_cpu (OpenMP; qsort).
 * cuda: build = CUDA events around the build with input and output in GPU
 * memory (no host <-> device copies, no allocations: the context is reused);
 * total = wall clock of upload (pageable host memory) + build + download of
 * the whole tree.  The first GPU tree is compared with the CPU reference's
 * (bit for bit) and the line ends with "equal" or "DIFFERENT".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "gpu/core/cuda_util.h"
#include "gpu/particles/bvh_build.h"
#include "core/constants.h"
#include "core/error.h"
#include "core/ionf_config.h"
#include "particles/particles.h"
#include "particles/particles_make.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define MAX_REPEATS 100

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s cpu|cuda N uniform|clustered [REPEATS [MAX_LEAF]]\n", argv[0]);
    return 2;
  }
  const char *backend = argv[1], *kind = argv[3];
  long long n = atoll(argv[2]);
  int repeats = argc > 4 ? atoi(argv[4]) : 5, max_leaf = argc > 5 ? atoi(argv[5]) : 32;
  if (repeats < 1 || repeats > MAX_REPEATS || n < 1 ||
      (strcmp(kind, "uniform") && strcmp(kind, "clustered")) ||
      (strcmp(backend, "cpu") && strcmp(backend, "cuda"))) {
    fprintf(stderr, "bench_bvh: bad arguments\n");
    return 2;
  }
  ionf_wtime();
  struct particles_random_params rp = {
      n, 10.0 * IONF_MPC_CM,
      strcmp(kind, "clustered") ? PARTICLES_RANDOM_UNIFORM : PARTICLES_RANDOM_CLUSTERED, 48,
      1e-28, 2024};
  struct particle_set p;
  if (particles_make_random(&rp, &p) != IONF_OK) {
    fprintf(stderr, "bench_bvh: %s\n", ionf_error_message());
    return 1;
  }
  struct bvh_scene scene;
  particles_scene(&p, &scene);
  double build[MAX_REPEATS], total[MAX_REPEATS], stage[5][MAX_REPEATS];
  struct bvh t;
  int32_t n_leaves = 0, height = 0;
  const char *agreement = "";

  if (!strcmp(backend, "cpu")) {
    for (int r = 0; r < repeats; ++r) {
      struct bvh_build_times tm;
      if (bvh_build_cpu(p.pos_cm, p.h_cm, n, &scene, max_leaf, &t, &tm) != IONF_OK) {
        fprintf(stderr, "bench_bvh: %s\n", ionf_error_message());
        return 1;
      }
      build[r] = total[r] = 1e3 * tm.total_s;
      stage[0][r] = 1e3 * tm.keys_s;
      stage[1][r] = 1e3 * tm.sort_s;
      stage[2][r] = 1e3 * tm.gather_s;
      stage[3][r] = 1e3 * tm.leaves_s;
      stage[4][r] = 1e3 * tm.nodes_s;
      n_leaves = t.n_leaves;
      height = t.height;
      bvh_free(&t);
    }
  } else {
#if IONF_HAVE_CUDA
    if (cuda_util_device_count() == 0) {
      fprintf(stderr, "bench_bvh: no GPU\n");
      return 77;
    }
    struct bvh_cuda *ctx = NULL;
    struct bvh_cuda_times tm;
    ionf_err rc = bvh_cuda_create(n, &ctx);
    /* warm-up: first launches, the node buffer's allocation */
    if (rc == IONF_OK) rc = bvh_cuda_upload(ctx, p.pos_cm, p.h_cm, n);
    if (rc == IONF_OK) rc = bvh_cuda_build(ctx, &scene, max_leaf, &tm);
    if (rc == IONF_OK) rc = bvh_cuda_download(ctx, &t);
    if (rc == IONF_OK) {
      struct bvh ref;
      if (bvh_build_cpu(p.pos_cm, p.h_cm, n, &scene, max_leaf, &ref, NULL) == IONF_OK) {
        char msg[256];
        agreement = bvh_equal(&ref, &t, msg, sizeof msg) ? " equal" : " DIFFERENT";
        if (agreement[1] == 'D') fprintf(stderr, "bench_bvh: GPU tree differs: %s\n", msg);
        bvh_free(&ref);
      }
      n_leaves = t.n_leaves;
      height = t.height;
      bvh_free(&t);
    }
    for (int r = 0; r < repeats && rc == IONF_OK; ++r) {
      double t0 = ionf_wtime();
      rc = bvh_cuda_upload(ctx, p.pos_cm, p.h_cm, n);
      if (rc == IONF_OK) rc = bvh_cuda_build(ctx, &scene, max_leaf, &tm);
      if (rc == IONF_OK) rc = bvh_cuda_download(ctx, &t);
      if (rc != IONF_OK) break;
      total[r] = 1e3 * (ionf_wtime() - t0);
      bvh_free(&t);
      build[r] = tm.build_ms;
      stage[0][r] = tm.keys_ms;
      stage[1][r] = tm.sort_ms;
      stage[2][r] = tm.gather_ms;
      stage[3][r] = tm.leaves_ms;
      stage[4][r] = tm.nodes_ms;
    }
    bvh_cuda_destroy(ctx);
    if (rc != IONF_OK) {
      fprintf(stderr, "bench_bvh: %s\n", ionf_error_message());
      return 1;
    }
#else
    fprintf(stderr, "bench_bvh: this build has no CUDA\n");
    return 77;
#endif
  }
  double b = median(build, repeats), tt = median(total, repeats);
  printf("%s %lld %s %d %d %.3f %.3f %.3f %.3f", backend, n, kind, max_leaf, repeats, b,
         1e6 * b / (double)n, tt, 1e6 * tt / (double)n);
  for (int s = 0; s < 5; ++s) printf(" %.3f", median(stage[s], repeats));
  printf(" %d %d%s\n", n_leaves, height, agreement);
  particles_free(&p);
  return 0;
}
