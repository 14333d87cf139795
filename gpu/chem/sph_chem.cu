/**
 * @file sph_chem.cu
 * @brief The particle chemistry pass on the GPU (src/sph_chem.h): one thread
 *        per particle (grid-stride) calling chem_cell_update(_thermal) from
 *        chem_k.h; per-particle flags for the convergence counts.
 */
#include <cuda_runtime.h>

#include <string.h>

extern "C" {
#include "chem/chem_k.h"
#include "chem/sph_chem.h"
}

#define SPH_CHEM_THREADS 128

static ionf_err sph_chem_fail(cudaError_t err, const char *what) {
  cudaGetLastError(); /* clear a non-sticky error */
  ionf_err code = err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU;
  return ionf_error_set(code, "GPU particle chemistry: CUDA %s failed: %s (%s)", what,
                        cudaGetErrorName(err), cudaGetErrorString(err));
}

#define SPH_CHEM_CUDA(expr, what)                      \
  do {                                                 \
    cudaError_t sph_chem_err_ = (expr);                \
    if (sph_chem_err_ != cudaSuccess) {                \
      ionf_error_trace(__func__, __FILE__, __LINE__);  \
      return sph_chem_fail(sph_chem_err_, (what));     \
    }                                                  \
  } while (0)

enum { FLAG_UNCONVERGED = 1, FLAG_AT_MAX = 2 };

__global__ void __launch_bounds__(SPH_CHEM_THREADS)
    sph_chem_kernel(long long n, double dt_s, struct chem_params p, const double *n_h,
                    const double *t_k, const double *gamma, const double *x0, double *x_av,
                    double *x_end, const double *heat, double *t_av, double *t_end,
                    unsigned char *flags) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    double old = x_av[i];
    struct chem_cell_result r;
    int unconverged;
    if (heat) { /* the same branches as chem_cpu_pass */
      double t_old = t_av[i];
      r = chem_cell_update_thermal(&p, x0[i], old, t_k[i], t_old, n_h[i], gamma[i], heat[i], dt_s);
      t_av[i] = r.t_av_k;
      t_end[i] = r.t_end_k;
      unconverged = chem_cell_unconverged(old, r.x_av) ||
                    fabs(r.t_av_k - t_old) > CHEM_MIN_FRACTIONAL_T_CHANGE * r.t_av_k;
    } else {
      r = chem_cell_update(&p, x0[i], old, n_h[i], t_k[i], gamma[i], dt_s);
      unconverged = chem_cell_unconverged(old, r.x_av);
    }
    x_av[i] = r.x_av;
    x_end[i] = r.x_end;
    flags[i] = (unsigned char)((unconverged ? FLAG_UNCONVERGED : 0) | (r.converged ? 0 : FLAG_AT_MAX));
  }
}

/* Device buffers kept between passes (grown as needed). */
static struct {
  long long capacity;
  double *field[9]; /* n_h, t_k, gamma, x0, x_av, x_end, heat, t_av, t_end */
  unsigned char *flags;
  unsigned char *host_flags;
} dev;

void sph_chem_cuda_release(void) {
  for (int f = 0; f < 9; ++f) cudaFree(dev.field[f]);
  cudaFree(dev.flags);
  cudaFreeHost(dev.host_flags);
  memset(&dev, 0, sizeof dev);
}

static ionf_err reserve(long long n) {
  if (n <= dev.capacity) return IONF_OK;
  sph_chem_cuda_release();
  for (int f = 0; f < 9; ++f)
    SPH_CHEM_CUDA(cudaMalloc((void **)&dev.field[f], sizeof(double) * (size_t)n), "allocation");
  SPH_CHEM_CUDA(cudaMalloc((void **)&dev.flags, (size_t)n), "allocation");
  SPH_CHEM_CUDA(cudaMallocHost((void **)&dev.host_flags, (size_t)n), "allocation");
  dev.capacity = n;
  return IONF_OK;
}

