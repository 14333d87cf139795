#!/usr/bin/env bash
# The split grid (grid.decomposition: slabs) on a node of 4 GPUs, one rank per GPU:
#   check  - tests/cli_decomp.sh with the CUDA backend (slabs on 2 and 3 GPUs, halos over
#            NCCL, against 1 GPU, to 1e-12), and compute-sanitizer memcheck of a 2-rank
#            slab run;
#   strong - 1024^3 periodic, 1e6 sources, R_max 30, 3 steps (after an untimed one): 1 GPU
#            (replicated), 2 and 4 GPUs (slabs), and 4 GPUs replicated beside it;
#   weak   - 512^3 per GPU with 125k sources per GPU: 1 GPU at 512^3, 2 at 645^3, 4 at 812^3;
#   memory - 1024^3 on 4 GPUs in slabs: halos over NCCL with its default buffers, with
#            NCCL_BUFFSIZE=1 MiB and NCCL_MAX_NCHANNELS=4, and through the host (mpi.reduction
#            allreduce: no NCCL communicator).
# Each prints bench_decomp's line (benchmarks/bench_decomp.c): seconds per step and per part,
# GPU memory in use against (N^3/P + halo) x bytes per cell, the mean x_HII.
# Packed by benchmarks/pack_gpu.sh; from the repository root on the GPU machine:
#   bash benchmarks/gpu_decomp.sh check strong weak
set -u
export IONFRONT_REQUIRE_GPU=1
final="${OUT:-/tmp/out}"
out=/tmp/gpu_decomp_logs
mkdir -p "$out" "$final"
trap 'tar -czf "$final/logs_decomp.tgz" -C "$out" . 2>/dev/null' EXIT
[ -f .devpack.tar.xz ] && tar -xJf .devpack.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" PATH="$PATH:$PWD/.devlibs" OMPI_ALLOW_RUN_AS_ROOT=1 \
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=4
root="$PWD"
mkdir -p /work
[ -e /work/main ] || ln -s "$root" /work/main
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$out/gpu.txt"
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE
     -x OMP_NUM_THREADS -x IONFRONT_REQUIRE_GPU)
bench() { # bench P N R SOURCES DECOMP [REDUCTION [TAG]]: a step untimed, then 3 timed
  local p="$1" n="$2" r="$3" src="$4" decomp="$5" red="${6:-auto}"
  local log="$out/bench_${1}_${2}_${5}_${red}${7:-}.log"
  "${mpi[@]}" -np "$p" .devbuild/bench_decomp "$n" "$r" "$src" 3 "$decomp" 2 "$red" > "$log" 2>&1
  if grep -q "^ranks=" "$log"; then grep "^ranks=" "$log" | sed "s/^/[$red${7:-}] /"
  else echo "FAILED: $p ranks, N $n, $decomp, $red${7:-}"; tail -5 "$log"; fi
}
for what in "$@"; do
  case "$what" in
    check)
      bash tests/cli_decomp.sh mpirun .devbuild/ionfront > "$out/cli_decomp.log" 2>&1
      echo "cli_decomp (CUDA): exit $?"; grep -E "^ok|FAIL" "$out/cli_decomp.log" | tail -20
      # (NCCL's own start-up probes kernels of other architectures: API errors not ours)
      "${mpi[@]}" -np 2 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 .devbuild/ionfront run \
        --quiet --set grid.N=24 --set grid.periodic=true --set raytracing.R_max=5 \
        --set grid.decomposition=slabs --set 'time.dt=1 Myr' --set 'time.t_end=2 Myr' \
        --set 'sources=[{position: [3, 4, 5], Ndot: 1e50}, {position: [20, 10, 9], Ndot: 2e50}]' \
        --output /tmp/dsan > "$out/memcheck.log" 2>&1
      echo "memcheck of a 2-rank slab run: exit $? ($(grep -c "ERROR SUMMARY: 0 errors" "$out/memcheck.log") ranks with 0 errors)"
      ;;
    strong)
      echo "# strong scaling, 1024^3, 1e6 sources, R_max 30"
      bench 1 1024 30 1000000 replicated
      bench 2 1024 30 1000000 slabs
      bench 4 1024 30 1000000 slabs
      bench 4 1024 30 1000000 replicated
      ;;
    weak)
      echo "# weak scaling, 512^3 and 125k sources per GPU"
      bench 1 512 30 125000 replicated
      bench 2 645 30 250000 slabs
      bench 4 812 30 500000 slabs
      ;;
    memory)
      echo "# 1024^3 on 4 GPUs in slabs: NCCL default, NCCL with small buffers, through the host"
      bench 4 1024 30 1000000 slabs auto
      mpi+=(-x NCCL_BUFFSIZE=1048576 -x NCCL_MAX_NCHANNELS=4)
      bench 4 1024 30 1000000 slabs auto _small_nccl
      mpi=("${mpi[@]:0:${#mpi[@]}-4}")
      bench 4 1024 30 1000000 slabs allreduce
      ;;
  esac
done
