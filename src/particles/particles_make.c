/**
 * @file particles_make.c
 * @brief Test particle sets: jittered lattices (or glass-like relaxed sets)
 *        with clumps, and large random sets from a known density.
 *
 * Random numbers come from GSL's MT19937, drawn in one fixed sequential
 * order, so a set depends on its parameters only (not on the thread count).
 */
#include "particles/particles_make.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "particles/sph_neighbours.h"

void particles_make_default_params(struct particles_make_params *prm) {
  memset(prm, 0, sizeof *prm);
  prm->n_side = 32;
  prm->box_cm = IONF_KPC_CM;
  prm->periodic = 1;
  prm->jitter = 0.1;
  prm->density_g_cm3 = 1e-24;
  prm->n_ngb = 48;
  prm->hydrogen_mass_fraction = 1.0;
  prm->seed = 1;
}

/* ---- a growable list of positions ------------------------------------------------------ */

struct points {
  double *xyz;
  int64_t count, cap;
};

static int points_add(struct points *pts, const double *x) {
  if (pts->count == pts->cap) {
    int64_t cap = pts->cap ? 2 * pts->cap : 4096;
    double *grown = realloc(pts->xyz, 3 * (size_t)cap * sizeof *grown);
    if (!grown) return 0;
    pts->xyz = grown;
    pts->cap = cap;
  }
  memcpy(pts->xyz + 3 * pts->count, x, 3 * sizeof *x);
  ++pts->count;
  return 1;
}

/* Distance vector a - b, nearest image when periodic. */
static double dist2_image(const double *a, const double *b, double box, int periodic) {
  double d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    double d = a[k] - b[k];
    if (periodic) d -= box * nearbyint(d / box);
    d2 += d * d;
  }
  return d2;
}

static int inside_clump(const struct particles_make_params *prm, int below, const double *x) {
  for (int c = 0; c < below; ++c) {
    const struct particle_clump *cl = &prm->clumps[c];
    if (dist2_image(x, cl->center_cm, prm->box_cm, prm->periodic) < cl->radius_cm * cl->radius_cm)
      return 1;
  }
  return 0;
}

/* Into [0, box): wrapped when periodic; 0 when outside an open box (caller drops it). */
static int place(double *x, double box, int periodic) {
  for (int k = 0; k < 3; ++k) {
    if (periodic) {
      x[k] -= box * floor(x[k] / box);
      if (x[k] >= box) x[k] = 0.0;
    } else if (x[k] < 0.0 || x[k] > box) {
      return 0;
    }
  }
  return 1;
}

/* Lattice sites (k + 1/2 + jitter) * spacing about `origin`; those passing keep(). */
static int add_lattice(struct points *pts, const struct particles_make_params *prm, gsl_rng *rng,
                       const double *origin, double spacing, int64_t lo, int64_t hi,
                       int clump) {
  for (int64_t i = lo; i < hi; ++i)
    for (int64_t j = lo; j < hi; ++j)
      for (int64_t k = lo; k < hi; ++k) {
        const int64_t idx[3] = {i, j, k};
        double x[3], off2 = 0.0;
        for (int a = 0; a < 3; ++a) {
          double off = (idx[a] + 0.5 + prm->jitter * (gsl_rng_uniform(rng) - 0.5)) * spacing;
          x[a] = origin[a] + off;
          off2 += off * off;
        }
        if (clump >= 0) { /* this clump's sites: inside it, outside earlier clumps */
          const struct particle_clump *cl = &prm->clumps[clump];
          if (off2 >= cl->radius_cm * cl->radius_cm || inside_clump(prm, clump, x)) continue;
        } else if (inside_clump(prm, prm->n_clumps, x)) {
          continue;
        }
        if (!place(x, prm->box_cm, prm->periodic)) continue;
        if (!points_add(pts, x)) return 0;
      }
  return 1;
}

