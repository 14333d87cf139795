/**
 * @file sph_periodic_k.h
 * @brief Shared maths of rays in a periodic particle box (src/sph_trace_cpu.c;
 *        for gpu/sph_trace.cu): which images of the box a ray can reach, and
 *        the ray origin that makes one tree traversal find one image's hits.
 *
 * A periodic set of box L = (Lx, Ly, Lz) holds particles in [0, L]; its
 * particle images are p + m L for integer vectors m.  A ray from o along d
 * reaches t in [0, reach] (reach = r_max + h_max: periodic runs need a finite
 * r_max).  For each image offset m, the same tree traversed with the origin
 * o - m L (same direction, same t) finds exactly the hits of the images
 * p + m L (a ray-sphere test of o - m L against p is the test of o against
 * p + m L), so every image is found once.  The offsets that can hold a hit lie
 * in the per-axis ranges of sph_periodic_ranges (the segment's bounding box
 * widened by h_max, and by one image each side against rounding); an offset
 * whose shifted root box the ray misses (sph_ray_box) holds none.  Hits of all
 * images go into the ray's one list sorted by sph_hit_key; one slot appears
 * once per image the ray crosses.  The "sphere contains the source" rule
 * (half chord) then applies to the image that holds the source: its distance
 * to o - m L is the image's distance to o.
 *
 * No allocation and nothing beyond math.h: callable from device code.
 */
#ifndef IONF_SPH_PERIODIC_K_H
#define IONF_SPH_PERIODIC_K_H

#include <math.h>
#include <stdint.h>

#include "core/ionf_hd.h"

/**
 * The largest r_max a periodic pass takes, in units of the smallest box side
 * (sph_trace_prep.c refuses more): a ray's ranges then hold at most
 * ceil((r_max + 3 h_max) / L) + 3 offsets per axis, 13^3 in all at 8 sides
 * with h_max < L/2 (most of them culled by one slab test each), and every
 * offset fits an int.
 */
#define SPH_PERIODIC_MAX_R_BOXES 8.0

/** The image offsets a ray may meet: m[a] in [lo[a], hi[a]] on each axis a. */
struct sph_periodic_range {
  int lo[3];
  int hi[3];
};

/**
 * Offsets m whose images p + m L (p in [0, L]) may hold a hit of the ray
 * o + t d, t in [0, reach], spheres of radius <= h_max: the segment's bounding
 * box [lo, hi] widened by h_max gives m L <= hi + h_max and m L + L >= lo - h_max,
 * i.e. m in [ceil((lo - h_max)/L) - 1, floor((hi + h_max)/L)], widened here to
 * [floor((lo - h_max)/L) - 1, floor((hi + h_max)/L) + 1] so that rounding cannot
 * drop one (the extra offsets fail the root-box test).  reach must be finite
 * and reach + 2 h_max within a few million box sides (the caller checks).
 * Returns the number of offsets, prod (hi - lo + 1).
 */
IONF_HD IONF_INLINE int64_t sph_periodic_ranges(const double *o, const double *d, double reach,
                                                double h_max, const double *box,
                                                struct sph_periodic_range *r) {
  int64_t count = 1;
  for (int a = 0; a < 3; ++a) {
    double e = o[a] + reach * d[a];
    double lo = (o[a] < e ? o[a] : e) - h_max;
    double hi = (o[a] < e ? e : o[a]) + h_max;
    r->lo[a] = (int)floor(lo / box[a]) - 1;
    r->hi[a] = (int)floor(hi / box[a]) + 1;
    count *= (int64_t)(r->hi[a] - r->lo[a] + 1);
  }
  return count;
}

/**
 * The k-th offset of a range (k in [0, count)), z fastest: lets a loop over
 * one index (a thread's or a flat loop's) visit every offset once.
 */
IONF_HD IONF_INLINE void sph_periodic_offset(const struct sph_periodic_range *r, int64_t k,
                                             int *m) {
  int64_t nz = r->hi[2] - r->lo[2] + 1, ny = r->hi[1] - r->lo[1] + 1;
  m[2] = r->lo[2] + (int)(k % nz);
  k /= nz;
  m[1] = r->lo[1] + (int)(k % ny);
  m[0] = r->lo[0] + (int)(k / ny);
}

/** The origin of image m's traversal: o - m L. */
IONF_HD IONF_INLINE void sph_periodic_origin(const double *o, const int *m, const double *box,
                                             double *o_shifted) {
  for (int a = 0; a < 3; ++a) o_shifted[a] = o[a] - (double)m[a] * box[a];
}

/**
 * The image of particle centre c that a hit at distance t along the ray from o
 * (direction d) belongs to: the point o + t d lies within h < L/2 of that image
 * (its closest approach), so m = round((o + t d - c) / L) per axis.  Why: the GPU
 * walks keep only (float t, slot) and recompute a hit's column from its image;
 * float t is off by ~6e-8 t, far less than the L/2 - h margin.
 */
IONF_HD IONF_INLINE void sph_periodic_image_of(const double *o, const double *d, double t,
                                               const double *c, const double *box, int *m) {
  for (int a = 0; a < 3; ++a) m[a] = (int)rint((o[a] + t * d[a] - c[a]) / box[a]);
}

#endif /* IONF_SPH_PERIODIC_K_H */