static ionf_err up(int f, const double *host, long long n) {
  SPH_CHEM_CUDA(cudaMemcpy(dev.field[f], host, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice),
                "copy to the GPU");
  return IONF_OK;
}

static ionf_err down(double *host, int f, long long n) {
  SPH_CHEM_CUDA(cudaMemcpy(host, dev.field[f], sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost),
                "copy from the GPU");
  return IONF_OK;
}

extern "C" ionf_err sph_chem_cuda_pass(const struct chem_input *in, struct chem_state *state,
                                       struct chem_pass_result *result) {
  long long n = in->n_cells;
  memset(result, 0, sizeof *result);
  if (n <= 0) return IONF_OK;
  const int thermal = in->params.thermal && in->heating_erg_per_s && state->t_av_k && state->t_end_k;
  /* hydrogen's update (the only species today), as chem_cpu_pass */
  const long long h = (long long)SPECIES_HI * in->species_stride;
  const double *x0 = in->x_ion + h, *gamma = in->gamma_per_s + h;
  const double *heat = in->heating_erg_per_s ? in->heating_erg_per_s + h : NULL;
  double *x_av = state->x_ion_av + h, *x_end = state->x_ion_end + h;
  IONF_CALL(reserve(n));
  IONF_CALL(up(0, in->n_h_cm3, n));
  IONF_CALL(up(1, in->temperature_k, n));
  IONF_CALL(up(2, gamma, n));
  IONF_CALL(up(3, x0, n));
  IONF_CALL(up(4, x_av, n));
  if (thermal) {
    IONF_CALL(up(6, heat, n));
    IONF_CALL(up(7, state->t_av_k, n));
  }
  long long blocks = (n + SPH_CHEM_THREADS - 1) / SPH_CHEM_THREADS;
  if (blocks > 65535LL * 8) blocks = 65535LL * 8;
  sph_chem_kernel<<<(unsigned)blocks, SPH_CHEM_THREADS>>>(
      n, in->dt_s, in->params, dev.field[0], dev.field[1], dev.field[2], dev.field[3],
      dev.field[4], dev.field[5], thermal ? dev.field[6] : NULL, dev.field[7], dev.field[8],
      dev.flags);
  SPH_CHEM_CUDA(cudaGetLastError(), "launch of the chemistry kernel");
  IONF_CALL(down(x_av, 4, n));
  IONF_CALL(down(x_end, 5, n));
  if (thermal) {
    IONF_CALL(down(state->t_av_k, 7, n));
    IONF_CALL(down(state->t_end_k, 8, n));
  }
  SPH_CHEM_CUDA(cudaMemcpy(dev.host_flags, dev.flags, (size_t)n, cudaMemcpyDeviceToHost),
                "copy from the GPU");
  /* the convergence sums, as chem_cpu_pass forms them */
  long long unconverged = 0, at_max = 0;
  double sx = 0.0, sn = 0.0, sm = 0.0, st = 0.0;
  for (long long i = 0; i < n; ++i) {
    double x = x_end[i];
    unconverged += (dev.host_flags[i] & FLAG_UNCONVERGED) != 0;
    at_max += (dev.host_flags[i] & FLAG_AT_MAX) != 0;
    sx += x;
    sn += 1.0 - x;
    sm += in->n_h_cm3[i] * x;
    st += thermal ? state->t_end_k[i] : in->temperature_k[i];
  }
  result->unconverged_cells = unconverged;
  result->cells_at_max_iter = at_max;
  result->sum_x_end = sx;
  result->sum_x_neutral_end = sn;
  result->sum_x_end_mass = sm;
  result->sum_t_end = st;
  return IONF_OK;
}

extern "C" int sph_cuda_select_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
    cudaGetLastError(); /* clear the "no device" error */
    return -1;
  }
  int device = local_rank % count;
  if (cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return device;
}
