/**
 * @file test_render_gpu.c
 * @brief The GPU paths give the CPU paths' results: volume renderings (hardware
 *        trilinear texture against the CPU's emulation of its 1/256 weights)
 *        agree within one grey level per channel, for the sphere scene and a
 *        structured field under oblique views; particle binning (double
 *        atomicAdd) gives the CPU's sums to rounding.  Exit 77 without a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/core/cuda_util.h"
#include "render/render.h"
#include "render/render_cmap.h"
#include "render_scenes.h"
#include "test_util.h"

enum { N = 40, PIX = 160 };

/* strict: every channel within one grey level (the test, on the sphere).
   Otherwise (a smooth field through a steep transfer function) the texture unit's
   rounding of a weight can differ from the emulation's by one 1/256 step at rare
   samples (compare_samples), which a steep opacity amplifies: then 99.5% of the
   channels must agree within one grey level. */
static void compare_images(const struct render_volume *vol, const float *tf, double az,
                           double el, double zoom, const char *what, int strict) {
  struct render_camera cam;
  render_camera_orbit(&cam, vol->nx, az, el, zoom, PIX, PIX, 0.5);
  size_t count = (size_t)PIX * PIX * 4;
  float *cpu = malloc(count * sizeof *cpu), *gpu = malloc(count * sizeof *gpu);
  EXPECT(render_volume_cpu(vol, tf, &cam, cpu) == IONF_OK, "%s: cpu", what);
  EXPECT(render_volume_cuda(vol, tf, &cam, gpu) == IONF_OK, "%s: gpu", what);
  int worst = 0;
  long differing = 0, beyond_one = 0;
  double worst_float = 0.0;
  for (size_t p = 0; p < count; ++p) {
    if (p % 4 == 3) continue;
    int d = abs((int)render_to_byte(cpu[p]) - (int)render_to_byte(gpu[p]));
    worst = d > worst ? d : worst;
    differing += d > 0;
    beyond_one += d > 1;
    worst_float = test_worst(worst_float, test_abs_diff(cpu[p], gpu[p]));
  }
  printf("%s: az %.0f el %.0f: worst %d grey level(s), %ld of %ld channels differ, "
         "worst float difference %.3g\n", what, az, el, worst, differing, (long)(count / 4 * 3),
         worst_float);
  /* RGBA lies in [0, 1]: a larger difference is a NaN or an infinity (+inf here) */
  EXPECT(worst_float <= 1.0, "%s: CPU and GPU RGBA differ by %.3g (a NaN?)", what, worst_float);
  if (strict)
    EXPECT(worst <= 1, "%s: CPU and GPU differ by %d grey levels", what, worst);
  else
    EXPECT(beyond_one <= (long)(0.005 * (double)(count / 4 * 3)),
           "%s: %ld channels differ by more than one grey level", what, beyond_one);
  free(cpu);
  free(gpu);
}

/* tex3D at random points against render_sample_trilinear (weights rounded to
   1/256) and against the same with truncated weights.  Measured on an H100
   (2026-11-22): in one dimension rounding to the nearest 1/256 matches the
   hardware at every one of 10^6 points (truncation at half of them), but in 3D
   only ~20% of samples match to 1e-5: the unit's internal arithmetic for the
   eight-texel mix is not documented (products of rounded weights, nested lerps
   and 16-bit products all miss by up to one step).  So each sample must lie
   within one weight step per axis of the emulation, |hw - emu| <= 3/256 (max -
   min of its 8 texels) (measured: 1.13 steps at worst); the counts are printed. */
static void compare_samples(const struct render_volume *vol);

static unsigned long long lcg = 12345;
static double uniform(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg >> 11) / 9007199254740992.0;
}

static float sample_truncated(const struct render_volume *v, const float p[3]) {
  float q[3];
  /* shift each coordinate so that rounding its fraction gives the truncation */
  for (int d = 0; d < 3; ++d) {
    float t = p[d] - 0.5f, f = floorf(t), w = floorf((t - f) * 256.0f) / 256.0f;
    q[d] = f + w + 0.5f;
  }
  return render_sample_trilinear(v->s, v->nx, v->ny, v->nz, q);
}

