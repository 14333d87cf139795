/**
 * @file tb21.c
 * @brief The 21-cm brightness temperature of a grid (OpenMP loop over tb21_k.h).
 */
#include "cosmo/tb21.h"

#include "cosmo/tb21_k.h"

void tb21_field(int64_t n_cells, const double *x_hii, const double *n_h, double omega_m,
                double omega_b, double h, double redshift, double *dtb_mk_out) {
  if (n_cells <= 0) return;
  const double prefactor_mk = tb21_prefactor_mk(omega_m, omega_b, h, redshift);
  double inv_mean = 1.0;
  if (n_h) {
    double sum = 0.0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (int64_t c = 0; c < n_cells; ++c) sum += n_h[c];
    const double mean = sum / (double)n_cells;
    inv_mean = mean > 0.0 ? 1.0 / mean : 0.0;
  }
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < n_cells; ++c) {
    const double one_plus_delta = n_h ? n_h[c] * inv_mean : 1.0;
    dtb_mk_out[c] = tb21_cell_mk(prefactor_mk, x_hii[c], one_plus_delta);
  }
}
