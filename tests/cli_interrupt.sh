#!/usr/bin/env bash
# Interrupts and fatal errors keep the work done:
#  - Ctrl-C (SIGINT) stops a run at the end of the step with DIR/checkpoint.h5 and
#    exit code 13, as SIGTERM / SIGUSR1 do;
#  - a fatal error after a finished step (a later redshift's inputs unreadable:
#    debug.fail_load_rank; rank 0's log.csv row failing: debug.fail_log_step) ends the
#    run with a non-zero exit and a checkpoint of the last finished step, named in the
#    message; restarted once the cause is gone, the run ends bit for bit as an
#    uninterrupted one (1 and 2 ranks, one thread per rank);
#  - a snapshot that cannot be written ends the run with a checkpoint; the restart
#    writes that snapshot first and ends bit for bit as an uninterrupted run.
# usage: cli_interrupt.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
python=/usr/bin/python3
"$python" -c "import h5py, numpy" 2>/dev/null || { echo "no python3 with h5py: skipped"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
seen=0
ok() { [ "$failures" -eq "$seen" ] && echo "ok   $*"; seen=$failures; } # ok only if no new failure
die() { echo "FAIL: $*"; exit 1; }
launch() { local p="$1"; shift; timeout 120 "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$@"; }

# ---- Ctrl-C: a real SIGINT while the run is stepping ------------------------------------
set -m # job control: the background run does not start with SIGINT ignored
"$ionfront" run --set grid.N=24 --set 'time.dt=1 Myr' --set 'time.t_end=400 Myr' \
  --set 'time.outputs=[400 Myr]' --output int > int.log 2>&1 &
pid=$!
set +m
for _ in $(seq 1 100); do grep -q "^step" int.log && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 13 ] || { tail -5 int.log; fail "SIGINT: exit code $rc, not 13"; }
[ -s int/checkpoint.h5 ] || fail "SIGINT: no checkpoint"
grep -q "stopped by signal 2 after step" int.log || fail "SIGINT: no 'stopped by signal' message"
ok "SIGINT (Ctrl-C) wrote a checkpoint and stopped (exit $rc)"

# ---- a production run whose later inputs cannot be read --------------------------------
mkdir -p inputs
"$python" - inputs <<'PY' || die "making the inputs"
import sys, h5py, numpy as np
d, n, box_mpc = sys.argv[1], 16, 2.0
rng = np.random.default_rng(7)
for z, halos in [(9.0, 0), (8.9, 3), (8.8, 5), (8.7, 2)]:
    mean = 1.9e-4 * ((1 + z) / 10) ** 3          # proper n_H [cm^-3] at z
    with h5py.File(f"{d}/density_z{z:.3f}.h5", "w") as f:
        f["n_H"] = mean * np.exp(0.5 * rng.standard_normal((n, n, n)))
    with h5py.File(f"{d}/halos_z{z:.3f}.h5", "w") as f:
        f.create_dataset("halos/position", data=rng.uniform(0, box_mpc, (halos, 3)))
        f.create_dataset("halos/mass", data=10 ** rng.uniform(8.5, 9.5, halos))
PY
cat > inputs/run.yaml <<'YAML'
grid: {N: 16, box_size: 2 Mpc, periodic: false}
material: {temperature: 1.0e4, x_HII_initial: 1.2e-3}
spectrum: {type: grey}
time: {dt: 2.5 Myr}
cosmology: {cosmological: true}
sequence:
  redshifts: [9.0, 8.9, 8.8, 8.7]
  density: {pattern: "density_z%.3f.h5", dataset: n_H}
  halos: {pattern: "halos_z%.3f.h5", f_gamma: 20, t_source: 10 Myr}
