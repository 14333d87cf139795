#!/usr/bin/env bash
# A small end-to-end run through the command line: exit code 0, snapshots,
# log.csv and ifront.csv written, and the snapshots readable with h5py
# (checked by check_snapshot.py). A rerun into the same directory replaces
# the files; the config the run stored re-runs to the same result.
# usage: cli_small_run.sh /path/to/ionfront /path/to/check_snapshot.py
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
checker="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$ionfront" run --set grid.N=24 --set 'time.dt=20 Myr' --set 'time.t_end=100 Myr' \
  --set 'time.outputs=[20 Myr, 100 Myr]' --set output.c2ray_binary=true \
  --output "$work/out" > "$work/stdout" 2>&1 \
  || { cat "$work/stdout"; fail "run exited non-zero"; }
cat "$work/stdout"
grep -q "outputs:" "$work/stdout" || fail "no summary of where outputs went"
grep -q "I-front along x" "$work/stdout" || fail "no I-front comparison"
for f in snapshot_0000.h5 snapshot_0001.h5 snapshot_0002.h5 log.csv ifront.csv \
         snapshot_0002.vtk.hdf xfrac3D_t100.000Myr.bin IonRates3D_t100.000Myr.bin; do
  [ -s "$work/out/$f" ] || fail "missing $f"
done
[ -z "$(ls -A "$work/out" | grep '\.tmp$')" ] || fail "temporary files left"
rows=$(($(wc -l < "$work/out/log.csv") - 1))
[ "$rows" -eq 5 ] || fail "log.csv has $rows rows, expected 5 steps"

python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c "import h5py, numpy" 2>/dev/null; then python="$p"; break; fi
done
if [ -z "$python" ]; then echo "no python3 with h5py: snapshot contents not checked"; exit 77; fi
"$python" "$checker" "$work/out/snapshot_0002.h5" 24 100 || fail "snapshot check"

# The C2-Ray binary (what tools21cm reads: 3 int32 dims between record
# markers, then Fortran-order data) holds the snapshot's x_HII.
"$python" - "$work/out/snapshot_0002.h5" "$work/out/xfrac3D_t100.000Myr.bin" <<'PY' || fail "C2-Ray export"
import h5py, numpy, sys
x = h5py.File(sys.argv[1], "r")["Grid/x_HII"][...]
raw = open(sys.argv[2], "rb").read()
head = numpy.frombuffer(raw[:20], dtype=numpy.int32)
assert list(head) == [12, 24, 24, 24, 12], head
data = numpy.frombuffer(raw[24:-4], dtype=numpy.float64).reshape((24, 24, 24), order="F")
assert numpy.array_equal(data, x)
PY

# The stored config reproduces the run.
"$python" -c "import h5py,sys; open(sys.argv[2],'w').write(h5py.File(sys.argv[1],'r').attrs['config'])" \
  "$work/out/snapshot_0002.h5" "$work/stored.yaml"
"$ionfront" run "$work/stored.yaml" --output "$work/again" --quiet > /dev/null 2>&1 || fail "stored config does not run"
"$python" - "$work/out/snapshot_0002.h5" "$work/again/snapshot_0002.h5" <<'PY' || fail "rerun differs"
import h5py, numpy, sys
a, b = (h5py.File(p, "r")["/Grid/x_HII"][...] for p in sys.argv[1:3])
assert numpy.array_equal(a, b), abs(a - b).max()
PY
# A density grid from an HDF5 file reaches the run unchanged.
"$python" - "$work/dens.h5" <<'PY'
import h5py, numpy, sys
n = numpy.full((24, 24, 24), 1e-3)
n[12:, :, :] = 2e-3
with h5py.File(sys.argv[1], "w") as f:
    f["density/n_H"] = n
PY
"$ionfront" run --quiet --set grid.N=24 --set 'time.dt=20 Myr' --set 'time.t_end=20 Myr' --set 'time.outputs=[20 Myr]' \
  --set "material.n_H={file: $work/dens.h5, dataset: density/n_H}" --output "$work/dens" \
  > "$work/dens.log" 2>&1 || { cat "$work/dens.log"; fail "run with an HDF5 density failed"; }
"$python" - "$work/dens.h5" "$work/dens/snapshot_0001.h5" <<'PY' || fail "density not carried through"
import h5py, numpy, sys
a = h5py.File(sys.argv[1], "r")["density/n_H"][...]
b = h5py.File(sys.argv[2], "r")["Grid/n_H"][...]
assert numpy.array_equal(a, b)
PY
echo "ok"
