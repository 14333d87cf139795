/**
 * @file render_cli.c
 * @brief `ionfront render`: reads a field of a snapshot (grid, or SPH particles
 *        binned onto a grid), draws a slice or a volume rendering, writes a PNG
 *        with the metadata in tEXt chunks; `--all DIR` and `--frames N` make
 *        numbered frames, frame f on MPI rank f mod P.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/render_cli.h"

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "mpi/comm_mpi.h"
#include "config/config.h"
#include "core/constants.h"
#include "io/h5_util.h"
#include "io/io_particles.h"
#include "core/ionf_config.h"
#include "io/png_write.h"
#include "render/render.h"
#include "render/render_cmap.h"
#include "render/render_draw.h"
#include "io/output_dir.h"

static const char *usage_render =
    "usage: ionfront render SNAPSHOT.h5 [options] -o IMAGE.png\n"
    "       ionfront render --all DIR [options] -o FRAMES_DIR     (DIR/snapshot_*.h5 in time order)\n"
    "       ionfront render SNAPSHOT.h5 --volume --frames N -o FRAMES_DIR   (an orbit)\n"
    "\n"
    "Draws a slice or a volume rendering of one field of an ionfront snapshot, or of an\n"
    "SPH particle file (PartType0 fields binned onto a grid), into a PNG whose text\n"
    "chunks hold the field, time, redshift, camera and snapshot.  Frames are\n"
    "FRAMES_DIR/frame_NNNN.png; under mpirun, rank r renders frames r, r+P, ...\n"
    "\n"
    "options:\n"
    "  --field NAME          x_HII (default), Gamma_HI, T, n_H or dTb; particle files: any\n"
    "                        PartType0 dataset (x_HII, Gamma_HI, T name IonizedFraction,\n"
    "                        PhotoionizationRate, Temperature)\n"
    "  --slice AXIS:INDEX    a slice through cell INDEX along x, y or z (default z:N/2)\n"
    "  --volume              a volume rendering instead\n"
    "  --camera AZ,EL[,ZOOM] volume camera: azimuth from +x towards +y and elevation [degrees],\n"
    "                        zoom (1: the whole box in view); default 30,25,1\n"
    "  --orbit DEG           azimuth step per frame (--all: 0; --frames N: 360/N)\n"
    "  --frames N            N frames of an orbit around one snapshot (-o is a folder)\n"
    "  --size PIXELS         volume image side (512)\n"
    "  --tf linear|ionized|density   transfer function (default by field)\n"
    "  --opacity TAU         optical depth of one box side at the top of the range (4)\n"
    "  --step CELLS          sample spacing along the rays (0.5)\n"
    "  --cmap NAME           viridis, inferno, magma or grey (default by field)\n"
    "  --log, --linear       scaling (default: log when the field spans two decades)\n"
    "  --range MIN,MAX       the values the colour map spans (default: the data's)\n"
    "  --grid N              particle files: cells per side of the binning grid (64)\n"
    "  --smooth NS           particle files: smoothing stencil half-width in cells (0)\n"
    "  --backend cpu|cuda|auto   where to render (auto: the GPU when there is one);\n"
    "                        --gpu is --backend cuda\n"
    "  -o PATH               output image (or frames folder)\n";

enum render_mode { MODE_SLICE, MODE_VOLUME };

struct render_options {
  const char *snapshot, *all_dir, *out, *field, *tf, *cmap, *backend;
  enum render_mode mode;
  int slice_axis;   /* 0, 1, 2 */
  long slice_index; /* -1: the middle */
  double az_deg, el_deg, zoom, orbit_deg, tau_box, step_cells;
  int orbit_given, frames, size, scale; /* scale: -1 auto, 0 linear, 1 log */
  int has_range;
  double range_lo, range_hi;
  int grid_n, n_smooth;
};

/** One field on a cubic grid, with what the figure needs to say about it. */
struct render_field {
  int n;
  double *v;             /* n^3, [i][j][k] */
  double box_cm;
  double time_s;         /* < 0: unknown */
  double redshift;       /* < 0: none */
  char units[64];
  char name[64];
  int particles;
};

static const char *const grid_fields[] = {"x_HII", "Gamma_HI", "T", "n_H", "dTb"};

static ionf_err usage_error(const char *fmt, const char *a, const char *b) {
  char text[512];
  snprintf(text, sizeof text, fmt, a, b);
  return ionf_error_set(IONF_ERR_USAGE, "render: %s (see 'ionfront render --help')", text);
}

static int parse_double(const char *s, double *out) {
  char *end;
  *out = strtod(s, &end);
  return end != s && *end == '\0' && isfinite(*out);
}

static int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  *out = strtol(s, &end, 10);
  return end != s && *end == '\0' && *out >= lo && *out <= hi;
}

/* "a,b[,c]" into up to `max` numbers; returns how many (0 on a bad one). */
static int parse_list(const char *s, double *v, int max) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n == max || !parse_double(tok, &v[n])) return 0;
    ++n;
  }
  return n;
}

