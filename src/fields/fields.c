/**
 * @file fields.c
 * @brief Allocation of the fields of a set of cells.
 */
#include "fields/fields.h"

#include <stdlib.h>
#include <string.h>

ionf_err fields_alloc(int64_t cells, int thermal, int n_species, struct fields *f) {
  memset(f, 0, sizeof *f);
  IONF_CHECK(n_species >= 1 && n_species <= IONF_MAX_SPECIES, IONF_ERR_INTERNAL,
             "fields of %d species", n_species);
  f->cells = cells;
  f->n_species = n_species;
  double **all[] = {&f->n_h_cm3,          &f->x_ion,          &f->x_ion_av,
                    &f->x_ion_end,        &f->temperature_k,  &f->gamma_per_s,
                    &f->temperature_av_k, &f->temperature_end_k, &f->heating_erg_per_s};
  /* values per cell: 1, or one per species */
  const size_t ns = (size_t)n_species;
  size_t per_cell[] = {1, ns, ns, ns, 1, ns, 1, 1, ns};
  size_t count = thermal ? 9 : 6;
  for (size_t a = 0; a < count; ++a) {
    *all[a] = calloc((size_t)(cells > 0 ? cells : 1) * per_cell[a], sizeof(double));
    if (!*all[a]) {
      fields_free(f);
      return ionf_error_set(IONF_ERR_MEM,
                            "could not allocate the fields: %lld cells need %.2f GB",
                            (long long)cells, (double)count * (double)ns * 8.0 * (double)cells / 1e9);
    }
  }
  f->cells = cells;
  f->n_species = n_species;
  return IONF_OK;
}

void fields_free(struct fields *f) {
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
