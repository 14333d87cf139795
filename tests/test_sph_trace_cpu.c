/**
 * @file test_sph_trace_cpu.c
 * @brief The particle tracer's CPU path (src/sph_trace_cpu.c):
 *  - hits: the tree traversal finds exactly the ray-sphere hits of a brute
 *    force over all particles x all rays (3 sources: inside the set, outside
 *    a corner, by a clump; with and without r_max): equal hit counts, and in
 *    an optically thin set every particle's rate equals Ndot/n_rays sigma0
 *    times its brute-force column sum (to 1e-7: e^-tau < 1e-8 there);
 *  - photon conservation: in a thick set (every ray absorbed) with two grey
 *    sources, sum_p Gamma_p N_HI,p = sum Ndot to 1e-10; at moderate depth
 *    (tau per ray ~ 0.1 - 3) the absorbed photons equal
 *    sum_rays Ndot/n_rays (1 - exp(-tau_ray)) with tau_ray from the brute
 *    force, to 1e-10; with a black body and heating, photons and energy
 *    absorbed equal sum_rays Ndot/n_rays [T(0) - T(tau_ray)] of the thick
 *    tables T (to 1e-9);
 *  - Gamma(r) in a uniform lattice falls like e^-tau(r) / (4 pi r^2) (tau 0.8
 *    to 2), times the kernel's smoothing of that field, 1 + <d^2>/6 lap/f
 *    (<d^2> = 0.225 h^2; +2% to +6% here): shell averages from 1.5 h to
 *    0.35 kpc within 2% (measured: within 0.8%; without the smoothing term
 *    they are 2-6% high);
 *  - a chain-like tree (a line of particles, height > 64) and a small
 *    clustered random set: hits (and columns) as brute force;
 *  - ray shares (sph_trace_input ray_first, ray_stride: what ranks sharing every
 *    source's rays trace): the shares of strides 2, 3 and 5 (5 does not divide
 *    n_rays) sum to the whole pass (black body with heating, 3 sources) to 1e-12 with
 *    the same hits and rays, each share's rays carrying Ndot / n_rays; a share with
 *    first >= stride is refused;
 *  - bad input: n_rays not 12 nside^2 (power-of-two nside), a periodic set
 *    without r_max (periodic sets: tests/test_sph_trace_periodic.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "rt/photo_tables.h"
#include "particles/sph_kernel_table.h"
#include "particles/sph_rays.h"
#include "particles/sph_trace.h"
#include "particles/sph_trace_k.h"
#include "sph_trace_test_inputs.h"
#include "test_util.h"

/* Brute force over all rays x all particles: hits, per-particle column sums,
   per-ray column (atoms per area, of neutral atoms). */
struct brute {
  int64_t hits;
  double *col_sum;  /* per particle: sum over rays of column per atom */
  double *ray_col;  /* per (source, ray): sum over hits of N_HI * col */
};

static void brute_force(const struct trace_case *c, int64_t n_src, const double *src,
                        int64_t nside, double r_max, struct brute *b) {
  static double table[SPH_COLUMN_INTERVALS + 1];
  if (sph_kernel_table_fill(table) != IONF_OK) abort();
  double *dirs;
  if (sph_rays_directions(nside, &dirs) != IONF_OK) abort();
  int64_t n_rays = 12 * nside * nside, n = c->p.count;
  b->col_sum = calloc((size_t)n, sizeof(double));
  b->ray_col = calloc((size_t)(n_src * n_rays), sizeof(double));
  int64_t hits = 0;
  for (int64_t s = 0; s < n_src; ++s)
    for (int64_t k = 0; k < n_rays; ++k) {
      struct sph_ray ray;
      sph_ray_make(src + 3 * s, dirs + 3 * k, r_max, &ray);
      for (int64_t i = 0; i < n; ++i) {
        double t, q2;
        int inside;
        if (!sph_ray_sphere(&ray, c->p.pos_cm + 3 * i, c->p.h_cm[i], &t, &q2, &inside)) continue;
        ++hits;
        double col = sph_hit_column_per_atom(table, q2, c->p.h_cm[i], inside);
        b->col_sum[i] += col;
        b->ray_col[s * n_rays + k] += c->p.n_h_atoms[i] * (1.0 - c->x_hii[i]) * col;
      }
    }
  b->hits = hits;
  free(dirs);
}

