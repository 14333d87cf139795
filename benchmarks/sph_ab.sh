#!/usr/bin/env bash
# A/B timing of particle-tracer builds on the GPU machine: the kernel's own time
# (IONF_SPH_TRACE_TIMING's "trace" ms), median over passes, rounds interleaved
# so that clock drift hits every variant alike.
#   benchmarks/sph_ab.sh ROUNDS BENCH_A [BENCH_B ...]   (env ENVS: "NAME=VAL ..." variants)
set -u
rounds="$1"
shift
n="${N:-2097152}"
configs="${CONFIGS:-uniform:32:10 uniform:128:1 uniform:256:1 clustered:32:10}"
for r in $(seq "$rounds"); do
  for bench in "$@"; do
    for e in ${ENVS:-none=0}; do
      for c in $configs; do
        kind=${c%%:*} ns=${c#*:}
        ms=$(env "$e" IONF_SPH_TRACE_TIMING=1 "$bench" cuda "$n" "$kind" "$ns" 7 2>&1 >/dev/null |
          sed -n 's/.* trace \([0-9.]*\) ms.*/\1/p' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
        echo "round $r $(basename "$bench") $e $kind $ns trace_ms $ms"
      done
    done
  done
done
