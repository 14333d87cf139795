/**
 * @file render.cu
 * @brief Volume rendering and particle binning on the GPU (src/render.h).
 *
 * The volume is a cudaArray read through a texture object with hardware
 * trilinear filtering (float, coordinates in cells, clamp); one thread per
 * pixel marches its ray over the camera grid, front to back, until opaque
 * (render_k.h).  The binning kernel is one thread per particle adding its
 * stencil into double sums with atomicAdd.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "render/render.h"
}

/* The texture at a point p (cells): unnormalised coordinates, the width being k.
   (Normalised ones would be multiplied back by N in the texture unit, which can
   move a coordinate across a 1/256 weight step; unnormalised, p - 0.5 is exact
   and the CPU's emulation in render_k.h quantises the very same fraction.) */
__device__ static float render_tex_fetch(cudaTextureObject_t tex, int nx, int ny, int nz,
                                         float px, float py, float pz) {
  (void)nx, (void)ny, (void)nz;
  return tex3D<float>(tex, pz, py, px);
}

__global__ void render_raycast_kernel(cudaTextureObject_t tex, int nx, int ny, int nz,
                                      const float *tf, struct render_camera cam, float4 *rgba) {
  long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= (long)cam.nx * cam.ny) return;
  int u = (int)(p % cam.nx), v = (int)(p / cam.nx);
  float o[3], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float t_in, t_out;
  render_camera_ray(&cam, u, v, o);
  if (render_ray_box(o, cam.dir, nx, ny, nz, &t_in, &t_out)) {
    for (int k = render_first_sample(t_in, cam.step); acc[3] < RENDER_OPAQUE; ++k) {
      float t = (float)k * cam.step;
      if (t > t_out) break;
      float px = o[0] + t * cam.dir[0], py = o[1] + t * cam.dir[1], pz = o[2] + t * cam.dir[2];
      float s = render_tex_fetch(tex, nx, ny, nz, px, py, pz);
      float c[4];
      render_tf_lookup(tf, s, c);
      render_composite(c, cam.step, acc);
    }
  }
  rgba[p] = make_float4(acc[0], acc[1], acc[2], acc[3]);
}

__global__ void render_sample_kernel(cudaTextureObject_t tex, int nx, int ny, int nz,
                                     const float *points, long count, float *out) {
  long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (q < count)
    out[q] = render_tex_fetch(tex, nx, ny, nz, points[3 * q], points[3 * q + 1], points[3 * q + 2]);
}

struct render_gpu_buffers {
  cudaArray_t array;
  cudaTextureObject_t tex;
  float *tf;
  float4 *image;
  float *points, *samples;
};

static void render_gpu_free(struct render_gpu_buffers *b) {
  if (b->tex) cudaDestroyTextureObject(b->tex);
  if (b->array) cudaFreeArray(b->array);
  cudaFree(b->tf);
  cudaFree(b->image);
  cudaFree(b->points);
  cudaFree(b->samples);
}

/* The volume into a cudaArray (its width the fastest index k) and a texture
   object: float, unnormalised coordinates, clamp, hardware trilinear filtering. */
static ionf_err render_gpu_texture(const struct render_volume *vol, struct render_gpu_buffers *b) {
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaExtent extent = make_cudaExtent((size_t)vol->nz, (size_t)vol->ny, (size_t)vol->nx);
  CUDA_CHECK(cudaMalloc3DArray(&b->array, &fmt, extent), "the 3D array of the volume");
  cudaMemcpy3DParms copy;
  memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_cudaPitchedPtr((void *)vol->s, (size_t)vol->nz * sizeof(float),
                                    (size_t)vol->nz, (size_t)vol->ny);
  copy.dstArray = b->array;
  copy.extent = extent;
  copy.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&copy), "uploading the volume");
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = b->array;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; /* hardware trilinear (8-bit weights) */
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0; /* cells, as render_k.h: see render_tex_fetch */
  CUDA_CHECK(cudaCreateTextureObject(&b->tex, &res, &td, NULL), "the volume's texture");
  return IONF_OK;
}

