/**
 * @file h5_util.c
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#include "h5_util.h"

#include <hdf5.h>
#include <stdio.h>
#include <string.h>

struct h5_err_walk {
  char desc[512];
  int found;
};

/* Upward walks start at the innermost frame, which carries the real reason. */
static herr_t h5_err_walk_cb(unsigned n, const H5E_error2_t *err, void *data) {
  (void)n;
  struct h5_err_walk *w = data;
  if (!w->found && err->desc && err->desc[0]) {
    snprintf(w->desc, sizeof w->desc, "%s", err->desc);
    w->found = 1;
  }
  return 0;
}

void h5_util_error_text(char *buf, size_t size) {
  struct h5_err_walk w;
  memset(&w, 0, sizeof w);
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_err_walk_cb, &w);
  snprintf(buf, size, "%s", w.found ? w.desc : "unknown HDF5 error");
}