static void check_hits_and_conservation(double r_max) {
  struct trace_case c;
  if (!trace_case_lattice(10, 0.4, 1, 7, &c)) {
    EXPECT(0, "set-up: %s", ionf_error_message());
    return;
  }
  const double kpc = IONF_KPC_CM;
  double src[9] = {0.5 * kpc, 0.52 * kpc, 0.47 * kpc, /* inside, several kernels hold it */
                   -0.2 * kpc, -0.1 * kpc, 1.15 * kpc, /* outside a corner */
                   0.5 * kpc, 0.45 * kpc, 0.5 * kpc};  /* next to the clump */
  double ndot[3] = {1e50, 3e49, 2e50};
  for (int64_t i = 0; i < c.p.count; ++i) c.x_hii[i] = 0.5 * (double)(i % 7) / 7.0;
  int64_t nside = 8, n_rays = 12 * nside * nside;
  struct brute b;
  brute_force(&c, 3, src, nside, r_max, &b);

  /* optically thin: rates = Ndot/n_rays sigma0 col_sum */
  double sigma_thin = 1e-30;
  struct sph_trace_input in = trace_input(&c, grey_tables(sigma_thin), 1, src, ndot, n_rays, r_max);
  struct sph_trace_output out = {c.gamma, NULL};
  struct sph_trace_stats st;
  double max_rel = 0.0;
  int64_t hits_total = 0;
  for (int s = 0; s < 3; ++s) {
    /* one source at a time: the brute force's per-particle sums are per source only in total,
       so compare the three passes summed */
    in.sources.pos_cm = src + 3 * s;
    in.sources.ndot_per_s = &ndot[s];
    ionf_err rc = sph_trace_cpu(&in, &out, &st);
    EXPECT(rc == IONF_OK, "thin pass: %s", ionf_error_message());
    hits_total += st.hits;
    for (int64_t i = 0; i < c.p.count; ++i) c.heat[i] += c.gamma[i] / (ndot[s] / (double)n_rays * sigma_thin);
  }
  EXPECT(hits_total == b.hits, "r_max %g: traversal hits %lld, brute force %lld", r_max,
         (long long)hits_total, (long long)b.hits);
  int64_t lit = 0;
  for (int64_t i = 0; i < c.p.count; ++i) {
    if (b.col_sum[i] > 0.0) ++lit;
    double e = test_rel_diff(c.heat[i], b.col_sum[i], 1e-300);
    if (b.col_sum[i] == 0.0 && isfinite(e)) e = c.heat[i] == 0.0 ? 0.0 : 1.0;
    max_rel = test_worst(max_rel, e);
  }
  printf("r_max %.3g kpc: %lld hits (brute force %lld), %lld of %lld particles lit, per-particle "
         "column max rel diff %.3g\n", r_max / kpc, (long long)hits_total, (long long)b.hits,
         (long long)lit, (long long)c.p.count, max_rel);
  EXPECT(max_rel < 1e-7, "per-particle columns differ from brute force by %g", max_rel);

  /* moderate depth: absorbed = sum_rays ndot_ray (1 - exp(-tau_ray)), all three sources at once */
  double tau_mean = 0.0;
  for (int64_t k = 0; k < 3 * n_rays; ++k) tau_mean += b.ray_col[k];
  tau_mean /= (double)(3 * n_rays);
  double sigma_mid = 1.0 / tau_mean; /* mean tau per ray = 1 */
  in = trace_input(&c, grey_tables(sigma_mid), 3, src, ndot, n_rays, r_max);
  EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "moderate pass: %s", ionf_error_message());
  double absorbed = 0.0, expected = 0.0, tau_min = INFINITY, tau_max = 0.0;
  for (int64_t i = 0; i < c.p.count; ++i)
    absorbed += c.gamma[i] * c.p.n_h_atoms[i] * (1.0 - c.x_hii[i]);
  for (int s = 0; s < 3; ++s)
    for (int64_t k = 0; k < n_rays; ++k) {
      double tau = sigma_mid * b.ray_col[s * n_rays + k];
      tau_min = test_least(tau_min, tau);
      tau_max = test_worst(tau_max, tau);
      expected += ndot[s] / (double)n_rays * -expm1(-tau);
    }
  printf("  moderate depth (tau per ray %.3g .. %.3g): absorbed %.15g, 1 - exp(-tau) %.15g\n",
         tau_min, tau_max, absorbed, expected);
  EXPECT_REL(absorbed, expected, 1e-10, "absorbed photons vs 1 - exp(-tau) per ray");

  /* black body with heating, same depth: photons and energy telescope per ray too,
     absorbed = sum_rays ndot_ray [thick(0) - thick(tau_ray)], the same for heat_thick */
  if (r_max <= 0.0) {
    struct photo_tables pt;
    EXPECT(blackbody_tables(sigma_mid, &pt), "tables: %s", ionf_error_message());
    struct photo_table_view v = photo_tables_view(&pt);
    in = trace_input(&c, v, 3, src, ndot, n_rays, r_max);
    in.heating = 1;
    out.heating_erg_per_s = c.heat;
    EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "black-body pass: %s", ionf_error_message());
    double photons = 0.0, energy = 0.0, want_photons = 0.0, want_energy = 0.0;
    for (int64_t i = 0; i < c.p.count; ++i) {
      double nhi = c.p.n_h_atoms[i] * (1.0 - c.x_hii[i]);
      photons += c.gamma[i] * nhi;
      energy += c.heat[i] * nhi;
    }
    for (int s = 0; s < 3; ++s)
      for (int64_t k = 0; k < n_rays; ++k) {
        double tau = sigma_mid * b.ray_col[s * n_rays + k];
        double nd = ndot[s] / (double)n_rays;
        want_photons += nd * (v.sp[SPECIES_HI].thick[0] - photo_table_lookup(v.sp[SPECIES_HI].thick, v.num_tau, v.min_log_tau, v.dlog_tau, tau));
        want_energy += nd * (v.sp[SPECIES_HI].heat_thick[0] - photo_table_lookup(v.sp[SPECIES_HI].heat_thick, v.num_tau, v.min_log_tau, v.dlog_tau, tau));
      }
    printf("  black body: photons absorbed / expected - 1 = %.3g, energy %.3g\n",
           photons / want_photons - 1.0, energy / want_energy - 1.0);
    EXPECT_REL(photons, want_photons, 1e-9, "black body: absorbed photons");
    EXPECT_REL(energy, want_energy, 1e-9, "black body: absorbed energy");
    out.heating_erg_per_s = NULL;
    photo_tables_free(&pt);
  }

  /* thick: every ray ends inside (r_max = 0 only: all rays cross the set) */
  if (r_max <= 0.0) {
    double src_in[6] = {0.5 * kpc, 0.52 * kpc, 0.47 * kpc, 0.3 * kpc, 0.6 * kpc, 0.7 * kpc};
    in = trace_input(&c, grey_tables(6.3e-18), 2, src_in, ndot, n_rays, r_max);
    EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "thick pass: %s", ionf_error_message());
    absorbed = 0.0;
    for (int64_t i = 0; i < c.p.count; ++i)
      absorbed += c.gamma[i] * c.p.n_h_atoms[i] * (1.0 - c.x_hii[i]);
    printf("  thick: absorbed / emitted - 1 = %.3g\n", absorbed / (ndot[0] + ndot[1]) - 1.0);
    EXPECT_REL(absorbed, ndot[0] + ndot[1], 1e-10, "thick set: all photons absorbed");
  }
  free(b.col_sum);
  free(b.ray_col);
  trace_case_free(&c);
}

