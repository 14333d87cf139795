/**
 * @file render_cli_frame.c
 * @brief `ionfront render`: one image, a slice or a volume rendering of a field, in a
 *        figure with title, axes and colour bar, written as a PNG with its metadata.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/render_cli_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "core/ionf_config.h"
#include "io/png_write.h"
#include "render/render.h"
#include "render/render_cmap.h"
#include "render/render_draw.h"

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
/* A frame's picture before the figure around it, and what its labels say. */
struct frame_panel {
  unsigned char *rgb;        /* pw x ph x 3 */
  int pw, ph, scale;         /* scale: figure pixels per panel pixel */
  int h_axis, v_axis;        /* the axes along and up the panel */
  char mode_text[96], camera_text[96], where[64], backend_used[8];
};

/* The slice o->slice_axis:o->slice_index (-1: the middle) of f. */
static ionf_err frame_slice(const struct render_options *o, const struct frame_job *job,
                            const struct render_field *f, const struct render_scale *sc, int cmap,
                            double unit_cm, const char *unit_name, struct frame_panel *p) {
  const int n = f->n;
  long idx = o->slice_index < 0 ? n / 2 : o->slice_index;
  const char axis = (char)('x' + o->slice_axis);
  if (idx >= n)
    return ionf_error_set(IONF_ERR_USAGE,
                          "render: --slice %c:%ld is outside the grid of '%s' (indices 0..%d)",
                          axis, idx, job->snapshot, n - 1);
  ionf_err rc = IONF_OK;
  /* the panel shows the other two axes in order, the second one upwards */
  p->h_axis = o->slice_axis == 0 ? 1 : 0;
  p->v_axis = o->slice_axis == 2 ? 1 : 2;
  p->pw = p->ph = n;
  p->scale = n >= 512 ? 1 : (512 + n - 1) / n;
  p->rgb = malloc((size_t)n * n * 3);
  if (!p->rgb) rc = ionf_error_set(IONF_ERR_MEM, "out of memory for a slice");
  for (int r = 0; p->rgb && r < n; ++r)
    for (int c = 0; c < n; ++c) {
      long ijk[3];
      ijk[o->slice_axis] = idx;
      ijk[p->h_axis] = c;
      ijk[p->v_axis] = n - 1 - r;
      double v = f->v[((size_t)ijk[0] * n + (size_t)ijk[1]) * n + (size_t)ijk[2]];
      render_cmap_rgb(cmap, render_cli_field_normalised(sc, v), p->rgb + 3 * ((size_t)r * n + c));
    }
  snprintf(p->mode_text, sizeof p->mode_text, "slice %c:%ld", axis, idx);
  snprintf(p->where, sizeof p->where, "%c = %.3g %s", axis, (idx + 0.5) / n * f->box_cm / unit_cm,
           unit_name);
  return rc;
}

/* A volume rendering of f from the job's azimuth, on the GPU when use_gpu (else, or when
   the GPU cannot, on the CPU), with the box's outline over it. */
static ionf_err frame_volume(const struct render_options *o, const struct frame_job *job,
                             const struct render_field *f, const struct render_scale *sc,
                             int cmap, int use_gpu, struct frame_panel *p) {
  const int n = f->n;
  ionf_err rc = IONF_OK;
  p->pw = p->ph = o->size;
  const int pw = p->pw, ph = p->ph;
  const size_t cells = (size_t)n * n * n;
  float *vol = malloc(cells * sizeof *vol);
  float *rgba = malloc((size_t)pw * ph * 4 * sizeof *rgba);
  p->rgb = malloc((size_t)pw * ph * 3);
  if (!vol || !rgba || !p->rgb)
    rc = ionf_error_set(IONF_ERR_MEM, "out of memory for a volume rendering");
  for (size_t c = 0; vol && c < cells; ++c)
    vol[c] = (float)render_cli_field_normalised(sc, f->v[c]);
  float tf[RENDER_TF_SIZE * 4];
  enum render_tf_preset preset = !o->tf                    ? default_tf(f->name)
                                 : !strcmp(o->tf, "ionized") ? RENDER_TF_IONIZED
                                 : !strcmp(o->tf, "density") ? RENDER_TF_DENSITY
                                                             : RENDER_TF_LINEAR;
  render_tf_fill(preset, cmap, o->tau_box / n, tf);
  struct render_camera cam;
  render_camera_orbit(&cam, n, job->az_deg, o->el_deg, o->zoom, pw, ph, o->step_cells);
  struct render_volume rv = {n, n, n, vol};
  if (rc == IONF_OK) {
    rc = use_gpu ? render_volume_cuda(&rv, tf, &cam, rgba) : IONF_ERR_UNSUPPORTED;
    if (rc == IONF_OK) snprintf(p->backend_used, sizeof p->backend_used, "cuda");
    if (rc == IONF_ERR_UNSUPPORTED) {
      if (use_gpu) ionf_warning("%s: rendering on the CPU instead", ionf_error_message());
      ionf_error_clear();
      rc = render_volume_cpu(&rv, tf, &cam, rgba);
    }
  }
  for (long q = 0; rc == IONF_OK && q < (long)pw * ph; ++q)
    for (int c = 0; c < 3; ++c) p->rgb[3 * q + c] = render_to_byte(rgba[4 * q + c]);
  if (rc == IONF_OK) draw_box_outline(&cam, n, p->rgb);
  snprintf(p->mode_text, sizeof p->mode_text, "volume, %s transfer function",
           preset == RENDER_TF_IONIZED   ? "ionized"
           : preset == RENDER_TF_DENSITY ? "density"
                                         : "linear");
  snprintf(p->camera_text, sizeof p->camera_text, "azimuth %.6g deg, elevation %.6g deg, zoom %.6g",
           job->az_deg, o->el_deg, o->zoom);
  free(rgba), free(vol);
  return rc;
}

