/**
 * @file grid.c
 * @brief Allocation of the grid fields.
 */
#include "grid/grid.h"

#include <stdlib.h>
#include <string.h>

ionf_err grid_fields_alloc(int64_t n, int thermal, struct grid_fields *f) {
  memset(f, 0, sizeof *f);
  size_t cells = (size_t)grid_cells(n);
  double **all[] = {&f->n_h_cm3,          &f->x_ion,          &f->x_ion_av,
                    &f->x_ion_end,        &f->temperature_k,  &f->gamma_per_s,
                    &f->temperature_av_k, &f->temperature_end_k, &f->heating_erg_per_s};
  /* values per cell: 1, or one per species */
  size_t per_cell[] = {1, IONF_N_SPECIES, IONF_N_SPECIES, IONF_N_SPECIES, 1, IONF_N_SPECIES,
                       1, 1, IONF_N_SPECIES};
  size_t count = thermal ? 9 : 6;
  for (size_t a = 0; a < count; ++a) {
    *all[a] = calloc(cells * per_cell[a], sizeof(double));
    if (!*all[a]) {
      grid_fields_free(f);
      return ionf_error_set(IONF_ERR_MEM,
                            "could not allocate the grid fields: %lld^3 cells need %.2f GB",
                            (long long)n, (double)count * IONF_N_SPECIES * 8.0 * (double)cells / 1e9);
    }
  }
  return IONF_OK;
}

void grid_fields_free(struct grid_fields *f) {
  free(f->n_h_cm3);
  free(f->x_ion);
  free(f->x_ion_av);
  free(f->x_ion_end);
  free(f->temperature_k);
  free(f->gamma_per_s);
  free(f->temperature_av_k);
  free(f->temperature_end_k);
  free(f->heating_erg_per_s);
  free(f->dtb_mk);
  memset(f, 0, sizeof *f);
}