static ionf_err render_gpu_run(const struct render_volume *vol, const float *tf,
                               const struct render_camera *cam, float *rgba,
                               struct render_gpu_buffers *b) {
  IONF_CALL(render_gpu_texture(vol, b));
  const size_t tf_bytes = (size_t)RENDER_TF_SIZE * 4 * sizeof(float);
  IONF_CALL(cuda_util_alloc((void **)&b->tf, tf_bytes, "the transfer function"));
  CUDA_CHECK(cudaMemcpy(b->tf, tf, tf_bytes, cudaMemcpyHostToDevice), "uploading the transfer function");
  const long n_pix = (long)cam->nx * cam->ny;
  IONF_CALL(cuda_util_alloc((void **)&b->image, (size_t)n_pix * sizeof(float4), "the image"));
  const int threads = 128;
  render_raycast_kernel<<<(unsigned)((n_pix + threads - 1) / threads), threads>>>(
      b->tex, vol->nx, vol->ny, vol->nz, b->tf, *cam, b->image);
  CUDA_CHECK(cudaGetLastError(), "the ray-casting kernel launch");
  CUDA_CHECK(cudaMemcpy(rgba, b->image, (size_t)n_pix * sizeof(float4), cudaMemcpyDeviceToHost),
              "the ray-casting kernel (or downloading the image)");
  return IONF_OK;
}

extern "C" ionf_err render_volume_cuda(const struct render_volume *vol, const float *tf,
                                       const struct render_camera *cam, float *rgba) {
  if (cuda_util_device_count() == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED, "GPU volume rendering: no CUDA device visible");
  struct render_gpu_buffers b;
  memset(&b, 0, sizeof b);
  ionf_err rc = render_gpu_run(vol, tf, cam, rgba, &b);
  render_gpu_free(&b);
  return rc;
}

extern "C" ionf_err render_sample_cuda(const struct render_volume *vol, const float *points,
                                       int64_t count, float *out) {
  if (cuda_util_device_count() == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED, "GPU texture sampling: no CUDA device visible");
  struct render_gpu_buffers b;
  memset(&b, 0, sizeof b);
  ionf_err rc = render_gpu_texture(vol, &b);
  const size_t m = (size_t)(count > 0 ? count : 1);
  cudaError_t err = cudaSuccess;
  if (rc == IONF_OK) rc = cuda_util_alloc((void **)&b.points, 3 * m * sizeof(float), "the sample points");
  if (rc == IONF_OK) rc = cuda_util_alloc((void **)&b.samples, m * sizeof(float), "the samples");
  if (rc == IONF_OK && err == cudaSuccess)
    err = cudaMemcpy(b.points, points, 3 * (size_t)count * sizeof(float), cudaMemcpyHostToDevice);
  if (rc == IONF_OK && err == cudaSuccess && count > 0) {
    render_sample_kernel<<<(unsigned)((count + 127) / 128), 128>>>(b.tex, vol->nx, vol->ny, vol->nz,
                                                                   b.points, (long)count, b.samples);
    err = cudaGetLastError();
  }
  if (rc == IONF_OK && err == cudaSuccess)
    err = cudaMemcpy(out, b.samples, (size_t)count * sizeof(float), cudaMemcpyDeviceToHost);
  if (rc == IONF_OK && err != cudaSuccess) {
    cudaGetLastError();
    rc = ionf_error_set(IONF_ERR_GPU, "GPU texture sampling failed: %s", cudaGetErrorString(err));
  }
  render_gpu_free(&b);
  return rc;
}

/* ---- particles onto a grid ------------------------------------------------------------ */

__global__ void render_bin_kernel(const double *pos, const double *weight, const double *value,
                                  long count, int n, int ns, int periodic, double *sum_wv,
                                  double *sum_w, unsigned long long *outside) {
  long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= count) return;
  int ci = render_bin_cell(pos[3 * p], n), cj = render_bin_cell(pos[3 * p + 1], n),
      ck = render_bin_cell(pos[3 * p + 2], n);
  if (ci < 0 || cj < 0 || ck < 0) {
    atomicAdd(outside, 1ULL);
    return;
  }
  for (int di = -ns; di <= ns; ++di) {
    int i = render_stencil_index(ci, di, n, periodic);
    if (i < 0) continue;
    for (int dj = -ns; dj <= ns; ++dj) {
      int j = render_stencil_index(cj, dj, n, periodic);
      if (j < 0) continue;
      for (int dk = -ns; dk <= ns; ++dk) {
        int k = render_stencil_index(ck, dk, n, periodic);
        if (k < 0) continue;
        double w = weight[p] * render_stencil_weight(di, dj, dk, ns);
        size_t c = ((size_t)i * n + (size_t)j) * n + (size_t)k;
        atomicAdd(&sum_w[c], w);
        atomicAdd(&sum_wv[c], w * value[p]);
      }
    }
  }
}

