/**
 * @file png_write.c
 * @brief PNG writing with libpng (errors through its setjmp handler, confined
 *        to this file: no ionfront state lives across the jump).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/png_write.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "io/output_file.h"

/* libpng longjmps out of png_* calls on error; keep every object this function
   owns in volatile locals so they survive the jump. */
static int png_write_file(FILE *f, int width, int height, const unsigned char *rgb,
                          const struct png_text_entry *text, int n_text, char *why,
                          size_t why_size) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  png_textp volatile chunks = NULL;
  if (!png || !info) {
    snprintf(why, why_size, "libpng could not start");
    png_destroy_write_struct(&png, &info);
    return 0;
  }
  if (setjmp(png_jmpbuf(png))) {
    snprintf(why, why_size, "libpng failed (disk full?)");
    free(chunks);
    png_destroy_write_struct(&png, &info);
    return 0;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (n_text > 0) {
    chunks = calloc((size_t)n_text, sizeof(png_text));
    if (!chunks) {
      snprintf(why, why_size, "out of memory");
      png_destroy_write_struct(&png, &info);
      return 0;
    }
    for (int t = 0; t < n_text; ++t) {
      chunks[t].compression = PNG_TEXT_COMPRESSION_NONE;
      chunks[t].key = (png_charp)text[t].key;
      chunks[t].text = (png_charp)text[t].text;
      chunks[t].text_length = strlen(text[t].text);
    }
    png_set_text(png, info, chunks, n_text);
  }
  /* sub and up filters only: as small for figures of flat colours, and cheap to
     decode (tests/render_check.py reads the files with numpy) */
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB | PNG_FILTER_UP);
  png_write_info(png, info);
  for (int row = 0; row < height; ++row)
    png_write_row(png, (png_const_bytep)(rgb + (size_t)row * (size_t)width * 3));
  png_write_end(png, info);
  free(chunks);
  png_destroy_write_struct(&png, &info);
  return 1;
}

ionf_err png_write_rgb(const char *path, int width, int height, const unsigned char *rgb,
                       const struct png_text_entry *text, int n_text) {
  IONF_CHECK(width > 0 && height > 0, IONF_ERR_INTERNAL, "PNG '%s': empty image", path);
  for (int t = 0; t < n_text; ++t) {
    size_t len = strlen(text[t].key);
    IONF_CHECK(len >= 1 && len <= 79, IONF_ERR_INTERNAL, "PNG '%s': bad text key '%s'", path,
               text[t].key);
  }
  char tmp[IONF_PATH_MAX + 16];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  IONF_CHECK(f, IONF_ERR_IO, "cannot write image '%s' (cannot create '%s')", path, tmp);
  char why[128] = "";
  int ok = png_write_file(f, width, height, rgb, text, n_text, why, sizeof why);
  if (fclose(f) != 0 && ok) {
    ok = 0;
    snprintf(why, sizeof why, "close failed (disk full?)");
  }
  ionf_err rc =
      ok ? IONF_OK : ionf_error_set(IONF_ERR_IO, "cannot write image '%s': %s", path, why);
  return output_file_commit(rc, tmp, path, "image");
}
