/**
 * @file test_bvh_morton.c
 * @brief 63-bit Morton keys (bvh_k.h): bit spreading against a bit-by-bit
 *        reference, box corners, clamping, the 21-bit quantisation at cell
 *        edges, flat axes, and that key order is the Z-curve order (checked
 *        against an independent comparison of the cells' highest differing
 *        bit).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "particles/bvh_k.h"
#include "test_util.h"

#define CELLS (1u << BVH_MORTON_BITS_PER_AXIS)

/* Bit b of v to bit 3b, one bit at a time. */
static uint64_t spread_reference(uint32_t v) {
  uint64_t out = 0;
  for (int b = 0; b < BVH_MORTON_BITS_PER_AXIS; ++b)
    if (v >> b & 1u) out |= (uint64_t)1 << (3 * b);
  return out;
}

/* Z-order of two cells without interleaving: the axis whose coordinates
 * differ in the highest bit decides (x before y before z at equal bits). */
static int less_msb(uint32_t a, uint32_t b) { return a < b && a < (a ^ b); }
static int z_less(const uint32_t *a, const uint32_t *b) {
  int axis = 0;
  uint32_t best = a[0] ^ b[0];
  for (int d = 1; d < 3; ++d) {
    uint32_t x = a[d] ^ b[d];
    if (less_msb(best, x)) {
      axis = d;
      best = x;
    }
  }
  return a[axis] < b[axis];
}

static uint32_t rand21(unsigned *seed) {
  return (uint32_t)(((unsigned)rand_r(seed) << 8) ^ (unsigned)rand_r(seed)) & (CELLS - 1u);
}

int main(void) {
  unsigned seed = 7;

  /* spreading */
  EXPECT(bvh_morton_spread(0) == 0, "spread(0)");
  EXPECT(bvh_morton_spread(CELLS - 1u) == 0x1249249249249249ull, "spread(2^21-1) = %llx",
         (unsigned long long)bvh_morton_spread(CELLS - 1u));
  EXPECT(bvh_morton_spread(0xffffffffu) == bvh_morton_spread(CELLS - 1u),
         "bits above 21 are dropped");
  for (int t = 0; t < 100000; ++t) {
    uint32_t v = rand21(&seed);
    if (bvh_morton_spread(v) != spread_reference(v)) {
      EXPECT(0, "spread(%u) = %llx, reference %llx", v,
             (unsigned long long)bvh_morton_spread(v), (unsigned long long)spread_reference(v));
      break;
    }
  }
  /* axis order: x is the most significant of each triple */
  EXPECT(bvh_morton_interleave(1, 0, 0) == 4 && bvh_morton_interleave(0, 1, 0) == 2 &&
             bvh_morton_interleave(0, 0, 1) == 1,
         "bit order x y z");

  /* corners, clamping, NaN */
  const double lo[3] = {-1.0, 2.0, 10.0}, hi[3] = {3.0, 6.0, 14.0};
  double scale[3];
  for (int a = 0; a < 3; ++a) scale[a] = bvh_morton_scale(hi[a] - lo[a]);
  EXPECT(bvh_morton_key(lo, lo, scale) == 0, "low corner has key 0");
  const uint64_t all = ((uint64_t)1 << BVH_KEY_BITS) - 1;
  EXPECT(bvh_morton_key(hi, lo, scale) == all, "high corner has all 63 bits: %llx",
         (unsigned long long)bvh_morton_key(hi, lo, scale));
  const double far_out[3] = {1e30, 1e30, 1e30}, below[3] = {-1e30, -5.0, 9.0};
  EXPECT(bvh_morton_key(far_out, lo, scale) == all, "beyond the box clamps to the corner");
  EXPECT(bvh_morton_key(below, lo, scale) == 0, "below the box clamps to 0");
  EXPECT(bvh_morton_cell(NAN, 0.0, 1.0) == 0, "NaN goes to cell 0");
  EXPECT(bvh_morton_key(lo, lo, scale) >> 63 == 0 && bvh_morton_key(hi, lo, scale) >> 63 == 0,
         "bit 63 unused (the sort covers bits [0, 63))");

  /* 21-bit quantisation: cell k is [k w, (k+1) w) on an axis from 0 (w a power of two,
     so cell edges are exact) */
  const double q_scale = bvh_morton_scale(4.0), w = 4.0 / CELLS;
  for (int t = 0; t < 1000; ++t) {
    uint32_t k = rand21(&seed);
    EXPECT(bvh_morton_cell((k + 0.5) * w, 0.0, q_scale) == k, "middle of cell %u", k);
    if (k > 0) {
      double edge = k * w;
      EXPECT(bvh_morton_cell(edge, 0.0, q_scale) == k, "lower edge of cell %u", k);
      EXPECT(bvh_morton_cell(nextafter(edge, -INFINITY), 0.0, q_scale) == k - 1,
             "just below cell %u", k);
    }
  }
  EXPECT(bvh_morton_cell(nextafter(4.0, -INFINITY), 0.0, q_scale) == CELLS - 1u,
         "last cell reaches the high face");
  EXPECT(bvh_morton_cell(4.0, 0.0, q_scale) == CELLS - 1u, "the high face is in the last cell");

  /* a flat axis (extent 0) quantises to cell 0 */
  EXPECT(bvh_morton_scale(0.0) == 0.0, "flat axis scale");
  EXPECT(bvh_morton_cell(5.0, 5.0, bvh_morton_scale(0.0)) == 0, "flat axis cell");

  /* monotone along each axis */
  for (int a = 0; a < 3; ++a) {
    double p[3] = {0.3, 3.1, 12.7};
    uint64_t prev = 0;
    for (int s = 0; s <= 1000; ++s) {
      p[a] = lo[a] + (hi[a] - lo[a]) * s / 1000.0;
      uint64_t k = bvh_morton_key(p, lo, scale);
      EXPECT(s == 0 || k >= prev, "key decreases along axis %d at step %d", a, s);
      prev = k;
    }
  }

  /* key order == Z-curve order of the cells */
  int wrong = 0;
  for (int t = 0; t < 200000 && !wrong; ++t) {
    uint32_t a[3], b[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = rand21(&seed);
      /* often share high bits: nearby cells are the interesting case */
      b[d] = (t & 1) ? (a[d] ^ (rand21(&seed) >> (rand_r(&seed) % 21))) : rand21(&seed);
    }
    uint64_t ka = bvh_morton_interleave(a[0], a[1], a[2]);
    uint64_t kb = bvh_morton_interleave(b[0], b[1], b[2]);
    if ((ka < kb) != z_less(a, b)) {
      wrong = 1;
      EXPECT(0, "cells (%u %u %u) (%u %u %u): keys %llx %llx disagree with the Z order", a[0],
             a[1], a[2], b[0], b[1], b[2], (unsigned long long)ka, (unsigned long long)kb);
    }
  }
  TEST_RETURN();
}
