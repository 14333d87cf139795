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
# the ionfront to run (job-scripts/find-ionfront.sh; sbatch runs a copy of this script,
# so the clone is the folder the job was submitted from)
clone=${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}
if [ -f "$clone/job-scripts/find-ionfront.sh" ]; then . "$clone/job-scripts/find-ionfront.sh"
else IONFRONT=${IONFRONT:-ionfront}; fi
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-32}
export OMP_PLACES=cores OMP_PROC_BIND=close
export HDF5_USE_FILE_LOCKING=FALSE
srun --cpu-bind=cores "$IONFRONT" run "$CONFIG" --backend cpu
