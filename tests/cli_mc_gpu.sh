#!/usr/bin/env bash
# Monte Carlo on the GPU gives the CPU's result with the same seed: a small Test 1 with
# a black-body spectrum and T evolving, and the same with case A re-emission, on
# --backend cuda and --backend cpu; x_HII and T to 1e-10 (as test_backend_agreement),
# Gamma to 1e-9 (fp64 atomics add in another order: last-bit changes of x_av reach
# Gamma in ionized cells as ulp / (1 - x_HII) ~ 1e-16 / 1e-7, as in cli_mpi_ranks.sh);
# and with two GPUs (two ranks), when there are two, the one-GPU result.  Skips (77) without a GPU.
# usage: cli_mc_gpu.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# the tests' one GPU detection (tests/gpu_probe.c): 77 without a GPU, 1 with IONFRONT_REQUIRE_GPU=1
gpus=$("${IONFRONT_GPU_PROBE:?the path of tests/gpu_probe (set by ctest)}") || { rc=$?; echo "$gpus"; exit $rc; }
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
"$ionfront" example iliev2 > "$work/iliev2.yaml"
args=(run "$work/iliev2.yaml" --quiet --set grid.N=32 --set 'time.dt=10 Myr' --set 'time.t_end=40 Myr'
      --set 'time.outputs=[20 Myr, 40 Myr]' --set raytracing.method=montecarlo
      --set 'montecarlo={packets_per_source: 200000, seed: 3}')
compare() { # compare A B
  for check in "/Grid/x_HII 1e-10" "/Grid/T 1e-10" "/Grid/Gamma_HI 1e-9"; do
    set -- "$1" "$2" $check
    h5diff -p "$4" "$1/snapshot_0002.h5" "$2/snapshot_0002.h5" "$3" "$3" > "$work/diff" 2>&1 \
      || { head -20 "$work/diff"; fail "$3 differs by more than $4 between $1 and $2"; }
  done
}
for extra in "" "--set montecarlo.recombination_emission=true"; do
  rm -rf "$work/gpu" "$work/cpu"
  "$ionfront" "${args[@]}" $extra --backend cuda --output "$work/gpu" > "$work/gpu.log" 2>&1 \
    || { cat "$work/gpu.log"; fail "GPU run $extra"; }
  "$ionfront" "${args[@]}" $extra --backend cpu --output "$work/cpu" > "$work/cpu.log" 2>&1 \
    || { cat "$work/cpu.log"; fail "CPU run $extra"; }
  compare "$work/gpu" "$work/cpu"
  echo "ok: GPU and CPU agree ${extra:-(case B)}"
  if [ "$gpus" -ge 2 ]; then
    rm -rf "$work/gpu2"
    "$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" "${args[@]}" $extra \
      --backend cuda --output "$work/gpu2" > "$work/gpu2.log" 2>&1 || { cat "$work/gpu2.log"; fail "2 GPUs"; }
    compare "$work/gpu" "$work/gpu2"
    echo "ok: 2 GPUs agree with 1 ${extra:-(case B)}"
  fi
done
