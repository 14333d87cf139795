#!/usr/bin/env bash
# Checkpoints and restarts of particle runs (`ionfront run` with the CPU tracer, a
# generated set of 1000 particles, three sources, T evolving): a run of 4 steps
# stopped by SIGUSR1 after step 2 (debug.signal_after_step=2, through the
# handler `ionfront run` installs) exits 13 with DIR/checkpoint.h5, and `--restart`
# continues it to the uninterrupted run's snapshot bit for bit (h5diff without a
# tolerance; one thread) on 1 and on 2 ranks, and to 1e-12 across rank counts
# (1 -> 2, 2 -> 1); output.checkpoint_every writes one too; the log continues; a
# real SIGTERM stops a run with a checkpoint.
# Bad restarts fail naming the file and the mismatch: no checkpoint, a grid
# checkpoint for particles and the reverse, another particle count, other rays, a
# checkpoint already at t_end; a checkpoint that cannot be written leaves the good
# one in place.
# usage: cli_particles_restart.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
die() { echo "FAIL: $*"; exit 1; }

cat > run.yaml <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 10, n_H: 1.0e-3, box: 6.6 kpc}
  rays_per_source: 192
  output_grid: 8
material: {temperature: 100, x_HII_initial: 1.2e-3, isothermal: false}
sources:
  - {position: [1 kpc, 1 kpc, 1 kpc], Ndot: 1e48}
  - {position: [5 kpc, 2 kpc, 3 kpc], Ndot: 3e48}
  - {position: [3 kpc, 3 kpc, 3 kpc], Ndot: 5e47}
