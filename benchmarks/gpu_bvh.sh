#!/usr/bin/env bash
# BVH build benchmark (GPU and CPU) for benchmarks/RESULTS.md. Run on the GPU
# machine from the repository root:
#   benchmarks/gpu_bvh.sh BUILD_DIR [quick]
# Prints one line per configuration (columns in benchmarks/bench_bvh.c); each
# GPU line ends with "equal" when its tree is the CPU reference's, bit for bit.
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
build="${1:-build}"
quick="${2:-}"
bench="$build/bench_bvh"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "# cpu threads: ${OMP_NUM_THREADS:-$(nproc)}"
echo "# backend N kind max_leaf repeats build_ms ns_per_particle total_ms total_ns_per_particle keys_ms sort_ms gather_ms leaves_ms nodes_ms n_leaves height"
run() { "$bench" "$@" || echo "FAILED: $*"; }
for kind in uniform clustered; do
  run cuda 2097152 $kind 10
  run cuda 16777216 $kind 10
done
[ -n "$quick" ] && exit 0
for kind in uniform clustered; do
  run cpu 2097152 $kind 3
  run cpu 16777216 $kind 1
done
# leaf size sweep at 2^24 (build time only; traversal decides the best size)
for leaf in 1 8 16 64; do run cuda 16777216 uniform 5 $leaf; done
# larger sets
run cuda 67108864 uniform 5