/* Returns 1 to go on, 0 after --help, or sets an error and returns -1. */
static int parse_args(int argc, char **argv, struct render_options *o) {
  memset(o, 0, sizeof *o);
  o->field = "x_HII";
  o->backend = "auto";
  o->mode = MODE_SLICE;
  o->slice_axis = 2;
  o->slice_index = -1;
  o->az_deg = 30.0, o->el_deg = 25.0, o->zoom = 1.0;
  o->tau_box = 4.0, o->step_cells = 0.5;
  o->size = 512, o->scale = -1;
  o->grid_n = 64;
  for (int a = 0; a < argc; ++a) {
    const char *opt = argv[a];
    if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
      fputs(usage_render, stdout);
      return 0;
    }
    if (!strcmp(opt, "--volume")) { o->mode = MODE_VOLUME; continue; }
    if (!strcmp(opt, "--log")) { o->scale = 1; continue; }
    if (!strcmp(opt, "--linear")) { o->scale = 0; continue; }
    if (!strcmp(opt, "--gpu")) { o->backend = "cuda"; continue; }
    if (opt[0] != '-') {
      if (o->snapshot) return usage_error("a second snapshot '%s' (one, or --all DIR)%s", opt, ""), -1;
      o->snapshot = opt;
      continue;
    }
    if (a + 1 >= argc) return usage_error("missing value for %s%s", opt, ""), -1;
    const char *val = argv[++a];
    double v[3];
    long l;
    int ok = 1;
    if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) o->out = val;
    else if (!strcmp(opt, "--all")) o->all_dir = val;
    else if (!strcmp(opt, "--field")) o->field = val;
    else if (!strcmp(opt, "--tf")) o->tf = val;
    else if (!strcmp(opt, "--cmap")) o->cmap = val;
    else if (!strcmp(opt, "--backend")) o->backend = val;
    else if (!strcmp(opt, "--slice")) {
      o->mode = MODE_SLICE;
      ok = (val[0] == 'x' || val[0] == 'y' || val[0] == 'z') && val[1] == ':' &&
           parse_long(val + 2, 0, 1L << 30, &o->slice_index);
      o->slice_axis = val[0] - 'x';
      if (!ok) return usage_error("--slice '%s': expected AXIS:INDEX, e.g. z:32%s", val, ""), -1;
    } else if (!strcmp(opt, "--camera")) {
      int n = parse_list(val, v, 3);
      ok = n >= 2 && fabs(v[1]) < 90.0 && (n < 3 || v[2] > 0.0);
      if (ok) o->az_deg = v[0], o->el_deg = v[1], o->zoom = n == 3 ? v[2] : 1.0;
      if (!ok) return usage_error("--camera '%s': expected AZ,EL[,ZOOM] in degrees, |EL| < 90, ZOOM > 0%s", val, ""), -1;
    } else if (!strcmp(opt, "--orbit")) {
      ok = parse_double(val, &o->orbit_deg);
      o->orbit_given = 1;
    } else if (!strcmp(opt, "--frames")) {
      ok = parse_long(val, 1, 100000, &l);
      o->frames = (int)l;
    } else if (!strcmp(opt, "--size")) {
      ok = parse_long(val, 8, 8192, &l);
      o->size = (int)l;
    } else if (!strcmp(opt, "--opacity")) {
      ok = parse_double(val, &o->tau_box) && o->tau_box >= 0.0;
    } else if (!strcmp(opt, "--step")) {
      ok = parse_double(val, &o->step_cells) && o->step_cells >= 0.01 && o->step_cells <= 4.0;
    } else if (!strcmp(opt, "--range")) {
      ok = parse_list(val, v, 2) == 2 && v[1] > v[0];
      o->has_range = 1, o->range_lo = v[0], o->range_hi = v[1];
    } else if (!strcmp(opt, "--grid")) {
      ok = parse_long(val, 2, 2048, &l);
      o->grid_n = (int)l;
    } else if (!strcmp(opt, "--smooth")) {
      ok = parse_long(val, 0, 8, &l);
      o->n_smooth = (int)l;
    } else {
      return usage_error("unknown option '%s'%s", opt, ""), -1;
    }
    if (!ok) return usage_error("bad value '%s' for %s", val, opt), -1;
  }
  if (!o->snapshot == !o->all_dir)
    return usage_error("give one SNAPSHOT.h5 or --all DIR%s%s", "", ""), -1;
  if (!o->out) return usage_error("no output: give -o PATH%s%s", "", ""), -1;
  if (o->cmap && render_cmap_find(o->cmap) < 0)
    return usage_error("unknown colour map '%s' (viridis, inferno, magma, grey)%s", o->cmap, ""), -1;
  if (o->tf && strcmp(o->tf, "linear") && strcmp(o->tf, "ionized") && strcmp(o->tf, "density"))
    return usage_error("unknown transfer function '%s' (linear, ionized, density)%s", o->tf, ""), -1;
  if (strcmp(o->backend, "cpu") && strcmp(o->backend, "cuda") && strcmp(o->backend, "auto"))
    return usage_error("unknown backend '%s' (cpu, cuda, auto)%s", o->backend, ""), -1;
  if (o->frames && o->all_dir)
    return usage_error("--frames is for one snapshot; --all makes a frame per snapshot%s%s", "", ""), -1;
  return 1;
}

/* ---- reading ---------------------------------------------------------------------------- */