YAML
cfg=inputs/run.yaml
same() { # same FULL OUT: every snapshot bit for bit, log.csv's columns but wall time
  for s in "$1"/snapshot_*.h5; do
    local b
    b=$(basename "$s")
    for d in /Grid/x_HII /Grid/T /Grid/n_H; do
      h5diff "$s" "$2/$b" "$d" "$d" > /dev/null || { fail "$d of $b differs in $2"; return; }
    done
  done
  cmp -s <(cut -d, -f1-6,8-10 "$1/log.csv") <(cut -d, -f1-6,8-10 "$2/log.csv") \
    || fail "log.csv of $2 differs"
}
for p in 1 2; do
  launch "$p" "$ionfront" run "$cfg" --quiet --output "full$p" > "full$p.log" 2>&1 \
    || { cat "full$p.log"; die "uninterrupted run on $p rank(s)"; }
  boundary=$(awk -F, 'NR > 1 && $8 == 8.9 { print $1; exit }' "full$p/log.csv")
  # rank p-1 cannot read the inputs of z = 8.9: the run ends after step $boundary
  launch "$p" "$ionfront" run "$cfg" --quiet --set debug.fail_load_rank=$((p - 1)) \
    --output "fail$p" > "fail$p.log" 2>&1
  rc=$?
  [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || { cat "fail$p.log"; die "$p rank(s): failed read: exit $rc"; }
  grep -q "checkpoint of step $boundary (t = .*) written to fail$p/checkpoint.h5" "fail$p.log" \
    || { cat "fail$p.log"; fail "$p rank(s): the message does not name the checkpoint of step $boundary"; }
  [ -s "fail$p/checkpoint.h5" ] || die "$p rank(s): no checkpoint after the failed read"
  launch "$p" "$ionfront" run "$cfg" --quiet --output "fail$p" --restart "fail$p/checkpoint.h5" \
    > "restart$p.log" 2>&1 || { cat "restart$p.log"; die "$p rank(s): restart after the failed read"; }
  same "full$p" "fail$p"
  ok "$p rank(s): unreadable inputs after step $boundary: exit $rc with a checkpoint; restarted, bit for bit"
done

# ---- rank 0's log.csv row of step 3 cannot be written ------------------------------------
launch 2 "$ionfront" run "$cfg" --quiet --set debug.fail_log_step=3 --output log2 > log2.log 2>&1
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || { cat log2.log; fail "a failed log row: exit $rc"; }
grep -q "checkpoint of step 3 (t = .*) written to log2/checkpoint.h5" log2.log \
  || { cat log2.log; fail "a failed log row: no checkpoint of step 3 named"; }
[ -s log2/checkpoint.h5 ] || fail "a failed log row: no checkpoint"
ok "a failed log.csv row on rank 0 (2 ranks): exit $rc with a checkpoint of step 3"
# ---- a snapshot that cannot be written (a folder of its name is in the way) ------------
args=(run --quiet --set grid.N=16 --set 'time.dt=10 Myr' --set 'time.t_end=100 Myr'
      --set 'time.outputs=[50 Myr, 100 Myr]')
"$ionfront" "${args[@]}" --output snapfull > snapfull.log 2>&1 || { cat snapfull.log; die "uninterrupted Test 1 run"; }
mkdir -p snap/snapshot_0001.h5
"$ionfront" "${args[@]}" --output snap > snap.log 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "a failed snapshot write ended with exit 0"
grep -q "checkpoint of step 5 (t = 50 Myr) written to snap/checkpoint.h5" snap.log \
  || { cat snap.log; fail "a failed snapshot write: no checkpoint of step 5 named"; }
rmdir snap/snapshot_0001.h5
"$ionfront" "${args[@]}" --output snap --restart snap/checkpoint.h5 > snap_restart.log 2>&1 \
  || { cat snap_restart.log; die "restart after the failed snapshot write"; }
[ -s snap/snapshot_0001.h5 ] || fail "the restart did not write the snapshot that had failed"
for s in snapshot_0001.h5 snapshot_0002.h5; do
  for d in /Grid/x_HII /Grid/T; do
    h5diff "snapfull/$s" "snap/$s" "$d" "$d" > /dev/null || fail "$d of $s differs after the restart"
  done
done
cmp -s <(cut -d, -f1-6 snapfull/log.csv) <(cut -d, -f1-6 snap/log.csv) || fail "log.csv differs after the restart"
ok "a failed snapshot write: exit $rc with a checkpoint; restarted, the snapshot written, bit for bit"

# the last snapshot (at time.t_end) fails: the checkpoint is at t_end; the restart writes it
mkdir -p last/snapshot_0002.h5
"$ionfront" "${args[@]}" --output last > last.log 2>&1 && fail "a failed last snapshot ended with exit 0"
grep -q "checkpoint of step 10 (t = 100 Myr) written to last/checkpoint.h5" last.log \
  || { cat last.log; fail "a failed last snapshot: no checkpoint of step 10 named"; }
rmdir last/snapshot_0002.h5
"$ionfront" "${args[@]}" --output last --restart last/checkpoint.h5 > last_restart.log 2>&1 \
  || { cat last_restart.log; fail "restart at t_end after the failed last snapshot"; }
h5diff snapfull/snapshot_0002.h5 last/snapshot_0002.h5 /Grid/x_HII /Grid/x_HII > /dev/null \
  || fail "the last snapshot written on the restart differs from the uninterrupted run's"
ok "a failed last snapshot: the checkpoint at t_end restarts and writes it, bit for bit"
[ "$failures" -eq 0 ] || exit 1
echo "all interrupt checks passed"
