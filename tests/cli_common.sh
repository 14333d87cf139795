# The common start of the command-line tests that take MPIEXEC and IONFRONT (sourced,
# not run):  . "$(dirname "$0")/cli_common.sh" "$@"
# Sets mpiexec and ionfront (an absolute path), a scratch folder $work removed on exit,
# Open MPI's permission to run as root, one OpenMP thread, fail() (prints FAIL: and
# exits 1) and cli_need_h5diff (skips, 77, without HDF5's h5diff).
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; exit 1; }
cli_need_h5diff() {
  command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
}
