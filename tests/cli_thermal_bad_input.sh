#!/usr/bin/env bash
# A bad problem: thermal config ends with a clear message naming the key (and its value)
# and a non-zero exit code below 128, and leaves no thermal.h5 behind (issue 26).
# usage: cli_thermal_bad_input.sh /path/to/ionfront
set -u
here="$(cd "$(dirname "$0")" && pwd)"
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
source "$here/expect_fails.sh" || exit 1
expect() { # NAME TEXT -- ionfront run slab.yaml ARGS...
  local name="$1" text="$2"
  shift 3
  expect_fails "$name" "$text" "$ionfront" run slab.yaml --quiet \
    --set montecarlo.rays_per_element=8 "$@"
}
"$ionfront" example thermal_slab > slab.yaml

expect "not thermal" "problem = radiation" -- --set problem=radiation
expect "unknown section" "did you mean 'walls'" -- --set 'wals={}'
expect "unknown key" "did you mean 'kappa_per_m'" -- --set gas.kapa_per_m=1
expect "missing wall" "missing required key 'walls.x_hi'" -- --set walls.x_hi=null
expect "wall on a periodic axis" "walls.y_lo is given, but the y axis is periodic" -- \
  --set 'walls.y_lo={T_K: 300}'
expect "walls for a closed axis" "missing required key 'walls.y_lo'" -- \
  --set 'grid.periodic=[false, false, true]'
expect "emissivity above 1" "walls.x_lo.emissivity = 1.5" -- --set walls.x_lo.emissivity=1.5
expect "wall without T" "walls.x_hi.T_K" -- --set 'walls.x_hi={emissivity: 0.5}'
expect "negative wall T" "walls.x_lo.T_K = -5" -- --set walls.x_lo.T_K=-5
expect "cells not integer" "grid.cells[1] = 4.5" -- --set 'grid.cells=[32, 4.5, 4]'
expect "cells of two" "a list of 2" -- --set 'grid.cells=[32, 4]'
expect "zero size" "grid.size_m" -- --set grid.size_m=0
expect "grey without kappa" "gas.kappa_per_m" -- --set gas.kappa_per_m=null
expect "negative kappa" "gas.kappa_per_m = -1" -- --set gas.kappa_per_m=-1
expect "kappa with wsgg" "gas.kappa_per_m is given with gas.model = wsgg" -- \
  --set gas.model=wsgg --set gas.x_H2O=0.1
expect "wsgg without species" "gas.model = wsgg with no H2O and no CO2" -- \
  --set gas.model=wsgg --set gas.kappa_per_m=null
expect "unknown gas model" "did you mean 'wsgg'" -- --set gas.model=wsg
expect "mole fraction above 1" "gas.x_H2O = 2" -- --set gas.x_H2O=2
expect "mole fractions over 1" "exceeds 1" -- --set gas.x_H2O=0.7 --set gas.x_CO2=0.6
expect "both fields and setup" "both fields: and setup: are given" -- \
  --set 'fields={file: f.h5, T_K: T}'
expect "neither fields nor setup" "neither fields: nor setup:" -- --set setup=null
expect "unknown profile" "setup.profile = lin3" -- --set setup.profile=lin3
expect "T_K for a profile" "setup.T_K is for setup.profile = uniform" -- --set setup.T_K=300
expect "uniform without T" "setup.T_K" -- --set setup.profile=uniform
expect "profile below 0 K" "setup.profile = parab1 gives T" -- --set setup.profile=parab1 \
  --set 'grid.size_m=[3, 0.125, 0.125]'
expect "missing fields file" "nofile.h5" -- --set setup=null \
  --set 'fields={file: nofile.h5, T_K: T}'
"$ionfront" run slab.yaml --quiet --set montecarlo.rays_per_element=8 --output made > made.log 2>&1 \
  || { cat made.log; echo "FAIL: the good run"; exit 1; }
expect "missing dataset" "has no dataset 'nosuch'" -- --set setup=null \
  --set "fields={file: made/thermal.h5, T_K: nosuch}"
expect "dataset of another shape" "needs shape (16, 4, 4)" -- --set setup=null \
  --set "fields={file: made/thermal.h5, T_K: /Thermal/T_K}" --set 'grid.cells=[16, 4, 4]'
expect "uniform and dataset" "both gas.x_H2O (uniform) and fields.x_H2O" -- --set setup=null \
  --set "fields={file: made/thermal.h5, T_K: /Thermal/T_K, x_H2O: /Thermal/T_K}" \
  --set gas.x_H2O=0.1
expect "mole fractions from T" "x_H2O[0] = " -- --set setup=null --set gas.model=wsgg \
  --set gas.kappa_per_m=null \
  --set "fields={file: made/thermal.h5, T_K: /Thermal/T_K, x_H2O: /Thermal/T_K}"
expect "zero rays" "montecarlo.rays_per_element = 0" -- --set montecarlo.rays_per_element=0
expect "transmissivity 1" "montecarlo.transmissivity_min" -- --set montecarlo.transmissivity_min=1
expect "too many levels" "montecarlo.multigrid.levels = 99" -- --set montecarlo.multigrid.levels=99
expect "sorting too few rays" "montecarlo.sort_gases = true" -- --set montecarlo.sort_gases=true \
  --set montecarlo.rays_per_element=1
expect "unknown backend" "raytracing.backend = gpu" -- --backend gpu
if ! "$ionfront" --version | grep -q ", cuda"; then
  expect "cuda without CUDA" "built without CUDA" -- --backend cuda
fi
expect "restart" "no checkpoints" -- --restart made/thermal.h5
if ls ./*/thermal.h5 2>/dev/null | grep -v '^./made/'; then
  echo "FAIL: a thermal.h5 was left behind"; failures=$((failures + 1))
fi
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
