#!/usr/bin/env bash
# problem: thermal from the command line (issue 26): every thermal built-in runs on the CPU
# and writes OUTDIR/thermal.h5 with the stated datasets; the same Q^R, sigma and wall fluxes
# bit for bit on 1, 2 and 3 MPI ranks; the medium read back from an HDF5 file gives the same
# bits as the profile that made it; an earlier run's thermal.h5 is refused without
# --overwrite; --dry-run prints the plan and writes nothing.
# usage: cli_thermal.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
cd "$work" || exit 1
few=(--quiet --set montecarlo.rays_per_element=64)

datasets="/Thermal/T_K /Thermal/Q_R /Thermal/Q_R_sigma"
for name in thermal_slab thermal_cube thermal_wsgg; do
  "$ionfront" example "$name" > "$name.yaml" || fail "example $name"
  grep -q "^problem: thermal" "$name.yaml" || fail "$name: no problem: thermal"
  "$ionfront" run "$name.yaml" "${few[@]}" --output "$name" > "$name.log" 2>&1 \
    || { cat "$name.log"; fail "$name: run failed"; }
  [ -f "$name/thermal.h5" ] || { cat "$name.log"; fail "$name: no thermal.h5"; }
  grep -q "^solved .* cells and .* wall patches" "$name.log" || { cat "$name.log"; fail "$name: no solve line"; }
  grep -q "relative sigma of Q^R: mean" "$name.log" || { cat "$name.log"; fail "$name: no sigma"; }
  walls="x_lo x_hi"
  [ "$name" = thermal_cube ] && walls="x_lo x_hi y_lo y_hi z_lo z_hi"
  for d in $datasets; do
    h5dump -H -d "$d" "$name/thermal.h5" > /dev/null 2>&1 || fail "$name: no dataset $d"
  done
  for w in $walls; do
    for d in q_net q_net_sigma; do
      h5dump -H -d "/Thermal/Walls/$w/$d" "$name/thermal.h5" > /dev/null 2>&1 \
        || fail "$name: no dataset /Thermal/Walls/$w/$d"
    done
  done
  if [ "$name" != thermal_cube ]; then # periodic y, z: no walls there
    h5dump -H -g /Thermal/Walls/y_lo "$name/thermal.h5" > /dev/null 2>&1 \
      && fail "$name: a wall on the periodic y axis"
  fi
  h5dump -A -a /Thermal/Q_R/units "$name/thermal.h5" 2>/dev/null | grep -q 'W/m^3' \
    || fail "$name: Q_R has no units W/m^3"
  for a in rays_per_element seed gas_model config git; do
    h5dump -A -a "/$a" "$name/thermal.h5" > /dev/null 2>&1 || fail "$name: no root attribute $a"
  done
  echo "ok: $name wrote its datasets"
done
h5dump -a /gas_model thermal_wsgg/thermal.h5 | grep -q '"wsgg"' || fail "wsgg: gas_model attribute"

# 1 vs 2 vs 3 ranks: bit for bit (h5diff with no tolerance)
for p in 1 2 3; do
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" run thermal_cube.yaml \
    "${few[@]}" --set grid.cells=8 --output "cube$p" > "cube$p.log" 2>&1 \
    || { cat "cube$p.log"; fail "cube on $p ranks"; }
done
for p in 2 3; do
  for d in /Thermal/Q_R /Thermal/Q_R_sigma /Thermal/Walls/x_lo/q_net /Thermal/Walls/z_hi/q_net_sigma; do
    h5diff cube1/thermal.h5 "cube$p/thermal.h5" "$d" "$d" > diff.out 2>&1 \
      || { head -20 diff.out; fail "$d differs between 1 and $p ranks"; }
  done
  echo "ok: $p ranks give the bits of 1 rank"
done

# the medium from a file: the profile run's T_K read back gives its bits (2 ranks: rank 0
# reads, every rank gets it)
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" run thermal_cube.yaml \
  "${few[@]}" --set grid.cells=8 --set setup=null \
  --set "fields={file: $work/cube1/thermal.h5, T_K: /Thermal/T_K}" --output fromfile \
  > fromfile.log 2>&1 || { cat fromfile.log; fail "fields from a file"; }
for d in /Thermal/T_K /Thermal/Q_R /Thermal/Walls/y_lo/q_net; do
  h5diff cube1/thermal.h5 fromfile/thermal.h5 "$d" "$d" > diff.out 2>&1 \
    || { head -20 diff.out; fail "$d: the file's medium differs from the profile's"; }
done
echo "ok: fields from HDF5 give the profile's bits"

# a second run into the same folder is refused, --overwrite replaces the file
"$ionfront" run thermal_slab.yaml "${few[@]}" --output thermal_slab > again.log 2>&1 \
  && fail "a run over an earlier thermal.h5 was not refused"
grep -q "another run's files" again.log || { cat again.log; fail "the refusal does not say why"; }
"$ionfront" run thermal_slab.yaml "${few[@]}" --output thermal_slab --overwrite > over.log 2>&1 \
  || { cat over.log; fail "--overwrite"; }

# --dry-run: the plan, nothing written
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" run thermal_cube.yaml \
  --dry-run --output planned > plan.log 2>&1 || { cat plan.log; fail "dry run"; }
grep -q "^plan: 4096 cells + 1536 wall patches" plan.log || { cat plan.log; fail "no plan line"; }
grep -q "^rank 1: cells 2048..4095 (2048), wall patches 768..1535 (768)" plan.log \
  || { cat plan.log; fail "no rank 1 line"; }
grep -q "^memory per rank: host" plan.log || { cat plan.log; fail "no memory line"; }
grep -q "the run would start" plan.log || { cat plan.log; fail "no verdict"; }
[ ! -e planned ] || fail "the dry run made its output directory"
echo "ok: dry run"
