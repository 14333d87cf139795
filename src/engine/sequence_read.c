/**
 * @file sequence_read.c
 * @brief One redshift's density and halos in the sequence's formats (sequence_read.h).
 */
#include "engine/sequence_read.h"

#include <string.h>

#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "io/io_21cmfast.h"
#include "io/io_cubep3m.h"
#include "io/io_density.h"
#include "io/io_halos.h"

/* What a 21cmFAST file of redshift z must say about the run. */
static struct io_21cmfast_expect sequence_read_expect(const struct engine *e, double z) {
  struct io_21cmfast_expect x;
  x.n = e->grid.n;
  x.box_mpc = e->cfg->box_size_cm / IONF_MPC_CM; /* comoving: sequences are cosmological */
  x.redshift = z;
  x.cosmo = &e->cosmo;
  return x;
}

/* out[c] *= factor over the box's cells. */
static void sequence_read_scale(const struct grid_box *box, double factor, double *out) {
  int64_t cells = grid_box_cells(box);
  for (int64_t c = 0; c < cells; ++c) out[c] *= factor;
}

ionf_err sequence_read_density(const struct engine *e, const char *path, double z,
                               const struct grid_box *box, double *out) {
  const struct sequence_config *seq = &e->cfg->sequence;
  int64_t n = e->grid.n;
  switch (seq->density_format) {
  case SEQUENCE_DENSITY_CUBEP3M: {
    if (!out) return io_cubep3m_check(path, n);
    IONF_CALL(io_cubep3m_read_box(path, n, box, out));
    double coarse = (double)n / (double)seq->density_fine_mesh; /* raw (n / n_fine)^3 = ρ/ρ̄ */
    double mean = cosmology_mean_hydrogen_cm3(&e->cosmo, z, seq->density_x_h);
    sequence_read_scale(box, coarse * coarse * coarse * mean, out);
    return IONF_OK;
  }
  case SEQUENCE_DENSITY_21CMFAST: {
    const struct io_21cmfast_expect x = sequence_read_expect(e, z);
    double y_he = 0.0;
    IONF_CALL(io_21cmfast_density_read_box(path, &x, box, out, &y_he));
    if (out) sequence_read_scale(box, cosmology_mean_hydrogen_cm3(&e->cosmo, z, 1.0 - y_he), out);
    return IONF_OK;
  }
  case SEQUENCE_DENSITY_HDF5:
  default:
    if (!out) return io_density_check(path, seq->density_dataset, n);
    return io_density_read_box(path, seq->density_dataset, n, box, out);
  }
}

/* How the sequence's halo files (formats of io_halos_read_cells) lie on this grid. */
static struct io_halos_layout sequence_read_halo_layout(const struct engine *e) {
  const struct sequence_config *seq = &e->cfg->sequence;
  struct io_halos_layout lay;
  memset(&lay, 0, sizeof lay);
  lay.format = seq->halo_format;
  lay.n = e->grid.n;
  lay.box_size = e->cfg->box_size_cm / seq->halo_position_unit_cm;
  lay.box_mpc = e->cfg->box_size_cm / IONF_MPC_CM;
  lay.mass_unit_msun = seq->halo_mass_unit_msun;
  lay.cell_index_base = seq->halo_cell_index_base;
  return lay;
}

ionf_err sequence_read_halos(const struct engine *e, const char *path, double z,
                             struct halo_cells *out) {
  if (e->cfg->sequence.halo_format == HALO_FORMAT_21CMFAST) {
    const struct io_21cmfast_expect x = sequence_read_expect(e, z);
    return io_21cmfast_halos_read_cells(path, &x, out);
  }
  const struct io_halos_layout lay = sequence_read_halo_layout(e);
  return io_halos_read_cells(path, &lay, out);
}
