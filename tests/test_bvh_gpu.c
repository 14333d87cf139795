/**
 * @file test_bvh_gpu.c
 * @brief The GPU BVH build gives the CPU reference's tree bit for bit (nodes,
 *        boxes, leaves, order, keys, root, height) on random, lattice,
 *        clustered and degenerate inputs, for several sizes and leaf limits,
 *        through both entry points (one call; a reused context); the GPU tree
 *        passes bvh_check.  Skips (77) without a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "gpu/core/cuda_util.h"
#include "gpu/particles/bvh_build.h"
#include "bvh_test_inputs.h"
#include "core/error.h"
#include "test_util.h"

static void compare(enum bvh_input_kind kind, int64_t n, int max_leaf) {
  struct bvh_input in;
  char what[128];
  snprintf(what, sizeof what, "%s n=%lld max_leaf=%d", bvh_input_names[kind], (long long)n,
           max_leaf);
  if (!bvh_input_make(kind, n, 4321u + (unsigned)n, &in)) {
    EXPECT(0, "%s: no memory", what);
    return;
  }
  struct bvh cpu, gpu;
  ionf_err rc = bvh_build_cpu(in.pos, in.h, n, NULL, max_leaf, &cpu, NULL);
  EXPECT(rc == IONF_OK, "%s: CPU build: %s", what, ionf_error_message());
  ionf_err rg = bvh_build_cuda(in.pos, in.h, n, NULL, max_leaf, &gpu);
  EXPECT(rg == IONF_OK, "%s: GPU build: %s", what, ionf_error_message());
  if (rc == IONF_OK && rg == IONF_OK) {
    char msg[256];
    EXPECT(bvh_equal(&cpu, &gpu, msg, sizeof msg), "%s: GPU tree differs: %s", what, msg);
    EXPECT(bvh_check(&gpu, in.pos, in.h) == IONF_OK, "%s: GPU tree: %s", what,
           ionf_error_message());
  }
  if (rc == IONF_OK) bvh_free(&cpu);
  if (rg == IONF_OK) bvh_free(&gpu);
  ionf_error_clear();
  bvh_input_free(&in);
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    return test_gpu_skip(gpu_why);
  }
  const int64_t sizes[] = {1, 2, 31, 32, 33, 1000, 100000};
  const int leaf_limits[] = {1, 8, 32};
  for (int kind = 0; kind < INPUT_KINDS; ++kind)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      for (size_t l = 0; l < sizeof leaf_limits / sizeof leaf_limits[0]; ++l) {
        if (kind == INPUT_LINE && sizes[s] > 1000) continue; /* a chain: one thread climbs it all */
        compare((enum bvh_input_kind)kind, sizes[s], leaf_limits[l]);
      }
  compare(INPUT_CLUSTERED, 2000000, 32);

  /* a context reused for two different sets, the second smaller, then the first again */
  {
    struct bvh_input a, b;
    bvh_input_make(INPUT_RANDOM, 300000, 11u, &a);
    bvh_input_make(INPUT_CLUSTERED, 50000, 12u, &b);
    struct bvh_cuda *ctx = NULL;
    EXPECT(bvh_cuda_create(a.n, &ctx) == IONF_OK, "context: %s", ionf_error_message());
    struct bvh_input *sets[3] = {&a, &b, &a};
    for (int k = 0; k < 3 && ctx; ++k) {
      struct bvh_input *in = sets[k];
      struct bvh_scene scene;
      bvh_scene_of_points(in->pos, in->n, &scene);
      struct bvh cpu, gpu;
      struct bvh_cuda_times times;
      EXPECT(bvh_build_cpu(in->pos, in->h, in->n, &scene, 32, &cpu, NULL) == IONF_OK, "cpu");
      ionf_err rc = bvh_cuda_upload(ctx, in->pos, in->h, in->n);
      if (rc == IONF_OK) rc = bvh_cuda_build(ctx, &scene, 32, &times);
      if (rc == IONF_OK) rc = bvh_cuda_download(ctx, &gpu);
      EXPECT(rc == IONF_OK, "reused context, set %d: %s", k, ionf_error_message());
      if (rc == IONF_OK) {
        char msg[256];
        EXPECT(bvh_equal(&cpu, &gpu, msg, sizeof msg), "reused context, set %d: %s", k, msg);
        EXPECT(times.build_ms > 0.0f, "build time recorded");
        bvh_free(&gpu);
      }
      bvh_free(&cpu);
    }
    /* more particles than the context holds: a clear error */
    EXPECT(bvh_cuda_upload(ctx, a.pos, a.h, a.n + 1) == IONF_ERR_INPUT, "over capacity");
    ionf_error_clear();
    bvh_cuda_destroy(ctx);
    bvh_input_free(&a);
    bvh_input_free(&b);
  }
  TEST_RETURN();
}
