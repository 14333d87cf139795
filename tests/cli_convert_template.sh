#!/usr/bin/env bash
# ionfront convert's sequence template (issue 25), done as its note says: uncomment it,
# list the redshifts, delete material.n_H, sources:, time.t_end and cosmology.z_initial;
# with tiny input files where the template names them (CubeP3M densities, pyC2Ray's HDF5
# source lists) the config passes `ionfront run --dry-run` with the halo models the file
# chose: dpl, power escape, exponential accretion (cosmo.yml); f_gamma and t_source
# (cosmo_density.yml).
# usage: cli_convert_template.sh /path/to/ionfront DATA_DIR
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
data="$(cd "$2" && pwd)"
command -v h5import >/dev/null || { echo "h5import not found (Debian: hdf5-tools)"; exit 77; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "$1: no '$2'"; }; }

# the template uncommented: its keys (not the comments that continue a line) from
# '# sequence:' to the next section; the keys the sequence gives deleted; the redshifts
uncomment() { # CONVERTED REDSHIFTS
  awk -v z="$2" '
    /^# sequence:$/ { inseq = 1; print "sequence:"; next }
    inseq && /^[^# ]/ { inseq = 0 }
    inseq && match($0, /^ *# (redshifts|density|halos|pattern|format|f_gamma|f_gamma_low_mass|t_source|model|N_ion|f_star|f_esc|accretion):/) {
      sub(/# /, ""); sub(/\[REDSHIFTS\]/, z) }
    /^  (n_H|t_end|z_initial):/ || /^sources:/ { next }
    { print }' "$1"
}

# inputs: CubeP3M densities (the 12-byte header, N^3 float32 of the mean (fine_mesh / N)^3)
# and pyC2Ray's HDF5 source lists (one halo: sources_positions, sources_mass)
inputs() { # DIR N Z...
  local dir=$1 n=$2
  shift 2
  mkdir -p "$dir/coarser_densities" "$dir/sources_hdf5"
  printf '%s\n' "$n" "$@" | python3 -c '
import struct, sys
a = sys.stdin.read().split()
n, d = int(a[0]), sys.argv[1]
for z in a[1:]:
    with open("%s/coarser_densities/%.3fn_all.dat" % (d, float(z)), "wb") as f:
        f.write(struct.pack("<3i", n, n, n) + struct.pack("<f", (8000.0 / n) ** 3) * n ** 3)
' "$dir" || fail "writing the densities"
  printf '3 4 5\n' > pos.txt
  printf '1e10\n' > mass.txt
  printf 'PATH sources_positions\nINPUT-CLASS TEXTIN\nRANK 2\nDIMENSION-SIZES 1 3\nOUTPUT-CLASS IN\nOUTPUT-SIZE 32\n' > pos.conf
  printf 'PATH sources_mass\nINPUT-CLASS TEXTFP\nRANK 1\nDIMENSION-SIZES 1\nOUTPUT-CLASS FP\nOUTPUT-SIZE 64\n' > mass.conf
  for z in "$@"; do
    h5import pos.txt -c pos.conf mass.txt -c mass.conf \
      -o "$dir/sources_hdf5/$(printf '%.3f' "$z")-coarsest_wsubgrid_sources.hdf5" > /dev/null \
      || fail "h5import"
  done
  rm -f pos.txt mass.txt pos.conf mass.conf
}

# cosmo.yml: inputs_basename /data/run50/ (pointed here), dpl, power, EXP
"$ionfront" convert "$data/cosmo.yml" --sources one.txt -o cosmo.yaml 2> /dev/null || fail "convert cosmo"
uncomment cosmo.yaml "[11.0, 10.9]" | sed "s#/data/run50/#$work/run50/#" > cosmo_seq.yaml
inputs run50 48 11.0 10.9
"$ionfront" run cosmo_seq.yaml --dry-run > cosmo.out 2>&1 || { cat cosmo_seq.yaml cosmo.out; fail "dry run of cosmo's template"; }
has cosmo.out "sources: from the sequence's halo files (format pyc2ray_hdf5)"
has cosmo.out "f_star dpl (f0 0.05, M_t 3e+08 Msun, M_p 2e+11 Msun, g1 0.5, g2 -0.5, g3 1, g4 -1), f_esc power (f0 0.1, M_p 1e+10 Msun, alpha -0.3), N_ion 3000, t_s 1 / (0.8 (1+z) H(z))"
has cosmo.out "sequence: 2 redshifts from z = 11 to z = 10.9; density files: CubeP3M"

# cosmo_density.yml: inputs_basename ./in/ (next to the config), f_gamma and t_source
"$ionfront" convert "$data/cosmo_density.yml" --sources one.txt -o density.yaml 2> /dev/null || fail "convert cosmo_density"
uncomment density.yaml "[9.0, 8.9]" > density_seq.yaml
inputs in 64 9.0 8.9
"$ionfront" run density_seq.yaml --dry-run > density.out 2>&1 || { cat density_seq.yaml density.out; fail "dry run of cosmo_density's template"; }
has density.out "sources: from the sequence's halo files (format pyc2ray_hdf5)"
has density.out "f_star f_gamma 1.63666 x Omega_b/Omega_m, f_esc 1, N_ion 1, t_s 20 Myr"
has density.out "sequence: 2 redshifts from z = 9 to z = 8.9; density files: CubeP3M"
echo "cli_convert_template: ok"