/* Gamma(r) = Ndot sigma0 exp(-sigma0 n_HI r) / (4 pi r^2) in a uniform lattice. */
static void check_profile(void) {
  struct trace_case c;
  if (!trace_case_lattice(24, 0.1, 0, 3, &c)) {
    EXPECT(0, "set-up: %s", ionf_error_message());
    return;
  }
  const double kpc = IONF_KPC_CM;
  double src[3] = {0.503 * kpc, 0.498 * kpc, 0.501 * kpc}, ndot = 1e50;
  double n_hi_cm3 = 0.0;
  for (int64_t i = 0; i < c.p.count; ++i) n_hi_cm3 += c.p.n_h_atoms[i];
  n_hi_cm3 /= kpc * kpc * kpc;
  double sigma0 = 2.0 / (n_hi_cm3 * 0.35 * kpc); /* tau = 2 at 0.35 kpc */
  struct sph_trace_input in = trace_input(&c, grey_tables(sigma0), 1, src, &ndot, 12 * 32 * 32, 0.0);
  struct sph_trace_output out = {c.gamma, NULL};
  struct sph_trace_stats st;
  EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "profile pass: %s", ionf_error_message());
  enum { SHELLS = 8 };
  /* h of the particle nearest the source: the lattice's h away from the open edges */
  double h_typ = 0.0, d_best = INFINITY;
  for (int64_t i = 0; i < c.p.count; ++i) {
    const double *x = c.p.pos_cm + 3 * i;
    double d = fabs(x[0] - src[0]) + fabs(x[1] - src[1]) + fabs(x[2] - src[2]);
    if (d < d_best) {
      d_best = d;
      h_typ = c.p.h_cm[i];
    }
  }
  double r_lo = 1.5 * h_typ, r_hi = 0.35 * kpc, kappa = sigma0 * n_hi_cm3;
  double sum[SHELLS] = {0}, sum_raw[SHELLS] = {0}, cnt[SHELLS] = {0};
  for (int64_t i = 0; i < c.p.count; ++i) {
    const double *x = c.p.pos_cm + 3 * i;
    double r = sqrt((x[0] - src[0]) * (x[0] - src[0]) + (x[1] - src[1]) * (x[1] - src[1]) +
                    (x[2] - src[2]) * (x[2] - src[2]));
    if (r < r_lo || r >= r_hi) continue;
    int k = (int)((r - r_lo) / (r_hi - r_lo) * SHELLS);
    double model = ndot * sigma0 * exp(-kappa * r) / (4.0 * IONF_PI * r * r);
    /* the particle samples the field over its kernel: <f> = f + <d^2>/6 lap f with
       <d^2> = 0.225 h^2 (cubic spline) and lap f = f (kappa^2 + 2 kappa/r + 2/r^2) */
    double h = c.p.h_cm[i];
    double smoothing = 1.0 + 0.0375 * h * h * (kappa * kappa + 2.0 * kappa / r + 2.0 / (r * r));
    sum[k] += c.gamma[i] / (model * smoothing);
    sum_raw[k] += c.gamma[i] / model;
    cnt[k] += 1.0;
  }
  printf("Gamma(r) / [Ndot sigma0 e^-tau / (4 pi r^2)] in shells from %.3g to %.3g kpc (tau "
         "%.2f .. 2), h = %.3g kpc\n  raw:             ", r_lo / kpc, r_hi / kpc, kappa * r_lo, h_typ / kpc);
  for (int k = 0; k < SHELLS; ++k) printf(" %.4f", sum_raw[k] / cnt[k]);
  printf("\n  kernel-smoothed:");
  for (int k = 0; k < SHELLS; ++k) {
    double m = sum[k] / cnt[k];
    printf(" %.4f", m);
    EXPECT(fabs(m - 1.0) < 0.02, "shell %d: Gamma / model = %g", k, m);
  }
  printf("\n");
  trace_case_free(&c);
}

