#!/usr/bin/env bash
# Bad input must end with a clear message naming the problem and a non-zero
# exit code below 128 (no crash), and must not leave a snapshot behind.
# usage: cli_bad_input.sh /path/to/ionfront
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0

# expect NAME EXPECTED_TEXT -- ionfront arguments...
source "$(dirname "$0")/expect_fails.sh"
expect() { # NAME TEXT UNUSED ARGS...
  local name="$1" text="$2"
  shift 3
  expect_fails "$name" "$text" "$ionfront" "$@"
}

small=(--set grid.N=16 --set time.t_end=1 --set time.dt=1 --set 'time.outputs=[1]' --quiet)

printf 'grid: {N: 16, box_size: [1\n' > syntax.yaml
expect "YAML syntax error" "syntax.yaml:" -- run syntax.yaml
"$ionfront" example default > good.yaml
sed 's/box_size:/box_sise:/' good.yaml > unknown.yaml
expect "unknown key" "did you mean 'box_size'" -- run unknown.yaml
expect "unknown key via --set" "did you mean" -- run "${small[@]}" --set grid.periodc=true
expect "wrong type" "grid.N" -- run "${small[@]}" --set grid.N=abc
expect "non-integer size" "grid.N" -- run --set grid.N=64.5
expect "impossible size" "grid.N" -- run --set grid.N=100000
expect "negative density" "n_H" -- run "${small[@]}" --set material.n_H=-1e-3
expect "NaN density" "n_H" -- run "${small[@]}" --set material.n_H=.nan
expect "source outside the grid" "outside" -- run "${small[@]}" --set 'sources=[{position: [0, 0, 99], Ndot: 1e48}]'
expect "negative photon rate" "Ndot" -- run "${small[@]}" --set 'sources=[{position: [0, 0, 0], Ndot: -1e48}]'
expect "clump outside the box" "material.clumps[0].center" -- run "${small[@]}" --set 'material.clumps=[{center: [5 kpc, 3.3 kpc, 9 kpc], radius: 0.8 kpc, n_H: 0.04}]'
expect "clump of no cell" "no cell centre lies inside" -- run "${small[@]}" --set 'material.clumps=[{center: [5 kpc, 3.3 kpc, 3.3 kpc], radius: 1 pc, n_H: 0.04}]'
expect "clump without radius" "material.clumps[0].radius" -- run "${small[@]}" --set 'material.clumps=[{center: [5 kpc, 3.3 kpc, 3.3 kpc], n_H: 0.04}]'
expect "unknown face" "did you mean 'x_low'" -- run "${small[@]}" --set 'sources=[{plane: x_lo, flux: 1e6}]'
expect "zero plane flux" "sources[0].flux" -- run "${small[@]}" --set 'sources=[{plane: x_low, flux: 0}]'
expect "plane in a periodic box" "non-periodic" -- run "${small[@]}" --set grid.periodic=true --set 'sources=[{plane: z_high, flux: 1e6}]'
expect "point and plane keys mixed" "not keys of both" -- run "${small[@]}" --set 'sources=[{position: [0, 0, 0], flux: 1e6}]'
expect "missing config file" "missing.yaml" -- run missing.yaml
expect "missing density file" "nothere.h5" -- run "${small[@]}" --set 'material.n_H={file: nothere.h5, dataset: n_H}'
expect "missing source file" "nosources.txt" -- run "${small[@]}" --set 'sources={file: nosources.txt}'
echo "not a number" > bad_sources.txt
expect "malformed source file" "bad_sources.txt" -- run "${small[@]}" --set 'sources={file: bad_sources.txt, format: text}'
touch afile
expect "unwritable output directory" "afile/out" -- run "${small[@]}" --output afile/out
expect "bad unit" "kpcc" -- run "${small[@]}" --set 'grid.box_size=6.6 kpcc'
expect "dt larger than t_end" "time.dt" -- run --set 'time.dt=600 Myr'
expect "unknown option" "--frobnicate" -- run --frobnicate
expect "bad --set" "--set" -- run --set nonsense
expect "unknown example" "nosuch" -- example nosuch
if [ -n "$(ls afile* 2>/dev/null | grep -v '^afile$')" ]; then
  echo "FAIL: files were left behind"; failures=$((failures + 1))
fi
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
