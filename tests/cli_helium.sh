#!/usr/bin/env bash
# A grid run with helium through the command line (CPU): the snapshot holds x_HeII,
# x_HeIII, Gamma_HeI, Gamma_HeII beside hydrogen's; every cell's helium fractions add up
# to at most 1; around a hard source the He III front lies inside the He II front, which
# stays within a cell of the H II front;
# C2-Ray's helium fraction files are written; a restart from a mid-run checkpoint ends
# bit for bit where the uninterrupted run ends.
# usage: cli_helium.sh /path/to/ionfront
set -u
ionfront="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c "import h5py, numpy" 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || { echo "h5py/numpy not found (Debian: python3-h5py)"; exit 77; }
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
export OMP_NUM_THREADS=1
args=(run --quiet --set grid.N=16 --set 'material.abundance_He=0.08'
      --set 'spectrum={type: blackbody, T_eff: 1e5, sub_bins: [1, 6, 6]}' --set 'time.dt=2 Myr'
      --set 'time.t_end=8 Myr' --set 'time.outputs=[4 Myr, 8 Myr]' --set output.c2ray_binary=true)
"$ionfront" "${args[@]}" --output "$work/a" > "$work/a.log" 2>&1 || { cat "$work/a.log"; fail "helium run"; }
ls "$work/a" | grep -q '^xfrac3DHe1_' && ls "$work/a" | grep -q '^xfrac3DHe2_' \
  || fail "no C2-Ray helium fraction files: $(ls "$work/a")"
"$python" - "$work/a/snapshot_0002.h5" <<'PY' || exit 1
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f:
    g = f["Grid"]
    for k in ("x_HII", "x_HeII", "x_HeIII", "Gamma_HI", "Gamma_HeI", "Gamma_HeII"):
        if k not in g:
            sys.exit(f"FAIL: no /Grid/{k}")
    h, y1, y2 = g["x_HII"][()], g["x_HeII"][()], g["x_HeIII"][()]
if not (np.all(np.isfinite(h)) and np.all(np.isfinite(y1)) and np.all(np.isfinite(y2))):
    sys.exit("FAIL: a fraction is not finite")
if np.max(y1 + y2) > 1.0 + 1e-12:
    sys.exit(f"FAIL: x_HeII + x_HeIII reaches {np.max(y1 + y2)}")
line = lambda a: a[:, 0, 0]
def front(a):  # first cell along x where the fraction drops below 1/2
    below = np.nonzero(line(a) < 0.5)[0]
    return below[0] if below.size else a.shape[0]
r_h, r_he, r_he3 = front(h), front(y1 + y2), front(y2)
print(f"ok: fronts along x (cells): H II {r_h}, He II+III {r_he}, He III {r_he3}")
if not (0 < r_he3 <= r_he <= r_h + 1):
    sys.exit("FAIL: the He III front must lie inside the He II front, inside the H II front")
PY
# stopped after step 2 with a checkpoint (exit 13), restarted: the same end, bit for bit
"$ionfront" "${args[@]}" --set debug.signal_after_step=2 --output "$work/c" > "$work/c.log" 2>&1
rc=$?
[ "$rc" -eq 13 ] && [ -s "$work/c/checkpoint.h5" ] || { cat "$work/c.log"; fail "stop with a checkpoint: exit $rc"; }
"$ionfront" "${args[@]}" --output "$work/c" --restart "$work/c/checkpoint.h5" > "$work/d.log" 2>&1 \
  || { cat "$work/d.log"; fail "restart"; }
for d in x_HII x_HeII x_HeIII T; do
  h5diff "$work/a/snapshot_0002.h5" "$work/c/snapshot_0002.h5" "/Grid/$d" "/Grid/$d" > /dev/null \
    || fail "restarted run differs in /Grid/$d"
done
echo "ok: a restart with helium ends bit for bit where the uninterrupted run ends"
