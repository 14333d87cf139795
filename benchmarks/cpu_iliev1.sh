#!/usr/bin/env bash
# CPU benchmark: Iliev et al. 2006 Test 1 at 128^3, dt = 5 Myr to 500 Myr (100
# steps), the run pyC2Ray's Fortran CPU code did in 251 s on one core of a
# 2-core Debian machine. Runs with 1 thread and with all cores, prints one
# table row per run (for benchmarks/RESULTS.md).
# usage: benchmarks/cpu_iliev1.sh [path/to/ionfront] [threads...]
set -euo pipefail
ionfront="${1:-build/ionfront}"
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 "$(nproc)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "| date | machine | threads | command | wall [s] | trace [s] | chemistry [s] | steps | r_I/analytic at 500 Myr |"
echo "|---|---|---|---|---|---|---|---|---|"
for t in "${threads[@]}"; do
  cmd="OMP_NUM_THREADS=$t ionfront run <(ionfront example iliev1) --set 'time.dt=5 Myr' --quiet"
  start=$(date +%s.%N)
  OMP_NUM_THREADS=$t "$ionfront" run --set grid.N=128 --set 'time.dt=5 Myr' --quiet \
    --output "$work/out$t" <("$ionfront" example iliev1) > "$work/log$t" 2>&1
  end=$(date +%s.%N)
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  trace=$(grep -o 'trace [0-9.]* s' "$work/log$t" | awk '{print $2}')
  chem=$(grep -o 'chemistry [0-9.]* s' "$work/log$t" | awk '{print $2}')
  steps=$(grep -o 'done: [0-9]* steps' "$work/log$t" | awk '{print $2}')
  ratio=$(awk '/^ +500.00/ {print $4}' "$work/log$t")
  echo "| $(date -u +%Y-%m-%d) | $cpu, $(nproc) cores | $t | \`$cmd\` | $wall | $trace | $chem | $steps | $ratio |"
done
