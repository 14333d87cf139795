/**
 * @file render.h
 * @brief Volume rendering of a grid (emission-absorption ray casting) and the
 *        binning of SPH particles onto a grid: the CPU paths (src/render_cpu.c,
 *        src/render_bin.c) and the CUDA paths (gpu/render.cu) compute the same
 *        images and grids from the shared maths of src/render_k.h.
 *
 * GPU: the volume is a cudaArray bound to a texture object (float, coordinates
 * in cells, clamp, hardware trilinear filtering); one thread per pixel
 * marches its ray front to back over the camera grid and stops when opaque.
 * The CPU emulates the texture unit's 1/256 weight quantisation, so the two
 * images agree within one grey level (tests/test_render_gpu.c).
 */
#ifndef IONF_RENDER_H
#define IONF_RENDER_H

#include <stdint.h>

#include "core/error.h"
#include "render/render_k.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A grid of normalised values s in [0, 1], float, [i][j][k] with k fastest. */
struct render_volume {
  int nx, ny, nz;
  const float *s;
};

/** Transfer-function presets (colour from a colour map; extinction from s). */
enum render_tf_preset {
  RENDER_TF_LINEAR = 0,     /*!< extinction proportional to s: the tests' emission-absorption */
  RENDER_TF_IONIZED = 1,    /*!< x_HII: ionized gas glows, neutral gas is clear (s^2) */
  RENDER_TF_DENSITY = 2     /*!< density: dense gas glows (s^3), the voids are clear */
};

/**
 * Fill tf[RENDER_TF_SIZE * 4]: colour of map `cmap` (render_cmap.h) at s, and
 * extinction tau_per_cell * shape(s), shape from the preset (max 1 at s = 1).
 * With a constant colour (cmap < 0: white) the linear preset makes the image
 * brightness 1 - exp(-tau_per_cell * integral of s over the path in cells).
 */
void render_tf_fill(enum render_tf_preset preset, int cmap, double tau_per_cell, float *tf);

/**
 * An orbiting orthographic camera: looking at the centre of an n^3 grid from
 * azimuth az_deg (from +x towards +y) and elevation el_deg (towards +z, |el| < 90),
 * the whole box in view at zoom 1 (the view spans the box diagonal / zoom),
 * image nx x ny pixels, samples every step_cells along the rays.
 */
void render_camera_orbit(struct render_camera *cam, int n, double az_deg, double el_deg,
                         double zoom, int nx, int ny, double step_cells);

/** Render on the CPU (OpenMP over pixels): rgba[(v * nx + u) * 4 + c], floats in [0, 1]. */
IONF_NODISCARD ionf_err render_volume_cpu(const struct render_volume *vol, const float *tf,
                                          const struct render_camera *cam, float *rgba);

/** The same on the GPU; IONF_ERR_UNSUPPORTED in a CPU-only build or without a GPU. */
IONF_NODISCARD ionf_err render_volume_cuda(const struct render_volume *vol, const float *tf,
                                           const struct render_camera *cam, float *rgba);

/**
 * tex3D of the volume at `count` points (cells, x y z each) on the GPU, into
 * out: what the ray caster samples, for checking render_sample_trilinear's
 * emulation of the texture unit.  IONF_ERR_UNSUPPORTED without CUDA.
 */
IONF_NODISCARD ionf_err render_sample_cuda(const struct render_volume *vol, const float *points,
                                           int64_t count, float *out);


/* ---- particles onto a grid ------------------------------------------------------------ */

/** Particles to bin: positions in cells ([0, n) per axis), a weight and a value each. */
struct render_bin_input {
  const double *pos_cells; /*!< count x 3 */
  const double *weight;    /*!< e.g. the particle mass */
  const double *value;     /*!< the field to grid */
  int64_t count;
  int n;                   /*!< cells per side of the target grid */
  int n_smooth;            /*!< stencil half-width in cells (0: the particle's cell only) */
  int periodic;            /*!< stencil wraps around the box */
};

/**
 * Accumulate sum_w[c] = sum of weight * stencil and sum_wv[c] = sum of
 * weight * stencil * value over the particles (arrays of n^3, zeroed here).
 * Particles outside the grid are skipped (counted in *n_outside when not NULL).
 */
IONF_NODISCARD ionf_err render_bin_cpu(const struct render_bin_input *in, double *sum_wv,
                                       double *sum_w, int64_t *n_outside);
/** The same on the GPU (atomicAdd in double); IONF_ERR_UNSUPPORTED without CUDA. */
IONF_NODISCARD ionf_err render_bin_cuda(const struct render_bin_input *in, double *sum_wv,
                                        double *sum_w, int64_t *n_outside);

/**
 * grid[c] = sum_wv[c] / sum_w[c]; an empty cell (sum_w = 0) takes the mean of
 * its filled face neighbours, pass after pass (Jacobi sweeps, so the result does
 * not depend on the order), until every cell is filled; a grid with no filled
 * cell is left at 0.  Returns the number of cells that were empty.
 */
int64_t render_bin_average_fill(const double *sum_wv, const double *sum_w, int n, int periodic,
                                double *grid);

#ifdef __cplusplus
}
#endif

#endif /* IONF_RENDER_H */
