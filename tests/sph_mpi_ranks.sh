#!/usr/bin/env bash
# The particle engine on 1, 2, 3 and 4 MPI ranks (every source's rays shared among the
# ranks, the default, and on 3 ranks also the five sources shared out; thermal
# chemistry) gives the same per-particle x_HII, Gamma and T to 1e-12 relative; and one rank's failed tracing ends every rank with an
# error, not a hang.  The tracer is test_sph_engine's stand-in (no ray tracer needed).
# usage: sph_mpi_ranks.sh MPIEXEC /path/to/test_sph_engine
set -u
mpiexec="$1"
prog="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
"$mpiexec" --allow-run-as-root -np 1 "$prog" ranks "$work/p1" > "$work/log1" 2>&1 \
  || { cat "$work/log1"; echo "FAIL: 1 rank"; exit 1; }
for ps in 2 3 4 3:sources; do
  p="${ps%%:*}"
  out="$work/p$ps" share=rays
  [ "$ps" = "$p" ] || share="${ps#*:}"
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$prog" ranks "$out" \
    particles.ranks_share="$share" > "$out.log" 2>&1 \
    || { cat "$out.log"; echo "FAIL: $p ranks ($share)"; exit 1; }
  for d in /PartType0/IonizedFraction /PartType0/PhotoionizationRate /PartType0/Temperature; do
    if ! h5diff -p 1e-12 "$work/p1/snapshot_0001.h5" "$out/snapshot_0001.h5" "$d" "$d" > "$work/diff" 2>&1; then
      head -20 "$work/diff"; echo "FAIL: $d differs between 1 rank and $p ranks ($share shared)"; exit 1
    fi
  done
  echo "ok: $p ranks ($share shared) match 1 rank to 1e-12"
done
# rank 1's tracing fails: every rank stops with an error (timeout: a hang)
timeout 60 "$mpiexec" --oversubscribe --allow-run-as-root -np 2 \
  "$prog" ranks "$work/fail" debug.fail_trace_rank=1 > "$work/fail.log" 2>&1
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
  cat "$work/fail.log"; echo "FAIL: an injected tracing failure gave exit $rc (0: ignored, 124: hang)"; exit 1
fi
grep -q "injected fault" "$work/fail.log" || { cat "$work/fail.log"; echo "FAIL: the failing rank did not say why"; exit 1; }
echo "ok: a failed rank stops the run (exit $rc)"
