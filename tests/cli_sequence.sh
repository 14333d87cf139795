#!/usr/bin/env bash
# Production runs through the command line (config sequence:), with inputs made by
# h5py: density files and halo catalogues at z = 9.0, 8.9, 8.8, 8.7 (none at 9.0,
# the 8.8 one in pyC2Ray's layout), patterns relative to the config file.
#  - bad inputs (a density file missing in the middle of the list, redshifts not
#    descending, no cosmology, a halo outside the box) end with a message naming
#    the key / file and a non-zero exit before any step (no output directory);
#  - every interval's inputs are announced, and log.csv carries z and the sources;
#  - 1 and 2 MPI ranks give the same snapshots (1e-12; n_H exactly);
#  - a run stopped at an interval boundary or inside an interval and restarted from
#    its checkpoint ends bit for bit like the uninterrupted run (1 and 2 ranks).
# usage: cli_sequence.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
python=/usr/bin/python3
"$python" -c "import h5py, numpy" 2>/dev/null || { echo "no python3 with h5py: skipped"; exit 77; }

mkdir -p "$work/inputs"
"$python" - "$work/inputs" <<'PY' || fail "making the inputs"
import sys, h5py, numpy as np
d, n, box_mpc = sys.argv[1], 16, 2.0
rng = np.random.default_rng(7)
for z, halos in [(9.0, 0), (8.9, 3), (8.8, 5), (8.7, 2)]:
    mean = 1.9e-4 * ((1 + z) / 10) ** 3          # proper n_H [cm^-3] at z
    with h5py.File(f"{d}/density_z{z:.3f}.h5", "w") as f:
        f["n_H"] = mean * np.exp(0.5 * rng.standard_normal((n, n, n)))
    mass = 10 ** rng.uniform(8.5, 9.5, halos)
    with h5py.File(f"{d}/halos_z{z:.3f}.h5", "w") as f:
        if z == 8.8:  # pyC2Ray's layout: 1-based cell indices
            cells = rng.integers(1, n + 1, (halos, 3))
            f["sources_positions"] = cells
            f["sources_mass"] = mass
            with open(f"{d}/sources_z8.8.txt", "w") as out:  # after merging per cell
                print(len({tuple(c) for c in cells}), file=out)
        else:         # ionfront's: comoving Mpc
            f.create_dataset("halos/position", data=rng.uniform(0, box_mpc, (halos, 3)))
            f.create_dataset("halos/mass", data=mass)
PY
cat > "$work/inputs/run.yaml" <<'YAML'
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
cfg="$work/inputs/run.yaml"
cd "$work"  # not the config's directory: the patterns are relative to the config

# ---- bad inputs: message, exit code, nothing written ------------------------------
bad() { # bad NAME TEXT1 TEXT2 -- ionfront run arguments
  local name="$1" t1="$2" t2="$3" out rc
  shift 4
  rm -rf "$work/bad"
  out=$("$ionfront" run "$@" --quiet --output "$work/bad" 2>&1)
  rc=$?
  { [ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]; } || { echo "$out"; fail "$name: exit code $rc"; }
  grep "error" <<<"$out" | grep -qF -- "$t1" || { echo "$out"; fail "$name: no '$t1' in the message"; }
  grep "error" <<<"$out" | grep -qF -- "$t2" || { echo "$out"; fail "$name: no '$t2' in the message"; }
  [ ! -e "$work/bad" ] || fail "$name: the run wrote outputs"
  echo "ok   $name: $(grep -m1 error <<<"$out")"
}
mv inputs/density_z8.900.h5 inputs/away.h5
bad "missing density file" "sequence.density at z = 8.9" "density_z8.900.h5" -- "$cfg"
mv inputs/away.h5 inputs/density_z8.900.h5
bad "redshifts not descending" "sequence.redshifts[2] = 8.95" "strictly descending" -- \
  "$cfg" --set 'sequence.redshifts=[9.0, 8.9, 8.95, 8.7]'
bad "no cosmology" "sequence:" "cosmology.cosmological: true" -- "$cfg" --set cosmology.cosmological=false
bad "halo outside the box" "halos_z8.900.h5" "outside the box" -- \
  "$cfg" --set 'sequence.halos.position_unit=2 Mpc'

# ---- a run: interval messages, log.csv ----------------------------------------------
launch() { "$mpiexec" --oversubscribe --allow-run-as-root -np "$@"; }
launch 1 "$ionfront" run "$cfg" --quiet --output "$work/p1" > "$work/p1.log" 2>&1 \
  || { cat "$work/p1.log"; fail "run on 1 rank"; }
for z in 9.0000 8.9000 8.8000; do
  grep -q "^z = $z (interval" "$work/p1.log" || { cat "$work/p1.log"; fail "no message for z = $z"; }
