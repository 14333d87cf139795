#!/usr/bin/env bash
# One rank failing (an injected GPU-memory failure in rank 1's ray tracing)
# ends the whole 3-rank job with a message naming the rank and the cause, and
# a non-zero exit -- never a hang (ctest's TIMEOUT guards that).
# usage: cli_rank_failure.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$2"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout 120 "$mpiexec" --oversubscribe --allow-run-as-root -np 3 \
  "$ionfront" run --quiet --set grid.N=16 --set debug.fail_trace_rank=1 --output "$work/out" \
  > "$work/log" 2>&1
rc=$?
cat "$work/log" | tail -8
[ "$rc" -ne 124 ] || { echo "FAIL: the job hung"; exit 1; }
[ "$rc" -ne 0 ] || { echo "FAIL: exit code 0"; exit 1; }
grep -q "error on rank 1" "$work/log" || { echo "FAIL: the failing rank is not named"; exit 1; }
grep -q "injected fault" "$work/log" || { echo "FAIL: the cause is not given"; exit 1; }
echo "ok: rank 1's failure ended the job (exit $rc) with its message"
