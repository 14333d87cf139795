#!/bin/bash
# ionfront on GPU nodes under SLURM: one MPI rank per GPU.
#
#   sbatch job-scripts/slurm-gpu.sh run.yaml
#
# Each rank takes the GPU of its node-local rank (rank mod visible GPUs) and
# binds itself to that GPU's cores (hwloc; the start-up log prints rank, host,
# GPU, PCI bus id and cores). Sources are shared by tracing cost; the ranks'
# photoionization rates are summed on the GPUs with NCCL when it can be loaded
# (mpi.reduction: auto), else through the host with MPI.
# SLURM sends SIGUSR1 two minutes before the time limit (--signal); ionfront then
# writes DIR/checkpoint.h5 and exits with code 13. Continue with
# job-scripts/slurm-requeue.sh, or: ionfront run run.yaml --restart DIR/checkpoint.h5
# Adjust nodes, GPUs, account and partition for your site.
#SBATCH --job-name=ionfront
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --signal=USR1@120
##SBATCH --account=YOUR_ACCOUNT
##SBATCH --partition=YOUR_GPU_PARTITION

set -euo pipefail
CONFIG=${1:-run.yaml}
# the ionfront to run (job-scripts/find-ionfront.sh; sbatch runs a copy of this script,
# so the clone is the folder the job was submitted from)
clone=${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}
if [ -f "$clone/job-scripts/find-ionfront.sh" ]; then . "$clone/job-scripts/find-ionfront.sh"
else IONFRONT=${IONFRONT:-ionfront}; fi
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-8}
export HDF5_USE_FILE_LOCKING=FALSE   # parallel file systems without locking
export NCCL_NVLS_ENABLE=0
srun --cpu-bind=cores "$IONFRONT" run "$CONFIG"
