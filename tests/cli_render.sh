#!/usr/bin/env bash
# `ionfront render` end to end on a small Test 1 run: slice pixels match the
# snapshot's data, the PNG text chunks hold the metadata, volume renderings,
# particle files, --all and --frames write the expected frames (also on two MPI
# ranks), and bad input gets a clear message and a non-zero exit.
# usage: cli_render.sh /path/to/ionfront /path/to/render_check.py [mpiexec]
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
checker="$2"
mpiexec="${3:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c "import h5py, numpy, matplotlib" 2>/dev/null; then python="$p"; break; fi
done
[ -n "$python" ] || { echo "no python3 with h5py, numpy, matplotlib: skipped"; exit 77; }

"$ionfront" run --set grid.N=16 --set 'time.dt=10 Myr' --set 'time.t_end=30 Myr' \
  --set 'time.outputs=[10 Myr, 30 Myr]' --output "$work/run" --quiet > "$work/run.log" 2>&1 \
  || { cat "$work/run.log"; fail "the Test 1 run failed"; }
snap="$work/run/snapshot_0002.h5"

# slices along each axis, data at sampled pixels
for s in z:8 y:3 x:0; do
  "$ionfront" render "$snap" --slice $s -o "$work/slice.png" || fail "render --slice $s"
  "$python" "$checker" slice "$work/slice.png" "$snap" || fail "slice $s pixels"
done
"$ionfront" render "$snap" --field Gamma_HI --slice z:5 -o "$work/g.png" || fail "render Gamma_HI"
"$python" "$checker" slice "$work/g.png" "$snap" || fail "slice of Gamma_HI pixels"
"$ionfront" render "$snap" --linear --cmap inferno --slice z:2 -o "$work/l.png" || fail "render --linear"
"$python" "$checker" slice "$work/l.png" "$snap" || fail "linear slice pixels"
"$ionfront" render "$snap" --field T --slice z:5 -o "$work/t.png" || fail "render T"
"$python" "$checker" text "$work/t.png" field=T units=K scale=linear colour_map=magma \
  "snapshot=$snap" "mode=slice z:5" || fail "text chunks of a slice"

# a volume rendering on the CPU
"$ionfront" render "$snap" --volume --size 64 --camera 10,20,1.2 --backend cpu -o "$work/v.png" \
  || fail "render --volume"
"$python" "$checker" text "$work/v.png" field=x_HII backend=cpu \
  "camera=azimuth 10 deg, elevation 20 deg, zoom 1.2" || fail "text chunks of a volume rendering"

# frames: one per snapshot in time order, and an orbit
"$ionfront" render --all "$work/run" --volume --size 48 -o "$work/frames" || fail "render --all"
[ "$(ls "$work/frames" | grep -c '^frame_[0-9]\{4\}\.png$')" -eq 3 ] || fail "--all: expected 3 frames"
"$python" "$checker" text "$work/frames/frame_0002.png" "snapshot=$work/run/snapshot_0002.h5" \
  || fail "--all: the last frame is the last snapshot"
"$ionfront" render "$snap" --volume --size 32 --frames 4 -o "$work/orbit" || fail "render --frames"
[ "$(ls "$work/orbit" | grep -c '^frame_')" -eq 4 ] || fail "--frames 4: expected 4 frames"
"$python" "$checker" text "$work/orbit/frame_0003.png" \
  "camera=azimuth 300 deg, elevation 25 deg, zoom 1" || fail "--frames: orbit angle"
if [ -n "$mpiexec" ]; then
  "$mpiexec" -n 2 --oversubscribe --allow-run-as-root "$ionfront" render --all "$work/run" \
    --slice z:4 -o "$work/mpi" > "$work/mpi.log" 2>&1 || { cat "$work/mpi.log"; fail "render --all on 2 ranks"; }
  grep -q "wrote 3 frame(s)" "$work/mpi.log" || { cat "$work/mpi.log"; fail "2 ranks: frame count"; }
  [ "$(ls "$work/mpi" | grep -c '^frame_')" -eq 3 ] || fail "2 ranks: expected 3 frames"
fi

# a particle file: PartType0 fields binned onto a grid
"$ionfront" generate particles --N 8 --out "$work/p.h5" > /dev/null || fail "generate particles"
"$ionfront" render "$work/p.h5" --field Density --grid 12 --smooth 1 --slice z:6 -o "$work/p.png" \
  > "$work/p.log" || { cat "$work/p.log"; fail "render a particle file"; }
grep -q "512 particles onto 12^3 cells" "$work/p.log" || { cat "$work/p.log"; fail "binning message"; }
"$python" "$checker" text "$work/p.png" field=Density grid_N=12 || fail "particle image text"

# bad input: non-zero exit and a message naming the culprit
expect_error() { # pattern, then the command
  local pattern="$1"; shift
  if "$@" > "$work/err.log" 2>&1; then fail "accepted: $*"; fi
  grep -q -- "$pattern" "$work/err.log" || { cat "$work/err.log"; fail "message lacks '$pattern': $*"; }
}
expect_error "no_such.h5" "$ionfront" render "$work/no_such.h5" -o "$work/x.png"
expect_error "unknown field 'x_HI'" "$ionfront" render "$snap" --field x_HII --field x_HI -o "$work/x.png"
expect_error "z:16 is outside the grid" "$ionfront" render "$snap" --slice z:16 -o "$work/x.png"
expect_error "no output" "$ionfront" render "$snap"
expect_error "unknown option '--colour'" "$ionfront" render "$snap" --colour red -o "$work/x.png"
expect_error "has no dataset '/PartType0/Nope'" "$ionfront" render "$work/p.h5" --field Nope -o "$work/x.png"
expect_error "no snapshot_\*.h5" "$ionfront" render --all "$work/orbit" -o "$work/y"
[ ! -e "$work/x.png" ] || fail "an image was written on bad input"
echo "cli_render: all checks passed"