static const char *particle_dataset(const char *field) {
  if (!strcmp(field, "x_HII")) return "IonizedFraction";
  if (!strcmp(field, "Gamma_HI")) return "PhotoionizationRate";
  if (!strcmp(field, "T")) return "Temperature";
  return field;
}

/* /Grid/<field> of an ionfront snapshot (any sign: dTb may be negative). */
static ionf_err read_grid_field(hid_t file, const char *path, const char *field,
                                struct render_field *out) {
  int known = 0;
  for (size_t f = 0; f < sizeof grid_fields / sizeof *grid_fields; ++f)
    known |= !strcmp(field, grid_fields[f]);
  IONF_CHECK(known, IONF_ERR_USAGE,
             "render: unknown field '%s' (x_HII, Gamma_HI, T, n_H, dTb)", field);
  IONF_CHECK(h5_util_path_exists(file, "/Grid"), IONF_ERR_INPUT,
             "'%s' is neither an ionfront snapshot (no /Grid) nor a particle file (no /PartType0)",
             path);
  char name[96];
  snprintf(name, sizeof name, "/Grid/%s", field);
  if (!h5_util_path_exists(file, name)) {
    char have[128] = "";
    for (size_t f = 0; f < sizeof grid_fields / sizeof *grid_fields; ++f) {
      char other[96];
      snprintf(other, sizeof other, "/Grid/%s", grid_fields[f]);
      if (h5_util_path_exists(file, other))
        snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", have[0] ? ", " : "",
                 grid_fields[f]);
    }
    return ionf_error_set(IONF_ERR_INPUT, "snapshot '%s' has no field '%s' (it has %s)", path,
                          field, have);
  }
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
  hsize_t dims[3] = {0, 0, 0};
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank == 3) H5Sget_simple_extent_dims(space, dims, NULL);
  if (space >= 0) H5Sclose(space);
  if (rank != 3 || dims[0] != dims[1] || dims[0] != dims[2] || dims[0] == 0) {
    if (dset >= 0) H5Dclose(dset);
    return ionf_error_set(IONF_ERR_INPUT, "snapshot '%s': '%s' is not an N x N x N grid", path,
                          name);
  }
  out->n = (int)dims[0];
  size_t cells = (size_t)dims[0] * dims[1] * dims[2];
  out->v = malloc(cells * sizeof *out->v);
  if (!out->v) {
    H5Dclose(dset);
    return ionf_error_set(IONF_ERR_MEM, "out of memory reading '%s' of '%s'", name, path);
  }
  herr_t rc = H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->v);
  if (!h5_util_attr_get_string(dset, "units", out->units, sizeof out->units)) out->units[0] = 0;
  H5Dclose(dset);
  IONF_CHECK(rc >= 0, IONF_ERR_IO, "cannot read '%s' of snapshot '%s'", name, path);
  const hid_t real = H5T_NATIVE_DOUBLE;
  IONF_CHECK(h5_util_attr_try_get(file, "box_size_cm", real, &out->box_cm) && out->box_cm > 0.0,
             IONF_ERR_INPUT, "snapshot '%s' has no positive attribute 'box_size_cm'", path);
  if (!h5_util_attr_try_get(file, "time_s", real, &out->time_s)) out->time_s = -1.0;
  if (!h5_util_attr_try_get(file, "redshift", real, &out->redshift)) out->redshift = -1.0;
  return IONF_OK;
}

