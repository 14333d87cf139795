/**
 * @file bench_sph_trace.c
 * @brief Particle tracer benchmark: N random particles (uniform or clustered,
 *        48 neighbours) in an open 1 kpc box, S sources at particle
 *        positions, 12 nside^2 rays per source; grey, optical depth ~ 1 across
 *        the box (the cost does not depend on it: every hit is walked).
 *
 * usage: bench_sph_trace cpu|cuda|both N uniform|clustered NSIDE:SOURCES[,NSIDE:SOURCES...]
 *                       [REPEATS] [OPTIONS]
 * options (the CUDA pass's tuning, struct sph_trace_tuning; default: its defaults):
 *   --schedule warp|thread   the ray schedule
 *   --window-hits K          warp: hits a window's buffer holds (2..1024)
 *   --window-aim A           warp: hits a window aims at, fraction of the buffer (0.1..2)
 *   --min-blocks B           warp: the kernel's launch bound, blocks per SM (1, 6, 8)
 *   --hit-capacity H         thread: hits the buffers hold
 *   --timing                 each CUDA pass's phases and windows to stderr, one line
 *                            ("... trace X ms ...", benchmarks/sph_ab.sh reads it)
 *
 * One line per backend and configuration:
 *   backend N kind nside rays_per_source sources rays hits hits_per_ray seconds
 *   rays_per_s hits_per_s [max_rel_diff_vs_cpu]
 * seconds: median of REPEATS passes (default 3) of the whole call, host to
 * host (cuda: after one untimed pass that makes the tree and particles
 * resident, as in a run where they stay; per pass it still uploads x_HII and
 * the sources and copies the rates back, between page-locked arrays as the
 * particle engine's (sph_trace_cuda_pin_host); BENCH_PAGEABLE=1: pageable).  cpu: all OpenMP threads.  both:
 * the cuda line ends with the largest relative difference of its rates from
 * the cpu pass's.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "core/constants.h"
#include "core/error.h"
#include "particles/particles.h"
#include "particles/particles_make.h"
#include "rt/photo_k.h"
#include "particles/sph_trace.h"

#define MAX_REPEATS 50

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --timing: a CUDA pass's phases and the warp schedule's windows, one line on stderr. */
static void print_timing(const struct sph_trace_stats *st) {
  fprintf(stderr,
          "sph_trace_cuda (%s rays): host preparation %.3f ms, resident %.3f ms, uploads %.3f ms, "
          "trace %.3f ms, rates out %.3f ms; %lld rays, %lld hits; %lld windows (%lld cut "
          "short, %lld traversed again)\n",
          st->schedule == SPH_TRACE_SCHEDULE_THREAD ? "thread" : "warp", 1e3 * st->prepare_s,
          1e3 * st->resident_s, 1e3 * st->upload_s, 1e3 * st->trace_s, 1e3 * st->rates_out_s,
          (long long)st->rays, (long long)st->hits, (long long)st->windows,
          (long long)st->window_cuts, (long long)st->window_retraversals);
}

/* Run `repeats` passes; median seconds; stats of the last. */
static int timed(int cuda, const struct sph_trace_input *in, struct sph_trace_output *out,
                 int repeats, int timing, struct sph_trace_stats *st, double *seconds) {
  double t[MAX_REPEATS];
  if (cuda && sph_trace_cuda(in, out, st) != IONF_OK) return 0; /* warm-up: resident copies */
  if (cuda && timing) print_timing(st);
  for (int k = 0; k < repeats; ++k) {
    ionf_err rc = cuda ? sph_trace_cuda(in, out, st) : sph_trace_cpu(in, out, st);
    if (rc != IONF_OK) return 0;
    if (cuda && timing) print_timing(st);
    t[k] = st->seconds;
  }
  *seconds = median(t, repeats);
  return 1;
}

