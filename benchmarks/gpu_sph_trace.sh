#!/usr/bin/env bash
# Particle tracer benchmark (GPU vs CPU) for benchmarks/RESULTS.md. Run on the
# GPU machine from the repository root:
#   benchmarks/gpu_sph_trace.sh BUILD_DIR [quick]
# Prints one line per backend and configuration (columns in
# benchmarks/bench_sph_trace.c), each GPU line prefixed with the ray schedule
# (--schedule: warp = one warp per ray, the default; thread = one thread
# per ray); GPU lines of "both" runs end with the largest relative difference of
# the GPU rates from the CPU's.
#
# Configurations (nside:sources), N = 2^21 particles by default:
#   rays per source 768 .. 786432 (nside 8 .. 256) for 1 source;
#   1 .. 1000 sources at nside 8 (768 rays) and 32 (12288 rays);
#   10 and 100 sources at nside 128.
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
build="${1:-build}"
quick="${2:-}"
n="${N:-2097152}"
bench="$build/bench_sph_trace"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "# cpu threads: ${OMP_NUM_THREADS:-$(nproc)}"
run() { "$bench" "$@" || echo "FAILED: $*"; }
sched() { # SCHEDULE ARGS...: GPU lines tagged with the schedule
  local s="$1"
  shift
  run "$@" --schedule "$s" | sed "s/^cuda /$s cuda /"
}
# where a pass's time goes (host preparation, uploads, trace, rates out), small and large
for s in warp thread; do
  "$bench" cuda "$n" uniform 8:1,128:10 2 --schedule $s --timing 2>&1 | grep -E "sph_trace_cuda" | tail -4
done
# CPU and GPU side by side (agreement checked) where the CPU takes seconds
for s in warp thread; do sched $s both "$n" uniform 8:1,32:1,32:10,64:1 3; done
[ -n "$quick" ] && exit 0
for s in warp thread; do sched $s both "$n" clustered 8:10,32:1 3; done
# GPU: rays per source, then sources
for s in warp thread; do
  sched $s cuda "$n" uniform 8:1,16:1,32:1,64:1,128:1,256:1 5
  sched $s cuda "$n" uniform 8:10,8:100,8:1000,32:10,32:100,32:1000,128:10,128:100 3
  sched $s cuda "$n" clustered 32:100,128:10 3
done
# CPU at the larger sizes (all OpenMP threads; median of 3: the host's cores vary)
run cpu "$n" uniform 128:1,256:1,32:100 3