static ionf_err check_params(const struct particles_make_params *prm) {
  IONF_CHECK(prm->n_side >= 2 && prm->n_side <= 1024, IONF_ERR_INPUT,
             "particle generator: lattice side %lld; it must be in [2, 1024]",
             (long long)prm->n_side);
  IONF_CHECK(prm->box_cm > 0.0 && isfinite(prm->box_cm), IONF_ERR_INPUT,
             "particle generator: box size %g cm; it must be > 0", prm->box_cm);
  IONF_CHECK(prm->jitter >= 0.0 && prm->jitter <= 1.0, IONF_ERR_INPUT,
             "particle generator: jitter %g; it must be in [0, 1] (spacings)", prm->jitter);
  IONF_CHECK(prm->cell_density_g_cm3 || (prm->density_g_cm3 > 0.0 && isfinite(prm->density_g_cm3)),
             IONF_ERR_INPUT, "particle generator: density %g g/cm^3; it must be > 0",
             prm->density_g_cm3);
  IONF_CHECK(!prm->cell_density_g_cm3 || (prm->n_clumps == 0 && prm->relax_iterations == 0),
             IONF_ERR_INPUT,
             "particle generator: a density grid makes one particle per cell (no clumps, no "
             "relaxation: %d clumps, %d iterations given)",
             prm->n_clumps, prm->relax_iterations);
  if (prm->cell_density_g_cm3) {
    const int64_t cells = prm->n_side * prm->n_side * prm->n_side;
    for (int64_t c = 0; c < cells; ++c) {
      double rho = prm->cell_density_g_cm3[c];
      int64_t i = c / (prm->n_side * prm->n_side), j = c / prm->n_side % prm->n_side,
              k = c % prm->n_side;
      IONF_CHECK(rho > 0.0 && isfinite(rho), IONF_ERR_INPUT,
                 "particle generator: cell (%lld, %lld, %lld) has density %g g/cm^3; every "
                 "cell must be > 0 (a particle needs a mass)",
                 (long long)i, (long long)j, (long long)k, rho);
    }
  }
  IONF_CHECK(prm->n_ngb >= 1 && prm->n_ngb <= 1000, IONF_ERR_INPUT,
             "particle generator: neighbour number %d; it must be in [1, 1000]", prm->n_ngb);
  IONF_CHECK(prm->hydrogen_mass_fraction > 0.0 && prm->hydrogen_mass_fraction <= 1.0,
             IONF_ERR_INPUT, "particle generator: hydrogen mass fraction %g; it must be in (0, 1]",
             prm->hydrogen_mass_fraction);
  IONF_CHECK(prm->relax_iterations >= 0, IONF_ERR_INPUT,
             "particle generator: %d relaxation iterations; it must be >= 0",
             prm->relax_iterations);
  IONF_CHECK(prm->n_clumps >= 0 && (prm->n_clumps == 0 || prm->clumps), IONF_ERR_INPUT,
             "particle generator: %d clumps without a list", prm->n_clumps);
  IONF_CHECK(prm->relax_iterations == 0 || prm->n_clumps == 0, IONF_ERR_INPUT,
             "particle generator: relaxation makes uniform sets only (%d clumps given)",
             prm->n_clumps);
  for (int c = 0; c < prm->n_clumps; ++c) {
    const struct particle_clump *cl = &prm->clumps[c];
    IONF_CHECK(cl->radius_cm > 0.0 && cl->radius_cm < 0.5 * prm->box_cm, IONF_ERR_INPUT,
               "particle generator: clump %d has radius %g cm; it must be in (0, box/2)", c,
               cl->radius_cm);
    IONF_CHECK(cl->contrast > 0.0 && cl->contrast <= 1e6, IONF_ERR_INPUT,
               "particle generator: clump %d has density contrast %g; it must be in (0, 1e6]",
               c, cl->contrast);
    for (int a = 0; a < 3; ++a)
      IONF_CHECK(cl->center_cm[a] >= 0.0 && cl->center_cm[a] <= prm->box_cm, IONF_ERR_INPUT,
                 "particle generator: clump %d's centre (%g, %g, %g) cm is outside the box", c,
                 cl->center_cm[0], cl->center_cm[1], cl->center_cm[2]);
  }
  return IONF_OK;
}

