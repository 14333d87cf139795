#!/usr/bin/env bash
# Test 1 through the public C API (test_api_iliev1: create, step, write) and through
# `ionfront run` give the same snapshot bit for bit (x_HII, Gamma_HI, T, n_H), on the
# CPU or (BACKEND cuda; skips with 77 without a GPU) on the GPU.
# usage: api_cli_match.sh /path/to/ionfront /path/to/test_api_iliev1 [cpu|cuda]
set -u
ionfront="$1"
api="$2"
backend="${3:-cpu}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$backend" = cuda ]; then
  # the tests' one GPU detection (tests/gpu_probe.c): 77 without a GPU, 1 with IONFRONT_REQUIRE_GPU=1
  gpus=$("${IONFRONT_GPU_PROBE:?the path of tests/gpu_probe (set by ctest)}") || { rc=$?; echo "$gpus"; exit $rc; }
fi
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
export OMP_NUM_THREADS=2
sets=(grid.N=24 'time.dt=20 Myr' 'time.t_end=90 Myr' 'time.outputs=[90 Myr]'
      output.progress=false "raytracing.backend=$backend")
args=()
for s in "${sets[@]}"; do args+=(--set "$s"); done
"$ionfront" run "${args[@]}" --output "$work/cli" > "$work/cli.log" 2>&1 \
  || { cat "$work/cli.log"; echo "FAIL: ionfront run"; exit 1; }
"$api" "$work/api" "${sets[@]}" > "$work/api.log" 2>&1 \
  || { cat "$work/api.log"; echo "FAIL: test_api_iliev1"; exit 1; }
cat "$work/api.log"
for d in /Grid/x_HII /Grid/Gamma_HI /Grid/T /Grid/n_H; do
  # no tolerance: h5diff reports any difference at all
  if ! h5diff "$work/cli/snapshot_0001.h5" "$work/api/snapshot_0001.h5" "$d" "$d" > "$work/diff" 2>&1; then
    head -20 "$work/diff"; echo "FAIL: $d differs between the API and the command line"; exit 1
  fi
done
echo "ok: the API's Test 1 equals the command line's bit for bit ($backend)"
