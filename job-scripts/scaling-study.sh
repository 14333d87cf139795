#!/bin/bash
# Strong and weak scaling of ionfront over the GPUs of one node (one rank per
# GPU): the distributed-runs benchmark. Run inside an allocation with the GPUs,
# from the repository root, after building:
#
#   salloc --nodes=1 --gpus=4 --ntasks=4 job-scripts/scaling-study.sh [BUILD_DIR]
#
# Problem: N = 256, R_max = 30 cells, random sources of 1e54 photons/s,
# 10 steps of 1 Myr; strong scaling with 1e5 sources on 1..G GPUs (every way of
# summing the rates), weak scaling with 5e4 sources per GPU. Each line gives
# ionfront's main-loop time split into trace / reduce / chemistry / I/O, and
# per-iteration trace and reduce times (benchmarks/RESULTS.md explains them).
set -euo pipefail
BUILD=${1:-build}
exec "$(dirname "$0")/../benchmarks/gpu_scaling.sh" "$BUILD"
