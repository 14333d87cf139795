#!/usr/bin/env bash
# Particle runs on 1, 2 and 4 GPUs, one MPI rank per GPU: the chemistry split among the
# ranks (mpi.reduction auto: the per-particle rates reduce-scattered onto each rank's
# block of particles through NCCL on the GPUs, each rank's staged GPU chemistry on its
# block, x_av all-gathered each pass; scatter: the same with MPI on the host), every
# source's rays shared among the ranks (particles.ranks_share rays) or the sources
# (sources), against the all-reduce (every rank's chemistry on all
# particles), on the Test 4 stand-in on particles (`ionfront example iliev4_particles`:
# 16 sources, black body, thermal) at N^3 particles.  The goal (issue): 4 GPUs >= 3x one.
#
# Needs a GPU machine with >= 4 GPUs and a prebuilt CUDA binary: .devbuild/ionfront and
# .devlibs as benchmarks/pack_gpu.sh makes them (or .devpack.tar.xz, unpacked here).
# Nothing is built.  From the repository root:
#   bash benchmarks/gpu_particles_ranks.sh [BUILD_DIR]      (default .devbuild)
# Environment: PROBLEM (iliev4, the default, or iliev1: `ionfront example iliev1_particles`,
# one source in uniform gas: give T_END in its steps of 10 Myr, e.g. '50 Myr'),
# N (particles per side, default 96: 8.8e5 particles), T_END (default
# '0.15 Myr': 15 steps of 0.01 Myr, about 10-30 s on one H200), COUNTS (default "1 2 4"),
# MODES (default "auto scatter auto:sources scatter:sources allreduce": mpi.reduction, and
# after a colon particles.ranks_share (default rays); one rank runs auto only; OLD:
# "old:auto:sources" etc. run OLD_IONFRONT, a binary from before ranks_share existed,
# with mpi.reduction auto), THREADS (OpenMP threads per
# rank, default 8), BACKEND (default cuda; cpu for a smoke test without a GPU, e.g.
# N=16 T_END='0.02 Myr' BACKEND=cpu THREADS=1 COUNTS="1 2" ... build-cpu).  Logs and the
# table go to $OUT (default /tmp/out).
#
# The table: the run loop's wall time ("done: ... in W s", set-up excluded: every rank
# makes all particles and its tree) and rank 0's timers from the same line (trace: the
# pass, copies in and out and the wait for the slowest rank; chemistry: its GPU-staged
# passes; reduce: the MPI sums and gathers on the host), the whole mpirun's seconds,
# the iterations (log.csv), the speed-up of the run loop against one rank, and x_HII's
# largest relative difference from one rank (needs python3 with h5py and numpy, else
# h5diff's count of differences above 1e-10).
set -u
build="${1:-.devbuild}"
n="${N:-96}"
t_end="${T_END:-0.15 Myr}"
counts="${COUNTS:-1 2 4}"
modes="${MODES:-auto scatter auto:sources scatter:sources allreduce}"
problem="${PROBLEM:-iliev4}"
threads="${THREADS:-8}"
backend="${BACKEND:-cuda}"
out="${OUT:-/tmp/out}"
mkdir -p "$out"
root="$PWD"
[ -d "$build" ] || { [ -f .devpack.tar.xz ] && tar -xJf .devpack.tar.xz; }
[ -x "$build/ionfront" ] || { echo "no $build/ionfront: build and pack it first (benchmarks/pack_gpu.sh)"; exit 1; }
ionfront="$(cd "$build" && pwd)/ionfront"
if [ -d .devlibs ]; then # the libraries the machine lacks (prune-libs drops the ones it has)
  bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
  export LD_LIBRARY_PATH="$root/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$PATH:$root/.devlibs"
fi
if [ -d .whl ]; then # numpy and h5py for the comparison, when carried
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl \
    > /dev/null 2>&1 && export PYTHONPATH=/tmp/site
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | tee "$out/gpu.txt"
max=0
for p in $counts; do [ "$p" -gt "$max" ] && max=$p; done
[ "$gpus" -ge "$max" ] || echo "WARNING: $gpus GPU(s) for up to $max ranks: ranks will share GPUs"
work=/tmp/gpu_particles_ranks
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$ionfront" example "${problem}_particles" > p.yaml
if [ "$problem" = iliev4 ]; then
  "$ionfront" generate iliev4 --N "$n" --out ic > gen.log 2>&1 || { tail -3 gen.log; echo "FAIL: generate iliev4"; exit 1; }
  inputs=(--set particles.generate.file=ic/density.h5 --set sources.file=ic/sources.txt)
else
  inputs=()
fi

