/**
 * @file bvh_test_inputs.h
 * @brief Particle inputs the BVH tests build trees of (CPU and GPU alike):
 *        uniform random, a jittered lattice, Gaussian clusters, and the
 *        degenerate cases (all at one point, many in one Morton cell, points
 *        on a line, exact lattice ties).
 */
#ifndef IONF_BVH_TEST_INPUTS_H
#define IONF_BVH_TEST_INPUTS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum bvh_input_kind {
  INPUT_RANDOM,
  INPUT_LATTICE,    /* exact lattice: many equal merge distances */
  INPUT_JITTERED,   /* jittered lattice */
  INPUT_CLUSTERED,  /* Gaussian blobs of very different widths plus a background */
  INPUT_IDENTICAL,  /* every particle at one point */
  INPUT_ONE_CELL,   /* distinct points, all in one Morton cell (equal keys) */
  INPUT_LINE,       /* collinear, unevenly spaced */
  INPUT_KINDS
};

static const char *const bvh_input_names[INPUT_KINDS] = {
    "random", "lattice", "jittered", "clustered", "identical", "one-cell", "line"};

struct bvh_input {
  int64_t n;
  double *pos, *h;
};

static double bvh_input_uniform(unsigned *seed) {
  return (rand_r(seed) + 0.5) / ((double)RAND_MAX + 1.0);
}

static double bvh_input_gauss(unsigned *seed) {
  double u1 = bvh_input_uniform(seed), u2 = bvh_input_uniform(seed);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* n particles of `kind` in a box of side 1e22 cm (about 3 kpc); h ~ the spacing. */
static int bvh_input_make(enum bvh_input_kind kind, int64_t n, unsigned seed,
                          struct bvh_input *in) {
  const double box = 1e22;
  in->n = n;
  in->pos = (double *)malloc((size_t)(3 * n) * sizeof(double));
  in->h = (double *)malloc((size_t)n * sizeof(double));
  if (!in->pos || !in->h) return 0;
  const double spacing = box / cbrt((double)n);
  int64_t side = (int64_t)ceil(cbrt((double)n) - 1e-9);
  const double centres[4][3] = {{0.3, 0.3, 0.3}, {0.7, 0.2, 0.6}, {0.5, 0.8, 0.4}, {0.1, 0.9, 0.9}};
  const double widths[4] = {0.002, 0.01, 0.05, 0.0002};
  for (int64_t i = 0; i < n; ++i) {
    double *p = in->pos + 3 * i;
    double hf = 1.0 + 0.5 * bvh_input_uniform(&seed);
    switch (kind) {
      case INPUT_RANDOM:
        for (int a = 0; a < 3; ++a) p[a] = box * bvh_input_uniform(&seed);
        break;
      case INPUT_LATTICE:
      case INPUT_JITTERED: {
        int64_t c[3] = {i / (side * side), (i / side) % side, i % side};
        for (int a = 0; a < 3; ++a) {
          double jitter = kind == INPUT_JITTERED ? 0.4 * (bvh_input_uniform(&seed) - 0.5) : 0.0;
          p[a] = (c[a] + 0.5 + jitter) * box / side;
        }
        hf = 1.3;
        break;
      }
      case INPUT_CLUSTERED: {
        int blob = (int)(i % 5);
        if (blob == 4) {
          for (int a = 0; a < 3; ++a) p[a] = box * bvh_input_uniform(&seed);
        } else {
          for (int a = 0; a < 3; ++a) {
            double x = centres[blob][a] + widths[blob] * bvh_input_gauss(&seed);
            p[a] = box * (x - floor(x)); /* periodic wrap into the box */
          }
          hf *= widths[blob] * 10.0;
        }
        break;
      }
      case INPUT_IDENTICAL:
        p[0] = 0.25 * box;
        p[1] = 0.5 * box;
        p[2] = 0.75 * box;
        break;
      case INPUT_ONE_CELL: /* 1e-9 of the box: far below the 2^-21 cell */
        for (int a = 0; a < 3; ++a) p[a] = box * (0.4 + 1e-9 * bvh_input_uniform(&seed));
        hf = 1e-6;
        break;
      case INPUT_LINE:
        p[0] = box * pow((double)(i + 1) / (double)n, 3.0);
        p[1] = p[2] = 0.5 * box;
        break;
      default:
        return 0;
    }
    in->h[i] = hf * spacing;
  }
  return 1;
}

static void bvh_input_free(struct bvh_input *in) {
  free(in->pos);
  free(in->h);
  memset(in, 0, sizeof *in);
}

#endif /* IONF_BVH_TEST_INPUTS_H */
