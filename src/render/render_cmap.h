/**
 * @file render_cmap.h
 * @brief Named colour maps (256-entry RGB tables) for slices and transfer functions.
 */
#ifndef IONF_RENDER_CMAP_H
#define IONF_RENDER_CMAP_H

enum render_cmap {
  RENDER_CMAP_VIRIDIS = 0,
  RENDER_CMAP_INFERNO = 1,
  RENDER_CMAP_MAGMA = 2,
  RENDER_CMAP_GREY = 3,
  RENDER_CMAP_COUNT = 4
};

/** The map called `name` ("viridis", "inferno", "magma", "grey"), or -1. */
int render_cmap_find(const char *name);
const char *render_cmap_name(int map);
/** Table entry of a normalised value s in [0, 1]: round(255 s), clamped (NaN: 0). */
int render_cmap_index(double s);
/** Colour of s in [0, 1] (clamped). */
void render_cmap_rgb(int map, double s, unsigned char rgb[3]);

#endif /* IONF_RENDER_CMAP_H */
