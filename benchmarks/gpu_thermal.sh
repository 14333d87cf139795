#!/usr/bin/env bash
# Thermal radiation (ERMC) on the GPU machine: the GPU test (none may skip), compute-sanitizer
# on it, and bench_thermal: the seed's accelerations one by one (read-only cache, band
# sorting, multigrid) on the GPU, the OpenMP path on all cores and on one, and the same
# problem on the GPU for the speed-up over one core.  From the repository root, with
# .devbuild/.devlibs unpacked (benchmarks/pack_gpu.sh or a pack of these targets):
#   bash benchmarks/gpu_thermal.sh [tests] [bench] [scale]
# scale: the command line's thermal run (the thermal_wsgg example at 128^3, 1000 rays, six
# multigrid levels, sorted gases) on 1 GPU and on every GPU of the machine (one rank each),
# the results compared bit for bit.
set -u
export IONFRONT_REQUIRE_GPU=1
final="${OUT:-/tmp/out}"
mkdir -p "$final"
[ -f .devpack.tar.xz ] && tar -xJf .devpack.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
b=.devbuild
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
cores=$(nproc)
[ $# -eq 0 ] && set -- tests bench
for what in "$@"; do
  if [ "$what" = tests ]; then
    $b/tests/test_thermal_gpu; echo "test_thermal_gpu: exit $?"
    compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 $b/tests/test_thermal_gpu > /tmp/san.log 2>&1
    echo "compute-sanitizer memcheck test_thermal_gpu: exit $? ($(tail -1 /tmp/san.log))"
    compute-sanitizer --tool racecheck --error-exitcode 1 $b/tests/test_thermal_gpu > /tmp/san2.log 2>&1
    echo "compute-sanitizer racecheck test_thermal_gpu: exit $? ($(tail -1 /tmp/san2.log))"
  fi
  if [ "$what" = bench ]; then
    echo "# backend N rays gas sort levels plain seconds cells_rays_per_s steps_per_s mean_q"
    for gas in grey wsgg; do
      $b/bench_thermal cuda 64 1000 $gas 0 1 1 2   # naive: plain loads, no sorting, one grid
      $b/bench_thermal cuda 64 1000 $gas 0 1 0 2   # + read-only cache
      [ $gas = wsgg ] && $b/bench_thermal cuda 64 1000 $gas 1 1 0 2   # + band sorting
      $b/bench_thermal cuda 64 1000 $gas 1 5 0 2   # + multigrid (5 levels, 5 steps each)
      $b/bench_thermal cuda 128 1000 $gas 1 6 0 1
    done
    # the OpenMP path on every core and on one; the GPU on the same problem
    OMP_NUM_THREADS=$cores $b/bench_thermal cpu 64 100 wsgg 1 1 0 1
    OMP_NUM_THREADS=$cores $b/bench_thermal cpu 64 100 wsgg 1 5 0 1
    OMP_NUM_THREADS=1 $b/bench_thermal cpu 64 10 wsgg 1 1 0 1
    OMP_NUM_THREADS=1 $b/bench_thermal cpu 64 10 wsgg 1 5 0 1
    OMP_NUM_THREADS=1 $b/bench_thermal cpu 32 100 wsgg 1 1 0 1
    OMP_NUM_THREADS=1 $b/bench_thermal cpu 32 100 wsgg 1 4 0 1
    $b/bench_thermal cuda 32 100 wsgg 1 1 0 2
    $b/bench_thermal cuda 32 100 wsgg 1 4 0 2
    $b/bench_thermal cuda 64 100 wsgg 1 1 0 2
    $b/bench_thermal cuda 64 100 wsgg 1 5 0 2
  fi
  if [ "$what" = scale ]; then
    gpus=$(nvidia-smi -L | wc -l)
    rm -rf /tmp/ts && mkdir -p /tmp/ts && $b/ionfront example thermal_wsgg > /tmp/ts/t.yml
    set_args=(--set "grid.cells=[128,128,128]" --set "grid.size_m=[1,1,1]"
              --set montecarlo.rays_per_element=1000 --set montecarlo.sort_gases=true
              --set "montecarlo.multigrid={levels: 6, steps_per_level: 5}" --backend cuda)
    for np in 1 $gpus; do
      OMP_NUM_THREADS=8 mpirun --allow-run-as-root --bind-to none -np $np $b/ionfront run /tmp/ts/t.yml \
        "${set_args[@]}" --set output.directory=/tmp/ts/np$np 2>&1 | grep -E "solved|rank [0-9]:|backend"
    done
    [ "$gpus" -gt 1 ] && { .devlibs/h5diff /tmp/ts/np1/thermal.h5 /tmp/ts/np$gpus/thermal.h5 /Thermal \
      > /dev/null 2>&1; echo "h5diff 1 GPU vs $gpus GPUs (/Thermal): exit $?"; }
  fi
done
