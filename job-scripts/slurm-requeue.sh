#!/bin/bash
# A run longer than one job's time limit, as a chain of jobs: each job starts
# from DIR/checkpoint.h5 if there is one; when SLURM's warning signal (SIGUSR1,
# two minutes before the limit) stops ionfront, it writes a checkpoint and
# exits with code 13, and this script requeues the job to continue.
#
#   sbatch job-scripts/slurm-requeue.sh run.yaml out/myrun
#
# The second argument must be the run's output.directory. Adjust the
# resources, account and partition for your site.
#SBATCH --job-name=ionfront-chain
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=8
#SBATCH --time=12:00:00
#SBATCH --signal=USR1@120
#SBATCH --requeue
#SBATCH --open-mode=append
##SBATCH --account=YOUR_ACCOUNT
##SBATCH --partition=YOUR_GPU_PARTITION

set -uo pipefail
CONFIG=${1:-run.yaml}
# the ionfront to run (job-scripts/find-ionfront.sh; sbatch runs a copy of this script,
# so the clone is the folder the job was submitted from)
clone=${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}
if [ -f "$clone/job-scripts/find-ionfront.sh" ]; then . "$clone/job-scripts/find-ionfront.sh"
else IONFRONT=${IONFRONT:-ionfront}; fi
OUTDIR=${2:-out}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-8}
export HDF5_USE_FILE_LOCKING=FALSE NCCL_NVLS_ENABLE=0
restart=()
[ -f "$OUTDIR/checkpoint.h5" ] && restart=(--restart "$OUTDIR/checkpoint.h5")
srun --cpu-bind=cores "$IONFRONT" run "$CONFIG" --output "$OUTDIR" "${restart[@]}"
rc=$?
if [ "$rc" -eq 13 ]; then
  echo "ionfront stopped at a checkpoint: requeueing job $SLURM_JOB_ID"
  scontrol requeue "$SLURM_JOB_ID"
  exit 0
fi
exit "$rc"
