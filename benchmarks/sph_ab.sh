#!/usr/bin/env bash
# A/B timing of particle-tracer builds on the GPU machine: the kernel's own time
# (bench_sph_trace --timing's "trace" ms), median over passes, rounds interleaved
# so that clock drift hits every variant alike.
#   benchmarks/sph_ab.sh ROUNDS BENCH_A [BENCH_B ...]
# (env OPTS: variants of bench_sph_trace's tuning options, ';'-separated, e.g.
#  OPTS="--window-hits 512;--window-hits 1024 --min-blocks 6"; default: the defaults)
set -u
rounds="$1"
shift
n="${N:-2097152}"
configs="${CONFIGS:-uniform:32:10 uniform:128:1 uniform:256:1 clustered:32:10}"
IFS=';' read -r -a variants <<< "${OPTS:-}"
[ ${#variants[@]} -gt 0 ] || variants=("")
for r in $(seq "$rounds"); do
  for bench in "$@"; do
    for o in "${variants[@]}"; do
      for c in $configs; do
        kind=${c%%:*} ns=${c#*:}
        # shellcheck disable=SC2086 # $o: options, split on purpose
        ms=$("$bench" cuda "$n" "$kind" "$ns" 7 $o --timing 2>&1 >/dev/null |
          sed -n 's/.* trace \([0-9.]*\) ms.*/\1/p' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
        echo "round $r $(basename "$bench") ${o// /_} $kind $ns trace_ms $ms"
      done
    done
  done
done
