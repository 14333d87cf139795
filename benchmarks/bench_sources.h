/**
 * @file bench_sources.h
 * @brief The benchmarks' random point sources (rand_r: the includer defines
 *        _POSIX_C_SOURCE): a C2-Ray text source file of n_src cells
 *        of an n^3 grid (1-based, the same cells for a given seed 918) of `ndot` photons/s.
 */
#ifndef IONF_BENCH_SOURCES_H
#define IONF_BENCH_SOURCES_H

#include <stdio.h>
#include <stdlib.h>

/** Write the file; 0 on success, -1 when it cannot be written. */
static inline int bench_sources_write(const char *path, int n, long long n_src, const char *ndot) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  unsigned seed = 918;
  fprintf(f, "%lld\n", n_src);
  for (long long s = 0; s < n_src; ++s)
    fprintf(f, "%d %d %d %s 1\n", 1 + rand_r(&seed) % n, 1 + rand_r(&seed) % n,
            1 + rand_r(&seed) % n, ndot);
  return fclose(f) == 0 ? 0 : -1;
}

#endif
