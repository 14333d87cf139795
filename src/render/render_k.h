/**
 * @file render_k.h
 * @brief Shared maths of the volume renderer and the particle binning: the
 *        camera ray of a pixel, ray-box entry and exit, the texture's trilinear
 *        sample (emulated for the CPU), the transfer function, one front-to-back
 *        compositing step, the binning stencil.  Used by src/render_cpu.c
 *        (OpenMP over pixels / particles) and gpu/render.cu (one thread each).
 *
 * Coordinates are in cells: the grid [i][j][k] (i = x) fills [0, N)^3 with
 * cell (i, j, k) centred at (i + 0.5, j + 0.5, k + 0.5), as a CUDA texture's
 * texel centres are.  The volume holds the normalised value s in [0, 1]
 * (linear or log scaling is applied on the host before upload), float32.
 *
 * The camera is orthographic: the image plane is a grid of nx x ny pixels of
 * `pixel` cells, spanned by `right` and `up`; rays run along `dir` and samples
 * lie on the camera grid t = k * step (k integer) along each ray, so the
 * samples of all rays form one Cartesian grid aligned with the image plane.
 */
#ifndef IONF_RENDER_K_H
#define IONF_RENDER_K_H

#include <math.h>

#include "core/ionf_hd.h"

/** A ray stops once its accumulated opacity reaches this (early termination). */
#define RENDER_OPAQUE 0.995f
/** Entries of the transfer-function table. */
#define RENDER_TF_SIZE 256

struct render_camera {
  float centre[3]; /*!< the image centre, projected onto the plane through the box centre */
  float right[3];  /*!< unit vector of increasing pixel column u */
  float up[3];     /*!< unit vector of decreasing pixel row v (row 0 at the top) */
  float dir[3];    /*!< unit viewing direction (away from the viewer) */
  float pixel;     /*!< pixel side [cells] */
  float step;      /*!< sample spacing along a ray [cells] */
  float back;      /*!< rays start this far in front of the image plane [cells] */
  int nx, ny;      /*!< image size [pixels] */
};

/** Ray of pixel (u, v): origin o (in front of the box), direction = cam->dir. */
IONF_HD IONF_INLINE void render_camera_ray(const struct render_camera *cam, int u, int v,
                                           float o[3]) {
  float a = ((float)u + 0.5f - 0.5f * (float)cam->nx) * cam->pixel;
  float b = (0.5f * (float)cam->ny - (float)v - 0.5f) * cam->pixel;
  for (int d = 0; d < 3; ++d)
    o[d] = cam->centre[d] + a * cam->right[d] + b * cam->up[d] - cam->back * cam->dir[d];
}

/**
 * Where the ray o + t dir crosses the box [0, n)^3: t_in <= t_out when it does
 * (slab method; 1/dir may be infinite along an axis the ray is parallel to).
 * Returns 0 when it misses.
 */
