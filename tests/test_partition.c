/**
 * @file test_partition.c
 * @brief Source partitioning: the cost of a source is the number of cells its
 *        sweep visits (checked against a brute-force count near walls and
 *        corners, periodic and not); the partition keeps every source exactly
 *        once and balances the ranks' costs.
 */
#include <stdlib.h>
#include <string.h>

#include "rt/asora/asora.h"
#include "rt/asora/asora_k.h"
#include "engine/partition.h"
#include "test_physics_common.h"
#include "test_util.h"

static int64_t brute(const int32_t *src, int64_t n, int periodic, double r) {
  int s[3] = {src[0], src[1], src[2]};
  struct asora_domain d;
  struct grid_box whole = grid_box_whole(n);
  asora_domain_make(s, n, periodic, &whole, r, &d);
  int64_t c = 0;
  for (int i = d.lo[0]; i <= d.hi[0]; ++i)
    for (int j = d.lo[1]; j <= d.hi[1]; ++j)
      for (int k = d.lo[2]; k <= d.hi[2]; ++k)
        c += (double)i * i + (double)j * j + (double)k * k <= d.r2_max_cells;
  return c;
}

int main(void) {
  const int32_t where[][3] = {{0, 0, 0}, {3, 20, 39}, {20, 20, 20}, {39, 1, 5}, {7, 7, 33}};
  const double radii[] = {0.0, 4.5, 10.0, 25.0};
  for (size_t w = 0; w < sizeof where / sizeof where[0]; ++w)
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; ++r)
      for (int periodic = 0; periodic <= 1; ++periodic) {
        int64_t got = partition_source_cost(where[w], 40, periodic, radii[r]);
        int64_t want = brute(where[w], 40, periodic, radii[r]);
        EXPECT(got == want, "cost of (%d,%d,%d), R %g, periodic %d: %lld, brute force %lld",
               where[w][0], where[w][1], where[w][2], radii[r], periodic, (long long)got,
               (long long)want);
      }
  /* the cost is what the sweep visits */
  double *nh, *x;
  struct source_list one;
  struct trace_input in;
  test_uniform_setup(40, 1e20, 0, 1e-3, 0.0, where[1], 1e48, &nh, &x, &one, &in);
  in.r_max_cells = 10.0;
  double *g = calloc(40 * 40 * 40, sizeof(double));
  struct trace_stats st;
  EXPECT(asora_cpu_trace(&in, g, &st, NULL) == IONF_OK, "trace");
  EXPECT(st.cells_traced == partition_source_cost(where[1], 40, 0, 10.0), "visited %lld",
         (long long)st.cells_traced);
  free(g); free(nh); free(x); free(one.ijk); free(one.ndot_per_s);

  /* 1000 random sources over 4 ranks, near and away from walls */
  struct source_list s;
  s.n = 1000;
  s.ijk = malloc(3 * sizeof(int32_t) * 1000);
  s.ndot_per_s = malloc(sizeof(double) * 1000);
  unsigned seed = 5;
  double sum_before = 0.0;
  for (int i = 0; i < 1000; ++i) {
    for (int a = 0; a < 3; ++a) s.ijk[3 * i + a] = rand_r(&seed) % 64;
    s.ndot_per_s[i] = 1.0 + i; /* distinct: tells the sources apart */
    sum_before += s.ndot_per_s[i];
  }
  int64_t first[4], count[4];
  double imbalance = 0.0;
  EXPECT(partition_sources(&s, 64, 0, 12.0, 4, first, count, &imbalance) == IONF_OK, "partition");
  char *seen = calloc(1001, 1);
  double sum_after = 0.0;
  for (int i = 0; i < 1000; ++i) {
    int id = (int)s.ndot_per_s[i];
    EXPECT(id >= 1 && id <= 1000 && !seen[id], "source %d lost or duplicated", id);
    if (id >= 1 && id <= 1000) seen[id] = 1;
    sum_after += s.ndot_per_s[i];
  }
  EXPECT(sum_after == sum_before, "photon total changed");
  EXPECT(first[0] == 0 && first[3] + count[3] == 1000, "shares do not cover the list");
  printf("4 ranks, 1000 sources near and away from walls: imbalance %.4f\n", imbalance);
  EXPECT(imbalance < 1.01, "cost imbalance %.4f", imbalance);
  free(seen); free(s.ijk); free(s.ndot_per_s);
  TEST_RETURN();
}
