#!/usr/bin/env bash
# ParaView draws the box as it is (x, y, z the snapshot's i, j, k), from both
# sidecars: snapshot_NNNN.vtk.hdf (links into the snapshot) and snapshot_NNNN.xmf
# (a transposed copy). A source in cell (7, 1, 0) of a 16^3 box of 1.6 kpc must
# have its largest photoionization rate at (0.75, 0.15, 0.05) kpc, the cell's
# centre; with x and z swapped it would be at (0.05, 0.15, 0.75).
# Needs ParaView's pvpython (Debian: paraview); without it: exit 77.
# usage: viewer_axes.sh /path/to/ionfront /path/to/viewer_axes.py
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
script="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
command -v pvpython >/dev/null || { echo "pvpython not found (Debian: paraview)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$ionfront" run --set grid.N=16 --set 'grid.box_size=1.6 kpc' --set 'time.dt=1 Myr' \
  --set 'time.t_end=1 Myr' --set 'time.outputs=[1 Myr]' --set output.progress=false \
  --set output.xdmf=true --set 'sources=[{position: [7, 1, 0], Ndot: 1e50}]' \
  --output "$work/out" > "$work/run.txt" 2>&1 || { cat "$work/run.txt"; fail "the run failed"; }
for f in snapshot_0001.vtk.hdf:POINTS snapshot_0001.xmf:CELLS; do
  file=${f%%:*}
  # from another folder: the sidecars find their data by relative names
  got=$(cd / && pvpython --force-offscreen-rendering "$script" "$work/out/$file" "${f##*:}" Gamma_HI 2>"$work/pv.txt" | tail -1)
  [ -n "$got" ] || { cat "$work/pv.txt"; fail "pvpython read nothing from $file"; }
  python3 - "$got" "$file" <<'PY' || exit 1
import sys
got = [float(v) for v in sys.argv[1].split()]
want = (0.75, 0.15, 0.05)
if any(not abs(g - w) < 1e-6 for g, w in zip(got, want)):
    sys.exit(f"FAIL: {sys.argv[2]}: ParaView puts the source cell at {got}, want {want} kpc")
print(f"ok: {sys.argv[2]}: the source cell is at {got} kpc in ParaView")
PY
done