/* PartType0/<field> of a particle file, binned onto an n^3 grid over the box. */
static ionf_err read_particle_field(hid_t file, const char *path, const char *field,
                                    const struct render_options *o, int use_gpu, int quiet,
                                    struct render_field *out) {
  const char *ds = particle_dataset(field);
  char name[128];
  snprintf(name, sizeof name, "/PartType0/%s", ds);
  hid_t dset;
  hsize_t dims[2] = {0, 0};
  IONF_CALL(h5_util_open_table(file, path, "particle file", name, 1, 0, &dset, dims));
  struct particle_set p;
  memset(&p, 0, sizeof p);
  struct io_particles_options po;
  io_particles_default_options(&po);
  ionf_err rc = io_particles_read(path, &po, &p);
  double *value = NULL, *pos = NULL, *sum_wv = NULL, *sum_w = NULL;
  if (rc == IONF_OK && (int64_t)dims[0] != p.count)
    rc = ionf_error_set(IONF_ERR_INPUT, "particle file '%s': '%s' has %lld values for %lld particles",
                        path, name, (long long)dims[0], (long long)p.count);
  const int n = o->grid_n;
  const size_t cells = (size_t)n * n * n;
  if (rc == IONF_OK) {
    value = malloc((size_t)p.count * sizeof *value + 8);
    pos = malloc((size_t)p.count * 3 * sizeof *pos + 8);
    sum_wv = malloc(cells * sizeof *sum_wv);
    sum_w = malloc(cells * sizeof *sum_w);
    out->v = malloc(cells * sizeof *out->v);
    if (!value || !pos || !sum_wv || !sum_w || !out->v)
      rc = ionf_error_set(IONF_ERR_MEM, "out of memory binning '%s' onto %d^3 cells", path, n);
  }
  if (rc == IONF_OK && p.count > 0 &&
      H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, value) < 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot read '%s' of particle file '%s'", name, path);
  if (rc == IONF_OK && !h5_util_attr_get_string(dset, "units", out->units, sizeof out->units))
    out->units[0] = 0;
  H5Dclose(dset);
  if (rc == IONF_OK) {
    /* the box, or the particles' bounding cube when the file has none */
    double lo[3] = {0, 0, 0}, side = 0.0;
    if (p.has_box) {
      side = fmax(p.box_size_cm[0], fmax(p.box_size_cm[1], p.box_size_cm[2]));
    } else if (p.count > 0) {
      double hi[3];
      for (int d = 0; d < 3; ++d) lo[d] = hi[d] = p.pos_cm[d];
      for (int64_t q = 0; q < p.count; ++q)
        for (int d = 0; d < 3; ++d)
          lo[d] = fmin(lo[d], p.pos_cm[3 * q + d]), hi[d] = fmax(hi[d], p.pos_cm[3 * q + d]);
      for (int d = 0; d < 3; ++d) side = fmax(side, hi[d] - lo[d]);
      side *= 1.0 + 1e-9;
    }
    if (!(side > 0.0)) rc = ionf_error_set(IONF_ERR_INPUT, "particle file '%s': no extent to bin", path);
    for (int64_t q = 0; rc == IONF_OK && q < 3 * p.count; ++q)
      pos[q] = (p.pos_cm[q] - lo[q % 3]) / side * n;
    out->box_cm = side;
  }
  struct render_bin_input in = {pos, p.mass_g, value, p.count, n, o->n_smooth, p.periodic};
  if (rc == IONF_OK) {
    int64_t outside = 0;
    rc = use_gpu ? render_bin_cuda(&in, sum_wv, sum_w, &outside) : IONF_ERR_UNSUPPORTED;
    if (rc == IONF_ERR_UNSUPPORTED) {
      if (use_gpu) ionf_warning("%s: binning on the CPU instead", ionf_error_message());
      ionf_error_clear();
      rc = render_bin_cpu(&in, sum_wv, sum_w, &outside);
    }
    if (rc == IONF_OK) {
      int64_t empty = render_bin_average_fill(sum_wv, sum_w, n, p.periodic, out->v);
      if (!quiet)
        ionf_message("%s: %lld particles onto %d^3 cells (stencil %d), %lld cells empty and "
                     "filled from their neighbours", path, (long long)p.count, n, o->n_smooth,
                     (long long)empty);
    }
  }
  out->n = n;
  out->time_s = -1.0;
  out->redshift = p.redshift > 0.0 ? p.redshift : -1.0;
  out->particles = 1;
  particles_free(&p);
  free(value), free(pos), free(sum_wv), free(sum_w);
  return rc;
}

static ionf_err read_field(const char *path, const struct render_options *o, int use_gpu,
                           int quiet, struct render_field *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", o->field);
  FILE *probe = fopen(path, "rb");
  IONF_CHECK(probe, IONF_ERR_IO, "cannot open snapshot '%s': no such file or not readable", path);
  fclose(probe);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  IONF_CHECK(file >= 0, IONF_ERR_INPUT, "cannot open snapshot '%s': not an HDF5 file", path);
  ionf_err rc = h5_util_path_exists(file, "/PartType0")
                    ? read_particle_field(file, path, o->field, o, use_gpu, quiet, out)
                    : read_grid_field(file, path, o->field, out);
  H5Fclose(file);
  return rc;
}

/* ---- scaling ------------------------------------------------------------------------------ */

struct render_scale {
  int log;
  double vmin, vmax;
};

/* The finite values' extremes, and the smallest positive one (INFINITY: none). */
struct field_stats {
  double lo, hi, lo_pos;
};

static void field_stats_of(const struct render_field *f, struct field_stats *st) {
  const size_t cells = (size_t)f->n * f->n * f->n;
  st->lo = INFINITY, st->hi = -INFINITY, st->lo_pos = INFINITY;
  for (size_t c = 0; c < cells; ++c) {
    double v = f->v[c];
    if (!isfinite(v)) continue;
    st->lo = fmin(st->lo, v), st->hi = fmax(st->hi, v);
    if (v > 0.0) st->lo_pos = fmin(st->lo_pos, v);
  }
}

static ionf_err choose_scale(const struct field_stats *st, const char *name,
                             const struct render_options *o, struct render_scale *sc) {
  const double lo = st->lo, hi = st->hi, lo_pos = st->lo_pos;
  IONF_CHECK(hi >= lo, IONF_ERR_INPUT, "field '%s' has no finite value", name);
  sc->log = o->scale >= 0 ? o->scale : (lo >= 0.0 && hi > 0.0 && hi >= 100.0 * lo_pos);
  if (o->has_range) {
    sc->vmin = o->range_lo, sc->vmax = o->range_hi;
    IONF_CHECK(!sc->log || sc->vmin > 0.0, IONF_ERR_USAGE,
               "render: --range %g,%g: a log scale needs MIN > 0", sc->vmin, sc->vmax);
    return IONF_OK;
  }
  if (sc->log) {
    IONF_CHECK(hi > 0.0, IONF_ERR_INPUT,
               "field '%s' has no positive value for a log scale (use --linear)", name);
    sc->vmin = lo_pos, sc->vmax = hi;
  } else {
    sc->vmin = lo, sc->vmax = hi;
  }
  if (!(sc->vmax > sc->vmin)) { /* a constant field */
    double pad = sc->log ? 0.0 : (sc->vmax != 0.0 ? 0.5 * fabs(sc->vmax) : 1.0);
    if (sc->log) sc->vmin /= 10.0, sc->vmax *= 10.0;
    else sc->vmin -= pad, sc->vmax += pad;
  }
  return IONF_OK;
}

