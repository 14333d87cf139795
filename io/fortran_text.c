/**
 * @file fortran_text.c
 * @brief Numbers of Fortran-written text files (fortran_text.h).
 */
#include "io/fortran_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int fortran_text_double(const char *tok, double *v) {
  char buf[64];
  size_t len = strlen(tok);
  if (len == 0 || len >= sizeof buf) return 0;
  for (size_t c = 0; c <= len; ++c) buf[c] = (tok[c] == 'D' || tok[c] == 'd') ? 'e' : tok[c];
  char *end;
  errno = 0;
  *v = strtod(buf, &end);
  return errno != ERANGE && end != buf && *end == '\0';
}
