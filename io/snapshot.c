/**
 * @file snapshot.c
 * @brief HDF5 snapshots (written to a temporary name, then renamed) and the
 *        per-step CSV log.
 *
 * For now one rank writes with the default (sec2) driver.  Each field goes
 * through field_write_slab(), which writes the rows [i0, i0 + ni) of the x
 * index from a hyperslab, so that a later change can open the file with the
 * MPI-IO driver and let every rank write its own slab collectively.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/snapshot.h"

#include "io/h5_util.h"
#include "io/output_file.h"

#include <mpi.h>

#include "mpi/comm.h"
#include "mpi/comm_mpi.h"

#include <errno.h>
#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/constants.h"
#include "chem/species.h"
#include "core/ionf_config.h" /* generated: IONF_VERSION */

/* Chunks of at most this many bytes (HDF5's chunk cache and MPI-IO like a few MB). */
#define SNAPSHOT_CHUNK_BYTES (4u << 20)

/* ---- HDF5 errors ------------------------------------------------------------ */

/* Record "cannot write snapshot 'PATH': STEP: <innermost HDF5 reason>". */
static ionf_err snapshot_h5_fail(const char *path, const char *step) {
  char detail[512];
  h5_util_error_text(detail, sizeof detail);
  return ionf_error_set(IONF_ERR_IO, "cannot write snapshot '%s': %s: %s", path, step, detail);
}

/* ---- fields ----------------------------------------------------------------- */

struct field_spec {
  const char *name;        /* dataset name inside /Grid */
  const double *data;      /* this rank's rows, C order */
  const char *units;
  const char *description;
};

/* The rows [i0, i0 + ni) of the x index of an n^3 grid held in memory. */
struct slab {
  int64_t n;
  int64_t i0;
  int64_t ni;
};

/* Chunk (c0, c1, n) with c0, c1 <= min(n, 64) and at most SNAPSHOT_CHUNK_BYTES.
 * Edge chunks are stored whole (plain 64-wide chunks would waste 40% of the
 * file for n = 200), so among shapes at least half as large as the largest
 * allowed one, take the one that pads least, then the largest. */
static void snapshot_chunk_dims(int64_t n, hsize_t chunk[3]) {
  const hsize_t un = (hsize_t)n, max_side = un < 64 ? un : 64;
  hsize_t largest = 1;
  for (hsize_t c0 = 1; c0 <= max_side; ++c0)
    for (hsize_t c1 = 1; c1 <= c0 && c0 * c1 * un * sizeof(double) <= SNAPSHOT_CHUNK_BYTES; ++c1)
      if (c0 * c1 > largest) largest = c0 * c1;
  hsize_t best0 = 1, best1 = 1, best_padded = 0;
  for (hsize_t c0 = 1; c0 <= max_side; ++c0)
    for (hsize_t c1 = 1; c1 <= c0 && c0 * c1 * un * sizeof(double) <= SNAPSHOT_CHUNK_BYTES; ++c1) {
      if (2 * c0 * c1 < largest) continue;
      hsize_t padded = ((un + c0 - 1) / c0 * c0) * ((un + c1 - 1) / c1 * c1);
      if (best_padded == 0 || padded < best_padded ||
          (padded == best_padded && c0 * c1 > best0 * best1)) {
        best0 = c0;
        best1 = c1;
        best_padded = padded;
      }
    }
  chunk[0] = best0;
  chunk[1] = best1;
  chunk[2] = un;
}

/**
 * Create /Grid/NAME (float64, n^3, chunked, uncompressed) with its attributes
 * and write this rank's slab into it through `dxpl` (H5P_DEFAULT now; a
 * collective transfer list once ranks write in parallel).
 */