static void compare_samples(const struct render_volume *vol) {
  const int64_t m = 20000;
  float *pts = malloc(3 * m * sizeof *pts), *gpu = malloc(m * sizeof *gpu);
  for (int64_t q = 0; q < 3 * m; ++q) pts[q] = (float)(uniform() * vol->nx);
  EXPECT(render_sample_cuda(vol, pts, m, gpu) == IONF_OK, "tex3D samples");
  double worst = 0.0, worst_trunc = 0.0, worst_steps = 0.0;
  int64_t exact = 0;
  for (int64_t q = 0; q < m; ++q) {
    const float *p = pts + 3 * q;
    float emu = render_sample_trilinear(vol->s, vol->nx, vol->ny, vol->nz, p);
    double d = test_abs_diff(gpu[q], emu);
    worst = test_worst(worst, d);
    exact += d < 1e-5;
    worst_trunc = test_worst(worst_trunc, test_abs_diff(gpu[q], sample_truncated(vol, p)));
    /* the spread of the 8 texels around p (clamped like the texture) */
    float lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < 8; ++c) {
      int idx[3];
      for (int a = 0; a < 3; ++a) {
        int i0 = (int)floorf(p[a] - 0.5f) + ((c >> a) & 1);
        idx[a] = i0 < 0 ? 0 : (i0 >= vol->nx ? vol->nx - 1 : i0);
      }
      float v = vol->s[((size_t)idx[0] * vol->ny + idx[1]) * vol->nz + idx[2]];
      lo = fminf(lo, v), hi = fmaxf(hi, v);
    }
    if (hi > lo) worst_steps = test_worst(worst_steps, (d - 1e-6) / ((hi - lo) / 256.0));
    else worst_steps = test_worst(worst_steps, isnan(d) ? NAN : 0.0); /* a NaN is kept */
  }
  printf("tex3D at %lld points: %lld match the emulation (weights rounded to 1/256) to 1e-5; "
         "worst difference %.3g = %.2f weight steps of the local spread; from truncated "
         "weights %.3g\n", (long long)m, (long long)exact, worst, worst_steps, worst_trunc);
  EXPECT(worst_steps <= 3.0, "tex3D differs from render_sample_trilinear by %.2f weight steps",
         worst_steps);

  free(pts);
  free(gpu);
}

static void compare_binning(int n_smooth, int periodic) {
  const int n = 20;
  const int64_t count = 20000;
  double *pos = malloc(3 * count * sizeof *pos), *w = malloc(count * sizeof *w),
         *val = malloc(count * sizeof *val);
  for (int64_t p = 0; p < count; ++p) {
    for (int d = 0; d < 3; ++d) pos[3 * p + d] = n * uniform();
    w[p] = 0.5 + uniform();
    val[p] = exp(3.0 * uniform());
  }
  pos[0] = -1.0; /* one outside */
  struct render_bin_input in = {pos, w, val, count, n, n_smooth, periodic};
  size_t cells = (size_t)n * n * n;
  double *a_wv = malloc(cells * sizeof(double)), *a_w = malloc(cells * sizeof(double));
  double *b_wv = malloc(cells * sizeof(double)), *b_w = malloc(cells * sizeof(double));
  int64_t out_a = 0, out_b = 0;
  EXPECT(render_bin_cpu(&in, a_wv, a_w, &out_a) == IONF_OK, "bin cpu");
  EXPECT(render_bin_cuda(&in, b_wv, b_w, &out_b) == IONF_OK, "bin gpu");
  double worst = 0.0;
  for (size_t c = 0; c < cells; ++c) {
    worst = test_worst(worst, test_rel_diff(b_wv[c], a_wv[c], 1e-300));
    worst = test_worst(worst, test_rel_diff(b_w[c], a_w[c], 1e-300));
  }
  printf("binning stencil %d periodic %d: worst relative difference %.3g, outside %lld / %lld\n",
         n_smooth, periodic, worst, (long long)out_a, (long long)out_b);
  /* sums of at most a few thousand positive terms in another order */
  EXPECT(worst < 1e-12, "binning differs by %.3g", worst);
  EXPECT(out_a == 1 && out_b == 1, "outside counts %lld %lld", (long long)out_a, (long long)out_b);
  free(pos), free(w), free(val), free(a_wv), free(a_w), free(b_wv), free(b_w);
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    return test_gpu_skip(gpu_why);
  }
  float *sphere = render_scene_sphere(N, 0.5 * N, 0.45 * N, 0.55 * N, 0.3 * N);
  float *waves = malloc((size_t)N * N * N * sizeof *waves);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k)
        waves[((size_t)i * N + j) * N + k] =
            (float)(0.5 + 0.5 * sin(0.37 * i + 0.2) * cos(0.23 * j - 0.1) * sin(0.51 * k + 0.7));
  float tf_linear[RENDER_TF_SIZE * 4], tf_ionized[RENDER_TF_SIZE * 4];
  render_tf_fill(RENDER_TF_LINEAR, -1, 0.03, tf_linear);
  render_tf_fill(RENDER_TF_IONIZED, RENDER_CMAP_VIRIDIS, 4.0 / N, tf_ionized);
  struct render_volume vs = {N, N, N, sphere}, vw = {N, N, N, waves};
  compare_samples(&vw);
  compare_images(&vs, tf_linear, 0.0, 0.0, sqrt(3.0), "sphere, linear", 1);
  compare_images(&vs, tf_ionized, 37.0, 23.0, 1.0, "sphere, ionized", 1);
  compare_images(&vw, tf_ionized, 113.0, -41.0, 1.3, "waves, ionized", 0);
  compare_images(&vw, tf_linear, 200.0, 60.0, 1.0, "waves, linear", 0);
  compare_binning(0, 0);
  compare_binning(1, 1);
  compare_binning(2, 0);
  free(sphere);
  free(waves);
  TEST_RETURN();
}
