/**
 * @file test_render_sphere.c
 * @brief A sphere of constant value in an empty box, rendered on the CPU with
 *        the linear (emission-absorption) transfer function: each pixel's
 *        brightness is 1 - exp(-kappa L), so -ln(1 - brightness) / kappa must
 *        give the analytic path length L = 2 sqrt(R^2 - b^2) through the
 *        sphere at impact parameter b, and zero outside it; the summed path
 *        lengths give the sphere's volume.  Views along an axis and oblique.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/render.h"
#include "render_scenes.h"
#include "test_util.h"

enum { N = 48, PIX = 96 };
static const double R_CELLS = 15.0, KAPPA = 0.02;

/* The path length through the sphere centred in the box along the ray of pixel
   (u, v): impact parameter from the camera's image-plane coordinates. */
static double analytic_length(const struct render_camera *cam, int u, int v, double *b_out) {
  double a = (u + 0.5 - 0.5 * cam->nx) * cam->pixel, b = (0.5 * cam->ny - v - 0.5) * cam->pixel;
  double bb = sqrt(a * a + b * b);
  *b_out = bb;
  return bb < R_CELLS ? 2.0 * sqrt(R_CELLS * R_CELLS - bb * bb) : 0.0;
}

static void check_view(const struct render_volume *vol, const float *tf, double az, double el,
                       double step) {
  struct render_camera cam;
  /* zoom sqrt(3): the view spans N cells, pixels of 0.5 cells */
  render_camera_orbit(&cam, N, az, el, sqrt(3.0), PIX, PIX, step);
  float *rgba = malloc((size_t)PIX * PIX * 4 * sizeof *rgba);
  EXPECT(render_volume_cpu(vol, tf, &cam, rgba) == IONF_OK, "render");
  double worst_inner = 0.0, worst_outside = 0.0, volume = 0.0;
  /* mean error in rings of one cell in b: the bias of the cell-scale smoothing */
  double ring_sum[32] = {0}, worst_ring = 0.0;
  int ring_count[32] = {0};
  for (int v = 0; v < PIX; ++v)
    for (int u = 0; u < PIX; ++u) {
      const float *p = rgba + 4 * ((size_t)v * PIX + u);
      double b, expect = analytic_length(&cam, u, v, &b);
      double got = -log(1.0 - (double)p[0]) / KAPPA;
      volume += got * cam.pixel * cam.pixel;
      /* grey: the three channels carry the same brightness, equal to the opacity */
      EXPECT(p[0] == p[1] && p[1] == p[2] && fabs(p[0] - p[3]) < 1e-6, "grey pixel %d,%d", u, v);
      if (b <= 0.8 * R_CELLS) {
        worst_inner = test_worst(worst_inner, test_abs_diff(got, expect));
        ring_sum[(int)b] += got - expect;
        ++ring_count[(int)b];
      }
      /* a cell touching the sphere has its centre within R + sqrt(3)/2, and the
         trilinear sample reaches a cell diagonal (sqrt(3)) further */
      if (b >= R_CELLS + 2.6) worst_outside = test_worst(worst_outside, got);
    }
  for (int r = 0; r < 32; ++r)
    if (ring_count[r]) worst_ring = test_worst(worst_ring, test_abs_diff(ring_sum[r] / ring_count[r], 0.0));
  double v_exact = 4.0 / 3.0 * 3.14159265358979323846 * R_CELLS * R_CELLS * R_CELLS;
  printf("az %5.1f el %5.1f step %.2f: worst |L - L_analytic| inside 0.8 R %.4f cells, "
         "ring means %.4f, outside %.2g, volume %.2f vs %.2f cells^3 (%.2e)\n",
         az, el, step, worst_inner, worst_ring, worst_outside, volume, v_exact, volume / v_exact - 1.0);
  /* The voxels (volume fractions) and the trilinear sample smooth the sphere with
     a kernel of variance 1/12 + 1/6 = 1/4 cell^2 per axis, which biases L by
     about (1/2)(1/4) laplacian(L) = -0.10 cells at b = 0.8 R (0.05 at b = 0.5 R):
     the ring means must show that bias and no more.  Single pixels also see the
     voxel staircase of the limb where the ray enters and leaves (obliquely up to
     a quarter cell at each crossing). */
  EXPECT(worst_ring < 0.15, "ring-mean path length off by %.3f cells", worst_ring);
  EXPECT(worst_inner < 0.5, "path length off by %.3f cells", worst_inner);
  EXPECT(worst_outside == 0.0, "light outside the sphere: %.3g", worst_outside);
  /* the summed path lengths are the sphere's volume, to the 1/256 texture weights */
  EXPECT(fabs(volume / v_exact - 1.0) < 0.01, "volume %.2f, sphere %.2f", volume, v_exact);
  free(rgba);
}

int main(void) {
  float *s = render_scene_sphere(N, 0.5 * N, 0.5 * N, 0.5 * N, R_CELLS);
  EXPECT(s != NULL, "allocation");
  if (!s) TEST_RETURN();
  struct render_volume vol = {N, N, N, s};
  float tf[RENDER_TF_SIZE * 4];
  render_tf_fill(RENDER_TF_LINEAR, -1, KAPPA, tf);
  check_view(&vol, tf, 0.0, 0.0, 0.25);   /* along -x */
  check_view(&vol, tf, 90.0, 0.0, 0.5);   /* along -y */
  check_view(&vol, tf, 37.0, 23.0, 0.5);  /* oblique */
  check_view(&vol, tf, 37.0, 23.0, 0.25);
  free(s);
  TEST_RETURN();
}