IONF_HD IONF_INLINE int render_ray_box(const float o[3], const float dir[3], int nx, int ny,
                                       int nz, float *t_in, float *t_out) {
  float lo = 0.0f, hi = 3.4e38f;
  float ext[3];
  ext[0] = (float)nx;
  ext[1] = (float)ny;
  ext[2] = (float)nz;
  for (int d = 0; d < 3; ++d) {
    if (dir[d] == 0.0f) {
      if (o[d] < 0.0f || o[d] > ext[d]) return 0;
      continue;
    }
    float inv = 1.0f / dir[d];
    float t0 = (0.0f - o[d]) * inv, t1 = (ext[d] - o[d]) * inv;
    if (t0 > t1) {
      float tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
    if (t0 > lo) lo = t0;
    if (t1 < hi) hi = t1;
  }
  *t_in = lo;
  *t_out = hi;
  return lo <= hi;
}

/**
 * The texture unit's linear-filter weight: CUDA stores the fractional
 * coordinate in 9-bit fixed point with 8 fractional bits (CUDA C++ Programming
 * Guide, appendix "Texture Fetching", linear filtering), so the CPU path rounds
 * it to a multiple of 1/256 to give the same image as tex3D.
 */
IONF_HD IONF_INLINE float render_tex_weight(float frac) {
  return floorf(frac * 256.0f + 0.5f) * (1.0f / 256.0f);
}

IONF_HD IONF_INLINE int render_clamp_index(int i, int n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

/**
 * What tex3D with linear filtering and clamp addressing returns at the point
 * p (cells) of the volume vol[i][j][k] (k fastest; extents nx, ny, nz): the
 * trilinear mix of the eight nearest texel centres with 1/256-quantised weights.
 */
IONF_HD IONF_INLINE float render_sample_trilinear(const float *vol, int nx, int ny, int nz,
                                                  const float p[3]) {
  float xt = p[0] - 0.5f, yt = p[1] - 0.5f, zt = p[2] - 0.5f;
  float fx = floorf(xt), fy = floorf(yt), fz = floorf(zt);
  float a = render_tex_weight(xt - fx), b = render_tex_weight(yt - fy),
        c = render_tex_weight(zt - fz);
  int i0 = render_clamp_index((int)fx, nx), i1 = render_clamp_index((int)fx + 1, nx);
  int j0 = render_clamp_index((int)fy, ny), j1 = render_clamp_index((int)fy + 1, ny);
  int k0 = render_clamp_index((int)fz, nz), k1 = render_clamp_index((int)fz + 1, nz);
  long sy = (long)nz, sx = (long)ny * nz;
  float v000 = vol[i0 * sx + j0 * sy + k0], v001 = vol[i0 * sx + j0 * sy + k1];
  float v010 = vol[i0 * sx + j1 * sy + k0], v011 = vol[i0 * sx + j1 * sy + k1];
  float v100 = vol[i1 * sx + j0 * sy + k0], v101 = vol[i1 * sx + j0 * sy + k1];
  float v110 = vol[i1 * sx + j1 * sy + k0], v111 = vol[i1 * sx + j1 * sy + k1];
  float v00 = (1.0f - c) * v000 + c * v001, v01 = (1.0f - c) * v010 + c * v011;
  float v10 = (1.0f - c) * v100 + c * v101, v11 = (1.0f - c) * v110 + c * v111;
  float v0 = (1.0f - b) * v00 + b * v01, v1 = (1.0f - b) * v10 + b * v11;
  return (1.0f - a) * v0 + a * v1;
}

/**
 * Transfer function: colour and extinction (opacity per cell of path) of the
 * normalised value s, linearly interpolated in the table tf[RENDER_TF_SIZE][4]
 * (r, g, b in [0, 1], extinction >= 0).  Values outside [0, 1] are clamped.
 */
IONF_HD IONF_INLINE void render_tf_lookup(const float *tf, float s, float rgba[4]) {
  float x = s * (float)(RENDER_TF_SIZE - 1);
  if (!(x > 0.0f)) x = 0.0f;
  if (x > (float)(RENDER_TF_SIZE - 1)) x = (float)(RENDER_TF_SIZE - 1);
  int i = (int)x;
  if (i > RENDER_TF_SIZE - 2) i = RENDER_TF_SIZE - 2;
  float w = x - (float)i;
  for (int c = 0; c < 4; ++c) rgba[c] = (1.0f - w) * tf[4 * i + c] + w * tf[4 * (i + 1) + c];
}

/**
 * One front-to-back step: a sample of colour rgb and extinction kappa [1/cell]
 * over a segment of `step` cells has opacity alpha = 1 - exp(-kappa step); it
 * adds (1 - A) alpha rgb to the colour and (1 - A) alpha to the opacity A.
 * A ray of constant colour c thus ends at c (1 - exp(-tau)), tau the summed
 * kappa * step, whatever the step.
 */
IONF_HD IONF_INLINE void render_composite(const float rgba[4], float step, float acc[4]) {
  float alpha = 1.0f - expf(-rgba[3] * step);
  float w = (1.0f - acc[3]) * alpha;
  acc[0] += w * rgba[0];
  acc[1] += w * rgba[1];
  acc[2] += w * rgba[2];
  acc[3] += w;
}

/** First camera-grid sample index at or after t_in (samples at t = k * step). */
IONF_HD IONF_INLINE int render_first_sample(float t_in, float step) {
  return (int)ceilf(t_in / step);
}

/** Float [0, 1] -> 8-bit, rounded: the same on both paths. */
IONF_HD IONF_INLINE unsigned char render_to_byte(float c) {
  float x = c * 255.0f + 0.5f;
  if (!(x > 0.0f)) return 0;
  if (x >= 255.0f) return 255;
  return (unsigned char)x;
}

/* ---- particle binning --------------------------------------------------------------- */

/** Cell of coordinate x [cells] on an axis of n cells (-1 outside [0, n)). */
IONF_HD IONF_INLINE int render_bin_cell(double x, int n) {
  double f = floor(x);
  if (!(f >= 0.0) || f >= (double)n) return -1;
  return (int)f;
}

/**
 * Weight of the smoothing stencil at offset (di, dj, dk) cells from the
 * particle's cell: 1 at the centre, 0.5 / (n_smooth r) elsewhere in the cube
 * |di|, |dj|, |dk| <= n_smooth (the seed's kernel; r in cells).
 */
IONF_HD IONF_INLINE double render_stencil_weight(int di, int dj, int dk, int n_smooth) {
  if (di == 0 && dj == 0 && dk == 0) return 1.0;
  return 0.5 / ((double)n_smooth * sqrt((double)(di * di + dj * dj + dk * dk)));
}

/** Index i + d on an axis of n cells: wrapped when periodic, else -1 outside. */
IONF_HD IONF_INLINE int render_stencil_index(int i, int d, int n, int periodic) {
  int j = i + d;
  if (j >= 0 && j < n) return j;
  if (!periodic) return -1;
  j %= n;
  return j < 0 ? j + n : j;
}

#endif /* IONF_RENDER_K_H */
