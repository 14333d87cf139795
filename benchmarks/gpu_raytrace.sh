#!/usr/bin/env bash
# GPU ray-tracing benchmark (pyC2Ray's protocol) and whole-step timings, for
# benchmarks/RESULTS.md. Run on the GPU machine from the repository root:
#   benchmarks/gpu_raytrace.sh BUILD_DIR [quick]
# Prints one line per configuration (see bench_raytrace.c for the columns).
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
build="${1:-build}"
quick="${2:-}"
bench="$build/bench_raytrace"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "# backend N R n_src batch ms_per_trace ns_per_source_voxel column_MB_per_source column_GB chem_ms chem_GBps"
run() { "$bench" cuda "$@" || echo "FAILED: $*"; }
# N = 250: R = 10, 30, 50, 100 and growing source counts
for nsrc in 1 10 100 1000 10000 100000 1000000; do run 250 10 $nsrc 0 3; done
for nsrc in 1 10 100 1000 10000 100000; do run 250 30 $nsrc 0 3; done
run 250 30 1000000 0 1
# whole time steps of Test 1 (trace + chemistry + convergence), one source, whole box
for n in 128 256; do
  "$build/ionfront" run <("$build/ionfront" example iliev1) --set grid.N=$n --set 'time.dt=5 Myr' \
    --backend cuda --quiet --output /tmp/iliev1_$n 2>&1 | grep -E "^done|500.00" | sed "s/^/iliev1 N=$n: /"
  awk -F, 'NR > 1 { s += $7; n++ } END { printf "iliev1 N='$n': %d steps, mean wall per step (trace + chemistry + convergence) %.2f ms\n", n, 1e3 * s / n }' /tmp/iliev1_$n/log.csv
done
[ -n "$quick" ] && exit 0
for nsrc in 1 100 1000 10000; do run 250 50 $nsrc 0 2; done
for nsrc in 1 100 1000; do run 250 100 $nsrc 0 2; done
# batch sweep at R = 30, 10^4 sources
for b in 33 66 132 264 528 1056 2112 4224; do run 250 30 10000 $b 3; done
# 512^3, R = 30
for nsrc in 1000 10000 100000; do run 512 30 $nsrc 0 2; done
