#!/bin/bash
# ionfront on one machine without a batch system: one rank per GPU (or a few
# CPU ranks), started with Open MPI's mpirun.
#
#   job-scripts/mpirun-local.sh run.yaml [RANKS]
#
# RANKS defaults to the number of GPUs (nvidia-smi -L), or 1 without GPUs.
# Open MPI binds each rank to one core by default; --bind-to none leaves the
# cores to OpenMP (ionfront binds a GPU rank to its GPU's cores itself).
# As root, Open MPI also needs --allow-run-as-root.
set -euo pipefail
CONFIG=${1:-run.yaml}
# ionfront: $IONFRONT if set, else build/ionfront of this clone (sbatch runs a copy
# of this script, so the clone is the folder the job was submitted from), else PATH.
find_ionfront() {
  local c
  for c in "${IONFRONT:-}" "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}/build/ionfront"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  command -v ionfront && return 0
  echo "ionfront not found: build it (README: build/ionfront, run from the clone's root)" \
       "or set IONFRONT=/path/to/ionfront" >&2
  return 2
}
IONFRONT=$(find_ionfront) || exit 2
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l || true)
RANKS=${2:-$(( GPUS > 0 ? GPUS : 1 ))}
CORES=$(nproc)
export OMP_NUM_THREADS=$(( CORES / RANKS > 0 ? CORES / RANKS : 1 ))
export NCCL_NVLS_ENABLE=0
exec mpirun -np "$RANKS" --bind-to none -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE \
  "$IONFRONT" run "$CONFIG"
