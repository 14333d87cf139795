#!/usr/bin/env bash
# The same multi-source run on 1, 2, 3 and 4 MPI ranks (sources split over the
# ranks, rates summed) gives the same x_HII and Gamma to 1e-12 relative, with
# each way of summing the rates (mpi.reduction: scatter, reduce, allreduce).
# usage: cli_mpi_ranks.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
# Five sources from a C2-Ray style text file (1-based cell indices), two in one cell.
cat > "$work/sources.txt" <<'SRC'
6
4 5 6 1.0e48 1
21 4 13 3.0e48 1
13 13 13 5.0e47 1
2 23 21 2.0e48 1
19 20 3 1.0e48 1
19 20 3 0.5e48 1
SRC
args=(run --quiet --set grid.N=24 --set 'time.dt=2 Myr' --set 'time.t_end=6 Myr'
      --set 'time.outputs=[6 Myr]' --set 'grid.box_size=2 kpc'
      --set "sources={file: $work/sources.txt, format: text}")
"$mpiexec" --allow-run-as-root -np 1 "$ionfront" "${args[@]}" --output "$work/p1" > "$work/log1" 2>&1 \
  || { cat "$work/log1"; echo "FAIL: 1 rank"; exit 1; }
for mode in scatter reduce allreduce; do
  for p in 2 3 4; do
    out="$work/$mode$p"
    "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" "${args[@]}" \
      --set "mpi.reduction=$mode" --output "$out" > "$out.log" 2>&1 \
      || { cat "$out.log"; echo "FAIL: $mode on $p ranks"; exit 1; }
    for d in /Grid/x_HII /Grid/Gamma_HI; do
      if ! h5diff -p 1e-12 "$work/p1/snapshot_0001.h5" "$out/snapshot_0001.h5" "$d" "$d" > "$work/diff" 2>&1; then
        head -20 "$work/diff"; echo "FAIL: $d differs between 1 rank and $p ranks ($mode)"; exit 1
      fi
    done
    echo "ok: $mode on $p ranks matches 1 rank to 1e-12"
  done
done

# Plane-parallel sources are traced by rank 0 alone, so the sum over ranks counts
# them once: Test 3 (plane flux through x = 0, a clump, T evolving) at 16^3, on 1
# and 3 ranks; with the plane alone every field must agree to 1e-12 (a plane
# traced on every rank would triple Gamma), and with two point sources beside it
# x_HII and T to 1e-12 and Gamma to 1e-9: rank 0 then adds the plane before the
# other ranks' point sources, a different order of the sum, and the last-bit
# change of x_av reaches Gamma in ionized cells as ulp / (1 - x_HII) ~ 1e-16 / 1e-7.
"$ionfront" example iliev3 > "$work/iliev3.yaml"
plane='{plane: x_low, flux: 1e6}'
for sources in "[$plane]" "[$plane, {position: [3, 4, 5], Ndot: 1e50}, {position: [12, 10, 9], Ndot: 2e50}]"; do
  pargs=(run "$work/iliev3.yaml" --quiet --set grid.N=16 --set 'time.dt=0.5 Myr'
         --set 'time.t_end=1 Myr' --set 'time.outputs=[1 Myr]' --set "sources=$sources")
  gamma_tol=1e-12
  [ "$sources" = "[$plane]" ] || gamma_tol=1e-9
  rm -rf "$work/plane1"
  "$mpiexec" --allow-run-as-root -np 1 "$ionfront" "${pargs[@]}" --output "$work/plane1" \
    > "$work/plane1.log" 2>&1 || { cat "$work/plane1.log"; echo "FAIL: $sources, 1 rank"; exit 1; }
  for mode in scatter allreduce; do
    out="$work/plane3$mode"
    rm -rf "$out"
    "$mpiexec" --oversubscribe --allow-run-as-root -np 3 "$ionfront" "${pargs[@]}" \
      --set "mpi.reduction=$mode" --output "$out" > "$out.log" 2>&1 \
      || { cat "$out.log"; echo "FAIL: $sources, 3 ranks ($mode)"; exit 1; }
    for check in "/Grid/x_HII 1e-12" "/Grid/T 1e-12" "/Grid/Gamma_HI $gamma_tol"; do
      set -- $check
      if ! h5diff -p "$2" "$work/plane1/snapshot_0001.h5" "$out/snapshot_0001.h5" "$1" "$1" > "$work/diff" 2>&1; then
        head -20 "$work/diff"; echo "FAIL: $1 differs by more than $2 between 1 and 3 ranks, sources $sources ($mode)"; exit 1
      fi
    done
    echo "ok: sources $sources on 3 ranks ($mode) match 1 rank (x_HII, T 1e-12; Gamma $gamma_tol)"
  done
done