/* The value as a fraction of the colour map, clamped to [0, 1]. */
static double normalised(const struct render_scale *sc, double v) {
  double s;
  if (sc->log) s = v > 0.0 ? log10(v / sc->vmin) / log10(sc->vmax / sc->vmin) : 0.0;
  else s = (v - sc->vmin) / (sc->vmax - sc->vmin);
  return s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0; /* NaN -> 0 */
}

static int default_cmap(const char *field) {
  if (!strcmp(field, "x_HII") || !strcmp(field, "IonizedFraction") || !strcmp(field, "n_H") ||
      !strcmp(field, "Density"))
    return RENDER_CMAP_VIRIDIS;
  if (!strcmp(field, "T") || !strcmp(field, "Temperature")) return RENDER_CMAP_MAGMA;
  return RENDER_CMAP_INFERNO;
}

static enum render_tf_preset default_tf(const char *field) {
  if (!strcmp(field, "x_HII") || !strcmp(field, "IonizedFraction")) return RENDER_TF_IONIZED;
  if (!strcmp(field, "n_H") || !strcmp(field, "Density")) return RENDER_TF_DENSITY;
  return RENDER_TF_LINEAR;
}

/* ---- one frame ------------------------------------------------------------------------------ */

struct frame_job {
  const char *snapshot;
  const char *out;
  double az_deg;
  int index;                       /* frame number, -1 for a single image */
  const struct field_stats *stats; /* the scale's data range (NULL: this frame's) */
};

static void length_unit(const struct render_field *f, double *unit_cm, const char **name) {
  int mpc = f->box_cm >= IONF_MPC_CM;
  *unit_cm = mpc ? IONF_MPC_CM : IONF_KPC_CM;
  /* cosmological grid snapshots give the comoving box; particle files are read as physical */
  int comoving = f->redshift >= 0.0 && !f->particles;
  *name = comoving ? (mpc ? "comoving Mpc" : "comoving kpc") : (mpc ? "Mpc" : "kpc");
}

static void time_text(const struct render_field *f, char *buf, size_t size) {
  buf[0] = 0;
  if (f->time_s >= 0.0) snprintf(buf, size, "t = %.4g Myr", f->time_s / IONF_MYR_S);
  if (f->redshift >= 0.0)
    snprintf(buf + strlen(buf), size - strlen(buf), "%sz = %.3f", buf[0] ? ", " : "", f->redshift);
}

/* The box's twelve edges over a volume panel (grey, half-transparent), for
   orientation: corners projected with the camera's right and up vectors. */
static void draw_box_outline(const struct render_camera *cam, int n, unsigned char *panel) {
  double uv[8][2];
  for (int c = 0; c < 8; ++c) {
    double p[3] = {(c & 1) ? n : 0, (c & 2) ? n : 0, (c & 4) ? n : 0}, a = 0.0, b = 0.0;
    for (int d = 0; d < 3; ++d) {
      a += (p[d] - cam->centre[d]) * cam->right[d];
      b += (p[d] - cam->centre[d]) * cam->up[d];
    }
    uv[c][0] = a / cam->pixel + 0.5 * cam->nx;
    uv[c][1] = 0.5 * cam->ny - b / cam->pixel;
  }
  for (int c = 0; c < 8; ++c)
    for (int bit = 1; bit < 8; bit <<= 1) {
      if (c & bit) continue;
      const double *a = uv[c], *b = uv[c | bit];
      int steps = (int)ceil(fmax(fabs(b[0] - a[0]), fabs(b[1] - a[1]))) + 1;
      for (int t = 0; t <= steps; ++t) {
        int u = (int)floor(a[0] + (b[0] - a[0]) * t / steps);
        int v = (int)floor(a[1] + (b[1] - a[1]) * t / steps);
        if (u < 0 || v < 0 || u >= cam->nx || v >= cam->ny) continue;
        unsigned char *px = panel + 3 * ((size_t)v * cam->nx + u);
        for (int k = 0; k < 3; ++k) px[k] = (unsigned char)((px[k] + 160) / 2);
      }
    }
}

