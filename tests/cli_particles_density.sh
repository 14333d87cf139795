#!/usr/bin/env bash
# Particles from a density grid (particles.generate.kind density_file) with the grid's
# source file: the built-in iliev4_particles on a 16^3 stand-in field runs one step;
# bad input names the key, file or value (sources file without a density grid, a
# count_1d that is not the file's, n_H beside a density file, a missing file).
# usage: cli_particles_density.sh /path/to/ionfront
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMP_NUM_THREADS=1
failures=0

"$ionfront" generate iliev4 --N 16 --out iliev4_ic32 > gen.log 2>&1 \
  || { cat gen.log; echo "FAIL: generate iliev4"; exit 1; }
"$ionfront" example iliev4_particles > p.yaml || { echo "FAIL: example iliev4_particles"; exit 1; }
short=(--set particles.generate.count_1d=16 --set particles.rays_per_source=192
       --set "time.t_end=0.01 Myr" --set "time.outputs=[0.01 Myr]" --set raytracing.backend=cpu)

source "$(dirname "$0")/expect_fails.sh"
expect() { # NAME TEXT ARGS...: `ionfront run ARGS` fails with TEXT
  local name="$1" text="$2"
  shift 2
  expect_fails "$name" "$text" "$ionfront" run "$@"
}
expect "count_1d is not the file's" "count_1d = 32" p.yaml
expect "n_H beside a density file" "particles.generate.n_H does not apply to kind density_file" \
  p.yaml "${short[@]}" --set particles.generate.n_H=1e-3
expect "missing density file" "particles.generate.file = nope.h5" p.yaml "${short[@]}" \
  --set particles.generate.file=nope.h5
expect "missing source file" "sources.file = nope.txt" p.yaml "${short[@]}" --set sources.file=nope.txt
expect "source file without a grid" "needs particles.generate.kind = density_file" p.yaml \
  --set "particles.generate={kind: lattice, count_1d: 8, n_H: 1e-3, box: 71 kpc}"
expect "file with kind lattice" "particles.generate.file applies to kind density_file only" p.yaml \
  --set "particles.generate={kind: lattice, count_1d: 8, n_H: 1e-3, box: 71 kpc, file: a.h5}"

"$ionfront" run p.yaml "${short[@]}" --output out > run.log 2>&1 \
  || { cat run.log; echo "FAIL: iliev4_particles at 16^3"; exit 1; }
grep -q "4096 particles (generated).*16 source(s)" run.log \
  || { cat run.log; echo "FAIL: not 4096 particles and 16 sources"; failures=$((failures + 1)); }
[ -f out/snapshot_0001.h5 ] || { echo "FAIL: no snapshot"; failures=$((failures + 1)); }
# the effective config in the snapshot runs again as it is
if command -v h5dump >/dev/null; then
  h5dump -a /Header/config -y -w 0 out/snapshot_0001.h5 > cfg.txt 2>/dev/null
  grep -q "kind: density_file" cfg.txt || { echo "FAIL: effective config lacks the kind"; failures=$((failures + 1)); }
fi
echo "ok   iliev4_particles at 16^3: $(grep -m1 particles run.log)"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
