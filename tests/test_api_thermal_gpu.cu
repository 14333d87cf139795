/**
 * @file test_api_thermal_gpu.cu
 * @brief The thermal C API's device-memory path (ionf_thermal_solve with
 *        IONF_MEMORY_DEVICE on the cuda backend), as a flow solver on the GPU calls it: the
 *        built-in grey slab and the WSGG slab, T (and the WSGG's mole fractions) and the
 *        results in GPU memory, against the same handle's solve on host arrays: the same
 *        bits for Q^R, its sigma and the wall fluxes (one solver, one kernel; only where
 *        the arrays live differs).  Skips (77) without a GPU.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include <ionfront.h>

#include "test_util.h"
}

static void compare(const char *builtin, int wsgg) {
  const char *sets[] = {"montecarlo.rays_per_element=64", "raytracing.backend=cuda",
                        "output.directory=test_api_thermal_gpu_out"};
  ionf_thermal *t = NULL;
  ionf_status st = ionf_thermal_create_builtin(builtin, sets, 3, IONF_COMM_WORLD, &t);
  EXPECT(st == IONF_STATUS_OK, "%s: created on the cuda backend (%s)", builtin,
         ionf_last_error_message(NULL));
  if (st != IONF_STATUS_OK) return;
  int64_t n[3], first = 0, count = 0;
  double cell_m[3];
  EXPECT(ionf_thermal_grid(t, n, cell_m) == IONF_STATUS_OK &&
             ionf_thermal_cell_range(t, &first, &count) == IONF_STATUS_OK,
         "%s: grid and range", builtin);
  const int64_t cells = n[0] * n[1] * n[2];
  const size_t bytes = sizeof(double) * (size_t)cells;
  double *temp = (double *)malloc(bytes), *xw = (double *)malloc(bytes), *xc = (double *)malloc(bytes);
  double *qh = (double *)malloc(bytes), *sh = (double *)malloc(bytes);
  double *qd_host = (double *)malloc(bytes), *sd_host = (double *)malloc(bytes);
  for (int64_t c = 0; c < cells; ++c) {
    double x = ((double)(c / (n[1] * n[2])) + 0.5) * cell_m[0];
    temp[c] = 500.0 + 700.0 * x * (1.0 - x) * 4.0 + 30.0 * (double)(c % 7); /* varied */
    xw[c] = 0.1 + 0.05 * x;
    xc[c] = 0.1;
  }
  double w_h[64], w_d[64];
  int64_t dims[2];
  EXPECT(ionf_thermal_wall_shape(t, 0, dims) == IONF_STATUS_OK && dims[0] * dims[1] <= 64,
         "%s: x_lo patches", builtin);
  st = ionf_thermal_solve(t, temp, NULL, wsgg ? xw : NULL, wsgg ? xc : NULL, qh, sh,
                          IONF_MEMORY_HOST);
  EXPECT(st == IONF_STATUS_OK, "%s: host arrays (%s)", builtin, ionf_last_error_message(NULL));
  ionf_thermal_wall_flux(t, 0, w_h, NULL, dims[0] * dims[1]);
  double *d_t, *d_xw, *d_xc, *d_q, *d_s;
  cudaMalloc((void **)&d_t, bytes);
  cudaMalloc((void **)&d_xw, bytes);
  cudaMalloc((void **)&d_xc, bytes);
  cudaMalloc((void **)&d_q, bytes);
  cudaMalloc((void **)&d_s, bytes);
  cudaMemcpy(d_t, temp, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_xw, xw, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_xc, xc, bytes, cudaMemcpyHostToDevice);
  st = ionf_thermal_solve(t, d_t, NULL, wsgg ? d_xw : NULL, wsgg ? d_xc : NULL, d_q, d_s,
                          IONF_MEMORY_DEVICE);
  EXPECT(st == IONF_STATUS_OK, "%s: device arrays (%s)", builtin, ionf_last_error_message(NULL));
  cudaMemcpy(qd_host, d_q, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(sd_host, d_s, bytes, cudaMemcpyDeviceToHost);
  ionf_thermal_wall_flux(t, 0, w_d, NULL, dims[0] * dims[1]);
  int same = !memcmp(qh, qd_host, bytes) && !memcmp(sh, sd_host, bytes) &&
             !memcmp(w_h, w_d, sizeof(double) * (size_t)(dims[0] * dims[1]));
  double mean = 0.0;
  for (int64_t c = 0; c < cells; ++c) mean += qh[c] / (double)cells;
  printf("%s: %lld cells, mean Q %.6g W/m^3; device arrays %s the host arrays' bits\n", builtin,
         (long long)cells, mean, same ? "give" : "DO NOT give");
  EXPECT(same, "%s: device arrays give the host arrays' bits", builtin);
  EXPECT(mean != 0.0 && mean == mean, "%s: a non-trivial Q", builtin);
  cudaFree(d_t);
  cudaFree(d_xw);
  cudaFree(d_xc);
  cudaFree(d_q);
  cudaFree(d_s);
  free(temp); free(xw); free(xc); free(qh); free(sh); free(qd_host); free(sd_host);
  ionf_thermal_destroy(t);
}

int main(void) {
  char why[256];
  if (test_gpu_probe(why, sizeof why) <= 0) return test_gpu_skip(why);
  compare("thermal_slab", 0);
  compare("thermal_wsgg", 1);
  TEST_RETURN();
}
