/**
 * @file test_particles_make.c
 * @brief The test-particle generator: every kernel sphere holds the target
 *        neighbour number, and h agrees with a brute-force search; SPH
 *        densities from the kernel sum are within a few per cent of the
 *        target on uniform lattices (periodic), and follow a clump's contrast;
 *        a glass-like relaxed set has far less density noise than a random
 *        one; the same parameters give the same bits; random sets have the
 *        neighbour counts their model density promises; bad parameters are
 *        named.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "core/error.h"
#include "particles/particles.h"
#include "particles/particles_make.h"
#include "particles/sph_k.h"
#include "particles/sph_neighbours.h"
#include "test_util.h"

static int verbose;

struct stats {
  double mean, rms_rel, max_rel; /* of x / target */
};

static struct stats density_stats(const struct particle_set *p, double target) {
  struct stats s = {0.0, 0.0, 0.0};
  for (int64_t i = 0; i < p->count; ++i) {
    double r = p->density_g_cm3[i] / target;
    s.mean += r;
    s.rms_rel += (r - 1.0) * (r - 1.0);
    s.max_rel = test_worst(s.max_rel, test_abs_diff(r, 1.0)); /* a NaN density is kept */
  }
  s.mean /= (double)p->count;
  s.rms_rel = sqrt(s.rms_rel / (double)p->count);
  return s;
}