static ionf_err render_one(const struct render_options *o, const struct frame_job *job,
                           int use_gpu) {
  struct render_field f;
  ionf_err rc = read_field(job->snapshot, o, use_gpu, 0, &f);
  struct render_scale sc = {0, 0.0, 1.0};
  if (rc == IONF_OK) {
    struct field_stats st;
    field_stats_of(&f, &st);
    /* frames of a movie share one scale (job->stats), unless --range sets it */
    rc = choose_scale(job->stats ? job->stats : &st, f.name, o, &sc);
  }
  const int n = f.n;
  const int cmap = o->cmap ? render_cmap_find(o->cmap) : default_cmap(f.name);
  unsigned char *panel = NULL;
  float *rgba = NULL, *vol = NULL;
  int pw = 0, ph = 0, scale = 1;
  char mode_text[96] = "", camera_text[96] = "-", where[64] = "", backend_used[8] = "cpu";
  double unit_cm;
  const char *unit_name;
  length_unit(&f, &unit_cm, &unit_name);
  int h_axis = 0, v_axis = 1;
  if (rc == IONF_OK && o->mode == MODE_SLICE) {
    long idx = o->slice_index < 0 ? n / 2 : o->slice_index;
    const char axis = (char)('x' + o->slice_axis);
    if (idx >= n) {
      rc = ionf_error_set(IONF_ERR_USAGE,
                          "render: --slice %c:%ld is outside the grid of '%s' (indices 0..%d)",
                          axis, idx, job->snapshot, n - 1);
    } else {
      /* the panel shows the other two axes in order, the second one upwards */
      h_axis = o->slice_axis == 0 ? 1 : 0;
      v_axis = o->slice_axis == 2 ? 1 : 2;
      pw = ph = n;
      scale = n >= 512 ? 1 : (512 + n - 1) / n;
      panel = malloc((size_t)n * n * 3);
      if (!panel) rc = ionf_error_set(IONF_ERR_MEM, "out of memory for a slice");
      for (int r = 0; panel && r < n; ++r)
        for (int c = 0; c < n; ++c) {
          long ijk[3];
          ijk[o->slice_axis] = idx;
          ijk[h_axis] = c;
          ijk[v_axis] = n - 1 - r;
          double v = f.v[((size_t)ijk[0] * n + (size_t)ijk[1]) * n + (size_t)ijk[2]];
          render_cmap_rgb(cmap, normalised(&sc, v), panel + 3 * ((size_t)r * n + c));
        }
      snprintf(mode_text, sizeof mode_text, "slice %c:%ld", axis, idx);
      snprintf(where, sizeof where, "%c = %.3g %s", axis, (idx + 0.5) / n * f.box_cm / unit_cm,
               unit_name);
    }
  } else if (rc == IONF_OK) {
    pw = ph = o->size;
    const size_t cells = (size_t)n * n * n;
    vol = malloc(cells * sizeof *vol);
    rgba = malloc((size_t)pw * ph * 4 * sizeof *rgba);
    panel = malloc((size_t)pw * ph * 3);
    if (!vol || !rgba || !panel) rc = ionf_error_set(IONF_ERR_MEM, "out of memory for a volume rendering");
    for (size_t c = 0; vol && c < cells; ++c) vol[c] = (float)normalised(&sc, f.v[c]);
    float tf[RENDER_TF_SIZE * 4];
    enum render_tf_preset preset = !o->tf                    ? default_tf(f.name)
                                   : !strcmp(o->tf, "ionized") ? RENDER_TF_IONIZED
                                   : !strcmp(o->tf, "density") ? RENDER_TF_DENSITY
                                                               : RENDER_TF_LINEAR;
    render_tf_fill(preset, cmap, o->tau_box / n, tf);
    struct render_camera cam;
    render_camera_orbit(&cam, n, job->az_deg, o->el_deg, o->zoom, pw, ph, o->step_cells);
    struct render_volume rv = {n, n, n, vol};
    if (rc == IONF_OK) {
      rc = use_gpu ? render_volume_cuda(&rv, tf, &cam, rgba) : IONF_ERR_UNSUPPORTED;
      if (rc == IONF_OK) snprintf(backend_used, sizeof backend_used, "cuda");
      if (rc == IONF_ERR_UNSUPPORTED) {
        if (use_gpu) ionf_warning("%s: rendering on the CPU instead", ionf_error_message());
        ionf_error_clear();
        rc = render_volume_cpu(&rv, tf, &cam, rgba);
      }
    }
    for (long p = 0; rc == IONF_OK && p < (long)pw * ph; ++p)
      for (int c = 0; c < 3; ++c) panel[3 * p + c] = render_to_byte(rgba[4 * p + c]);
    if (rc == IONF_OK) draw_box_outline(&cam, n, panel);
    snprintf(mode_text, sizeof mode_text, "volume, %s transfer function",
             preset == RENDER_TF_IONIZED ? "ionized" : preset == RENDER_TF_DENSITY ? "density" : "linear");
    snprintf(camera_text, sizeof camera_text, "azimuth %.6g deg, elevation %.6g deg, zoom %.6g",
             job->az_deg, o->el_deg, o->zoom);
  }
  char title[512], when[96], bar[192], xl[64], yl[64];
  time_text(&f, when, sizeof when);
  snprintf(title, sizeof title, "%s%s%s%s%s", f.name, where[0] ? "   " : "", where,
           when[0] ? "   " : "", when);
  int unitless = !f.units[0] || !strcmp(f.units, "1");
  snprintf(bar, sizeof bar, "%s%s%s%s%s", f.name, unitless ? "" : " [", unitless ? "" : f.units,
           unitless ? "" : "]", sc.log ? " (log scale)" : "");
  snprintf(xl, sizeof xl, "%c [%s]", 'x' + h_axis, unit_name);
  snprintf(yl, sizeof yl, "%c [%s]", 'x' + v_axis, unit_name);
  unsigned char *image = NULL;
  struct render_figure_layout lay;
  if (rc == IONF_OK) {
    double extent = f.box_cm / unit_cm;
    struct render_figure fig = {panel, pw, ph, scale, title, o->mode == MODE_SLICE, 0.0, extent,
                                0.0, extent, xl, yl, cmap, sc.vmin, sc.vmax, sc.log, bar,
                                o->mode == MODE_VOLUME};
    rc = render_draw_figure(&fig, &image, &lay);
  }
  if (rc == IONF_OK) {
    char t_s[32], t_myr[32], z[32], vmin[32], vmax[32], panel_text[96], cell_px[16], grid[16];
    snprintf(t_s, sizeof t_s, "%.17g", f.time_s);
    snprintf(t_myr, sizeof t_myr, "%.10g", f.time_s >= 0 ? f.time_s / IONF_MYR_S : -1.0);
    snprintf(z, sizeof z, "%.10g", f.redshift);
    snprintf(vmin, sizeof vmin, "%.17g", sc.vmin);
    snprintf(vmax, sizeof vmax, "%.17g", sc.vmax);
    snprintf(panel_text, sizeof panel_text, "%d %d %d %d", lay.panel_x, lay.panel_y, pw * scale,
             ph * scale);
    snprintf(cell_px, sizeof cell_px, "%d", scale);
    snprintf(grid, sizeof grid, "%d", n);
    struct png_text_entry text[] = {
        {"Title", title},          {"Software", "ionfront " IONF_VERSION},
        {"snapshot", job->snapshot}, {"field", f.name},
        {"units", f.units},        {"time_s", t_s},
        {"time_Myr", t_myr},       {"redshift", z},
        {"mode", mode_text},       {"camera", camera_text},
        {"scale", sc.log ? "log" : "linear"}, {"vmin", vmin},
        {"vmax", vmax},            {"colour_map", render_cmap_name(cmap)},
        {"panel", panel_text},     {"cell_px", cell_px},
        {"grid_N", grid},          {"backend", backend_used}};
    rc = png_write_rgb(job->out, lay.width, lay.height, image, text,
                       (int)(sizeof text / sizeof *text));
  }
  free(image), free(panel), free(rgba), free(vol), free(f.v);
  return rc;
}

