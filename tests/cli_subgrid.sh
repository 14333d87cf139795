#!/usr/bin/env bash
# The sub-grid models through the command line (issue 25):
#  - a uniform, isothermal (1e4 K) run with chemistry.clumping: 5 gives the x_HII of the
#    same run with chemistry.alpha_B five times larger, to 1e-12 (C2-Ray binaries compared
#    with Python's standard library), and differs from the run without clumping;
#  - --dry-run and the start-up log print the models and R(z) over the run;
#  - bad input is refused naming the key (unknown model, missing table file, negative and
#    out-of-range values, mean_free_path in a static run);
#  - with h5py: the snapshots of an expanding run carry R_max_cells and clumping_factor,
#    R(z) and C(z) of the last step's middle (the snapshot's density_redshift).
# usage: cli_subgrid.sh /path/to/ionfront
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/expect_fails.sh"

small=(--set grid.N=24 --set 'time.dt=20 Myr' --set 'time.t_end=100 Myr'
       --set 'time.outputs=[100 Myr]' --set output.c2ray_binary=true --set output.progress=false)
"$ionfront" run "${small[@]}" --set chemistry.clumping=5 --output clumped > clumped.log 2>&1 \
  || { cat clumped.log; fail "the run with clumping: 5"; }
"$ionfront" run "${small[@]}" --set chemistry.alpha_B=1.295e-12 --output scaled > scaled.log 2>&1 \
  || { cat scaled.log; fail "the run with alpha_B x 5"; }
"$ionfront" run "${small[@]}" --output plain > plain.log 2>&1 || { cat plain.log; fail "the run without clumping"; }
grep -q "clumping: C = 5" clumped.log || { cat clumped.log; fail "no clumping line at start-up"; }
grep -q "clumping" plain.log && fail "a run without clumping mentions it"
python3 - clumped/xfrac3D_t100.000Myr.bin scaled/xfrac3D_t100.000Myr.bin \
  plain/xfrac3D_t100.000Myr.bin <<'PY' || fail "clumping: 5 against alpha_B x 5"
import struct, sys
def xfrac(path):  # C2-Ray's binary: a record of 3 int32 dims, then one of float64
    raw = open(path, "rb").read()
    n = struct.unpack("<5i", raw[:20])[1:4]
    cells = n[0] * n[1] * n[2]
    return struct.unpack("<%dd" % cells, raw[24:24 + 8 * cells])
a, b, c = (xfrac(p) for p in sys.argv[1:4])
d = max(abs(x - y) if x == x and y == y else float("inf") for x, y in zip(a, b))
plain = max(abs(x - y) for x, y in zip(a, c))
print("clumping: 5 vs alpha_B x 5: max |dx| = %.3g; vs no clumping: %.3g (%d cells)"
      % (d, plain, len(a)))
# measured: 0 (the recombination rates round alike); the runs without clumping differ by O(1)
assert d <= 1e-12, d
assert plain > 0.1, plain
PY

# the dry run and the start-up of an expanding run print the models over its redshifts
"$ionfront" example expanding > exp.yaml
sub=(--set grid.N=16 --set 'sources=[{position: [8, 8, 8], Ndot: 1e56}]' --set 'time.dt=10 Myr'
     --set 'time.t_end=20 Myr' --set 'time.outputs=[20 Myr]' --set output.progress=false
     --set 'raytracing.mean_free_path={model: Worseck2014, A: 2000 Mpc, eta: -9}'
     --set 'chemistry.clumping={model: redshift}' --set raytracing.backend=cpu)
"$ionfront" run exp.yaml "${sub[@]}" --dry-run > dry.log 2>&1 || { cat dry.log; fail "dry run"; }
grep -q "R_max: Worseck2014 mean free path" dry.log || { cat dry.log; fail "dry run: no R_max line"; }
grep -q "clumping: C(z) = 338.76 exp" dry.log || { cat dry.log; fail "dry run: no clumping line"; }
[ -e out ] && fail "the dry run wrote outputs"
"$ionfront" run exp.yaml "${sub[@]}" --output exp > exp.log 2>&1 || { cat exp.log; fail "expanding run"; }
grep -q "R_max: Worseck2014" exp.log || { cat exp.log; fail "start-up: no R_max line"; }

# bad input, refused by key
expect_fails "unknown clumping model" "chemistry.clumping.model" \
  "$ionfront" run "${small[@]}" --set 'chemistry.clumping={model: lognormal}'
expect_fails "missing table file" "chemistry.clumping.table" \
  "$ionfront" run "${small[@]}" --set 'chemistry.clumping={model: density, table: nothere.txt}'
expect_fails "negative clumping" "chemistry.clumping" \
  "$ionfront" run "${small[@]}" --set chemistry.clumping=-5
expect_fails "negative C0" "chemistry.clumping.C0" \
  "$ionfront" run "${small[@]}" --set 'chemistry.clumping={model: redshift, C0: -1, c1: 0, c2: 0}'
expect_fails "mean free path in a static run" "raytracing.mean_free_path" \
  "$ionfront" run "${small[@]}" --set 'raytracing.mean_free_path={model: Choudhury09, A: 210, eta: -9}'
expect_fails "unknown mean-free-path model" "raytracing.mean_free_path.model" \
  "$ionfront" run exp.yaml --set 'raytracing.mean_free_path={model: Songaila, A: 210, eta: -9}'
expect_fails "negative A" "raytracing.mean_free_path.A" \
  "$ionfront" run exp.yaml --set 'raytracing.mean_free_path={model: Choudhury09, A: -1, eta: -9}'

python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c "import h5py, numpy" 2>/dev/null; then python="$p"; break; fi
done
if [ -z "$python" ]; then
  echo "$failures failure(s); no python3 with h5py: the snapshot attributes not checked"
  [ "$failures" -eq 0 ] || exit 1
  exit 77
fi
"$python" - exp/snapshot_0000.h5 exp/snapshot_0001.h5 plain/snapshot_0001.h5 <<'PY' || fail "snapshot attributes"
import sys, math, h5py
mpc = 3.0856775814913673e24
for path in sys.argv[1:3]:
    with h5py.File(path, "r") as f:
        z = f.attrs["density_redshift"]  # the middle of the last step (snapshot 0: z_initial)
        cell = f.attrs["box_size_cm"] / f.attrs["N"]
        u = (1 + z) / 5.0
        r = 2000 * mpc * u ** -9 * (1 + ((1 + z) / 7.0) ** 9) / cell
        c = 338.76 * math.exp(-0.4187 * z + 0.0058528 * z * z) + 1
        print("%s: z %.4f R_max_cells %.6g (model %.6g), clumping_factor %.6g (model %.6g)"
              % (path, z, f.attrs["R_max_cells"], r, f.attrs["clumping_factor"], c))
        assert abs(f.attrs["R_max_cells"] / r - 1) < 1e-12
        assert abs(f.attrs["clumping_factor"] / c - 1) < 1e-12
with h5py.File(sys.argv[3], "r") as f:
    assert "R_max_cells" not in f.attrs and "clumping_factor" not in f.attrs
PY
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