# run P MODE: one run; its log in run_P_MODE.log (':' as '_'), its outputs in run_P_MODE/;
# MODE: REDUCTION[:SHARE], or old:REDUCTION:SHARE (OLD_IONFRONT, no ranks_share key)
run() {
  local p="$1" mode="$2" name="run_$1_${2//:/_}"
  local t0 t1 bin="$ionfront" red="${mode%%:*}" share=rays sets=()
  case "$mode" in *:*) share="${mode##*:}" ;; esac
  local yaml=p.yaml
  if [ "$red" = old ]; then
    bin="${OLD_IONFRONT:?old: needs OLD_IONFRONT}"
    red=$(echo "$mode" | cut -d: -f2)
    grep -v "ranks_share\|a block of the sources" p.yaml > p_old.yaml # (a key it lacks)
    yaml=p_old.yaml
  else
    sets=(--set "particles.ranks_share=$share")
  fi
  t0=$(date +%s.%N)
  mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$p" -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
    -x OMP_NUM_THREADS="$threads" "$bin" run "$yaml" --backend "$backend" --quiet \
    --set particles.generate.count_1d="$n" "${inputs[@]}" --set "time.t_end=$t_end" --set "time.outputs=[$t_end]" \
    --set "mpi.reduction=$red" "${sets[@]}" --output "$name" > "$name.log" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' > "$name.total"
  cp "$name.log" "$out/" 2>/dev/null
  [ $rc -eq 0 ] || { tail -5 "$name.log"; echo "FAIL: $p rank(s), $mode: exit $rc"; }
  return $rc
}
# field NAME WORD: the number after WORD in the run's "done:" line
field() { grep "^done:" "$1.log" | tr -d '(),' | awk -v w="$2" '{ for (i = 1; i < NF; i++) if ($i == w) { print $(i + 1); exit } }'; }
# x_HII's largest relative difference from one rank's
compare() {
  local a b
  a=$(ls run_1_auto/snapshot_*.h5 2>/dev/null | tail -1)
  b=${a/run_1_auto/$1}
  [ -f "$a" ] && [ -f "$b" ] || { echo "-"; return; }
  python3 - "$a" "$b" 2> /dev/null <<'PY' && return
import sys
import h5py, numpy as np
x, y = (h5py.File(f)["PartType0/IonizedFraction"][...] for f in sys.argv[1:3])
print(f"{np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300)):.1e}")
PY
  local d
  d=$(h5diff -p 1e-10 "$a" "$b" /PartType0/IonizedFraction /PartType0/IonizedFraction 2>&1 | grep -o "^[0-9]* differences found")
  echo "${d:-"<= 1e-10"}"
}

for p in $counts; do
  for mode in $modes; do
    [ "$p" = 1 ] && [ "$mode" != auto ] && [ "${mode%%:*}" != old ] && continue
    echo "== $n^3 particles, $p rank(s), mpi.reduction $mode"
    run "$p" "$mode" || continue
    grep -E "rates summed by|^done:" "run_${p}_${mode//:/_}.log"
  done
done

table="$out/particles_ranks.txt"
{
  echo "# ${problem}_particles, $n^3 particles, $(grep -m1 -o '[0-9]* source(s)' run_1_auto.log), t_end $t_end, backend $backend, one rank per GPU, $threads OpenMP threads per rank"
  [ "$gpus" -gt 0 ] && echo "# $gpus x $(head -1 "$out/gpu.txt")" || echo "# no GPU visible"
  printf "%-5s  %-16s  %7s  %7s  %11s  %8s  %6s  %7s  %10s  %8s  %s\n" ranks reduction:share "wall s" "trace s" \
    "chemistry s" "reduce s" "I/O s" "total s" iterations speed-up "x_HII vs 1 rank"
  base=$(field run_1_auto in)
  for p in $counts; do
    for mode in $modes; do
      [ "$p" = 1 ] && [ "$mode" != auto ] && [ "${mode%%:*}" != old ] && continue
      name="run_${p}_${mode//:/_}"
      wall=$(field "$name" in)
      [ -n "$wall" ] || { printf "%-5s  %-16s  (failed: see %s.log)\n" "$p" "$mode" "$name"; continue; }
      its=$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$name/log.csv" 2>/dev/null)
      speed=$(awk -v a="$base" -v b="$wall" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "-" }')
      printf "%-5s  %-16s  %7s  %7s  %11s  %8s  %6s  %7s  %10s  %8s  %s\n" "$p" "$mode" "$wall" \
        "$(field "$name" trace)" "$(field "$name" chemistry)" "$(field "$name" reduce)" \
        "$(field "$name" I/O)" "$(cat "$name.total")" "${its:--}" "$speed" "$(compare "$name")"
    done
  done
} > "$table"
cat "$table"
cd "$root"