ionf_err particles_make_lattice(const struct particles_make_params *prm,
                                struct particle_set *out) {
  IONF_CHECK(prm && out, IONF_ERR_INTERNAL, "particles_make_lattice: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CALL(check_params(prm));
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  IONF_CHECK(rng, IONF_ERR_MEM, "particle generator: no memory for the random generator");
  gsl_rng_set(rng, (unsigned long)prm->seed);

  const double spacing = prm->box_cm / (double)prm->n_side;
  struct points pts;
  memset(&pts, 0, sizeof pts);
  int ok = 1;
  if (prm->relax_iterations > 0) { /* random start; the repulsion below makes the glass */
    const int64_t n = prm->n_side * prm->n_side * prm->n_side;
    for (int64_t i = 0; i < n && ok; ++i) {
      double x[3];
      for (int a = 0; a < 3; ++a) x[a] = prm->box_cm * gsl_rng_uniform(rng);
      ok = points_add(&pts, x);
    }
  } else {
    const double origin[3] = {0.0, 0.0, 0.0};
    ok = add_lattice(&pts, prm, rng, origin, spacing, 0, prm->n_side, -1);
  }
  for (int c = 0; c < prm->n_clumps && ok; ++c) {
    const struct particle_clump *cl = &prm->clumps[c];
    double fine = spacing / cbrt(cl->contrast);
    int64_t reach = (int64_t)ceil(cl->radius_cm / fine) + 1;
    ok = add_lattice(&pts, prm, rng, cl->center_cm, fine, -reach, reach, c);
  }
  gsl_rng_free(rng);
  if (!ok) {
    free(pts.xyz);
    return ionf_error_set(IONF_ERR_MEM, "particle generator: no memory for %lld particles",
                          (long long)pts.count);
  }

  ionf_err rc = particles_alloc(pts.count, 1, out);
  if (rc == IONF_OK) {
    memcpy(out->pos_cm, pts.xyz, 3 * (size_t)pts.count * sizeof *pts.xyz);
    const double volume = spacing * spacing * spacing;
    /* with a density grid the lattice holds every site (jitter <= 1 spacing stays inside
       the cell), in the grid's order: particle i is cell i */
    if (prm->cell_density_g_cm3 && pts.count != prm->n_side * prm->n_side * prm->n_side)
      rc = ionf_error_set(IONF_ERR_INTERNAL, "particle generator: %lld sites for %lld cells",
                          (long long)pts.count, (long long)(prm->n_side * prm->n_side * prm->n_side));
    for (int64_t i = 0; i < pts.count; ++i)
      out->mass_g[i] =
          (prm->cell_density_g_cm3 ? prm->cell_density_g_cm3[i] : prm->density_g_cm3) * volume;
    out->has_box = 1;
    out->periodic = prm->periodic;
    for (int a = 0; a < 3; ++a) out->box_size_cm[a] = prm->box_cm;
  }
  free(pts.xyz);
  if (rc == IONF_OK && prm->relax_iterations > 0)
    rc = sph_neighbours_repel(out, 2.0 * spacing, 0.2 * spacing, prm->relax_iterations);
  if (rc == IONF_OK) rc = sph_neighbours_smoothing_lengths(out, prm->n_ngb);
  if (rc == IONF_OK) rc = sph_neighbours_densities(out);
  if (rc == IONF_OK) particles_set_hydrogen(out, prm->hydrogen_mass_fraction);
  if (rc != IONF_OK) {
    particles_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

/* ---- random sets ------------------------------------------------------------------------ */

#define CLUSTER_BLOBS 16
#define CLUSTER_FRACTION 0.7

struct blob {
  double c[3], sigma;
};

ionf_err particles_make_random(const struct particles_random_params *prm,
                               struct particle_set *out) {
  IONF_CHECK(prm && out, IONF_ERR_INTERNAL, "particles_make_random: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CHECK(prm->count >= 1, IONF_ERR_INPUT, "random particles: count %lld; it must be >= 1",
             (long long)prm->count);
  IONF_CHECK(prm->box_cm > 0.0 && prm->density_g_cm3 > 0.0 && prm->n_ngb >= 2, IONF_ERR_INPUT,
             "random particles: box %g cm, density %g g/cm^3, %d neighbours; all must be > 0 "
             "(neighbours > 1)",
             prm->box_cm, prm->density_g_cm3, prm->n_ngb);
  IONF_CALL(particles_alloc(prm->count, 1, out));
  const int64_t n = prm->count;
  const double box = prm->box_cm, volume = box * box * box;
  out->has_box = 1;
  out->periodic = 1;
  for (int a = 0; a < 3; ++a) out->box_size_cm[a] = box;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) {
    particles_free(out);
    return ionf_error_set(IONF_ERR_MEM, "random particles: no memory for the generator");
  }
  gsl_rng_set(rng, (unsigned long)prm->seed);

  const int clustered = prm->kind == PARTICLES_RANDOM_CLUSTERED;
  struct blob blobs[CLUSTER_BLOBS];
  for (int b = 0; b < CLUSTER_BLOBS; ++b) {
    for (int a = 0; a < 3; ++a) blobs[b].c[a] = box * gsl_rng_uniform(rng);
    blobs[b].sigma = box * 0.005 * pow(10.0, gsl_rng_uniform(rng)); /* 0.005 - 0.05 box */
  }
  for (int64_t i = 0; i < n; ++i) {
    double *x = out->pos_cm + 3 * i;
    if (clustered && gsl_rng_uniform(rng) < CLUSTER_FRACTION) {
      const struct blob *bl = &blobs[gsl_rng_uniform_int(rng, CLUSTER_BLOBS)];
      for (int a = 0; a < 3; ++a) x[a] = bl->c[a] + gsl_ran_gaussian_ziggurat(rng, bl->sigma);
      place(x, box, 1);
    } else {
      for (int a = 0; a < 3; ++a) x[a] = box * gsl_rng_uniform(rng);
    }
  }
  gsl_rng_free(rng);

  /* the model's number density at each particle gives h and the density */
  const double mass = prm->density_g_cm3 * volume / (double)n;
  const double n_uniform = (clustered ? 1.0 - CLUSTER_FRACTION : 1.0) * (double)n / volume;
  const double per_blob = CLUSTER_FRACTION * (double)n / CLUSTER_BLOBS;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const double *x = out->pos_cm + 3 * i;
    double number = n_uniform;
    for (int b = 0; clustered && b < CLUSTER_BLOBS; ++b) {
      double s2 = blobs[b].sigma * blobs[b].sigma;
      number += per_blob * pow(2.0 * IONF_PI * s2, -1.5) *
                exp(-0.5 * dist2_image(x, blobs[b].c, box, 1) / s2);
    }
    out->mass_g[i] = mass;
    out->density_g_cm3[i] = mass * number;
    /* n_ngb - 1 others expected in the sphere, plus the particle itself */
    out->h_cm[i] = cbrt(3.0 * (prm->n_ngb - 1) / (4.0 * IONF_PI * number));
  }
  particles_set_hydrogen(out, 1.0);
  return IONF_OK;
}
