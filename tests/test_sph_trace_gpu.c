/**
 * @file test_sph_trace_gpu.c
 * @brief The particle tracer's CUDA path gives the CPU path's result: the
 *        same hit counts and per-particle rates to 1e-12 relative (atomic
 *        order and device exp() differ) for grey spectra, 1e-10 for
 *        black-body tables (with heating; see compare()), with and without r_max, on a lattice with a clump
 *        and on a clustered random set; with hit buffers forced small, so
 *        that each batch splits into many pieces; and after
 *        sph_trace_cuda_release and with a different particle set (the
 *        resident copies are replaced); each with both GPU schedules (one
 *        warp per ray, with normal and forced-small windows, and one thread
 *        per ray; and 64-hit windows, which the warp schedule cuts short
 *        when they overflow); and a periodic set, whose rays wrap through the box's
 *        images; and both refuse an ionized fraction outside [0, 1].  The schedules
 *        and window sizes are the pass's tuning (struct sph_trace_tuning); the pass's
 *        stats say which schedule traced (one thread per ray for the deep tree), and
 *        the warp schedule counts its windows.  Skips (77) without a GPU; in a
 *        CPU-only build it checks that sph_trace_cuda says unsupported.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/cuda_util.h"
#include "gpu/particles/bvh_build.h"
#include "core/ionf_config.h"
#include "rt/photo_tables.h"
#include "particles/sph_trace.h"
#include "sph_trace_test_inputs.h"
#include "test_util.h"

/* The schedule of the last GPU pass compare_one ran. */
static enum sph_trace_schedule last_schedule;

static double max_rel_diff(const double *a, const double *b, int64_t n) {
  double m = 0.0; /* NaN-safe: a NaN on either side makes m +inf or NaN */
  for (int64_t i = 0; i < n; ++i) m = test_worst(m, test_rel_diff_sym(a[i], b[i]));
  return m;
}

/*
 * tol: 1e-12 for grey spectra (atomic order, device exp); 1e-10 for the
 * black-body tables, as tests/test_backend_agreement.c: their lookups go
 * through log10, whose last bit may differ between glibc and CUDA, and a
 * hit's credit is the difference of two interpolated values, which magnifies
 * that by tau/dtau.
 */
static void compare_one(const char *what, struct trace_case *c, struct sph_trace_input in) {
  double tol = in.tables.grey ? 1e-12 : 1e-10;
  int64_t n = c->p.count;
  double *g_cpu = calloc((size_t)n, sizeof(double)), *h_cpu = calloc((size_t)n, sizeof(double));
  double *g_gpu = calloc((size_t)n, sizeof(double)), *h_gpu = calloc((size_t)n, sizeof(double));
  struct sph_trace_output oc = {g_cpu, h_cpu}, og = {g_gpu, h_gpu};
  struct sph_trace_stats sc, sg;
  ionf_err rc = sph_trace_cpu(&in, &oc, &sc);
  EXPECT(rc == IONF_OK, "%s: CPU: %s", what, ionf_error_message());
  ionf_err rg = sph_trace_cuda(&in, &og, &sg);
  EXPECT(rg == IONF_OK, "%s: GPU: %s", what, ionf_error_message());
  if (rc == IONF_OK && rg == IONF_OK) {
    double dg = max_rel_diff(g_cpu, g_gpu, n), dh = in.heating ? max_rel_diff(h_cpu, h_gpu, n) : 0.0;
    int64_t lit = 0;
    for (int64_t i = 0; i < n; ++i) lit += g_cpu[i] > 0.0;
    printf("%s: %lld rays, hits CPU %lld GPU %lld, %lld/%lld particles lit, max rel diff gamma "
           "%.3g heating %.3g; CPU %.3f s, GPU %.3f s\n", what, (long long)sc.rays,
           (long long)sc.hits, (long long)sg.hits, (long long)lit, (long long)n, dg, dh, sc.seconds,
           sg.seconds);
    EXPECT(sc.hits == sg.hits, "%s: hits CPU %lld GPU %lld", what, (long long)sc.hits,
           (long long)sg.hits);
    EXPECT(dg <= tol, "%s: gamma differs by %g", what, dg);
    EXPECT(dh <= tol, "%s: heating differs by %g", what, dh);
    EXPECT(lit > 0, "%s: nothing lit", what);
    /* the schedule that traced, and the warp schedule's windows */
    int warp = sg.schedule == SPH_TRACE_SCHEDULE_WARP;
    last_schedule = sg.schedule;
    EXPECT(!warp || in.tuning.schedule == SPH_TRACE_SCHEDULE_WARP,
           "%s: the thread schedule was asked for, the warp's traced", what);
    EXPECT(!warp || (sg.windows > 0 && sg.window_cuts <= sg.windows),
           "%s: warp schedule with %lld windows (%lld cut short)", what, (long long)sg.windows,
           (long long)sg.window_cuts);
    EXPECT(in.tuning.schedule == SPH_TRACE_SCHEDULE_WARP || sg.windows == 0,
           "%s: the thread schedule counted %lld windows", what, (long long)sg.windows);
    EXPECT(sg.trace_s > 0.0 && sg.prepare_s >= 0.0 && sg.upload_s >= 0.0 &&
               sg.rates_out_s >= 0.0 && sg.resident_s >= 0.0 && sc.windows == 0 &&
               sc.trace_s == 0.0,
           "%s: phase times (GPU trace %g s; the CPU's are 0)", what, sg.trace_s);
  }
  ionf_error_clear();
  free(g_cpu);
  free(h_cpu);
  free(g_gpu);
  free(h_gpu);
}

