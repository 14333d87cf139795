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
# the ionfront to run (job-scripts/find-ionfront.sh; sbatch runs a copy of this script,
# so the clone is the folder the job was submitted from)
clone=${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}
if [ -f "$clone/job-scripts/find-ionfront.sh" ]; then . "$clone/job-scripts/find-ionfront.sh"
else IONFRONT=${IONFRONT:-ionfront}; fi
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l || true)
RANKS=${2:-$(( GPUS > 0 ? GPUS : 1 ))}
CORES=$(nproc)
export OMP_NUM_THREADS=$(( CORES / RANKS > 0 ? CORES / RANKS : 1 ))
export NCCL_NVLS_ENABLE=0
exec mpirun -np "$RANKS" --bind-to none -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE \
  "$IONFRONT" run "$CONFIG"