/* ---- frames --------------------------------------------------------------------------------- */

struct snap_entry {
  char path[IONF_PATH_MAX];
  double time_s;
};

static int snap_cmp(const void *a, const void *b) {
  const struct snap_entry *x = a, *y = b;
  if (x->time_s != y->time_s) return x->time_s < y->time_s ? -1 : 1;
  return strcmp(x->path, y->path);
}

/* DIR/snapshot_*.h5 sorted by their time_s. */
static ionf_err list_snapshots(const char *dir, struct snap_entry **out, int *count) {
  DIR *d = opendir(dir);
  IONF_CHECK(d, IONF_ERR_IO, "render --all: cannot read folder '%s'", dir);
  struct snap_entry *list = NULL;
  int n = 0, cap = 0;
  ionf_err rc = IONF_OK;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  for (struct dirent *e; rc == IONF_OK && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "snapshot_", 9) != 0 || len < 12 || strcmp(e->d_name + len - 3, ".h5"))
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      struct snap_entry *grown = realloc(list, (size_t)cap * sizeof *list);
      if (!grown) {
        rc = ionf_error_set(IONF_ERR_MEM, "out of memory listing '%s'", dir);
        break;
      }
      list = grown;
    }
    snprintf(list[n].path, sizeof list[n].path, "%s/%s", dir, e->d_name);
    hid_t f = H5Fopen(list[n].path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
      rc = ionf_error_set(IONF_ERR_INPUT, "render --all: '%s' is not an HDF5 file", list[n].path);
      break;
    }
    /* ionfront's time_s; particle files: their Header's Time (a scale factor or a
       time, growing either way); neither: the name's order */
    list[n].time_s = NAN;
    if (!h5_util_attr_try_get(f, "time_s", H5T_NATIVE_DOUBLE, &list[n].time_s) &&
        h5_util_path_exists(f, "/Header")) {
      hid_t header = H5Gopen2(f, "/Header", H5P_DEFAULT);
      if (header >= 0) {
        if (!h5_util_attr_try_get(header, "Time", H5T_NATIVE_DOUBLE, &list[n].time_s))
          list[n].time_s = NAN;
        H5Gclose(header);
      }
    }
    H5Fclose(f);
    ++n;
  }
  closedir(d);
  if (rc == IONF_OK && n == 0)
    rc = ionf_error_set(IONF_ERR_INPUT, "render --all: no snapshot_*.h5 in '%s'", dir);
  if (rc != IONF_OK) {
    free(list);
    return rc;
  }
  int all_timed = 1;
  for (int i = 0; i < n; ++i) all_timed &= !isnan(list[i].time_s);
  for (int i = 0; !all_timed && i < n; ++i) list[i].time_s = 0.0; /* then by name */
  qsort(list, (size_t)n, sizeof *list, snap_cmp);
  *out = list;
  *count = n;
  return IONF_OK;
}