/* The options after the positional arguments: the tuning, --timing; 0 on a bad one. */
static int parse_options(int argc, char **argv, int *repeats, struct sph_trace_tuning *tuning,
                         int *timing) {
  static const char *const with_value[] = {"--schedule", "--window-hits", "--window-aim",
                                            "--min-blocks", "--hit-capacity"};
  int positional = 0;
  for (int a = 5; a < argc; ++a) {
    const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    int needs_value = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; ++k)
      needs_value |= !strcmp(opt, with_value[k]);
    if (!strcmp(opt, "--timing")) {
      *timing = 1;
    } else if (needs_value && !val) {
      fprintf(stderr, "bench_sph_trace: %s needs a value\n", opt);
      return 0;
    } else if (!strcmp(opt, "--schedule")) {
      if (strcmp(val, "warp") && strcmp(val, "thread")) {
        fprintf(stderr, "bench_sph_trace: --schedule %s: warp or thread\n", val);
        return 0;
      }
      tuning->schedule =
          strcmp(val, "thread") ? SPH_TRACE_SCHEDULE_WARP : SPH_TRACE_SCHEDULE_THREAD;
      ++a;
    } else if (!strcmp(opt, "--window-hits")) {
      tuning->window_hits = atoi(argv[++a]);
    } else if (!strcmp(opt, "--window-aim")) {
      tuning->window_aim = atof(argv[++a]);
    } else if (!strcmp(opt, "--min-blocks")) {
      tuning->min_blocks = atoi(argv[++a]);
    } else if (!strcmp(opt, "--hit-capacity")) {
      tuning->hit_capacity = atoll(argv[++a]);
    } else if (!strncmp(opt, "--", 2) || positional++ > 0) {
      fprintf(stderr, "bench_sph_trace: unknown argument '%s'\n", opt);
      return 0;
    } else {
      *repeats = atoi(opt);
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr,
            "usage: %s cpu|cuda|both N uniform|clustered NSIDE:SOURCES[,NSIDE:SOURCES...] "
            "[REPEATS] [--schedule warp|thread] [--window-hits K] [--window-aim A] "
            "[--min-blocks B] [--hit-capacity H] [--timing]\n", argv[0]);
    return 2;
  }
  const char *backend = argv[1], *kind = argv[3];
  long long n = atoll(argv[2]);
  int repeats = 3, timing = 0;
  struct sph_trace_tuning tuning;
  memset(&tuning, 0, sizeof tuning);
  if (!parse_options(argc, argv, &repeats, &tuning, &timing)) return 2;
  int do_cpu = !strcmp(backend, "cpu") || !strcmp(backend, "both");
  int do_cuda = !strcmp(backend, "cuda") || !strcmp(backend, "both");
  if (n < 1 || repeats < 1 || repeats > MAX_REPEATS || (!do_cpu && !do_cuda) ||
      (strcmp(kind, "uniform") && strcmp(kind, "clustered"))) {
    fprintf(stderr, "bench_sph_trace: bad arguments\n");
    return 2;
  }
  struct particles_random_params rp = {
      n, IONF_KPC_CM,
      strcmp(kind, "uniform") ? PARTICLES_RANDOM_CLUSTERED : PARTICLES_RANDOM_UNIFORM, 48, 1e-24, 1};
  struct particle_set p;
  struct bvh tree;
  if (particles_make_random(&rp, &p) != IONF_OK) {
    fprintf(stderr, "bench_sph_trace: %s\n", ionf_error_message());
    return 1;
  }
  p.periodic = 0; /* the tracer does not wrap rays */
  struct bvh_scene scene;
  particles_scene(&p, &scene);
  if (bvh_build_cpu(p.pos_cm, p.h_cm, p.count, &scene, BVH_MAX_LEAF_DEFAULT, &tree, NULL) != IONF_OK) {
    fprintf(stderr, "bench_sph_trace: %s\n", ionf_error_message());
    return 1;
  }
  double *x_hii = calloc((size_t)n, sizeof(double));
  double *g_cpu = calloc((size_t)n, sizeof(double)), *g_gpu = calloc((size_t)n, sizeof(double));
  if (do_cuda && !getenv("BENCH_PAGEABLE")) { /* as the particle engine does */
    sph_trace_cuda_pin_host(x_hii, (size_t)n * sizeof(double));
    sph_trace_cuda_pin_host(g_gpu, (size_t)n * sizeof(double));
  }
  double n_h_cm3 = 0.0;
  for (long long i = 0; i < n; ++i) n_h_cm3 += p.n_h_atoms[i];
  n_h_cm3 /= IONF_KPC_CM * IONF_KPC_CM * IONF_KPC_CM;
  struct photo_table_view tables;
  memset(&tables, 0, sizeof tables);
  tables.grey = 1;
  tables.sp[SPECIES_HI].sigma0_cm2 = 1.0 / (n_h_cm3 * IONF_KPC_CM);
  enum { MAX_SOURCES = 100000 };
  static double src_pos[3 * MAX_SOURCES], src_ndot[MAX_SOURCES];
  printf("# backend N kind nside rays_per_source sources rays hits hits_per_ray seconds "
         "rays_per_s hits_per_s [max_rel_diff_vs_cpu]\n");
  int status = 0;
  char *list = strdup(argv[4]);
  for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
    long long nside = 0, ns = 0;
    if (sscanf(item, "%lld:%lld", &nside, &ns) != 2 || ns < 1 || ns > MAX_SOURCES) {
      fprintf(stderr, "bench_sph_trace: bad configuration '%s' (NSIDE:SOURCES)\n", item);
      return 2;
    }
    /* sources at particles spread through the set (deterministic) */
    for (long long k = 0; k < ns; ++k) {
      long long i = (long long)(((unsigned long long)k * 2654435761ull) % (unsigned long long)n);
      for (int a = 0; a < 3; ++a) src_pos[3 * k + a] = p.pos_cm[3 * i + a];
      src_ndot[k] = 1e50;
    }
    struct sph_trace_input in;
    memset(&in, 0, sizeof in);
    in.particles = &p;
    in.tree = &tree;
    in.x_hii = x_hii;
    in.tables = tables;
    in.sources.count = ns;
    in.sources.pos_cm = src_pos;
    in.sources.ndot_per_s = src_ndot;
    in.n_rays = 12 * nside * nside;
    in.tuning = tuning;
    for (int pass = 0; pass < 2; ++pass) {
      int cuda = pass == 1;
      if ((cuda && !do_cuda) || (!cuda && !do_cpu)) continue;
      struct sph_trace_output out = {cuda ? g_gpu : g_cpu, NULL};
      struct sph_trace_stats st;
      double sec = 0.0;
      if (!timed(cuda, &in, &out, repeats, timing, &st, &sec)) {
        fprintf(stderr, "bench_sph_trace: %s nside %lld sources %lld: %s\n", cuda ? "cuda" : "cpu",
                nside, ns, ionf_error_message());
        ionf_error_clear();
        status = 1;
        continue;
      }
      printf("%s %lld %s %lld %lld %lld %lld %lld %.1f %.4g %.4g %.4g", cuda ? "cuda" : "cpu", n,
             kind, nside, (long long)in.n_rays, ns, (long long)st.rays, (long long)st.hits,
             (double)st.hits / (double)st.rays, sec, (double)st.rays / sec,
             (double)st.hits / sec);
      if (cuda && do_cpu) {
        double m = 0.0;
        for (long long i = 0; i < n; ++i) {
          double s = fmax(fabs(g_cpu[i]), fabs(g_gpu[i]));
          if (s > 0.0) m = fmax(m, fabs(g_cpu[i] - g_gpu[i]) / s);
        }
        printf(" %.3g", m);
      }
      printf("\n");
      fflush(stdout);
    }
  }
  free(list);
  if (do_cuda) sph_trace_cuda_release();
  free(x_hii);
  free(g_cpu);
  free(g_gpu);
  bvh_free(&tree);
  particles_free(&p);
  return status;
}