/* Sorted squared nearest-image distances from particle i to all: brute force. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void brute_force(const struct particle_set *p, int64_t i, int n_ngb, double *h,
                        double *rho) {
  double *d2 = malloc((size_t)p->count * sizeof *d2);
  *rho = 0.0;
  for (int64_t j = 0; j < p->count; ++j) {
    double s = 0.0;
    for (int a = 0; a < 3; ++a) {
      double d = p->pos_cm[3 * i + a] - p->pos_cm[3 * j + a];
      if (p->periodic) d -= p->box_size_cm[a] * nearbyint(d / p->box_size_cm[a]);
      s += d * d;
    }
    d2[j] = s;
    *rho += p->mass_g[j] * sph_kernel_w(sqrt(s), p->h_cm[i]);
  }
  qsort(d2, (size_t)p->count, sizeof *d2, cmp_double);
  *h = 0.5 * (sqrt(d2[n_ngb - 1]) + sqrt(d2[n_ngb]));
  free(d2);
}

static void expect_error(ionf_err got, const char *fragment, const char *what) {
  const char *msg = ionf_error_message();
  if (verbose) printf("%-28s -> %s\n", what, msg);
  EXPECT(got == IONF_ERR_INPUT, "%s: code %d (%s)", what, (int)got, msg);
  EXPECT(strstr(msg, fragment), "%s: message '%s' lacks '%s'", what, msg, fragment);
  ionf_error_clear();
}

int main(void) {
  verbose = getenv("IONF_TEST_VERBOSE") != NULL;
  struct particles_make_params prm;

  /* kernel normalisation: 4 pi int_0^h W r^2 dr = 1 */
  {
    double sum = 0.0, h = 2.0;
    const int steps = 20000;
    for (int k = 0; k < steps; ++k) {
      double r = (k + 0.5) * h / steps;
      sum += 4.0 * IONF_PI * r * r * sph_kernel_w(r, h) * h / steps;
    }
    EXPECT_REL(sum, 1.0, 1e-6, "kernel volume integral");
    EXPECT(sph_kernel_w(h, h) == 0.0 && sph_kernel_w(1.5 * h, h) == 0.0, "W = 0 at r >= h");
  }

  /* uniform jittered lattice, periodic: exact neighbour counts, densities near the target */
  particles_make_default_params(&prm);
  prm.n_side = 24;
  struct particle_set p;
  ionf_err rc = particles_make_lattice(&prm, &p);
  EXPECT(rc == IONF_OK, "lattice: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(p.count == 24 * 24 * 24, "lattice count %lld", (long long)p.count);
    EXPECT(particles_validate(&p, "generator") == IONF_OK, "valid: %s", ionf_error_message());
    int32_t *counts = malloc((size_t)p.count * sizeof *counts);
    EXPECT(sph_neighbours_counts(&p, counts) == IONF_OK, "counts");
    int64_t wrong = 0;
    for (int64_t i = 0; i < p.count; ++i) wrong += counts[i] != prm.n_ngb;
    EXPECT(wrong == 0, "%lld of %lld kernel spheres do not hold %d particles", (long long)wrong,
           (long long)p.count, prm.n_ngb);
    free(counts);
    struct stats s = density_stats(&p, prm.density_g_cm3);
    if (verbose)
      printf("jittered lattice: density mean %.4f rms %.4f max %.4f of the target\n", s.mean,
             s.rms_rel, s.max_rel);
    /* jitter 0.1 spacing: the kernel sum scatters by about 1.5% rms */
    EXPECT(fabs(s.mean - 1.0) < 0.01, "mean density %.4f of the target", s.mean);
    EXPECT(s.rms_rel < 0.025 && s.max_rel < 0.08, "density scatter rms %.4f max %.4f",
           s.rms_rel, s.max_rel);
    /* the tree-based search against brute force, particles at faces and corners included */
    const int64_t probe[] = {0, 1, 23, 24 * 24 - 1, 5000, p.count / 2, p.count - 1};
    for (size_t k = 0; k < sizeof probe / sizeof probe[0]; ++k) {
      double h, rho;
      brute_force(&p, probe[k], prm.n_ngb, &h, &rho);
      /* the tree query measures from shifted images: rounding differs in the last bits */
      EXPECT_REL(p.h_cm[probe[k]], h, 1e-14, "h against brute force");
      EXPECT_REL(p.density_g_cm3[probe[k]], rho, 1e-12, "density against brute force");
    }
    EXPECT_REL(particles_total_mass_g(&p), prm.density_g_cm3 * pow(prm.box_cm, 3), 1e-12,
               "total mass");
    /* hydrogen only: n_H per particle = m / m_p */
    EXPECT_REL(p.n_h_atoms[0], p.mass_g[0] / 1.67262192369e-24, 1e-12, "hydrogen atoms");

    /* the same parameters, the same bits */
    struct particle_set q;
    EXPECT(particles_make_lattice(&prm, &q) == IONF_OK, "again");
    EXPECT(q.count == p.count && !memcmp(q.pos_cm, p.pos_cm, 3 * (size_t)p.count * sizeof(double)) &&
               !memcmp(q.h_cm, p.h_cm, (size_t)p.count * sizeof(double)) &&
               !memcmp(q.density_g_cm3, p.density_g_cm3, (size_t)p.count * sizeof(double)),
           "a second run differs");
    particles_free(&q);
    particles_free(&p);
  }

  /* exact lattice (jitter 0), 64 neighbours: the kernel sum on a perfect lattice */
  particles_make_default_params(&prm);
  prm.n_side = 16;
  prm.jitter = 0.0;
  prm.n_ngb = 64;
  if (particles_make_lattice(&prm, &p) == IONF_OK) {
    struct stats s = density_stats(&p, prm.density_g_cm3);
    if (verbose) printf("exact lattice: density mean %.5f max %.5f\n", s.mean, s.max_rel);
    EXPECT(s.max_rel < 0.03, "exact lattice: density off by %.4f", s.max_rel);
    particles_free(&p);
  } else {
    EXPECT(0, "exact lattice: %s", ionf_error_message());
  }

  /* a clump of contrast 8: its inner densities and its mass */
  particles_make_default_params(&prm);
  prm.n_side = 24;
  struct particle_clump clump = {{0.5 * IONF_KPC_CM, 0.45 * IONF_KPC_CM, 0.5 * IONF_KPC_CM},
                                 0.25 * IONF_KPC_CM, 8.0};
  prm.clumps = &clump;
  prm.n_clumps = 1;
  rc = particles_make_lattice(&prm, &p);
  EXPECT(rc == IONF_OK, "clump: %s", ionf_error_message());
  if (rc == IONF_OK) {
    double inner = 0.0, mass_in = 0.0;
    int64_t n_inner = 0;
    for (int64_t i = 0; i < p.count; ++i) {
      double d2 = 0.0;
      for (int a = 0; a < 3; ++a)
        d2 += pow(p.pos_cm[3 * i + a] - clump.center_cm[a], 2);
      if (d2 < clump.radius_cm * clump.radius_cm) mass_in += p.mass_g[i];
      if (d2 < pow(0.5 * clump.radius_cm, 2)) {
        inner += p.density_g_cm3[i];
        ++n_inner;
      }
    }
    double v = 4.0 / 3.0 * IONF_PI * pow(clump.radius_cm, 3);
    if (verbose)
      printf("clump: inner density %.4f of 8x, mass %.4f of 8 rho V, %lld particles\n",
             inner / n_inner / (8.0 * prm.density_g_cm3), mass_in / (8.0 * prm.density_g_cm3 * v),
             (long long)p.count);
    EXPECT(n_inner > 500, "clump core holds %lld particles", (long long)n_inner);
    EXPECT_REL(inner / n_inner, 8.0 * prm.density_g_cm3, 0.03, "clump core density");
    EXPECT_REL(mass_in, 8.0 * prm.density_g_cm3 * v, 0.03, "clump mass");
    particles_free(&p);
  }

  /* glass-like relaxation: much smaller density noise than the random start */
  double noise[2] = {0.0, 0.0};
  const int iterations[2] = {1, 30};
  for (int k = 0; k < 2; ++k) {
    particles_make_default_params(&prm);
    prm.n_side = 16;
    prm.relax_iterations = iterations[k];
    rc = particles_make_lattice(&prm, &p);
    EXPECT(rc == IONF_OK, "relaxed: %s", ionf_error_message());
    if (rc != IONF_OK) break;
    noise[k] = density_stats(&p, prm.density_g_cm3).rms_rel;
    particles_free(&p);
  }
  if (verbose) printf("density noise: %.4f after 1 step, %.4f after 30\n", noise[0], noise[1]);
  EXPECT(noise[1] < 0.2 * noise[0] && noise[1] < 0.03,
         "relaxation: density noise %.4f after 30 steps, %.4f after 1", noise[1], noise[0]);

  /* open box: particles stay inside, faces have larger h */
  particles_make_default_params(&prm);
  prm.n_side = 12;
  prm.periodic = 0;
  prm.jitter = 1.0;
  rc = particles_make_lattice(&prm, &p);
  EXPECT(rc == IONF_OK, "open box: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(particles_validate(&p, "generator") == IONF_OK, "open box: %s", ionf_error_message());
    particles_free(&p);
  }

  /* random sets: the model's h holds about n_ngb real neighbours where the density
     changes little across h (all of a uniform set; the cores of the clustered one) */
  for (int kind = 0; kind < 2; ++kind) {
    struct particles_random_params rp = {40000, IONF_KPC_CM, (enum particles_random_kind)kind,
                                         48, 1e-24, 3};
    rc = particles_make_random(&rp, &p);
    EXPECT(rc == IONF_OK, "random %d: %s", kind, ionf_error_message());
    if (rc != IONF_OK) continue;
    int32_t *counts = malloc((size_t)p.count * sizeof *counts);
    EXPECT(sph_neighbours_counts(&p, counts) == IONF_OK, "counts: %s", ionf_error_message());
    double mean = 0.0;
    int64_t used = 0;
    for (int64_t i = 0; i < p.count; ++i)
      if (kind == 0 || p.density_g_cm3[i] > 100.0 * rp.density_g_cm3) {
        mean += counts[i];
        ++used;
      }
    mean /= (double)used;
    if (verbose) printf("random kind %d: mean neighbours %.2f of %lld (target 48)\n", kind, mean,
                        (long long)used);
    EXPECT(used > 1000, "random kind %d: %lld particles counted", kind, (long long)used);
    EXPECT(fabs(mean / 48.0 - 1.0) < (kind ? 0.10 : 0.02), "random kind %d: mean count %.2f",
           kind, mean);
    EXPECT(particles_validate(&p, "random") == IONF_OK, "random valid: %s", ionf_error_message());
    free(counts);
    particles_free(&p);
  }

  /* one particle per cell of a density grid: particle c sits in cell c (C order, i along
     x) and carries that cell's mass; densities vary by 1..9x from cell to cell */
  {
    particles_make_default_params(&prm);
    prm.n_side = 10;
    prm.periodic = 0;
    prm.jitter = 1.0; /* the widest jitter still keeps each particle in its cell */
    const int64_t cells = 1000;
    double *rho = malloc((size_t)cells * sizeof *rho), total = 0.0;
    for (int64_t c = 0; c < cells; ++c) total += rho[c] = 1e-24 * (1.0 + (double)((c * 7919) % 9));
    prm.cell_density_g_cm3 = rho;
    rc = particles_make_lattice(&prm, &p);
    EXPECT(rc == IONF_OK, "density grid: %s", ionf_error_message());
    if (rc == IONF_OK) {
      const double a = prm.box_cm / 10.0;
      int64_t misplaced = 0, wrong_mass = 0;
      for (int64_t c = 0; c < cells; ++c) {
        const int64_t idx[3] = {c / 100, c / 10 % 10, c % 10};
        for (int d = 0; d < 3; ++d)
          misplaced += floor(p.pos_cm[3 * c + d] / a) != (double)idx[d];
        wrong_mass += fabs(p.mass_g[c] / (rho[c] * a * a * a) - 1.0) > 1e-14;
      }
      EXPECT(p.count == cells, "density grid: %lld particles for %lld cells", (long long)p.count,
             (long long)cells);
      EXPECT(misplaced == 0, "density grid: %lld coordinates outside their cell",
             (long long)misplaced);
      EXPECT(wrong_mass == 0, "density grid: %lld masses are not the cell's", (long long)wrong_mass);
      EXPECT_REL(particles_total_mass_g(&p), total * a * a * a, 1e-12, "density grid: total mass");
      EXPECT(particles_validate(&p, "generator") == IONF_OK, "density grid valid: %s",
             ionf_error_message());
      particles_free(&p);
    }
    rho[123] = 0.0;
    expect_error(particles_make_lattice(&prm, &p), "cell (1, 2, 3) has density 0", "empty cell");
    rho[123] = 1e-24;
    prm.relax_iterations = 2;
    expect_error(particles_make_lattice(&prm, &p), "one particle per cell", "grid relaxed");
    free(rho);
  }

  /* bad parameters */
  particles_make_default_params(&prm);
  prm.jitter = 1.5;
  expect_error(particles_make_lattice(&prm, &p), "jitter 1.5", "jitter");
  particles_make_default_params(&prm);
  prm.n_side = 3;
  prm.n_ngb = 64; /* 27 particles */
  expect_error(particles_make_lattice(&prm, &p), "27 particles", "too few particles");
  particles_make_default_params(&prm);
  struct particle_clump bad = {{0.5 * IONF_KPC_CM, 2.0 * IONF_KPC_CM, 0.0}, 0.1 * IONF_KPC_CM, 5.0};
  prm.clumps = &bad;
  prm.n_clumps = 1;
  expect_error(particles_make_lattice(&prm, &p), "outside the box", "clump outside");
  particles_make_default_params(&prm);
  prm.clumps = &clump;
  prm.n_clumps = 1;
  prm.relax_iterations = 3;
  expect_error(particles_make_lattice(&prm, &p), "uniform sets only", "relax with clumps");
  TEST_RETURN();
}
