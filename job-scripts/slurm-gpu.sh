#!/bin/bash
# ionfront on GPU nodes: one MPI rank per GPU. Sources are spread over the
# ranks; each traces its share and the ranks' rates are summed.
# Adjust the account/partition/GPU lines for your site.
#SBATCH --job-name=ionfront
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=8
#SBATCH --time=02:00:00
##SBATCH --account=YOUR_ACCOUNT
##SBATCH --partition=YOUR_PARTITION

set -euo pipefail
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK}
export HDF5_USE_FILE_LOCKING=FALSE
export NCCL_NVLS_ENABLE=0

CONFIG=${1:-run.yaml}
srun ionfront run "$CONFIG" --backend auto
