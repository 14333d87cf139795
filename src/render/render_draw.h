/**
 * @file render_draw.h
 * @brief A figure around a rendered panel, drawn with cairo: the title, axes
 *        with ticks in physical length (slices), the colour bar with its units.
 */
#ifndef IONF_RENDER_DRAW_H
#define IONF_RENDER_DRAW_H

#include "core/error.h"

struct render_figure {
  const unsigned char *panel_rgb; /*!< panel_w x panel_h RGB, row 0 at the top */
  int panel_w, panel_h;
  int scale;                      /*!< figure pixels per panel pixel (nearest neighbour) */
  const char *title;
  int axes;                       /*!< 1: draw axes spanning [x0, x1] x [y0, y1] */
  double x0, x1, y0, y1;
  const char *x_label, *y_label;
  int cmap;                       /*!< colour bar: map (render_cmap.h) */
  double vmin, vmax;              /*!< the range the map spans (log10 taken when log_scale) */
  int log_scale;
  const char *bar_label;
  int dark;                       /*!< black background (volume renderings) */
};

/** Where the panel lies in the figure, for tests and metadata. */
struct render_figure_layout {
  int width, height;   /*!< the figure */
  int panel_x, panel_y; /*!< top-left pixel of the panel */
};

/**
 * Draw the figure into *rgb_out (malloc'd, width x height x 3, free it).
 * IONF_ERR_MEM or IONF_ERR_INTERNAL when cairo fails.
 */
IONF_NODISCARD ionf_err render_draw_figure(const struct render_figure *f,
                                           unsigned char **rgb_out,
                                           struct render_figure_layout *layout);

#endif /* IONF_RENDER_DRAW_H */
