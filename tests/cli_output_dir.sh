#!/usr/bin/env bash
# A run into an output directory that holds another run's files is refused before
# anything is written (naming the folder, the files and --overwrite), on 1 and 2 ranks;
# --overwrite (or output.overwrite: true) removes that run's files first, and only
# ionfront's own; an empty, absent or unrelated folder is fine.
# usage: cli_output_dir.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
seen=0
ok() { [ "$failures" -eq "$seen" ] && echo "ok   $*"; seen=$failures; } # ok only if no new failure
die() { echo "FAIL: $*"; exit 1; }
args=(run --quiet --set grid.N=8 --set 'time.dt=10 Myr')
four=(--set 'time.t_end=40 Myr' --set 'time.outputs=[10 Myr, 20 Myr, 30 Myr, 40 Myr]')
two=(--set 'time.t_end=20 Myr' --set 'time.outputs=[10 Myr, 20 Myr]')

# an absent folder, then a folder with unrelated files only: fine
"$ionfront" "${args[@]}" "${four[@]}" --output a/b > first.log 2>&1 || { cat first.log; die "run into an absent folder"; }
mkdir other && echo keep > other/notes.txt && mkdir other/subdir && touch other/snapshot_notes.txt
"$ionfront" "${args[@]}" "${two[@]}" --output other > other.log 2>&1 \
  || { cat other.log; fail "a folder with unrelated files refused"; }
[ -s other/snapshot_0002.h5 ] || fail "no snapshot in the folder with unrelated files"
ok "an absent folder and one with unrelated files are fine"

# the same folder again: refused, nothing touched
cp -r a/b before
"$ionfront" "${args[@]}" "${two[@]}" --output a/b > again.log 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "a second run into a/b exited 0"
grep -q "output directory 'a/b' holds another run's files" again.log || { cat again.log; fail "no message naming the folder"; }
grep -q -- "--overwrite" again.log || fail "the message does not name --overwrite"
grep -q "snapshot_00\|log.csv" again.log || fail "the message does not name the files"
diff -r before a/b > /dev/null || fail "the refused run changed a/b"
ok "a folder with another run's files is refused (exit $rc), nothing changed"

# on 2 ranks: every rank stops, no hang
timeout 60 "$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" "${args[@]}" "${two[@]}" \
  --output a/b > again2.log 2>&1
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || { cat again2.log; fail "2 ranks: exit $rc (124: hang)"; }
diff -r before a/b > /dev/null || fail "the refused 2-rank run changed a/b"
ok "refused on 2 ranks too (exit $rc)"

# --overwrite: the earlier run's files go, unrelated ones stay
echo keep > a/b/notes.txt
touch a/b/.snapshot_0007.h5.tmp a/b/xfrac3D_t1.000Myr.bin a/b/snapshot_0003.h5.backup
"$ionfront" "${args[@]}" "${two[@]}" --output a/b --overwrite > over.log 2>&1 || { cat over.log; fail "--overwrite refused"; }
[ ! -e a/b/snapshot_0003.h5 ] && [ ! -e a/b/snapshot_0004.h5 ] && [ ! -e a/b/snapshot_0004.xmf ] \
  && [ ! -e a/b/snapshot_0004.vtk.hdf ] && [ ! -e a/b/snapshot_0003.vtk.hdf ] \
  || fail "--overwrite left the earlier run's later snapshots: $(ls a/b)"
[ ! -e a/b/.snapshot_0007.h5.tmp ] && [ ! -e a/b/xfrac3D_t1.000Myr.bin ] || fail "--overwrite left a temporary or C2-Ray file"
[ -s a/b/snapshot_0002.h5 ] || fail "--overwrite: no new snapshot"
[ "$(cat a/b/notes.txt)" = keep ] && [ -e a/b/snapshot_0003.h5.backup ] || fail "--overwrite removed an unrelated file"
[ "$(wc -l < a/b/log.csv)" -eq 3 ] || fail "log.csv has $(wc -l < a/b/log.csv) lines, not a header and 2 steps"
ok "--overwrite removed the earlier run's files only"

# the config key does the same
"$ionfront" "${args[@]}" "${four[@]}" --set output.overwrite=true --output a/b > key.log 2>&1 \
  || { cat key.log; fail "output.overwrite: true refused"; }
[ -s a/b/snapshot_0004.h5 ] || fail "output.overwrite: no snapshot 4"
ok "output.overwrite: true"
# a restart into another folder: as a new run there (a restart in place: tests/cli_restart.sh)
"$ionfront" "${args[@]}" "${four[@]}" --set debug.signal_after_step=2 --output ck > ck.log 2>&1
[ $? -eq 13 ] || { cat ck.log; die "the stopped run did not exit 13"; }
cp -r a/b before2
"$ionfront" "${args[@]}" "${four[@]}" --output a/b --restart ck/checkpoint.h5 > rs.log 2>&1 \
  && fail "a restart into a folder with another run's files exited 0"
grep -q "output directory 'a/b' holds another run's files" rs.log || { cat rs.log; fail "restart elsewhere: no message"; }
diff -r before2 a/b > /dev/null || fail "the refused restart changed a/b"
"$ionfront" "${args[@]}" "${four[@]}" --output fresh --restart ck/checkpoint.h5 > fresh.log 2>&1 \
  || { cat fresh.log; fail "a restart into a new folder refused"; }
"$ionfront" "${args[@]}" "${four[@]}" --output a/b --overwrite --restart ck/checkpoint.h5 > rso.log 2>&1 \
  || { cat rso.log; fail "a restart into a/b with --overwrite refused"; }
[ ! -e a/b/snapshot_0000.h5 ] && [ -s a/b/snapshot_0004.h5 ] && [ -s ck/checkpoint.h5 ] \
  || fail "restart with --overwrite: $(ls a/b)"
ok "a restart into another folder: refused there with another run's files, fine when new or with --overwrite"
[ "$failures" -eq 0 ] || exit 1
echo "all output directory checks passed"