/* Both GPU schedules (gpu/sph_trace_gpu.h) against the CPU; the warp schedule also
   with windows of 24 hits (many windows, many cut and traversed again).  Windows of
   2 hits (rays with 3 hits at one float distance make the pass fall back to threads)
   cost a traversal per hit: only the small cases run them (`tiny_windows`). */
static void compare_schedules(const char *what, struct trace_case *c, struct sph_trace_input in,
                              int tiny_windows) {
  static const struct {
    enum sph_trace_schedule schedule;
    int window_hits; /* 0: the default */
    const char *label;
  } runs[] = {{SPH_TRACE_SCHEDULE_WARP, 0, "warp rays"},
              {SPH_TRACE_SCHEDULE_THREAD, 0, "thread rays"},
              {SPH_TRACE_SCHEDULE_WARP, 64, "warp rays, windows of 64 hits, cut short"},
              {SPH_TRACE_SCHEDULE_WARP, 24, "warp rays, windows of 24 hits"},
              {SPH_TRACE_SCHEDULE_WARP, 2, "warp rays, windows of 2 hits"}};
  size_t n_runs = sizeof runs / sizeof runs[0] - (tiny_windows ? 0 : 1);
  for (size_t k = 0; k < n_runs; ++k) {
    char label[256];
    snprintf(label, sizeof label, "%s [%s]", what, runs[k].label);
    in.tuning.schedule = runs[k].schedule;
    in.tuning.window_hits = runs[k].window_hits;
    compare_one(label, c, in);
  }
}

static void compare(const char *what, struct trace_case *c, struct sph_trace_input in) {
  compare_schedules(what, c, in, 0);
}

/*
 * An ionized fraction outside [0, 1] (1.5, then NaN at a lower index): both
 * paths refuse the pass naming the first bad particle (the GPU checks on the
 * device) and leave the caller's rates as they were.
 */
