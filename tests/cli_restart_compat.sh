#!/usr/bin/env bash
# A restart continues only the run that wrote the checkpoint: a checkpoint restarted
# with another n_H, dt, spectrum, box or sources (or another problem altogether) is
# refused, naming the key and both values, before anything is written; a changed
# time.t_end / time.outputs / output.directory continues, to the same result as an
# uninterrupted run to the new t_end.  Grid and particle runs.
# usage: cli_restart_compat.sh /path/to/ionfront
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
seen=0
ok() { [ "$failures" -eq "$seen" ] && echo "ok   $*"; seen=$failures; } # ok only if no new failure
die() { echo "FAIL: $*"; exit 1; }

args=(run --quiet --set grid.N=16 --set 'time.dt=10 Myr' --set 'time.t_end=100 Myr'
      --set 'time.outputs=[50 Myr, 100 Myr]')
"$ionfront" "${args[@]}" --set debug.signal_after_step=3 --output stop > stop.log 2>&1
rc=$?
[ "$rc" -eq 13 ] || { cat stop.log; die "stopped run exited $rc, not 13"; }
[ -s stop/checkpoint.h5 ] || die "no checkpoint"

# refused: exit non-zero, the key named with both values, nothing written
refuse() { # refuse NAME KEY OLD NEW [--set ...]: a restart with these overrides is refused
  local name="$1" key="$2" old="$3" new="$4"
  shift 4
  "$ionfront" "${args[@]}" "$@" --output "bad_$name" --restart stop/checkpoint.h5 > "bad_$name.log" 2>&1
  local rc=$?
  [ "$rc" -ne 0 ] || { fail "$name: a restart with $* exited 0"; return; }
  grep -qF "written by a run with $key = $old; this config has $key = $new" "bad_$name.log" \
    || { cat "bad_$name.log"; fail "$name: the message does not name $key ($old -> $new)"; return; }
  grep -qF "may change on a restart" "bad_$name.log" || { fail "$name: no list of what may change"; return; }
  [ -z "$(ls "bad_$name" 2>/dev/null)" ] || { fail "$name: files written: $(ls "bad_$name")"; return; }
  ok "refused: $name ($key $old -> $new)"
}
refuse n_H material.n_H 1.0e-3 2.0e-3 --set material.n_H=2.0e-3
refuse dt time.dt '10 Myr' '5 Myr' --set 'time.dt=5 Myr'
refuse spectrum spectrum.type grey blackbody --set spectrum.type=blackbody --set spectrum.T_eff=1e5
refuse box grid.box_size '6.6 kpc' '10 kpc' --set 'grid.box_size=10 kpc'
refuse sources 'sources[0].Ndot' 5.0e48 1e49 --set 'sources=[{position: [0, 0, 0], Ndot: 1e49}]'

# another problem altogether (the expanding example) on the same grid size
"$ionfront" example expanding > expanding.yaml
"$ionfront" run expanding.yaml --quiet --set grid.N=16 \
  --set 'sources=[{position: [8, 8, 8], Ndot: 5e48}]' --output bad_expanding \
  --restart stop/checkpoint.h5 > bad_expanding.log 2>&1 && fail "the expanding config continued a Test 1 checkpoint"
grep -q "may change on a restart" bad_expanding.log || { cat bad_expanding.log; fail "expanding: no message"; }

# allowed: a later t_end (and outputs) into another folder continues, as an uninterrupted run
more=(--set 'time.t_end=150 Myr' --set 'time.outputs=[50 Myr, 100 Myr, 150 Myr]')
"$ionfront" "${args[@]}" "${more[@]}" --output full > full.log 2>&1 || { cat full.log; die "uninterrupted run"; }
cp -r stop moved
"$ionfront" "${args[@]}" "${more[@]}" --set output.checkpoint_every=100 --output moved \
  --restart moved/checkpoint.h5 > moved.log 2>&1 || { cat moved.log; die "restart with a later t_end refused"; }
for d in /Grid/x_HII /Grid/T; do
  h5diff -p 1e-12 full/snapshot_0003.h5 moved/snapshot_0003.h5 "$d" "$d" > /dev/null \
    || fail "$d after the restart to t_end = 150 Myr differs from the uninterrupted run's"
done
ok "a restart with a later t_end and outputs, in another folder, continues"

# particle runs: another temperature is refused
cat > p.yaml <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 6, n_H: 1.0e-3, box: 6.6 kpc}
  rays_per_source: 48
material: {temperature: 100, x_HII_initial: 1.2e-3, isothermal: false}
sources:
  - {position: [1 kpc, 1 kpc, 1 kpc], Ndot: 1e48}
time: {dt: 2 Myr, t_end: 8 Myr, outputs: [4 Myr, 8 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG
"$ionfront" run p.yaml --set debug.signal_after_step=2 --output pstop > pstop.log 2>&1
rc=$?
[ "$rc" -eq 13 ] || { cat pstop.log; die "stopped particle run exited $rc, not 13"; }
"$ionfront" run p.yaml --set material.temperature=200 --output pbad --restart pstop/checkpoint.h5 \
  > pbad.log 2>&1 && fail "a particle restart with another temperature exited 0"
grep -qF "material.temperature = 100; this config has material.temperature = 200" pbad.log \
  || { cat pbad.log; fail "particles: the message does not name material.temperature"; }
"$ionfront" run p.yaml --set 'time.t_end=10 Myr' --set 'time.outputs=[4 Myr, 10 Myr]' --output pstop \
  --restart pstop/checkpoint.h5 > pgood.log 2>&1 || { cat pgood.log; fail "particles: a later t_end refused"; }
ok "particle runs: another temperature refused, a later t_end continues"
[ "$failures" -eq 0 ] || exit 1
echo "all restart compatibility checks passed"