done
grep -q "z = 8.8000 .*: $(cat "$work/inputs/sources_z8.8.txt") source(s)" "$work/p1.log" \
  || fail "the pyC2Ray catalogue of z = 8.8 did not give $(cat "$work/inputs/sources_z8.8.txt") sources"
for k in 0 1 2 3; do [ -s "$work/p1/snapshot_000$k.h5" ] || fail "no snapshot_000$k.h5"; done
[ ! -e "$work/p1/snapshot_0004.h5" ] || fail "more snapshots than redshifts"
head -1 "$work/p1/log.csv" | grep -q ",redshift,n_sources,Ndot_total_per_s$" || fail "log.csv header"
awk -F, 'NR > 1 && $8 == 8.9 { found = 1 } END { exit !found }' "$work/p1/log.csv" \
  || fail "no log row ends at z = 8.9"
echo "ok   a run along 4 redshifts: $(grep -c '^z = ' "$work/p1.log") interval(s) loaded, $(($(wc -l < "$work/p1/log.csv") - 1)) steps"

# ---- 1 and 2 ranks --------------------------------------------------------------------
same() { # same A B [TOL]: every snapshot agrees (n_H always exactly)
  for k in 0 1 2 3; do
    for d in /Grid/x_HII /Grid/Gamma_HI /Grid/T; do
      h5diff ${3:+-p "$3"} "$1/snapshot_000$k.h5" "$2/snapshot_000$k.h5" "$d" "$d" > /dev/null \
        || fail "$d of snapshot $k differs between $1 and $2"
    done
    h5diff "$1/snapshot_000$k.h5" "$2/snapshot_000$k.h5" /Grid/n_H /Grid/n_H > /dev/null \
      || fail "n_H of snapshot $k differs between $1 and $2"
  done
}
for mode in scatter allreduce; do
  launch 2 "$ionfront" run "$cfg" --quiet --set "mpi.reduction=$mode" --output "$work/p2$mode" \
    > "$work/p2$mode.log" 2>&1 || { cat "$work/p2$mode.log"; fail "run on 2 ranks ($mode)"; }
  same "$work/p1" "$work/p2$mode" 1e-12
  cmp -s <(cut -d, -f1,8-10 "$work/p1/log.csv") <(cut -d, -f1,8-10 "$work/p2$mode/log.csv") \
    || fail "log.csv redshifts or sources differ between 1 and 2 ranks ($mode)"
  echo "ok   2 ranks ($mode) give the snapshots of 1 rank (1e-12)"
done

# ---- restarts mid-sequence ---------------------------------------------------------------
boundary=$(awk -F, 'NR > 1 && $8 == 8.9 { print $1; exit }' "$work/p1/log.csv")
[ -n "$boundary" ] || fail "no step ends at z = 8.9"
for case in "1 $boundary" "1 $((boundary + 2))" "2 $((boundary + 1))"; do
  set -- $case
  p=$1 stop=$2
  full="$work/p1"
  [ "$p" -eq 1 ] || full="$work/p2scatter"
  out="$work/stop${p}_$stop"
  launch "$p" "$ionfront" run "$cfg" --quiet --set debug.signal_after_step=$stop --output "$out" \
    > "$out.log" 2>&1
  rc=$?
  [ "$rc" -eq 13 ] || { cat "$out.log"; fail "stop after step $stop: exit $rc, not 13"; }
  launch "$p" "$ionfront" run "$cfg" --quiet --output "$out" --restart "$out/checkpoint.h5" \
    > "$out.restart.log" 2>&1 || { cat "$out.restart.log"; fail "restart after step $stop"; }
  same "$full" "$out"
  cmp -s <(cut -d, -f1-6,8-10 "$full/log.csv") <(cut -d, -f1-6,8-10 "$out/log.csv") \
    || fail "log.csv differs after the restart from step $stop"
  echo "ok   $p rank(s): stopped after step $stop (interval boundary at step $boundary), restarted: bit for bit"
done

# ---- one rank fails to read a later interval's inputs: the job ends, no hang -----------
start=$(date +%s)
timeout 120 "$mpiexec" --oversubscribe --allow-run-as-root -np 2 \
  "$ionfront" run "$cfg" --quiet --set debug.fail_load_rank=1 --output "$work/fail" \
  > "$work/fail.log" 2>&1
rc=$?
[ "$rc" -ne 124 ] || fail "a rank's failed read left the job hanging"
[ "$rc" -ne 0 ] || { cat "$work/fail.log"; fail "a failed read ended with exit 0"; }
grep -q "rank 1: reading the inputs of z = 8.9 failed" "$work/fail.log" \
  || { cat "$work/fail.log"; fail "the failing rank's message was not reported"; }
[ ! -e "$work/fail/snapshot_0002.h5" ] || fail "the run went on after a failed read"
echo "ok   rank 1 failing to read z = 8.9 ends the 2-rank job in $(($(date +%s) - start)) s (exit $rc)"
