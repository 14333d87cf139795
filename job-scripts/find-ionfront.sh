# Sourced by the job scripts: sets IONFRONT to the ionfront to run, or exits 2 saying
# how to fix it.  $IONFRONT if set, else build/ionfront of the clone `clone` (the
# caller's: its own folder's parent, or under sbatch, which runs a copy of the script,
# the folder the job was submitted from), else an ionfront on the PATH.
find_ionfront() {
  local c
  for c in "${IONFRONT:-}" "$clone/build/ionfront"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  command -v ionfront && return 0
  echo "ionfront not found: build it (README: build/ionfront, run from the clone's root)" \
       "or set IONFRONT=/path/to/ionfront" >&2
  return 2
}
IONFRONT=$(find_ionfront) || exit 2