static void check_ray_shares(void) {
  struct trace_case c;
  struct photo_tables t;
  if (!trace_case_lattice(14, 0.3, 1, 7, &c) || !blackbody_tables(3e-18, &t)) {
    EXPECT(0, "set-up: %s", ionf_error_message());
    return;
  }
  const double kpc = IONF_KPC_CM;
  double src[9] = {0.5 * kpc, 0.52 * kpc, 0.47 * kpc, 0.1 * kpc, 0.2 * kpc, 0.9 * kpc,
                   0.6 * kpc, 0.45 * kpc, 0.5 * kpc};
  double ndot[3] = {1e50, 3e49, 2e50};
  int64_t n = c.p.count;
  for (int64_t i = 0; i < n; ++i) c.x_hii[i] = 0.8 * (double)(i % 13) / 13.0;
  struct sph_trace_input in = trace_input(&c, photo_tables_view(&t), 3, src, ndot, 192, 0.0);
  in.heating = 1;
  double *g_all = calloc((size_t)n, sizeof(double)), *h_all = calloc((size_t)n, sizeof(double));
  double *g_sum = calloc((size_t)n, sizeof(double)), *h_sum = calloc((size_t)n, sizeof(double));
  struct sph_trace_output out_all = {g_all, h_all}, out_share = {c.gamma, c.heat};
  struct sph_trace_stats st_all, st;
  EXPECT(sph_trace_cpu(&in, &out_all, &st_all) == IONF_OK, "whole pass: %s", ionf_error_message());
  const int64_t strides[] = {2, 3, 5};
  for (size_t k = 0; k < sizeof strides / sizeof strides[0]; ++k) {
    int64_t rays = 0, hits = 0;
    memset(g_sum, 0, sizeof(double) * (size_t)n);
    memset(h_sum, 0, sizeof(double) * (size_t)n);
    for (int64_t first = 0; first < strides[k]; ++first) {
      in.ray_first = first;
      in.ray_stride = strides[k];
      EXPECT(sph_trace_cpu(&in, &out_share, &st) == IONF_OK, "share %lld of %lld: %s",
             (long long)first, (long long)strides[k], ionf_error_message());
      rays += st.rays;
      hits += st.hits;
      for (int64_t i = 0; i < n; ++i) g_sum[i] += c.gamma[i], h_sum[i] += c.heat[i];
    }
    double dg = 0.0, dh = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      dg = test_worst(dg, test_rel_diff_sym(g_sum[i], g_all[i]));
      dh = test_worst(dh, test_rel_diff_sym(h_sum[i], h_all[i]));
    }
    printf("ray shares of stride %lld: rays %lld (whole %lld), hits %lld (%lld), max rel diff "
           "gamma %.3g heating %.3g\n", (long long)strides[k], (long long)rays,
           (long long)st_all.rays, (long long)hits, (long long)st_all.hits, dg, dh);
    EXPECT(rays == st_all.rays && hits == st_all.hits, "stride %lld: rays %lld hits %lld",
           (long long)strides[k], (long long)rays, (long long)hits);
    EXPECT(dg <= 1e-12 && dh <= 1e-12, "stride %lld: shares differ from the whole by %g, %g",
           (long long)strides[k], dg, dh);
  }
  in.ray_first = 3;
  in.ray_stride = 3;
  ionf_error_clear();
  EXPECT(sph_trace_cpu(&in, &out_share, NULL) == IONF_ERR_INTERNAL, "share 3 of 3 accepted");
  ionf_error_clear();
  free(g_all);
  free(h_all);
  free(g_sum);
  free(h_sum);
  photo_tables_free(&t);
  trace_case_free(&c);
}

