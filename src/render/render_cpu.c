/**
 * @file render_cpu.c
 * @brief Volume rendering on the CPU (OpenMP over pixels), the transfer-function
 *        presets and the orbiting camera; the stubs of a CPU-only build.
 */
#include <math.h>
#include <string.h>

#include "core/ionf_config.h"
#include "render/render.h"
#include "render/render_cmap.h"

void render_tf_fill(enum render_tf_preset preset, int cmap, double tau_per_cell, float *tf) {
  for (int i = 0; i < RENDER_TF_SIZE; ++i) {
    double s = (double)i / (double)(RENDER_TF_SIZE - 1);
    unsigned char rgb[3] = {255, 255, 255};
    if (cmap >= 0) render_cmap_rgb(cmap, s, rgb);
    double shape = preset == RENDER_TF_IONIZED   ? s * s
                   : preset == RENDER_TF_DENSITY ? s * s * s
                                                 : s;
    for (int c = 0; c < 3; ++c) tf[4 * i + c] = (float)(rgb[c] / 255.0);
    tf[4 * i + 3] = (float)(tau_per_cell * shape);
  }
}

static void normalise(double v[3]) {
  double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int d = 0; d < 3; ++d) v[d] /= l;
}

void render_camera_orbit(struct render_camera *cam, int n, double az_deg, double el_deg,
                         double zoom, int nx, int ny, double step_cells) {
  const double deg = 3.14159265358979323846 / 180.0;
  double az = az_deg * deg, el = el_deg * deg;
  /* the viewer sits at +(cos el cos az, cos el sin az, sin el) from the centre */
  double dir[3] = {-cos(el) * cos(az), -cos(el) * sin(az), -sin(el)};
  double zup[3] = {0.0, 0.0, 1.0};
  double right[3] = {dir[1] * zup[2] - dir[2] * zup[1], dir[2] * zup[0] - dir[0] * zup[2],
                     dir[0] * zup[1] - dir[1] * zup[0]};
  normalise(right);
  double up[3] = {right[1] * dir[2] - right[2] * dir[1], right[2] * dir[0] - right[0] * dir[2],
                  right[0] * dir[1] - right[1] * dir[0]};
  normalise(up);
  double diagonal = sqrt(3.0) * n;
  memset(cam, 0, sizeof *cam);
  for (int d = 0; d < 3; ++d) {
    cam->centre[d] = (float)(0.5 * n);
    cam->dir[d] = (float)dir[d];
    cam->right[d] = (float)right[d];
    cam->up[d] = (float)up[d];
  }
  cam->pixel = (float)(diagonal / zoom / (nx < ny ? nx : ny));
  cam->step = (float)step_cells;
  cam->back = (float)diagonal;
  cam->nx = nx;
  cam->ny = ny;
}

ionf_err render_volume_cpu(const struct render_volume *vol, const float *tf,
                           const struct render_camera *cam, float *rgba) {
  IONF_CHECK(vol->nx > 0 && vol->ny > 0 && vol->nz > 0 && cam->nx > 0 && cam->ny > 0 &&
                 cam->step > 0.0f,
             IONF_ERR_INTERNAL, "render_volume_cpu: empty volume, image or step");
  const long n_pix = (long)cam->nx * cam->ny;
#pragma omp parallel for schedule(dynamic, 64)
  for (long p = 0; p < n_pix; ++p) {
    int u = (int)(p % cam->nx), v = (int)(p / cam->nx);
    float o[3], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float t_in, t_out;
    render_camera_ray(cam, u, v, o);
    if (render_ray_box(o, cam->dir, vol->nx, vol->ny, vol->nz, &t_in, &t_out)) {
      for (int k = render_first_sample(t_in, cam->step); acc[3] < RENDER_OPAQUE; ++k) {
        float t = (float)k * cam->step;
        if (t > t_out) break;
        float pt[3] = {o[0] + t * cam->dir[0], o[1] + t * cam->dir[1], o[2] + t * cam->dir[2]};
        float s = render_sample_trilinear(vol->s, vol->nx, vol->ny, vol->nz, pt);
        float c[4];
        render_tf_lookup(tf, s, c);
        render_composite(c, cam->step, acc);
      }
    }
    for (int c = 0; c < 4; ++c) rgba[4 * p + c] = acc[c];
  }
  return IONF_OK;
}

#if !IONF_HAVE_CUDA
ionf_err render_volume_cuda(const struct render_volume *vol, const float *tf,
                            const struct render_camera *cam, float *rgba) {
  (void)vol, (void)tf, (void)cam, (void)rgba;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "GPU volume rendering needs a CUDA build of ionfront (this one has none)");
}

ionf_err render_sample_cuda(const struct render_volume *vol, const float *points, int64_t count,
                            float *out) {
  (void)vol, (void)points, (void)count, (void)out;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "GPU texture sampling needs a CUDA build of ionfront (this one has none)");
}

ionf_err render_bin_cuda(const struct render_bin_input *in, double *sum_wv, double *sum_w,
                         int64_t *n_outside) {
  (void)in, (void)sum_wv, (void)sum_w, (void)n_outside;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "GPU particle binning needs a CUDA build of ionfront (this one has none)");
}
#endif
