#!/usr/bin/env bash
# Helium's tracing cost on the GPU against hydrogen's (issue 21's target: at most 2x per
# source-voxel), before (.devold/ionfront, when packed) and after (.devbuild/ionfront),
# alternating on the same GPU.  The iliev1 example at 256^3, periodic, 1e5 random sources
# of 1e50 photons/s, R_max = 30 cells, a 1e5 K black body, 2 steps of 2 iterations each;
# hydrogen alone, then H + He (abundance 0.08) with 1+26+20 and 1+8+8 sub-bins.  Prints
# each run's "done:" line (its trace seconds are the measure).  Then particles (below).
# Packed and started as benchmarks/gpu_redesign.sh is (benchmarks/pack_gpu.sh OLD_BUILD):
#   bash benchmarks/gpu_helium.sh [REPEATS]
set -u
repeats="${1:-2}"
[ -f .devpack.tar.xz ] && [ ! -d .devbuild ] && tar -xJf .devpack.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" OMP_NUM_THREADS=16
work=$(mktemp -d)
awk 'BEGIN { srand(2111); print 100000; for (s = 0; s < 100000; s++)
  printf "%d %d %d 1.0e50 1\n", 1 + int(256 * rand()), 1 + int(256 * rand()), 1 + int(256 * rand()) }' \
  > "$work/src.txt"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
versions="new"
[ -x .devold/ionfront ] && versions="old new"
common=(--set grid.N=256 --set grid.periodic=true --set raytracing.R_max=30
        --set raytracing.max_iterations=2 --set "sources={file: $work/src.txt, format: text}"
        --set 'spectrum={type: blackbody, T_eff: 1e5}' --set 'time.dt=0.5 Myr'
        --set 'time.t_end=1 Myr' --set 'time.outputs=[1 Myr]' --backend cuda --quiet)
for r in $(seq 1 "$repeats"); do
  for case in hydrogen helium_26_20 helium_8_8; do
    for v in $versions; do
      exe=.devbuild/ionfront
      [ "$v" = old ] && exe=.devold/ionfront
      "$exe" example iliev1 > "$work/base.yaml"
      extra=()
      case $case in
        helium_26_20) extra=(--set material.abundance_He=0.08) ;;
        helium_8_8) extra=(--set material.abundance_He=0.08 --set 'spectrum.sub_bins=[1, 8, 8]') ;;
      esac
      rm -rf "$work/out"
      "$exe" run "$work/base.yaml" "${common[@]}" "${extra[@]}" --output "$work/out" \
        > "$work/log" 2>&1 || { echo "$case $v: FAILED"; tail -3 "$work/log"; continue; }
      echo "$case $v #$r | $(grep '^done:' "$work/log")"
    done
  done
done
# particles: the iliev1_particles example at 64^3 particles to 50 Myr (5 steps), hydrogen
# against hydrogen + helium (1+26+20 and 1+8+8 sub-bins), this version only
pcommon=(--set particles.generate.count_1d=64 --set 'spectrum={type: blackbody, T_eff: 1e5}'
         --set 'time.t_end=50 Myr' --set 'time.outputs=[50 Myr]' --backend cuda --quiet)
.devbuild/ionfront example iliev1_particles > "$work/pbase.yaml"
for r in $(seq 1 "$repeats"); do
  for case in hydrogen helium_26_20 helium_8_8; do
    extra=()
    case $case in
      helium_26_20) extra=(--set material.abundance_He=0.08) ;;
      helium_8_8) extra=(--set material.abundance_He=0.08 --set 'spectrum.sub_bins=[1, 8, 8]') ;;
    esac
    rm -rf "$work/out"
    .devbuild/ionfront run "$work/pbase.yaml" "${pcommon[@]}" "${extra[@]}" --output "$work/out" \
      > "$work/log" 2>&1 || { echo "particles $case: FAILED"; tail -3 "$work/log"; continue; }
    echo "particles $case new #$r | $(grep '^done:' "$work/log")"
  done
done
rm -rf "$work"
