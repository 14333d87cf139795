#!/usr/bin/env bash
# The same multi-source run on 1, 2, 3 and 4 MPI ranks (sources split over the
# ranks, rates summed) gives the same x_HII and Gamma to 1e-12 relative, with
# each way of summing the rates (mpi.reduction: scatter, reduce, allreduce).
# usage: cli_mpi_ranks.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
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