static ionf_err render_frames(const struct render_options *o, int use_gpu, int *n_done) {
  struct snap_entry *snaps = NULL;
  int n_snaps = 1, n_frames = o->frames;
  if (o->all_dir) {
    IONF_CALL(list_snapshots(o->all_dir, &snaps, &n_snaps));
    n_frames = n_snaps;
  }
  double orbit = o->orbit_given ? o->orbit_deg : (o->frames ? 360.0 / o->frames : 0.0);
  ionf_err rc = output_dir_prepare_all(o->out);
  /* one colour scale for the whole movie: the range over every snapshot */
  struct field_stats all = {INFINITY, -INFINITY, INFINITY};
  for (int fr = comm_rank(); rc == IONF_OK && snaps && fr < n_frames; fr += comm_size()) {
    struct render_field f;
    rc = read_field(snaps[fr].path, o, use_gpu, 1, &f);
    if (rc == IONF_OK) {
      struct field_stats st;
      field_stats_of(&f, &st);
      all.lo = fmin(all.lo, st.lo), all.hi = fmax(all.hi, st.hi);
      all.lo_pos = fmin(all.lo_pos, st.lo_pos);
    }
    free(f.v);
  }
  if (comm_size() > 1) {
    ionf_err any = rc;
    if (comm_agree(rc, &any) != IONF_OK) any = IONF_ERR_MPI;
    if (rc == IONF_OK && any != IONF_OK) rc = IONF_ERR_PEER;
    double lows[2] = {-all.lo, -all.lo_pos}, high = all.hi;
    if (rc == IONF_OK && (MPI_Allreduce(MPI_IN_PLACE, lows, 2, MPI_DOUBLE, MPI_MAX, comm_mpi()) != MPI_SUCCESS ||
                          MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_DOUBLE, MPI_MAX, comm_mpi()) != MPI_SUCCESS))
      rc = ionf_error_set(IONF_ERR_MPI, "render --all: sharing the data range failed");
    all.lo = -lows[0], all.lo_pos = -lows[1], all.hi = high;
  }
  *n_done = 0;
  for (int fr = comm_rank(); rc == IONF_OK && fr < n_frames; fr += comm_size()) {
    char path[IONF_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/frame_%04d.png", o->out, fr);
    struct frame_job job = {snaps ? snaps[fr].path : o->snapshot, path, o->az_deg + fr * orbit, fr,
                            snaps ? &all : NULL};
    rc = render_one(o, &job, use_gpu);
    if (rc == IONF_OK) ++*n_done;
  }
  free(snaps);
  return rc;
}

static int choose_gpu(const char *backend) {
  if (!strcmp(backend, "cpu")) return 0;
  if (render_cuda_device_count() > 0) return 1;
  if (comm_rank() == 0) {
    if (!strcmp(backend, "cuda"))
      ionf_warning("--backend cuda: %s; rendering on the CPU",
                   IONF_HAVE_CUDA ? "no CUDA device visible" : "this build has no CUDA");
    else if (ionf_log_verbosity() >= 2)
      ionf_message0("no GPU: rendering on the CPU");
  }
  return 0;
}

int render_cli_main(int argc, char **argv) {
  struct render_options o;
  int go = parse_args(argc, argv, &o);
  ionf_err rc = IONF_OK;
  if (go < 0) rc = IONF_ERR_USAGE;
  if (go == 0) return 0;
  int use_gpu = rc == IONF_OK ? choose_gpu(o.backend) : 0;
  int n_done = 0;
  double t0 = ionf_wtime();
  if (rc == IONF_OK && (o.all_dir || o.frames)) {
    rc = render_frames(&o, use_gpu, &n_done);
  } else if (rc == IONF_OK && comm_rank() == 0) {
    struct frame_job job = {o.snapshot, o.out, o.az_deg, -1, NULL};
    rc = render_one(&o, &job, use_gpu);
    n_done = rc == IONF_OK;
  }
  /* every rank learns whether any failed; the failing ones say why */
  ionf_err worst = rc;
  int n_failed = rc != IONF_OK;
  if (comm_size() > 1 && comm_agree_count(rc, &worst, &n_failed) != IONF_OK) worst = IONF_ERR_MPI;
  if (rc != IONF_OK && rc != IONF_ERR_PEER) {
    if (comm_size() > 1 && !(n_failed == comm_size() && comm_rank() != 0))
      fprintf(stderr, "ionfront render: error on rank %d: %s\n", comm_rank(), ionf_error_message());
    else if (comm_size() == 1)
      fprintf(stderr, "ionfront render: error: %s\n", ionf_error_message());
    return (int)rc;
  }
  if (worst != IONF_OK) return (int)IONF_ERR_PEER;
  double total = (double)n_done;
  if (comm_size() > 1 && comm_allreduce_sum(&total, 1) != IONF_OK) return (int)IONF_ERR_MPI;
  if (o.all_dir || o.frames)
    ionf_message0("wrote %d frame(s) %s/frame_NNNN.png on %d rank(s) in %.2f s", (int)total,
                  o.out, comm_size(), ionf_wtime() - t0);
  else
    ionf_message0("wrote %s in %.2f s", o.out, ionf_wtime() - t0);
  return 0;
}