time: {dt: 2 Myr, t_end: 8 Myr, outputs: [4 Myr, 8 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG
datasets="/PartType0/IonizedFraction /PartType0/Temperature /PartType0/PhotoionizationRate /Grid/x_HII /Grid/T"
same() { # same A B [-p TOL]: snapshot 2 of A and B agree (exactly without a tolerance); the logs too
  local a="$1" b="$2"
  shift 2
  for d in $datasets; do
    h5diff "$@" "$a/snapshot_0002.h5" "$b/snapshot_0002.h5" "$d" "$d" > diff.txt 2>&1 \
      || { head -5 diff.txt; fail "$d differs between $a and $b ${*:-(bit for bit)}"; return; }
  done
  cmp -s <(cut -d, -f1-6 "$a/log.csv") <(cut -d, -f1-6 "$b/log.csv") || fail "log.csv of $a and $b differ"
}
launch() { local p="$1"; shift; "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" run run.yaml "$@"; }

for p in 1 2; do
  launch "$p" --output "full$p" > "full$p.log" 2>&1 || { cat "full$p.log"; die "uninterrupted run on $p rank(s)"; }
  launch "$p" --set debug.signal_after_step=2 --output "stop$p" > "stop$p.log" 2>&1
  rc=$?
  [ "$rc" -eq 13 ] || { cat "stop$p.log"; die "stopped run on $p rank(s) exited $rc, not 13"; }
  grep -q "checkpoint written to stop$p/checkpoint.h5" "stop$p.log" || fail "no checkpoint message"
  [ -s "stop$p/checkpoint.h5" ] || die "no stop$p/checkpoint.h5"
  [ ! -e "stop$p/snapshot_0002.h5" ] || fail "the stopped run went on"
  ls -a "stop$p" | grep -q tmp && fail "a temporary file was left in stop$p"
  cp -r "stop$p" "cross$p" # for the restart on the other rank count
  launch "$p" --output "stop$p" --restart "stop$p/checkpoint.h5" > "restart$p.log" 2>&1 \
    || { cat "restart$p.log"; die "restart on $p rank(s)"; }
  grep -q "restarting from stop$p/checkpoint.h5 at step 2" "restart$p.log" || fail "no restart line"
  same "full$p" "stop$p"
  echo "ok   stopped after step 2 and restarted on $p rank(s): snapshot 2 and log.csv as without a stop, bit for bit"
done
same full1 full2 -p 1e-12
launch 2 --output cross1 --restart cross1/checkpoint.h5 > cross1.log 2>&1 || { cat cross1.log; die "1 -> 2 ranks"; }
launch 1 --output cross2 --restart cross2/checkpoint.h5 > cross2.log 2>&1 || { cat cross2.log; die "2 -> 1 rank"; }
same full1 cross1 -p 1e-12
same full2 cross2 -p 1e-12
echo "ok   a checkpoint of 1 rank continued on 2 and of 2 on 1: the same result to 1e-12"

# output.checkpoint_every: 3 writes one after step 3 (none at the end); restarted: the same
launch 1 --output every --set output.checkpoint_every=3 > every.log 2>&1 || { cat every.log; die "checkpoint_every run"; }
same full1 every
rm every/snapshot_0002.h5
launch 1 --output every --restart every/checkpoint.h5 > every_r.log 2>&1 || { cat every_r.log; die "restart of checkpoint_every"; }
grep -q "at step 3" every_r.log || { cat every_r.log; fail "checkpoint_every 3: the checkpoint is not at step 3"; }
same full1 every
echo "ok   output.checkpoint_every = 3: a checkpoint after step 3, restarted to the same result"
# the checkpoint is a particle snapshot too
for d in Coordinates SmoothingLength Masses Density IonizedFraction Temperature; do
  h5ls "stop1/checkpoint.h5/PartType0/$d" > /dev/null 2>&1 || fail "checkpoint lacks PartType0/$d"
done

# a real SIGTERM from outside while the particle run steps: a checkpoint, exit 13
"$ionfront" run run.yaml --set 'time.t_end=2000 Myr' --set 'time.outputs=[2000 Myr]' \
  --set output.progress=true --output term > term.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "^step" term.log && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 13 ] || { tail -5 term.log; fail "SIGTERM: exit code $rc, not 13"; }
grep -q "stopped by signal 15" term.log || fail "SIGTERM: no stop message"
[ -s term/checkpoint.h5 ] || fail "SIGTERM: no checkpoint"
echo "ok   SIGTERM wrote a checkpoint and stopped the particle run (exit 13)"

# bad restarts: clear messages, nothing written
source "$(dirname "$0")/expect_fails.sh"
"$ionfront" run --quiet --set grid.N=8 --set 'time.dt=10 Myr' --set 'time.t_end=30 Myr' \
  --set 'time.outputs=[30 Myr]' --set output.checkpoint_every=1 --output grid > grid.log 2>&1 \
  || { cat grid.log; die "grid run"; }
cp stop1/checkpoint.h5 good.h5
expect_fails "no checkpoint" "cannot open checkpoint 'nowhere/checkpoint.h5'" \
  "$ionfront" run run.yaml --output bad --restart nowhere/checkpoint.h5
expect_fails "grid checkpoint for particles" "'grid/checkpoint.h5' is the checkpoint of a grid run (grid.N = 8)" \
  "$ionfront" run run.yaml --output bad --restart grid/checkpoint.h5
expect_fails "particle checkpoint for a grid" "'good.h5' is the checkpoint of a particle run (1000 particles)" \
  "$ionfront" run --set grid.N=8 --output bad --restart good.h5
expect_fails "other particle count" "checkpoint 'good.h5' holds 1000 particles" \
  "$ionfront" run run.yaml --output bad --set particles.generate.count_1d=9 --restart good.h5
expect_fails "other rays" "checkpoint 'good.h5' was written with 192 rays per source" \
  "$ionfront" run run.yaml --output bad --set particles.rays_per_source=48 --restart good.h5
expect_fails "at t_end" "checkpoint 'good.h5' is at 4 Myr, already at time.t_end (4 Myr)" \
  "$ionfront" run run.yaml --output bad --set 'time.t_end=4 Myr' --set 'time.outputs=[4 Myr]' --restart good.h5
expect_fails "a snapshot for a checkpoint" "'full1/snapshot_0001.h5' is not an ionfront checkpoint" \
  "$ionfront" run run.yaml --output bad --restart full1/snapshot_0001.h5
[ ! -e bad ] || fail "a refused restart left an output directory"

# a checkpoint that cannot be written (its temporary name is taken by a directory) fails
# the run naming it, and the good checkpoint already there stays as it was
mkdir keep && cp good.h5 keep/checkpoint.h5 && mkdir keep/checkpoint.h5.tmp
expect_fails "checkpoint not writable" "keep/checkpoint.h5" \
  "$ionfront" run run.yaml --output keep --set output.checkpoint_every=1
cmp -s good.h5 keep/checkpoint.h5 || fail "a failed checkpoint write changed the good checkpoint"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all checks passed"
