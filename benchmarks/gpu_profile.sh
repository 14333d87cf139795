#!/usr/bin/env bash
# Nsight Compute profile of the ASORA block-per-source kernel (asora_trace_kernel, or
# asora_whole_kernel in bench_raytrace's periodic box; one batch launch) on the GPU machine:
# the details page (speed of light, pipes, stalls, occupancy) and the per-instruction SASS
# counts, as text under $OUT.  Packed as in ../shared/gpu-machine/README.md
# (benchmarks/pack_gpu.sh makes .devpack.tar.xz).  From the repository root:
#   bash benchmarks/gpu_profile.sh [BENCH_BINARY] ["N R N_SRC [SPECIES]" ...]
# Default: .devbuild/bench_raytrace, 250^3 R = 30 and 128^3 R = 13 (the eor run's radius).
set -u
final="${OUT:-/tmp/out}"
mkdir -p "$final"
[ -f .devpack.tar.xz ] && [ ! -d .devbuild ] && tar -xJf .devpack.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" PATH="$PATH:$PWD/.devlibs:/usr/local/cuda/bin"
bin="${1:-.devbuild/bench_raytrace}"
shift || true
cfgs=("$@")
[ ${#cfgs[@]} -eq 0 ] && cfgs=("250 30 20000" "128 13 40000")
work=/tmp/gpu_profile
mkdir -p "$work"
for cfg in "${cfgs[@]}"; do
  read -r p_n p_r p_src p_species <<< "$cfg"
  tag=$(echo "$cfg" | tr ' :,' '___')
  # the third batch launch of the block-per-source kernel (warm caches, full GPU); SKIP=1
  # for the persistent asora_whole_kernel (one launch a pass: the warm-up's, then this one)
  ncu --clock-control none -k regex:"asora_(trace|whole)_kernel" --launch-skip "${SKIP:-2}" --launch-count 1 \
    --set full --import-source yes -f -o "$work/prof_$tag" "$bin" cuda $p_n $p_r $p_src 0 1 ${p_species:-h} > "$work/ncu_$tag.log" 2>&1
  echo "ncu $cfg: exit $?"
  ncu --import "$work/prof_$tag.ncu-rep" --page details > "$work/details_$tag.txt" 2>&1
  ncu --import "$work/prof_$tag.ncu-rep" --page source --csv --print-source sass \
    > "$work/sass_$tag.csv" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Executed Ipc|Registers Per|Issue Slots Busy|L2 Hit|Warp Cycles Per Issued" \
    "$work/details_$tag.txt" | head -20
done
tar -czf "$final/profile.tgz" -C "$work" $(cd "$work" && ls *.txt *.csv *.log)
ls -la "$final"
