#!/usr/bin/env bash
# The job scripts run the clone's build/ionfront (as the README builds it) when no
# ionfront is on PATH: mpirun-local.sh from the clone, and the SLURM scripts from
# the folder the job was submitted from (sbatch runs a copy of the script), with a
# stand-in srun. Without any ionfront they say how to fix it and exit 2.
# usage: job_scripts.sh SOURCE_DIR /path/to/ionfront
set -u
src="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v mpirun >/dev/null || { echo "mpirun not found (Debian: openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset IONFRONT SLURM_SUBMIT_DIR

# a clone: job-scripts/ and build/ionfront, nothing on PATH
mkdir -p "$work/clone/build" "$work/clone/job-scripts" "$work/bin" "$work/spool"
cp "$src"/job-scripts/*.sh "$work/clone/job-scripts/"
ln -s "$ionfront" "$work/clone/build/ionfront"
"$ionfront" example iliev1 | sed -e 's/^  N: 128 /  N: 8 /' -e 's/^  t_end: 500 Myr/  t_end: 10 Myr/' \
  -e 's/^  outputs: .*/  outputs: [10 Myr]/' -e 's/^  progress: true/  progress: false/' \
  -e "s|^  directory: out/iliev1|  directory: $work/out|" > "$work/run.yaml"
grep -q "N: 8 " "$work/run.yaml" || fail "could not shrink the example config"
path_without="$work/bin:/usr/bin:/bin"
PATH=$path_without command -v ionfront >/dev/null && { echo "an ionfront is installed in /usr/bin"; exit 77; }

(cd "$work" && PATH=$path_without "$work/clone/job-scripts/mpirun-local.sh" "$work/run.yaml" 1) \
  > "$work/local.txt" 2>&1 || { cat "$work/local.txt"; fail "mpirun-local.sh from a clone failed"; }
[ -s "$work/out/snapshot_0001.h5" ] || { cat "$work/local.txt"; fail "mpirun-local.sh wrote no snapshot"; }
echo "ok: mpirun-local.sh ran the clone's build/ionfront"

# SLURM: the script is a copy in a spool folder; srun stands in by dropping its options
cat > "$work/bin/srun" <<'SRUN'
#!/bin/bash
while [ "${1#--}" != "$1" ]; do shift; done
exec "$@"
SRUN
chmod +x "$work/bin/srun"
for s in slurm-cpu slurm-gpu; do
  rm -rf "$work/out"
  cp "$work/clone/job-scripts/$s.sh" "$work/spool/$s"
  (cd "$work/clone" && PATH=$path_without SLURM_SUBMIT_DIR="$work/clone" SLURM_CPUS_PER_TASK=1 \
     bash "$work/spool/$s" "$work/run.yaml") > "$work/$s.txt" 2>&1 \
    || { cat "$work/$s.txt"; fail "$s.sh failed"; }
  [ -s "$work/out/snapshot_0001.h5" ] || fail "$s.sh wrote no snapshot"
  echo "ok: $s.sh ran the submit folder's build/ionfront"
done

# no ionfront anywhere: a message and exit 2, before anything starts
rm "$work/clone/build/ionfront"
(cd "$work" && PATH=$path_without "$work/clone/job-scripts/mpirun-local.sh" "$work/run.yaml" 1) \
  > "$work/none.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] || { cat "$work/none.txt"; fail "without ionfront: exit $rc, want 2"; }
grep -q "IONFRONT=" "$work/none.txt" || fail "the message does not say how to fix it"
echo "ok: without ionfront: $(cat "$work/none.txt")"