static ionf_err field_write_slab(hid_t group, const struct field_spec *f,
                                 const struct slab *sl, hid_t dxpl, const char *path) {
  ionf_err rc = IONF_OK;
  char step[300];
  hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
  hid_t dset = H5I_INVALID_HID;
  const hsize_t n = (hsize_t)sl->n;
  const hsize_t dims[3] = {n, n, n};
  hsize_t chunk[3];
  snapshot_chunk_dims(sl->n, chunk);

  snprintf(step, sizeof step, "creating dataset /Grid/%s", f->name);
  fspace = H5Screate_simple(3, dims, NULL);
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  /* Fill values are never needed (every cell is written); with parallel
   * (early) allocation they would cost a full extra write. */
  if (fspace < 0 || dcpl < 0 || H5Pset_chunk(dcpl, 3, chunk) < 0 ||
      H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0) {
    rc = snapshot_h5_fail(path, step);
    goto done;
  }
  dset = H5Dcreate2(group, f->name, H5T_IEEE_F64LE, fspace, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (dset < 0) {
    rc = snapshot_h5_fail(path, step);
    goto done;
  }
  if (!h5_util_attr_put_string(dset, "units", f->units) ||
      !h5_util_attr_put_string(dset, "description", f->description)) {
    snprintf(step, sizeof step, "writing the attributes of /Grid/%s", f->name);
    rc = snapshot_h5_fail(path, step);
    goto done;
  }

  snprintf(step, sizeof step, "writing dataset /Grid/%s (rows %lld..%lld)", f->name,
           (long long)sl->i0, (long long)(sl->i0 + sl->ni - 1));
  const hsize_t mdims[3] = {(hsize_t)sl->ni, n, n};
  const hsize_t start[3] = {(hsize_t)sl->i0, 0, 0};
  mspace = H5Screate_simple(3, mdims, NULL);
  if (mspace < 0) {
    rc = snapshot_h5_fail(path, step);
    goto done;
  }
  herr_t sel;
  if (sl->ni > 0)
    sel = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, mdims, NULL);
  else /* a rank without rows still takes part in a collective write */
    sel = (H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0) ? -1 : 0;
  if (sel < 0 || H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, f->data) < 0) {
    rc = snapshot_h5_fail(path, step);
    goto done;
  }
done:
  snprintf(step, sizeof step, "closing dataset /Grid/%s", f->name);
  if (dset >= 0 && H5Dclose(dset) < 0 && rc == IONF_OK) rc = snapshot_h5_fail(path, step);
  if (mspace >= 0) H5Sclose(mspace);
  if (fspace >= 0) H5Sclose(fspace);
  if (dcpl >= 0) H5Pclose(dcpl);
  return rc;
}

/* ---- the file ----------------------------------------------------------------- */

static void iso8601_utc_now(char *buf, size_t size) {
  time_t now = time(NULL);
  struct tm tm_utc;
  if (now == (time_t)-1 || !gmtime_r(&now, &tm_utc) ||
      strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm_utc) == 0)
    snprintf(buf, size, "unknown");
}

/* The inputs of a production run's interval (root attributes); 1 or 0 as h5_util. */
static int snapshot_inputs_attrs(hid_t file, const struct snapshot_inputs *in) {
  return h5_util_attr_put_double(file, "inputs_redshift", in->redshift) &&
         (!in->density_file || !in->density_file[0] ||
          h5_util_attr_put_string(file, "density_file", in->density_file)) &&
         (!in->halo_file || !in->halo_file[0] ||
          h5_util_attr_put_string(file, "halo_file", in->halo_file)) &&
         h5_util_attr_put_int64(file, "n_sources", in->n_sources) &&
         h5_util_attr_put_double(file, "Ndot_total_per_s", in->ndot_total_per_s);
}