struct render_bin_buffers {
  double *pos, *weight, *value, *sum_wv, *sum_w;
  unsigned long long *outside;
};

static ionf_err render_bin_run(const struct render_bin_input *in, double *sum_wv, double *sum_w,
                               int64_t *n_outside, struct render_bin_buffers *b) {
  const size_t np = (size_t)in->count, cells = (size_t)in->n * in->n * in->n;
  IONF_CALL(cuda_util_alloc((void **)&b->pos, 3 * np * sizeof(double) + 8, "particle positions"));
  IONF_CALL(cuda_util_alloc((void **)&b->weight, np * sizeof(double) + 8, "particle weights"));
  IONF_CALL(cuda_util_alloc((void **)&b->value, np * sizeof(double) + 8, "particle values"));
  IONF_CALL(cuda_util_alloc((void **)&b->sum_wv, cells * sizeof(double), "the binned sums"));
  IONF_CALL(cuda_util_alloc((void **)&b->sum_w, cells * sizeof(double), "the binned weights"));
  IONF_CALL(cuda_util_alloc((void **)&b->outside, sizeof(unsigned long long), "a counter"));
  CUDA_CHECK(cudaMemcpy(b->pos, in->pos_cells, 3 * np * sizeof(double), cudaMemcpyHostToDevice),
              "uploading positions");
  CUDA_CHECK(cudaMemcpy(b->weight, in->weight, np * sizeof(double), cudaMemcpyHostToDevice),
              "uploading weights");
  CUDA_CHECK(cudaMemcpy(b->value, in->value, np * sizeof(double), cudaMemcpyHostToDevice),
              "uploading values");
  CUDA_CHECK(cudaMemset(b->sum_wv, 0, cells * sizeof(double)), "clearing the sums");
  CUDA_CHECK(cudaMemset(b->sum_w, 0, cells * sizeof(double)), "clearing the weights");
  CUDA_CHECK(cudaMemset(b->outside, 0, sizeof(unsigned long long)), "clearing a counter");
  const int threads = 256;
  if (np > 0)
    render_bin_kernel<<<(unsigned)((np + threads - 1) / threads), threads>>>(
        b->pos, b->weight, b->value, (long)np, in->n, in->n_smooth, in->periodic, b->sum_wv,
        b->sum_w, b->outside);
  CUDA_CHECK(cudaGetLastError(), "the binning kernel launch");
  unsigned long long outside = 0;
  CUDA_CHECK(cudaMemcpy(sum_wv, b->sum_wv, cells * sizeof(double), cudaMemcpyDeviceToHost),
              "the binning kernel (or downloading the sums)");
  CUDA_CHECK(cudaMemcpy(sum_w, b->sum_w, cells * sizeof(double), cudaMemcpyDeviceToHost),
              "downloading the weights");
  CUDA_CHECK(cudaMemcpy(&outside, b->outside, sizeof outside, cudaMemcpyDeviceToHost),
              "downloading a counter");
  if (n_outside) *n_outside = (int64_t)outside;
  return IONF_OK;
}

extern "C" ionf_err render_bin_cuda(const struct render_bin_input *in, double *sum_wv,
                                    double *sum_w, int64_t *n_outside) {
  if (cuda_util_device_count() == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED, "GPU particle binning: no CUDA device visible");
  if (in->n <= 0 || in->n_smooth < 0)
    return ionf_error_set(IONF_ERR_INTERNAL, "render_bin_cuda: n %d, n_smooth %d", in->n,
                          in->n_smooth);
  struct render_bin_buffers b;
  memset(&b, 0, sizeof b);
  ionf_err rc = render_bin_run(in, sum_wv, sum_w, n_outside, &b);
  cudaFree(b.pos);
  cudaFree(b.weight);
  cudaFree(b.value);
  cudaFree(b.sum_wv);
  cudaFree(b.sum_w);
  cudaFree(b.outside);
  return rc;
}