static void bad_x_hii(struct trace_case *c, struct sph_trace_input in) {
  int64_t n = c->p.count, k_high = n - 3, k_nan = n / 2;
  double *x = malloc((size_t)n * sizeof(double)), *g = malloc((size_t)n * sizeof(double));
  memcpy(x, c->x_hii, (size_t)n * sizeof(double));
  in.x_hii = x;
  struct sph_trace_output out = {g, NULL};
  for (int pass = 0; pass < 2; ++pass) {
    int64_t k = pass == 0 ? k_high : k_nan;
    x[k] = pass == 0 ? 1.5 : NAN;
    char want[64];
    snprintf(want, sizeof want, "particle %lld ionized fraction", (long long)k);
    for (int gpu = 0; gpu < 2; ++gpu) {
      for (int64_t i = 0; i < n; ++i) g[i] = -7.0;
      ionf_error_clear(); /* the first message wins until cleared */
      ionf_err rc = gpu ? sph_trace_cuda(&in, &out, NULL) : sph_trace_cpu(&in, &out, NULL);
      EXPECT(rc == IONF_ERR_INPUT && strstr(ionf_error_message(), want),
             "%s, x_HII[%lld] = %g: want IONF_ERR_INPUT naming it, got %d (%s)",
             gpu ? "GPU" : "CPU", (long long)k, x[k], (int)rc, ionf_error_message());
      int64_t touched = 0;
      for (int64_t i = 0; i < n; ++i) touched += g[i] != -7.0;
      EXPECT(touched == 0, "%s: a refused pass wrote %lld rates", gpu ? "GPU" : "CPU",
             (long long)touched);
    }
  }
  free(x);
  free(g);
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    struct sph_trace_input in;
    memset(&in, 0, sizeof in);
    struct sph_trace_output out = {NULL, NULL};
    EXPECT(sph_trace_cuda(&in, &out, NULL) == IONF_ERR_UNSUPPORTED,
           "sph_trace_cuda without a GPU must say unsupported");
    printf("sph_trace_cuda: %s\n", ionf_error_message());
    return test_failures ? 1 : test_gpu_skip(gpu_why);
  }
  const double kpc = IONF_KPC_CM;
  struct trace_case c;
  if (!trace_case_lattice(16, 0.4, 1, 5, &c)) {
    fprintf(stderr, "set-up: %s\n", ionf_error_message());
    return 1;
  }
  for (int64_t i = 0; i < c.p.count; ++i) c.x_hii[i] = 0.9 * (double)(i % 11) / 11.0;
  sph_trace_cuda_pin_host(c.x_hii, (size_t)c.p.count * sizeof(double)); /* as the engine does */
  double src[9] = {0.5 * kpc, 0.52 * kpc, 0.47 * kpc, -0.2 * kpc, -0.1 * kpc, 1.15 * kpc,
                   0.5 * kpc, 0.45 * kpc, 0.5 * kpc};
  double ndot[3] = {1e50, 3e49, 2e50};
  double n_hi_cm3 = 0.0;
  for (int64_t i = 0; i < c.p.count; ++i) n_hi_cm3 += c.p.n_h_atoms[i] * 0.5;
  n_hi_cm3 /= kpc * kpc * kpc;
  double sigma_mid = 1.0 / (n_hi_cm3 * 0.5 * kpc); /* tau ~ 1 over half the box */
  compare("lattice, grey, 3 sources", &c, trace_input(&c, grey_tables(sigma_mid), 3, src, ndot, 768, 0.0));
  compare("lattice, grey, r_max 0.3 kpc", &c,
          trace_input(&c, grey_tables(sigma_mid), 3, src, ndot, 3072, 0.3 * kpc));
  {
    struct photo_tables t;
    EXPECT(blackbody_tables(sigma_mid, &t), "tables: %s", ionf_error_message());
    struct sph_trace_input in = trace_input(&c, photo_tables_view(&t), 3, src, ndot, 768, 0.0);
    in.heating = 1;
    compare("lattice, black body with heating", &c, in);
    in.tuning.hit_capacity = 5000;
    compare("lattice, black body, hit buffers of 5000", &c, in);
    in.tuning.hit_capacity = 0;
    in.ray_first = 1; /* a rank's share of every source's rays (3 ranks) */
    in.ray_stride = 3;
    compare("lattice, black body, ray share 1 of 3", &c, in);
    sph_trace_cuda_release();
    photo_tables_free(&t);
  }
  compare_schedules("lattice, grey, after release", &c,
                    trace_input(&c, grey_tables(sigma_mid), 1, src, ndot, 192, 0.0), 1);
  bad_x_hii(&c, trace_input(&c, grey_tables(sigma_mid), 1, src, ndot, 192, 0.0));
  trace_case_free(&c);

  /* a chain-like tree (height 2999): the GPU's global-memory traversal stacks */
  {
    struct trace_case l;
    EXPECT(trace_case_bvh_input(INPUT_LINE, 3000, 1, &l), "line: %s", ionf_error_message());
    double lsrc[6] = {0.5e22, 0.5e22, 0.5e22, 0.3e22, 0.6e22, 0.5e22}, lndot[2] = {1e50, 2e50};
    compare("line of 3000, deep tree", &l, trace_input(&l, grey_tables(1e-24), 2, lsrc, lndot, 768, 0.0));
    EXPECT(last_schedule == SPH_TRACE_SCHEDULE_THREAD,
           "a tree deeper than the warp's stack is traced with one thread per ray");
    trace_case_free(&l);
  }

  /* a clustered random set, many sources: the resident copies must be replaced */
  {
    struct trace_case r;
    memset(&r, 0, sizeof r);
    struct particles_random_params rp = {200000, kpc, PARTICLES_RANDOM_CLUSTERED, 48, 1e-24, 9};
    EXPECT(particles_make_random(&rp, &r.p) == IONF_OK, "random set: %s", ionf_error_message());
    r.p.periodic = 0;
    struct bvh_scene scene;
    particles_scene(&r.p, &scene);
    EXPECT(bvh_build_cpu(r.p.pos_cm, r.p.h_cm, r.p.count, &scene, 32, &r.tree, NULL) == IONF_OK,
           "tree: %s", ionf_error_message());
    r.x_hii = calloc((size_t)r.p.count, sizeof(double));
    r.gamma = calloc(1, sizeof(double));
    r.heat = calloc(1, sizeof(double));
    enum { NS = 20 };
    double spos[3 * NS], sndot[NS];
    for (int k = 0; k < NS; ++k) {
      for (int a = 0; a < 3; ++a) spos[3 * k + a] = r.p.pos_cm[3 * (k * 9973) + a];
      sndot[k] = 1e49 * (1 + k);
    }
    double nh = 0.0;
    for (int64_t i = 0; i < r.p.count; ++i) nh += r.p.n_h_atoms[i];
    nh /= kpc * kpc * kpc;
    compare("clustered 2e5, 20 sources, nside 16", &r,
            trace_input(&r, grey_tables(3.0 / (nh * kpc)), NS, spos, sndot, 3072, 0.0));
    trace_case_free(&r);
  }
  /* a periodic random set: rays wrap through the images of the box (r_max 0.7 and 1.6 L) */
  {
    struct trace_case r;
    memset(&r, 0, sizeof r);
    struct particles_random_params rp = {30000, kpc, PARTICLES_RANDOM_CLUSTERED, 48, 1e-24, 5};
    EXPECT(particles_make_random(&rp, &r.p) == IONF_OK, "periodic set: %s", ionf_error_message());
    EXPECT(r.p.periodic && r.p.has_box, "the generator's set is periodic");
    struct bvh_scene scene;
    particles_scene(&r.p, &scene);
    EXPECT(bvh_build_cpu(r.p.pos_cm, r.p.h_cm, r.p.count, &scene, 32, &r.tree, NULL) == IONF_OK,
           "tree: %s", ionf_error_message());
    r.x_hii = calloc((size_t)r.p.count, sizeof(double));
    for (int64_t i = 0; i < r.p.count; ++i) r.x_hii[i] = 0.5 * (double)(i % 7) / 7.0;
    r.gamma = calloc(1, sizeof(double));
    r.heat = calloc(1, sizeof(double));
    double psrc[6] = {0.03 * kpc, 0.97 * kpc, 0.5 * kpc, 0.6 * kpc, 0.4 * kpc, 0.99 * kpc};
    double pndot[2] = {1e50, 4e49};
    double nh = 0.0;
    for (int64_t i = 0; i < r.p.count; ++i) nh += r.p.n_h_atoms[i];
    nh /= kpc * kpc * kpc;
    compare("periodic clustered 3e4, r_max 0.7 L", &r,
            trace_input(&r, grey_tables(1.0 / (nh * kpc)), 2, psrc, pndot, 768, 0.7 * kpc));
    compare("periodic clustered 3e4, r_max 1.6 L", &r,
            trace_input(&r, grey_tables(0.5 / (nh * kpc)), 2, psrc, pndot, 192, 1.6 * kpc));
    trace_case_free(&r);
  }
  sph_trace_cuda_release();
  TEST_RETURN();
}
