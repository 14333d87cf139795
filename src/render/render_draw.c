/**
 * @file render_draw.c
 * @brief Figures with cairo: text, axes and tick marks are drawn by cairo; the
 *        panel and the colour bar are copied in pixel for pixel afterwards, so
 *        their colours are exactly the colour map's (no filtering).
 */
#include "render/render_draw.h"

#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_cmap.h"

enum { FONT_PX = 14, TICK_PX = 5, BAR_GAP = 22, BAR_W = 22 };

/* A round tick spacing giving about `target` ticks over `range`. */
static double nice_step(double range, int target) {
  double raw = range / target, mag = pow(10.0, floor(log10(raw))), norm = raw / mag;
  return (norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0) * mag;
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double align_x,
                    double align_y) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s, &e);
  cairo_move_to(cr, x - align_x * e.width - e.x_bearing, y - align_y * e.height - e.y_bearing);
  cairo_show_text(cr, s);
}

/* Axis from a to b (figure pixels, along x when horizontal) labelled lo..hi. */
static void draw_axis(cairo_t *cr, double lo, double hi, double a, double b, double fixed,
                      int horizontal) {
  double step = nice_step(hi - lo, 5);
  char label[32];
  for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) {
    double pos = a + (b - a) * (v - lo) / (hi - lo);
    snprintf(label, sizeof label, "%g", fabs(v) < 1e-9 * step ? 0.0 : v);
    if (horizontal) {
      cairo_move_to(cr, pos, fixed);
      cairo_line_to(cr, pos, fixed + TICK_PX);
      cairo_stroke(cr);
      text_at(cr, pos, fixed + TICK_PX + 3, label, 0.5, 0.0);
    } else {
      cairo_move_to(cr, fixed, pos);
      cairo_line_to(cr, fixed - TICK_PX, pos);
      cairo_stroke(cr);
      text_at(cr, fixed - TICK_PX - 3, pos, label, 1.0, 0.5);
    }
  }
}

/* Colour-bar ticks: decades on a log bar spanning more than one, else round numbers. */
static void draw_bar_ticks(cairo_t *cr, const struct render_figure *f, double x, double top,
                           double bottom) {
  double lo = f->log_scale ? log10(f->vmin) : f->vmin;
  double hi = f->log_scale ? log10(f->vmax) : f->vmax;
  if (!(hi > lo)) return;
  int decades = f->log_scale && floor(hi) - ceil(lo) >= 1.0;
  double step = decades ? ceil((floor(hi) - ceil(lo)) / 6.0) : nice_step(hi - lo, 5);
  char label[32];
  for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) {
    double y = bottom - (bottom - top) * (v - lo) / (hi - lo);
    double shown = f->log_scale ? pow(10.0, v) : (fabs(v) < 1e-9 * step ? 0.0 : v);
    snprintf(label, sizeof label, "%.3g", shown);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + TICK_PX, y);
    cairo_stroke(cr);
    text_at(cr, x + TICK_PX + 3, y, label, 0.0, 0.5);
  }
}

ionf_err render_draw_figure(const struct render_figure *f, unsigned char **rgb_out,
                            struct render_figure_layout *layout) {
  const int pw = f->panel_w * f->scale, ph = f->panel_h * f->scale;
  const int left = f->axes ? 86 : 24, top = 44, bottom = f->axes ? 58 : 24;
  const int right = BAR_GAP + BAR_W + TICK_PX + 78 + 2 * FONT_PX;
  const int width = left + pw + right, height = top + ph + bottom;
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    return ionf_error_set(IONF_ERR_MEM, "cannot make a %d x %d image (cairo)", width, height);
  }
  cairo_t *cr = cairo_create(surface);
  double fg = f->dark ? 1.0 : 0.0;
  cairo_set_source_rgb(cr, 1.0 - fg, 1.0 - fg, 1.0 - fg);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, fg, fg, fg);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, FONT_PX);
  cairo_set_line_width(cr, 1.0);
  if (f->title) text_at(cr, left + 0.5 * pw, 0.5 * top, f->title, 0.5, 0.5);
  /* frame, axes */
  cairo_rectangle(cr, left - 0.5, top - 0.5, pw + 1.0, ph + 1.0);
  cairo_stroke(cr);
  if (f->axes) {
    draw_axis(cr, f->x0, f->x1, left, left + pw, top + ph + 0.5, 1);
    draw_axis(cr, f->y0, f->y1, top + ph, top, left - 0.5, 0);
    if (f->x_label) text_at(cr, left + 0.5 * pw, height - 4, f->x_label, 0.5, 1.0);
    if (f->y_label) {
      cairo_save(cr);
      cairo_translate(cr, 4 + FONT_PX / 2, top + 0.5 * ph);
      cairo_rotate(cr, -1.5707963267948966);
      text_at(cr, 0, 0, f->y_label, 0.5, 0.5);
      cairo_restore(cr);
    }
  }
  /* colour bar */
  const int bar_x = left + pw + BAR_GAP;
  cairo_rectangle(cr, bar_x - 0.5, top - 0.5, BAR_W + 1.0, ph + 1.0);
  cairo_stroke(cr);
  draw_bar_ticks(cr, f, bar_x + BAR_W + 0.5, top, top + ph);
  if (f->bar_label) {
    cairo_save(cr);
    cairo_translate(cr, width - 4 - FONT_PX / 2, top + 0.5 * ph);
    cairo_rotate(cr, -1.5707963267948966);
    text_at(cr, 0, 0, f->bar_label, 0.5, 0.5);
    cairo_restore(cr);
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    return ionf_error_set(IONF_ERR_INTERNAL, "cairo could not draw the figure");
  }
  unsigned char *rgb = malloc((size_t)width * height * 3);
  if (!rgb) {
    cairo_surface_destroy(surface);
    return ionf_error_set(IONF_ERR_MEM, "out of memory for a %d x %d image", width, height);
  }
  const unsigned char *data = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      uint32_t px;
      memcpy(&px, data + (size_t)y * stride + 4 * (size_t)x, 4);
      unsigned char *o = rgb + 3 * ((size_t)y * width + x);
      o[0] = (unsigned char)(px >> 16), o[1] = (unsigned char)(px >> 8), o[2] = (unsigned char)px;
    }
  cairo_surface_destroy(surface);
  /* the panel and the bar, pixel for pixel */
  for (int y = 0; y < ph; ++y)
    for (int x = 0; x < pw; ++x)
      memcpy(rgb + 3 * ((size_t)(top + y) * width + left + x),
             f->panel_rgb + 3 * ((size_t)(y / f->scale) * f->panel_w + x / f->scale), 3);
  for (int y = 0; y < ph; ++y) {
    unsigned char c[3];
    render_cmap_rgb(f->cmap, 1.0 - (y + 0.5) / ph, c);
    for (int x = 0; x < BAR_W; ++x) memcpy(rgb + 3 * ((size_t)(top + y) * width + bar_x + x), c, 3);
  }
  *rgb_out = rgb;
  layout->width = width;
  layout->height = height;
  layout->panel_x = left;
  layout->panel_y = top;
  return IONF_OK;
}
