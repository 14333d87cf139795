/**
 * @file render_cli_internal.h
 * @brief Internal to `ionfront render` (src/cli/render_cli*.c): the options, a field
 *        read from a snapshot and its colour scale (render_cli_field.c), one frame
 *        drawn and written (render_cli_frame.c).
 */
#ifndef IONF_RENDER_CLI_INTERNAL_H
#define IONF_RENDER_CLI_INTERNAL_H

#include <hdf5.h>
#include <stddef.h>

#include "core/error.h"

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

struct render_scale {
  int log;
  double vmin, vmax;
};

/* The finite values' extremes, and the smallest positive one (INFINITY: none). */
struct field_stats {
  double lo, hi, lo_pos;
};

struct frame_job {
  const char *snapshot;
  const char *out;
  double az_deg;
  int index;                       /* frame number, -1 for a single image */
  const struct field_stats *stats; /* the scale's data range (NULL: this frame's) */
};

/* ---- render_cli_field.c ----------------------------------------------------------------- */

/* The field o->field of the snapshot or particle file at `path` (particles: binned onto
   o->grid_n^3 cells, on the GPU when use_gpu; quiet: no message); out->v is malloc'd. */
IONF_NODISCARD ionf_err render_cli_field_read(const char *path, const struct render_options *o,
                                              int use_gpu, int quiet, struct render_field *out);
void render_cli_field_stats(const struct render_field *f, struct field_stats *st);
/* The colour scale: --range, or the data's (log when it spans two decades, or as asked). */
IONF_NODISCARD ionf_err render_cli_field_scale(const struct field_stats *st, const char *name,
                                               const struct render_options *o,
                                               struct render_scale *sc);
/* The value as a fraction of the colour map, clamped to [0, 1]. */
double render_cli_field_normalised(const struct render_scale *sc, double v);

/* ---- render_cli_frame.c ----------------------------------------------------------------- */

/* Read, draw and write one image (a slice or a volume rendering) as the job says. */
IONF_NODISCARD ionf_err render_cli_frame(const struct render_options *o,
                                         const struct frame_job *job, int use_gpu);

#endif /* IONF_RENDER_CLI_INTERNAL_H */
