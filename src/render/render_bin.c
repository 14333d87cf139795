/**
 * @file render_bin.c
 * @brief SPH particles onto a grid on the CPU: the stencil-weighted sums
 *        (OpenMP, atomic adds as on the GPU), the average and the filling of
 *        empty cells (host code, shared by both paths).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"

ionf_err render_bin_cpu(const struct render_bin_input *in, double *sum_wv, double *sum_w,
                        int64_t *n_outside) {
  const int n = in->n, ns = in->n_smooth;
  IONF_CHECK(n > 0 && ns >= 0, IONF_ERR_INTERNAL, "render_bin_cpu: n %d, n_smooth %d", n, ns);
  const size_t cells = (size_t)n * n * n;
  memset(sum_wv, 0, cells * sizeof *sum_wv);
  memset(sum_w, 0, cells * sizeof *sum_w);
  int64_t outside = 0;
#pragma omp parallel for schedule(static) reduction(+ : outside)
  for (int64_t p = 0; p < in->count; ++p) {
    int ci = render_bin_cell(in->pos_cells[3 * p], n);
    int cj = render_bin_cell(in->pos_cells[3 * p + 1], n);
    int ck = render_bin_cell(in->pos_cells[3 * p + 2], n);
    if (ci < 0 || cj < 0 || ck < 0) {
      ++outside;
      continue;
    }
    for (int di = -ns; di <= ns; ++di) {
      int i = render_stencil_index(ci, di, n, in->periodic);
      if (i < 0) continue;
      for (int dj = -ns; dj <= ns; ++dj) {
        int j = render_stencil_index(cj, dj, n, in->periodic);
        if (j < 0) continue;
        for (int dk = -ns; dk <= ns; ++dk) {
          int k = render_stencil_index(ck, dk, n, in->periodic);
          if (k < 0) continue;
          double w = in->weight[p] * render_stencil_weight(di, dj, dk, ns);
          size_t c = ((size_t)i * n + (size_t)j) * n + (size_t)k;
#pragma omp atomic
          sum_w[c] += w;
#pragma omp atomic
          sum_wv[c] += w * in->value[p];
        }
      }
    }
  }
  if (n_outside) *n_outside = outside;
  return IONF_OK;
}

int64_t render_bin_average_fill(const double *sum_wv, const double *sum_w, int n, int periodic,
                                double *grid) {
  const size_t cells = (size_t)n * n * n;
  unsigned char *filled = malloc(cells), *next = malloc(cells);
  double *out = malloc(cells * sizeof *out);
  int64_t empty = 0;
  for (size_t c = 0; c < cells; ++c) {
    filled[c] = sum_w[c] > 0.0;
    grid[c] = filled[c] ? sum_wv[c] / sum_w[c] : 0.0;
    empty += !filled[c];
  }
  if (!filled || !next || !out || empty == 0 || empty == (int64_t)cells) {
    free(filled), free(next), free(out);
    return empty;
  }
  int64_t left = empty;
  while (left > 0) {
    int64_t now_filled = 0;
#pragma omp parallel for schedule(static) reduction(+ : now_filled)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          size_t c = ((size_t)i * n + (size_t)j) * n + (size_t)k;
          out[c] = grid[c];
          next[c] = filled[c];
          if (filled[c]) continue;
          static const int off[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                        {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
          double sum = 0.0;
          int count = 0;
          for (int f = 0; f < 6; ++f) {
            int a = render_stencil_index(i, off[f][0], n, periodic);
            int b = render_stencil_index(j, off[f][1], n, periodic);
            int d = render_stencil_index(k, off[f][2], n, periodic);
            if (a < 0 || b < 0 || d < 0) continue;
            size_t q = ((size_t)a * n + (size_t)b) * n + (size_t)d;
            if (filled[q]) sum += grid[q], ++count;
          }
          if (count) {
            out[c] = sum / count;
            next[c] = 1;
            ++now_filled;
          }
        }
    memcpy(grid, out, cells * sizeof *grid);
    memcpy(filled, next, cells);
    left -= now_filled;
  }
  free(filled), free(next), free(out);
  return empty;
}
