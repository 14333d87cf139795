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

#include "cli/render_cli_internal.h"
#include "config/config.h"
#include "core/ionf_config.h"
#include "io/h5_util.h"
#include "io/snapshot.h"
#include "mpi/comm.h"
#include "mpi/comm_mpi.h"
#include "gpu/core/cuda_util.h"
#include "render/render.h"
#include "render/render_cmap.h"
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
    rc = render_cli_field_read(snaps[fr].path, o, use_gpu, 1, &f);
    if (rc == IONF_OK) {
      struct field_stats st;
      render_cli_field_stats(&f, &st);
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
    rc = render_cli_frame(o, &job, use_gpu);
    if (rc == IONF_OK) ++*n_done;
  }
  free(snaps);
  return rc;
}

static int choose_gpu(const char *backend) {
  if (!strcmp(backend, "cpu")) return 0;
  if (cuda_util_device_count() > 0) return 1;
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
    rc = render_cli_frame(&o, &job, use_gpu);
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