/* The figure around the panel (title, axes, colour bar) into job->out, a PNG whose text
   chunks say what it shows. */
static ionf_err frame_write(const struct render_options *o, const struct frame_job *job,
                            const struct render_field *f, const struct render_scale *sc, int cmap,
                            double unit_cm, const char *unit_name, const struct frame_panel *p) {
  char title[512], when[96], bar[192], xl[64], yl[64];
  time_text(f, when, sizeof when);
  snprintf(title, sizeof title, "%s%s%s%s%s", f->name, p->where[0] ? "   " : "", p->where,
           when[0] ? "   " : "", when);
  int unitless = !f->units[0] || !strcmp(f->units, "1");
  snprintf(bar, sizeof bar, "%s%s%s%s%s", f->name, unitless ? "" : " [", unitless ? "" : f->units,
           unitless ? "" : "]", sc->log ? " (log scale)" : "");
  snprintf(xl, sizeof xl, "%c [%s]", 'x' + p->h_axis, unit_name);
  snprintf(yl, sizeof yl, "%c [%s]", 'x' + p->v_axis, unit_name);
  unsigned char *image = NULL;
  struct render_figure_layout lay;
  double extent = f->box_cm / unit_cm;
  struct render_figure fig = {p->rgb, p->pw, p->ph, p->scale, title, o->mode == MODE_SLICE, 0.0,
                              extent, 0.0, extent, xl, yl, cmap, sc->vmin, sc->vmax, sc->log, bar,
                              o->mode == MODE_VOLUME};
  ionf_err rc = render_draw_figure(&fig, &image, &lay);
  if (rc == IONF_OK) {
    char t_s[32], t_myr[32], z[32], vmin[32], vmax[32], panel_text[96], cell_px[16], grid[16];
    snprintf(t_s, sizeof t_s, "%.17g", f->time_s);
    snprintf(t_myr, sizeof t_myr, "%.10g", f->time_s >= 0 ? f->time_s / IONF_MYR_S : -1.0);
    snprintf(z, sizeof z, "%.10g", f->redshift);
    snprintf(vmin, sizeof vmin, "%.17g", sc->vmin);
    snprintf(vmax, sizeof vmax, "%.17g", sc->vmax);
    snprintf(panel_text, sizeof panel_text, "%d %d %d %d", lay.panel_x, lay.panel_y,
             p->pw * p->scale, p->ph * p->scale);
    snprintf(cell_px, sizeof cell_px, "%d", p->scale);
    snprintf(grid, sizeof grid, "%d", f->n);
    struct png_text_entry text[] = {
        {"Title", title},          {"Software", "ionfront " IONF_VERSION},
        {"snapshot", job->snapshot}, {"field", f->name},
        {"units", f->units},       {"time_s", t_s},
        {"time_Myr", t_myr},       {"redshift", z},
        {"mode", p->mode_text},    {"camera", p->camera_text},
        {"scale", sc->log ? "log" : "linear"}, {"vmin", vmin},
        {"vmax", vmax},            {"colour_map", render_cmap_name(cmap)},
        {"panel", panel_text},     {"cell_px", cell_px},
        {"grid_N", grid},          {"backend", p->backend_used}};
    rc = png_write_rgb(job->out, lay.width, lay.height, image, text,
                       (int)(sizeof text / sizeof *text));
  }
  free(image);
  return rc;
}

ionf_err render_cli_frame(const struct render_options *o, const struct frame_job *job,
                          int use_gpu) {
  struct render_field f;
  ionf_err rc = render_cli_field_read(job->snapshot, o, use_gpu, 0, &f);
  struct render_scale sc = {0, 0.0, 1.0};
  if (rc == IONF_OK) {
    struct field_stats st;
    render_cli_field_stats(&f, &st);
    /* frames of a movie share one scale (job->stats), unless --range sets it */
    rc = render_cli_field_scale(job->stats ? job->stats : &st, f.name, o, &sc);
  }
  const int cmap = o->cmap ? render_cmap_find(o->cmap) : default_cmap(f.name);
  double unit_cm;
  const char *unit_name;
  length_unit(&f, &unit_cm, &unit_name);
  struct frame_panel p;
  memset(&p, 0, sizeof p);
  p.scale = 1, p.h_axis = 0, p.v_axis = 1;
  snprintf(p.camera_text, sizeof p.camera_text, "-");
  snprintf(p.backend_used, sizeof p.backend_used, "cpu");
  if (rc == IONF_OK && o->mode == MODE_SLICE)
    rc = frame_slice(o, job, &f, &sc, cmap, unit_cm, unit_name, &p);
  else if (rc == IONF_OK)
    rc = frame_volume(o, job, &f, &sc, cmap, use_gpu, &p);
  if (rc == IONF_OK) rc = frame_write(o, job, &f, &sc, cmap, unit_cm, unit_name, &p);
  free(p.rgb), free(f.v);
  return rc;
}
