/**
 * @file render_scenes.h
 * @brief Volumes the rendering tests share: a sphere of constant value in an
 *        empty box (cells hold the fraction of their volume inside it).
 */
#ifndef IONF_RENDER_SCENES_H
#define IONF_RENDER_SCENES_H

#include <stdlib.h>

/* n^3 floats: the volume fraction of each cell inside the sphere of radius r
   (cells) about (cx, cy, cz), from 8^3 sub-cell points. */
static float *render_scene_sphere(int n, double cx, double cy, double cz, double r) {
  float *v = malloc((size_t)n * n * n * sizeof *v);
  if (!v) return NULL;
  const int sub = 8;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        int inside = 0;
        for (int a = 0; a < sub; ++a)
          for (int b = 0; b < sub; ++b)
            for (int c = 0; c < sub; ++c) {
              double x = i + (a + 0.5) / sub - cx, y = j + (b + 0.5) / sub - cy,
                     z = k + (c + 0.5) / sub - cz;
              inside += x * x + y * y + z * z < r * r;
            }
        v[((size_t)i * n + j) * n + k] = (float)inside / (float)(sub * sub * sub);
      }
  return v;
}

#endif
