#!/bin/bash
# ionfront on CPU nodes: one MPI rank per node (or per socket), OpenMP threads
# on the rank's cores. Adjust the account/partition lines for your site.
#SBATCH --job-name=ionfront
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --time=02:00:00
##SBATCH --account=YOUR_ACCOUNT
##SBATCH --partition=YOUR_PARTITION

set -euo pipefail
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK}
export OMP_PLACES=cores OMP_PROC_BIND=close
export HDF5_USE_FILE_LOCKING=FALSE   # parallel file systems without locking

CONFIG=${1:-run.yaml}
srun --cpu-bind=cores ionfront run "$CONFIG" --backend cpu
