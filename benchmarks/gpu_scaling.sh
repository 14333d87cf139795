#!/usr/bin/env bash
# Strong and weak scaling over the GPUs of one node, one MPI rank per GPU.
#   benchmarks/gpu_scaling.sh BUILD_DIR [MAX_GPUS]
# Environment: COUNTS (GPU counts, default 1 .. MAX_GPUS), MODES (the mpi.reduction
# choices compared for strong scaling, default "nccl allreduce scatter reduce").
# Problem (the distributed-runs issue): N = 256, R = 30 cells, random sources,
# 10 time steps of 1 Myr, sources of 1e54 photons/s (several iterations a step); strong: 1e5 sources on 1..MAX GPUs; weak: 5e4 sources
# per GPU. The main loop's time ("done: ... in T s") excludes start-up; it is
# split into trace / reduce / chemistry / I/O by ionfront's own timers.
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
build="${1:-build}"
max="${2:-$(nvidia-smi -L | wc -l)}"
ionfront="$(cd "$build" && pwd)/ionfront"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
nvidia-smi -L
nvidia-smi topo -m 2>/dev/null | head -8
make_sources() { # make_sources COUNT FILE: random cells of 256^3, 1-based
  awk -v n="$1" 'BEGIN { srand(918); print n; for (s = 0; s < n; s++)
    printf "%d %d %d 1.0e54 1\n", 1 + int(256 * rand()), 1 + int(256 * rand()), 1 + int(256 * rand()) }' > "$2"
}
run() { # run LABEL GPUS SOURCES MODE
  local label="$1" p="$2" nsrc="$3" mode="$4"
  [ -f "$work/s$nsrc.txt" ] || make_sources "$nsrc" "$work/s$nsrc.txt"
  local debug=WARN
  [ "$mode" = nccl ] && debug=INFO   # which transport NCCL picked
  NCCL_DEBUG=$debug mpirun --allow-run-as-root --oversubscribe -np "$p" -x LD_LIBRARY_PATH \
    -x NCCL_NVLS_ENABLE -x NCCL_DEBUG \
    "$ionfront" run --quiet --backend cuda --set grid.N=256 --set 'grid.box_size=100 Mpc' \
    --set grid.periodic=true --set material.n_H=2.0e-4 --set material.x_HII_initial=2.0e-4 \
    --set raytracing.R_max=30 --set "sources={file: $work/s$nsrc.txt, format: text}" \
    --set 'time.dt=1 Myr' --set 'time.t_end=10 Myr' --set 'time.outputs=[10 Myr]' \
    --set "mpi.reduction=$mode" --output "$work/out" > "$work/log" 2>&1 || { tail -5 "$work/log"; return; }
  [ "$mode" = nccl ] && grep -m2 -E "via|NCCL version" "$work/log"
  local done_line
  done_line=$(grep "^done:" "$work/log")
  local iters
  iters=$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$work/out/log.csv")
  # per iteration: the first iteration's one-off set-up (NCCL connections, page
  # locking) is spread over all of them, so more iterations make this fairer
  echo "$label gpus=$p sources=$nsrc mode=$mode iterations=$iters | $done_line" |
    awk -v it="$iters" '{ for (i = 1; i <= NF; i++) { if ($i == "(trace") t = $(i+1); if ($i == "reduce") r = $(i+1) }
      printf "%s | per iteration: trace %.3f s, reduce %.3f s\n", $0, t / it, r / it }'
}
counts="${COUNTS:-$(seq 1 "$max")}"
modes="${MODES:-nccl allreduce scatter reduce}"
echo "# strong scaling: 1e5 sources"
for p in $counts; do
  if [ "$p" = 1 ]; then run strong 1 100000 auto; continue; fi
  for mode in $modes; do run strong "$p" 100000 "$mode"; done
done
echo "# weak scaling: 5e4 sources per GPU"
for p in $counts; do run weak "$p" $((50000 * p)) auto; done