/* The root attributes (snapshot.h), in this order; 1 or 0 as h5_util. */
static int snapshot_root_attrs(hid_t file, const struct snapshot_run *run, const struct grid *g,
                               const struct snapshot_meta *meta,
                               const struct snapshot_subgrid *sub, const char *created) {
  const int cosmological = meta->redshift >= 0.0;
  return h5_util_attr_put_double(file, "time_s", meta->time_s) &&
         h5_util_attr_put_double(file, "time_Myr", meta->time_s / IONF_MYR_S) &&
         h5_util_attr_put_double(file, "box_size_cm", run->box_size_cm) &&
         h5_util_attr_put_int64(file, "N", g->n) &&
         h5_util_attr_put_int64(file, "step", meta->step) &&
         (!cosmological || (h5_util_attr_put_double(file, "redshift", meta->redshift) &&
                            h5_util_attr_put_double(file, "density_redshift",
                                                    meta->density_redshift))) &&
         /* what an exact restart needs beside n_H */
         (!cosmological || !meta->checkpoint ||
          h5_util_attr_put_double(file, "sum_n_H_cm3", meta->sum_n_h_cm3)) &&
         (!meta->inputs || snapshot_inputs_attrs(file, meta->inputs)) &&
         h5_util_attr_put_string(file, "config", run->config_yaml) &&
         h5_util_attr_put_string(file, "config_name", run->config_name) &&
         h5_util_attr_put_string(file, "ionfront_version", IONF_VERSION) &&
         h5_util_attr_put_string(file, "created", created) &&
         /* what reproduces the packets (a restart checks it) */
         (meta->mc_seed < 0 ||
          (h5_util_attr_put_int64(file, "montecarlo_seed", meta->mc_seed) &&
           h5_util_attr_put_int64(file, "montecarlo_packets_per_source",
                                  meta->mc_packets_per_source))) &&
         /* the sub-grid models' values of the step that ended here */
         (!sub || !(sub->r_max_cells > 0.0) ||
          h5_util_attr_put_double(file, "R_max_cells", sub->r_max_cells)) &&
         (!sub || !(sub->clumping_factor > 0.0) ||
          h5_util_attr_put_double(file, "clumping_factor", sub->clumping_factor)) &&
         (!meta->checkpoint || (h5_util_attr_put_int64(file, "checkpoint", 1) &&
                                h5_util_attr_put_int64(file, "next_snapshot_index",
                                                       meta->next_index)));
}

/* /low_mass_suppressed_cells: the same list on every rank, so every rank writes it whole
   (dataset creation is collective under parallel HDF5; the bytes are identical). */
static ionf_err snapshot_suppressed_cells(hid_t file, const struct snapshot_inputs *in,
                                          const char *path) {
  if (!in || in->n_suppressed_cells < 0) return IONF_OK;
  const hsize_t dims[1] = {(hsize_t)in->n_suppressed_cells};
  const int64_t none = 0;
  const void *data = in->n_suppressed_cells > 0 ? (const void *)in->suppressed_cells : &none;
  if (!h5_util_put_dataset(file, "low_mass_suppressed_cells", H5T_STD_I64LE, H5T_NATIVE_INT64,
                           1, dims, data))
    return snapshot_h5_fail(path, "writing /low_mass_suppressed_cells");
  return IONF_OK;
}

