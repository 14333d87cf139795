/**
 * @file png_write.h
 * @brief 8-bit RGB PNG files through libpng, with tEXt metadata chunks.
 */
#ifndef IONF_PNG_WRITE_H
#define IONF_PNG_WRITE_H

#include "core/error.h"

/** One tEXt chunk: a Latin-1 keyword (1..79 characters) and its text. */
struct png_text_entry {
  const char *key;
  const char *text;
};

/**
 * Write rgb[(row * width + col) * 3 + c] (row 0 at the top) to `path`, with the
 * text chunks, through a temporary file renamed into place.  IONF_ERR_IO names
 * the file on failure.
 */
IONF_NODISCARD ionf_err png_write_rgb(const char *path, int width, int height,
                                      const unsigned char *rgb,
                                      const struct png_text_entry *text, int n_text);

#endif /* IONF_PNG_WRITE_H */
