/**
 * @file sequence_inputs.h
 * @brief Test inputs of a production run: a density file and a halo catalogue
 *        (ionfront layout) per redshift, written with HDF5 into a directory, and
 *        the YAML that runs them.  Shared by the sequence tests (CPU and GPU).
 */
#ifndef IONF_TEST_SEQUENCE_INPUTS_H
#define IONF_TEST_SEQUENCE_INPUTS_H

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEQ_MAX_Z 8
#define SEQ_MAX_HALOS 320
#define SEQ_BOX_MPC 2.0 /* comoving; halo positions in Mpc (position_unit 1 Mpc) */

/* What was written, so that tests can check against it. */
struct seq_case {
  char dir[256];
  int n;                              /* cells per side */
  int n_z;
  double z[SEQ_MAX_Z];
  int n_halos[SEQ_MAX_Z];             /* halos in each catalogue (mass 0 included) */
  double pos_mpc[SEQ_MAX_Z][SEQ_MAX_HALOS][3];
  double mass_msun[SEQ_MAX_Z][SEQ_MAX_HALOS];
};

static inline double seq_uniform(unsigned *seed) { return (rand_r(seed) + 0.5) / ((double)RAND_MAX + 1.0); }

/* Write an (n, 3) or (n) float64 dataset, making groups on the way. */
static inline int seq_write_dataset(hid_t file, const char *name, int rank, hsize_t count,
                             const double *data) {
  hsize_t dims[2] = {count, 3};
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t dset = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  int ok = dset >= 0 &&
           (count == 0 || H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  if (dset >= 0) H5Dclose(dset);
  H5Pclose(lcpl);
  H5Sclose(space);
  return ok;
}

/* A density file: proper n_H around the cosmic mean at z, a different log-normal
   field at every redshift (so that a wrong file shows). */
static inline int seq_write_density(const struct seq_case *c, int k, unsigned seed) {
  char path[512];
  snprintf(path, sizeof path, "%s/density_z%.3f.h5", c->dir, c->z[k]);
  size_t cells = (size_t)c->n * c->n * c->n;
  double *nh = malloc(cells * sizeof *nh);
  double mean = 1.9e-4 * pow((1.0 + c->z[k]) / 10.0, 3.0);
  for (size_t q = 0; q < cells; ++q)
    nh[q] = mean * exp(0.6 * (seq_uniform(&seed) + seq_uniform(&seed) - 1.0));
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[3] = {(hsize_t)c->n, (hsize_t)c->n, (hsize_t)c->n};
  hid_t space = H5Screate_simple(3, dims, NULL);
  hid_t dset = f >= 0 ? H5Dcreate2(f, "n_H", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                   H5P_DEFAULT)
                      : -1;
  int ok = dset >= 0 && H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, nh) >= 0;
  if (dset >= 0) H5Dclose(dset);
  H5Sclose(space);
  if (f >= 0) H5Fclose(f);
  free(nh);
  return ok;
}

static inline int seq_write_halos(const struct seq_case *c, int k) {
  char path[512];
  snprintf(path, sizeof path, "%s/halos_z%.3f.h5", c->dir, c->z[k]);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return 0;
  int ok = seq_write_dataset(f, "/halos/position", 2, (hsize_t)c->n_halos[k], &c->pos_mpc[k][0][0]) &&
           seq_write_dataset(f, "/halos/mass", 1, (hsize_t)c->n_halos[k], c->mass_msun[k]);
  H5Fclose(f);
  return ok;
}

/*
 * Fill and write a case: redshifts z[0..n_z-1], halo counts per redshift.  Halos
 * sit at random positions with masses 10^8.5..10^9.5 Msun; in every catalogue
 * with at least 3 halos the second shares the first's cell (merged into one
 * source) and the third has mass 0 (no source).  Returns 1 when all files were written.
 */
static inline int seq_case_write(struct seq_case *c, const char *dir, int n, int n_z, const double *z,
                          const int *n_halos, unsigned seed) {
  memset(c, 0, sizeof *c);
  snprintf(c->dir, sizeof c->dir, "%s", dir);
  c->n = n;
  c->n_z = n_z;
  int ok = 1;
  double cell_mpc = SEQ_BOX_MPC / n;
  for (int k = 0; k < n_z; ++k) {
    c->z[k] = z[k];
    c->n_halos[k] = n_halos[k];
    for (int h = 0; h < n_halos[k]; ++h) {
      for (int d = 0; d < 3; ++d) c->pos_mpc[k][h][d] = SEQ_BOX_MPC * seq_uniform(&seed);
      c->mass_msun[k][h] = pow(10.0, 8.5 + seq_uniform(&seed));
    }
    if (n_halos[k] >= 3) {
      for (int d = 0; d < 3; ++d) /* the same cell as halo 0, elsewhere in it */
        c->pos_mpc[k][1][d] = (floor(c->pos_mpc[k][0][d] / cell_mpc) + 0.25) * cell_mpc;
      c->mass_msun[k][2] = 0.0;
    }
    ok = ok && seq_write_density(c, k, seed + 1000u * (unsigned)k) && seq_write_halos(c, k);
  }
  return ok;
}

/* The sources a catalogue gives: halos with mass, two sharing a cell merged. */
static inline int seq_case_sources(const struct seq_case *c, int k) {
  int n = 0;
  for (int h = 0; h < c->n_halos[k]; ++h) n += c->mass_msun[k][h] > 0.0;
  return c->n_halos[k] >= 3 ? n - 1 : n;
}

/* The YAML of a run of the case (patterns relative to the case's directory). */
static inline void seq_case_yaml(const struct seq_case *c, const char *extra, char *out, size_t size) {
  size_t used = (size_t)snprintf(out, size,
                                 "grid: {N: %d, box_size: %g Mpc, periodic: false}\n"
                                 "material: {temperature: 1.0e4, x_HII_initial: 1.2e-3}\n"
                                 "spectrum: {type: grey}\n"
                                 "time: {dt: 2.5 Myr}\n"
                                 "cosmology: {cosmological: true}\n"
                                 "output: {directory: %s/out, progress: false}\n"
                                 "sequence:\n  redshifts: [",
                                 c->n, SEQ_BOX_MPC, c->dir);
  for (int k = 0; k < c->n_z && used < size; ++k)
    used += (size_t)snprintf(out + used, size - used, "%s%.15g", k ? ", " : "", c->z[k]);
  if (used < size)
    used += (size_t)snprintf(out + used, size - used,
                             "]\n  density: {pattern: \"%s/density_z%%.3f.h5\", dataset: n_H}\n"
                             "  halos: {pattern: \"%s/halos_z%%.3f.h5\", f_gamma: 20, "
                             "t_source: 10 Myr}\n%s",
                             c->dir, c->dir, extra ? extra : "");
}

#endif