/* Everything that goes into the open file: root attributes, then /Grid. */
static ionf_err snapshot_fill(hid_t file, const struct snapshot_run *run, const struct grid *g,
                              const struct fields *fields, const struct snapshot_meta *meta,
                              const struct snapshot_subgrid *sub, const char *path) {
  char created[32];
  iso8601_utc_now(created, sizeof created);
  /* Attributes are written collectively: every rank must pass the same bytes. */
  if (comm_size() > 1) MPI_Bcast(created, (int)sizeof created, MPI_CHAR, 0, comm_mpi());
  if (!snapshot_root_attrs(file, run, g, meta, sub, created))
    return snapshot_h5_fail(path, "writing the root attributes");
  IONF_CALL(snapshot_suppressed_cells(file, meta->inputs, path));

  hid_t group = H5Gcreate2(file, "Grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0) return snapshot_h5_fail(path, "creating group /Grid");

  /* per species x_<ion> (x_HII) and Gamma_<species> (Gamma_HI), then the other fields */
  char names[2 * IONF_MAX_SPECIES][32], about[2 * IONF_MAX_SPECIES][96];
  struct field_spec specs[2 * IONF_MAX_SPECIES + 4];
  size_t n_specs = 0;
  for (int s = 0; s < fields->n_species; ++s) {
    const struct species_names *sn = species_names_of(s);
    snprintf(names[s], sizeof names[s], "x_%s", sn->ion_name);
    snprintf(about[s], sizeof about[s], "ionized %s fraction n_%s / n_%s", sn->element_name,
             sn->ion_name, sn->element_symbol);
    specs[n_specs++] = (struct field_spec){names[s], fields_species(fields->x_ion, fields->cells, s), "1",
                                           about[s]};
  }
  for (int s = 0; s < fields->n_species; ++s) {
    const struct species_names *sn = species_names_of(s);
    int q = IONF_MAX_SPECIES + s;
    snprintf(names[q], sizeof names[q], "Gamma_%s", sn->name);
    snprintf(about[q], sizeof about[q], "%s photoionization rate", sn->name);
    specs[n_specs++] = (struct field_spec){names[q], fields_species(fields->gamma_per_s, fields->cells, s),
                                           "s^-1", about[q]};
  }
  specs[n_specs++] = (struct field_spec){"n_H", fields->n_h_cm3, "cm^-3", "hydrogen number density"};
  specs[n_specs++] = (struct field_spec){"T", fields->temperature_k, "K", "gas temperature"};
  /* dTb only where it was computed (cosmological runs with output.dTb) */
  if (fields->dtb_mk)
    specs[n_specs++] = (struct field_spec){
        "dTb", fields->dtb_mk, "mK",
        "21-cm differential brightness temperature (saturated spin temperature, no "
        "redshift-space distortions; pyC2Ray Eq. 21)"};
  if (meta->gamma_rel_err) { /* Monte Carlo runs: the noise is part of the answer */
    struct field_spec err = {"Gamma_HI_relative_error", meta->gamma_rel_err, "1",
                             "estimated relative standard error of Gamma_HI, sqrt(sum w^2) / "
                             "sum w over the photon packets that crossed the cell"};
    specs[n_specs++] = err;
  }
  /* Each rank writes its slab of i-planes (all of them when alone), collectively. */
  int64_t first = 0, count = g->n;
  hid_t dxpl = H5P_DEFAULT;
  if (comm_size() > 1) {
    comm_slab(g->n, comm_rank(), comm_size(), &first, &count);
    dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl < 0 || H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
      if (dxpl >= 0) H5Pclose(dxpl);
      H5Gclose(group);
      return snapshot_h5_fail(path, "creating the collective transfer list");
    }
  }
  const struct slab mine = {g->n, first, count};
  ionf_err rc = IONF_OK;
  for (size_t q = 0; q < n_specs && rc == IONF_OK; ++q) {
    struct field_spec spec = specs[q];
    spec.data = specs[q].data + grid_box_index(&g->box, first, 0, 0); /* the slab's first row */
    rc = field_write_slab(group, &spec, &mine, dxpl, path);
  }
  if (dxpl != H5P_DEFAULT) H5Pclose(dxpl);
  if (H5Gclose(group) < 0 && rc == IONF_OK) rc = snapshot_h5_fail(path, "closing group /Grid");
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

ionf_err snapshot_write(const struct snapshot_run *run, const struct grid *g,
                        const struct fields *fields, const struct snapshot_meta *meta,
                        char *path_out, size_t path_out_size) {
  return snapshot_write_subgrid(run, g, fields, meta, NULL, path_out, path_out_size);
}

ionf_err snapshot_write_subgrid(const struct snapshot_run *run, const struct grid *g,
                                const struct fields *fields, const struct snapshot_meta *meta,
                                const struct snapshot_subgrid *sub, char *path_out,
                                size_t path_out_size) {
  IONF_CHECK(run && g && fields && meta, IONF_ERR_INTERNAL, "snapshot_write: NULL argument");
  IONF_CHECK(g->n > 0, IONF_ERR_INTERNAL, "snapshot_write: grid size %lld", (long long)g->n);
  IONF_CHECK(fields->x_ion && fields->gamma_per_s && fields->n_h_cm3 && fields->temperature_k,
             IONF_ERR_INTERNAL, "snapshot_write: grid fields are not allocated");
  IONF_CHECK(meta->index >= 0, IONF_ERR_INTERNAL, "snapshot_write: negative index %d",
             meta->index);

  const char *dir = run->output_dir && run->output_dir[0] ? run->output_dir : ".";
  char path[IONF_PATH_MAX + 32], tmp_path[IONF_PATH_MAX + 32];
  int len, tlen;
  if (meta->checkpoint) {
    len = snprintf(path, sizeof path, "%s/checkpoint.h5", dir);
    tlen = snprintf(tmp_path, sizeof tmp_path, "%s/.checkpoint.h5.tmp", dir);
  } else {
    len = snprintf(path, sizeof path, "%s/snapshot_%04d.h5", dir, meta->index);
    tlen = snprintf(tmp_path, sizeof tmp_path, "%s/.snapshot_%04d.h5.tmp", dir, meta->index);
  }
  IONF_CHECK(len > 0 && (size_t)len < sizeof path && tlen > 0 && (size_t)tlen < sizeof tmp_path,
             IONF_ERR_IO, "snapshot path in '%s' is too long", dir);
  /* Checked before writing: a written snapshot whose name cannot be returned is a bug. */
  IONF_CHECK(!path_out || (size_t)len < path_out_size, IONF_ERR_INTERNAL,
             "snapshot_write: path_out has %zu bytes; '%s' needs %d", path_out_size, path, len + 1);

  /* Failures become ionf messages instead of HDF5's stack dump on stderr (until the
   * file is closed; then the caller's setting is back). */
  struct h5_util_quiet quiet;
  h5_util_quiet_begin(&quiet);

  ionf_err rc = IONF_OK;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  /* STRONG: H5Fclose closes whatever is still open, so the file is really
   * closed (and flushed) before the rename or the unlink. */
  int parallel = comm_size() > 1;
  if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
      (parallel && H5Pset_fapl_mpio(fapl, comm_mpi(), MPI_INFO_NULL) < 0)) {
    rc = snapshot_h5_fail(path, "creating the file access list");
    if (fapl >= 0) H5Pclose(fapl);
    h5_util_quiet_end(&quiet);
    return rc;
  }
  char step[IONF_PATH_MAX + 64];
  snprintf(step, sizeof step, "creating the temporary file '%s'", tmp_path);
  /* TRUNC: a stale temporary file from a crashed run is simply replaced. */
  hid_t file = H5Fcreate(tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (file < 0) {
    rc = snapshot_h5_fail(path, step);
    H5Pclose(fapl);
    h5_util_quiet_end(&quiet);
    unlink(tmp_path); /* in case HDF5 created it before failing */
    return rc;
  }
  H5Pclose(fapl);

  rc = snapshot_fill(file, run, g, fields, meta, sub, path);
  snprintf(step, sizeof step, "closing the temporary file '%s'", tmp_path);
  if (H5Fclose(file) < 0 && rc == IONF_OK) rc = snapshot_h5_fail(path, step);
  h5_util_quiet_end(&quiet);
  /* Only when every rank's slab is in does rank 0 make the file visible. */
  ionf_err any = rc;
  if (parallel && comm_agree(rc, &any) != IONF_OK && rc == IONF_OK) rc = IONF_ERR_MPI;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed writing snapshot '%s'", path);
  int leader = comm_rank() == 0;
  if (leader) rc = output_file_commit(rc, tmp_path, path, "snapshot");
  if (parallel && comm_agree(rc, &any) == IONF_OK && rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "rank 0 failed to finish snapshot '%s'", path);
  if (rc != IONF_OK) {
    /* Never leave a partial file behind; the final name was not touched. */
    if (leader) unlink(tmp_path);
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  if (path_out) snprintf(path_out, path_out_size, "%s", path);
  return IONF_OK;
}

/* ---- step log ------------------------------------------------------------------- */

ionf_err csv_keep_rows_upto(const char *path, double limit) {
  FILE *in = fopen(path, "r");
  IONF_CHECK(in, IONF_ERR_IO, "cannot reopen '%s' to continue it: %s", path, strerror(errno));
  char tmp[IONF_PATH_MAX + 16];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  if (!out) {
    fclose(in);
    return ionf_error_set(IONF_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
  }
  char line[4096];
  int first = 1, bad = 0;
  while (fgets(line, sizeof line, in)) {
    /* the header, then the rows whose first column is not past the limit */
    if (first || strtod(line, NULL) <= limit) bad |= fputs(line, out) < 0;
    first = 0;
  }
  fclose(in);
  bad |= fclose(out) != 0;
  ionf_err rc = bad ? ionf_error_set(IONF_ERR_IO, "cannot rewrite '%s': writing '%s': %s", path,
                                     tmp, strerror(errno))
                    : IONF_OK;
  return output_file_commit(rc, tmp, path, "the step log");
}

ionf_err step_log_open(struct step_log *log, const char *dir, int64_t resume_after_step) {
  memset(log, 0, sizeof *log);
  const char *d = (dir && dir[0]) ? dir : ".";
  int len = snprintf(log->path, sizeof log->path, "%s/log.csv", d);
  IONF_CHECK(len > 0 && (size_t)len < sizeof log->path, IONF_ERR_IO,
             "cannot open step log in '%s': path too long", d);
  if (resume_after_step >= 0) {
    /* a restart: keep the rows up to the checkpoint and go on appending */
    FILE *exists = fopen(log->path, "r");
    if (exists) {
      fclose(exists);
      IONF_CALL(csv_keep_rows_upto(log->path, (double)resume_after_step));
      log->file = fopen(log->path, "a");
      IONF_CHECK(log->file, IONF_ERR_IO, "cannot open step log '%s': %s", log->path,
                 strerror(errno));
      return IONF_OK;
    }
  }
  log->file = fopen(log->path, "w");
  IONF_CHECK(log->file, IONF_ERR_IO, "cannot open step log '%s': %s", log->path,
             strerror(errno));
  if (fputs("step,time_s,time_Myr,iterations,x_HII_mean_volume,x_HII_mean_mass,wall_s,"
            "redshift,n_sources,Ndot_total_per_s\n",
            log->file) < 0 ||
      fflush(log->file) != 0) {
    int err = errno;
    fclose(log->file);
    log->file = NULL;
    return ionf_error_set(IONF_ERR_IO, "cannot write step log '%s': %s", log->path,
                          strerror(err));
  }
  return IONF_OK;
}

ionf_err step_log_row(struct step_log *log, int64_t step, double time_s, int iterations,
                      double x_mean_volume, double x_mean_mass, double wall_s, double redshift,
                      int64_t n_sources, double ndot_total_per_s) {
  IONF_CHECK(log->file, IONF_ERR_INTERNAL, "step_log_row: the step log is not open");
  char z_text[32] = "nan";
  if (redshift >= 0.0) snprintf(z_text, sizeof z_text, "%.12g", redshift);
  /* Flushed every row: the log is what one looks at while a long run goes on. */
  int bad = fprintf(log->file, "%" PRId64 ",%.9e,%.9e,%d,%.9e,%.9e,%.9e,%s,%" PRId64 ",%.9e\n",
                    step, time_s, time_s / IONF_MYR_S, iterations, x_mean_volume, x_mean_mass,
                    wall_s, z_text, n_sources, ndot_total_per_s) < 0;
  bad = fflush(log->file) != 0 || bad;
  IONF_CHECK(!bad, IONF_ERR_IO, "cannot write step log '%s': %s", log->path, strerror(errno));
  return IONF_OK;
}

void step_log_close(struct step_log *log) {
  if (!log || !log->file) return;
  fclose(log->file);
  log->file = NULL;
}
