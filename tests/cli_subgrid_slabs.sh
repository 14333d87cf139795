#!/usr/bin/env bash
# The sub-grid models on a grid split in slabs (issue 25): an expanding run with
# raytracing.mean_free_path (a photon radius that grows from step to step; the halos
# sized for the largest, at the run's end) and the density clumping model (each cell's C
# against the mean n_H of the whole grid, summed over the ranks; a dense clump in rank 0's
# slab makes the slabs' own means differ) gives on 2 ranks in slabs
# what it gives on 1: x_HII and Gamma_HI of the last snapshot to 1e-12 relative (as
# cli_decomp), the same iterations per step.
# usage: cli_subgrid_slabs.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
"$ionfront" example expanding > "$work/exp.yaml"
base=(run "$work/exp.yaml" --set grid.N=16 --set grid.periodic=true
      --set 'sources=[{position: [8, 8, 8], Ndot: 1e56}, {position: [2, 12, 5], Ndot: 3e55}]'
      --set 'time.dt=10 Myr' --set 'time.t_end=30 Myr' --set 'time.outputs=[30 Myr]'
      --set output.dTb=false --set output.progress=false --set raytracing.backend=cpu
      --set 'raytracing.mean_free_path={model: Choudhury09, A: 2000 Mpc, eta: -9}'
      --set 'chemistry.clumping={model: density}'
      --set 'material.clumps=[{center: [3 Mpc, 8 Mpc, 8 Mpc], radius: 3 Mpc, n_H: 2e-3}]')
run() { # run NAME RANKS args...: a run into $work/NAME
  local name="$1" p="$2"
  shift 2
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" "${base[@]}" "$@" \
    --output "$work/$name" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "$name"; }
}
run whole 1
run slabs 2 --set grid.decomposition=slabs
grep -q "grid split in slabs of i-planes over 2 ranks" "$work/slabs.log" \
  || { cat "$work/slabs.log"; fail "no slabs in the start-up lines"; }
# R grows from 2.9 to 3.6 cells over the three steps: halos of ceil(3.6) = 4 planes
grep -q "a halo of 4 planes" "$work/slabs.log" || { cat "$work/slabs.log"; fail "halo width"; }
grep -q "R_max: Choudhury09 mean free path" "$work/slabs.log" || fail "no R_max line"
for d in /Grid/x_HII /Grid/Gamma_HI; do
  h5diff -p 1e-12 "$work/whole/snapshot_0001.h5" "$work/slabs/snapshot_0001.h5" "$d" "$d" \
    > "$work/diff" 2>&1 || { head -8 "$work/diff"; fail "$d: slabs differ from one rank"; }
done
cmp -s <(cut -d, -f1-4 "$work/whole/log.csv") <(cut -d, -f1-4 "$work/slabs/log.csv") \
  || fail "iterations differ"
echo "ok: 2 ranks in slabs = 1 rank to 1e-12, with R_max(z) and density clumping"
