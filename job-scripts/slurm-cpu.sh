#!/bin/bash
# ionfront on CPU nodes under SLURM: one MPI rank per socket, OpenMP threads on
# the socket's cores. Sources are shared by tracing cost; the rates are summed
# by slabs and every rank updates the chemistry of its slab (mpi.reduction: auto).
#
#   sbatch job-scripts/slurm-cpu.sh run.yaml
#
# SIGUSR1 two minutes before the time limit makes ionfront write
# DIR/checkpoint.h5 and exit with code 13 (see slurm-requeue.sh).
# Adjust nodes, sockets, cores, account and partition for your site.
#SBATCH --job-name=ionfront
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=32
#SBATCH --time=04:00:00
#SBATCH --signal=USR1@120
##SBATCH --account=YOUR_ACCOUNT
##SBATCH --partition=YOUR_CPU_PARTITION

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
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-32}
export OMP_PLACES=cores OMP_PROC_BIND=close
export HDF5_USE_FILE_LOCKING=FALSE
srun --cpu-bind=cores "$IONFRONT" run "$CONFIG" --backend cpu