static void check_bad_input(void) {
  struct trace_case c;
  if (!trace_case_lattice(4, 0.1, 0, 1, &c)) {
    EXPECT(0, "set-up: %s", ionf_error_message());
    return;
  }
  double src[3] = {0, 0, 0}, ndot = 1.0;
  struct sph_trace_output out = {c.gamma, NULL};
  const int64_t bad[] = {0, 13, 12 * 9, 100, 12 * 3 * 3};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    struct sph_trace_input in = trace_input(&c, grey_tables(1e-18), 1, src, &ndot, bad[k], 0.0);
    ionf_error_clear();
    ionf_err rc = sph_trace_cpu(&in, &out, NULL);
    char want[32];
    snprintf(want, sizeof want, "%lld", (long long)bad[k]);
    EXPECT(rc == IONF_ERR_INPUT && strstr(ionf_error_message(), want),
           "n_rays %lld: rc %d, message '%s'", (long long)bad[k], rc, ionf_error_message());
  }
  c.p.periodic = 1; /* periodic sets: tests/test_sph_trace_periodic.c; without r_max refused */
  struct sph_trace_input in = trace_input(&c, grey_tables(1e-18), 1, src, &ndot, 12, 0.0);
  ionf_error_clear();
  EXPECT(sph_trace_cpu(&in, &out, NULL) == IONF_ERR_INPUT, "periodic set without r_max accepted");
  EXPECT(strstr(ionf_error_message(), "periodic") && strstr(ionf_error_message(), "r_max"),
         "message: %s", ionf_error_message());
  ionf_error_clear();
  trace_case_free(&c);
  /* the default nside: 4 N^(2/3) rays at least */
  EXPECT(sph_rays_default_nside(2097152) == 128, "default nside for 2^21: %lld",
         (long long)sph_rays_default_nside(2097152));
  for (int64_t n = 1; n < 100000000; n *= 7) {
    int64_t ns = sph_rays_default_nside(n);
    EXPECT(12.0 * (double)(ns * ns) >= 4.0 * pow((double)n, 2.0 / 3.0) - 1e-9 &&
               (ns == 1 || 12.0 * (double)(ns * ns) / 4.0 < 4.0 * pow((double)n, 2.0 / 3.0)),
           "default nside %lld for %lld particles", (long long)ns, (long long)n);
  }
}

