/**
 * @file test_mc_philox.c
 * @brief The packets' random numbers: mc_k.h's Philox4x32-10 gives the published
 *        known-answer vectors (Salmon et al. 2011; Random123's kat_vectors), the
 *        uniforms lie in (0, 1) with the right mean, and the keying separates seeds,
 *        emitters, kinds, steps and packets.
 */
#include <stdint.h>

#include "rt/mc/mc_k.h"
#include "test_util.h"

int main(void) {
  /* philox4x32 10: counter, key -> output (Random123 kat_vectors) */
  static const uint32_t kat[3][10] = {
      {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
      {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
       0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
      {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u,
       0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  for (int v = 0; v < 3; ++v) {
    uint32_t out[4];
    mc_philox4x32_10(kat[v], kat[v] + 4, out);
    for (int i = 0; i < 4; ++i)
      EXPECT(out[i] == kat[v][6 + i], "vector %d word %d: %08x, expected %08x", v, i, out[i],
             kat[v][6 + i]);
  }
  /* uniforms: in (0, 1), mean 1/2, variance 1/12 over many packets */
  double sum = 0.0, sum2 = 0.0, lo = 1.0, hi = 0.0;
  const int n = 200000;
  for (int p = 0; p < n; ++p) {
    double u[4];
    mc_random4(7u, 12345u, MC_KIND_SOURCE, 3u, (uint32_t)p, 0u, u);
    for (int i = 0; i < 4; ++i) {
      sum += u[i];
      sum2 += u[i] * u[i];
      lo = u[i] < lo ? u[i] : lo;
      hi = u[i] > hi ? u[i] : hi;
    }
  }
  double mean = sum / (4.0 * n), var = sum2 / (4.0 * n) - mean * mean;
  EXPECT(lo > 0.0 && hi < 1.0, "uniforms out of (0, 1): %g %g", lo, hi);
  /* standard error of the mean: sqrt(1/12 / 8e5) = 3.2e-4; 5 sigma */
  EXPECT(fabs(mean - 0.5) < 1.6e-3, "mean %g", mean);
  EXPECT(fabs(var - 1.0 / 12.0) < 1.5e-3, "variance %g", var);
  /* every part of the key and counter changes the numbers */
  double base[4], other[4];
  mc_random4(7u, 12345u, MC_KIND_SOURCE, 3u, 9u, 0u, base);
  const double *b = base;
  mc_random4(8u, 12345u, MC_KIND_SOURCE, 3u, 9u, 0u, other);
  EXPECT(other[0] != b[0], "seed");
  mc_random4(7u, 12346u, MC_KIND_SOURCE, 3u, 9u, 0u, other);
  EXPECT(other[0] != b[0], "emitter");
  mc_random4(7u, 12345u + (1ull << 32), MC_KIND_SOURCE, 3u, 9u, 0u, other);
  EXPECT(other[0] != b[0], "emitter past 2^32");
  mc_random4(7u, 12345u, MC_KIND_RECOMBINATION, 3u, 9u, 0u, other);
  EXPECT(other[0] != b[0], "kind");
  mc_random4(7u, 12345u, MC_KIND_SOURCE, 4u, 9u, 0u, other);
  EXPECT(other[0] != b[0], "step");
  mc_random4(7u, 12345u, MC_KIND_SOURCE, 3u, 10u, 0u, other);
  EXPECT(other[0] != b[0], "packet");
  mc_random4(7u, 12345u, MC_KIND_SOURCE, 3u, 9u, 1u, other);
  EXPECT(other[0] != b[0], "draw");
  mc_random4(7u, 12345u, MC_KIND_SOURCE, 3u, 9u, 0u, other);
  for (int i = 0; i < 4; ++i) EXPECT(other[i] == b[i], "not a pure function");
  TEST_RETURN();
}
