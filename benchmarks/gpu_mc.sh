#!/usr/bin/env bash
# Monte Carlo transport benchmark (bench_mc.c): packet-cell crossings per second on
# the GPU, the same on the CPU (all threads), and 1 vs 2 GPUs (MPI, one rank per GPU).
# Run on the GPU machine from the repository root:
#   benchmarks/gpu_mc.sh BUILD_DIR [quick]
# Columns: backend ranks N n_src packets x_hii ms_per_pass crossings crossings_per_s packets_per_s
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
build="${1:-build}"
quick="${2:-}"
bench="$build/bench_mc"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "# backend ranks N n_src packets x_hii ms_per_pass crossings crossings_per_s packets_per_s"
run() { "$bench" "$@" || echo "FAILED: $*"; }
# one GPU: a transparent box (x_HII = 0.999: packets cross it) and an opaque one (x_HII = 0.5)
run cuda 128 1 10000000 0.999 3
run cuda 128 100 100000 0.999 3
run cuda 256 100 1000000 0.999 3
run cuda 256 100 1000000 0.5 3
# the CPU path on this machine's cores, the same work as the second line
OMP_NUM_THREADS=$(nproc) run cpu 128 100 100000 0.999 2
[ -n "$quick" ] && exit 0
# two GPUs: the same 100 sources shared by two ranks
n_gpu=$(nvidia-smi -L | wc -l)
if [ "$n_gpu" -ge 2 ]; then
  mpirun --allow-run-as-root -np 1 "$bench" cuda 256 100 1000000 0.999 3
  mpirun --allow-run-as-root -np 2 "$bench" cuda 256 100 1000000 0.999 3
fi
# whole time steps of Test 1 with 10^6 packets (trace + chemistry + convergence)
"$build/ionfront" example iliev1 > /tmp/mc_iliev1.yaml
"$build/ionfront" run /tmp/mc_iliev1.yaml --set grid.N=128 --set 'time.dt=5 Myr' \
  --set raytracing.method=montecarlo --set montecarlo.packets_per_source=1000000 \
  --backend cuda --quiet --output /tmp/mc_iliev1_128 2>&1 | grep -E "500.00"
awk -F, 'NR > 1 { s += $7; n++ } END { printf "MC iliev1 N=128, 1e6 packets: %d steps, mean wall per step %.2f ms\n", n, 1e3 * s / n }' /tmp/mc_iliev1_128/log.csv