/* A chain-like tree (collinear particles of growing spacing, one per leaf): the
   traversal stack sized from the height still finds every brute-force hit. */
static void check_deep_tree(void) {
  struct trace_case c;
  if (!trace_case_bvh_input(INPUT_LINE, 3000, 1, &c)) {
    EXPECT(0, "set-up: %s", ionf_error_message());
    return;
  }
  double src[6] = {0.5e22, 0.5e22, 0.5e22, 0.3e22, 0.6e22, 0.5e22}, ndot[2] = {1e50, 1e50};
  struct brute b;
  brute_force(&c, 2, src, 8, 0.0, &b);
  struct sph_trace_input in = trace_input(&c, grey_tables(1e-30), 2, src, ndot, 768, 0.0);
  struct sph_trace_output out = {c.gamma, NULL};
  struct sph_trace_stats st;
  EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "line: %s", ionf_error_message());
  printf("line of 3000 (tree height %d): %lld hits, brute force %lld\n", c.tree.height,
         (long long)st.hits, (long long)b.hits);
  EXPECT(c.tree.height > 64, "the line's tree is not deep: height %d", c.tree.height);
  EXPECT(st.hits == b.hits && b.hits > 0, "line: hits %lld, brute force %lld", (long long)st.hits,
         (long long)b.hits);
  free(b.col_sum);
  free(b.ray_col);
  trace_case_free(&c);
}

/* A small clustered random set (overlapping kernels of very different sizes): hits and
   per-particle columns as brute force. */
static void check_random_set(void) {
  struct trace_case c;
  memset(&c, 0, sizeof c);
  struct particles_random_params rp = {3000, IONF_KPC_CM, PARTICLES_RANDOM_CLUSTERED, 32, 1e-24, 17};
  EXPECT(particles_make_random(&rp, &c.p) == IONF_OK, "random set: %s", ionf_error_message());
  c.p.periodic = 0;
  EXPECT(bvh_build_cpu(c.p.pos_cm, c.p.h_cm, c.p.count, NULL, 8, &c.tree, NULL) == IONF_OK,
         "tree: %s", ionf_error_message());
  c.x_hii = calloc((size_t)c.p.count, sizeof(double));
  c.gamma = calloc((size_t)c.p.count, sizeof(double));
  c.heat = calloc(1, sizeof(double));
  double src[6] = {c.p.pos_cm[0], c.p.pos_cm[1], c.p.pos_cm[2], 0.2 * IONF_KPC_CM,
                   0.7 * IONF_KPC_CM, 0.4 * IONF_KPC_CM};
  double ndot[2] = {1e50, 1e50};
  struct brute b;
  brute_force(&c, 2, src, 8, 0.0, &b);
  double sigma = 1e-36; /* tau < 1e-12 even through the blobs: rates are sigma x columns */
  struct sph_trace_input in = trace_input(&c, grey_tables(sigma), 2, src, ndot, 768, 0.0);
  struct sph_trace_output out = {c.gamma, NULL};
  struct sph_trace_stats st;
  EXPECT(sph_trace_cpu(&in, &out, &st) == IONF_OK, "random set: %s", ionf_error_message());
  double max_rel = 0.0;
  for (int64_t i = 0; i < c.p.count; ++i) {
    double got = c.gamma[i] / (1e50 / 768.0 * sigma);
    double e = b.col_sum[i] > 0.0 ? test_rel_diff(got, b.col_sum[i], 0.0) : (got == 0.0 ? 0.0 : 1.0);
    max_rel = test_worst(max_rel, e); /* a NaN got is not 0: e = 1 */
  }
  printf("clustered random set of 3000: %lld hits (brute force %lld), per-particle column max "
         "rel diff %.3g\n", (long long)st.hits, (long long)b.hits, max_rel);
  EXPECT(st.hits == b.hits && b.hits > 0, "random set: hits %lld, brute force %lld",
         (long long)st.hits, (long long)b.hits);
  EXPECT(max_rel < 1e-7, "random set: columns differ from brute force by %g", max_rel);
  free(b.col_sum);
  free(b.ray_col);
  trace_case_free(&c);
}

int main(void) {
  check_deep_tree();
  check_random_set();
  check_hits_and_conservation(0.0);
  check_hits_and_conservation(0.3 * IONF_KPC_CM);
  check_profile();
  check_ray_shares();
  check_bad_input();
  TEST_RETURN();
}
