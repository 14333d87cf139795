#!/usr/bin/env bash
# ionfront convert (issue 25) on the pyC2Ray-format files of tests/data/pyc2ray/ (written
# for these tests): the I-front file converts with n_H = avg_dens (1 + zred_0)^3, the box
# and R_max in Mpc, 0/1 as false/true, its unknown and unconverted keys listed; the result
# passes `ionfront run --dry-run` with a one-line source list, as a placeholder file or
# given by --sources; -o writes what stdout prints, whole; the cosmological files convert
# (the sequence a commented template), their clumping and mean-free-path models as
# pyC2Ray uses them (its pick of the fits, x = 1 + n/mean, no R_max capping R(z)), and
# their dry runs pass; bad files and options fail naming what is wrong.
# usage: cli_convert.sh /path/to/ionfront DATA_DIR
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
data="$(cd "$2" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "$1: no '$2'"; }; }
# the same in the comments' words, wrapped lines joined
hasj() { tr '\n' ' ' < "$1" | sed 's/  *# */ /g; s/  */ /g' | grep -qF -- "$2" || { cat "$1"; fail "$1: no '$2'"; }; }

# ---- the I-front file: printed and written alike; its keys, units and frames
"$ionfront" convert "$data/ifront.yml" > printed.yaml 2> printed.err || { cat printed.err; fail "convert to stdout"; }
mkdir cfg
"$ionfront" convert "$data/ifront.yml" -o cfg/ifront.yaml 2> written.err || { cat written.err; fail "convert -o"; }
cmp -s printed.yaml cfg/ifront.yaml || fail "-o wrote another text than stdout shows"
[ -z "$(ls cfg | grep -v '^ifront.yaml$')" ] || fail "-o left: $(ls cfg)"
has written.err "wrote cfg/ifront.yaml"
f=cfg/ifront.yaml
has $f "  n_H: 0.0001024 "            # 2.0e-7 x (1 + 7)^3
has $f "x (1 + zred_0)^3 = 512"
has $f "  box_size: 0.8 Mpc "
has $f "  R_max: 0.5 Mpc "
has $f "  cosmological: false "
has $f "  periodic: true "
has $f "  isothermal: true "
has $f "  backend: auto "              # Grid.gpu: 1
has $f "  # clumping: 1.0 "            # the default: a comment
has $f "  type: grey "
has $f "  directory: './ifront_out' "
has $f "# Grid.meshsize: 32"
has $f "# Material.avg_dens: 2.0e-7"
has $f "sources: {file: sources.txt, format: text}  # PLACEHOLDER"
has $f "  dt: 10 Myr "
has $f "Raytracing.r_RT = 12 — unknown"
has $f "Extra.note = 1 — unknown"
has $f "Grid.mpi = 0 — "
has $f "Raytracing.subboxsize = 16 — "
has $f "Sinks.A_mfp = 150.0 — used only by"
has $f "Output.logfile = run.log — "
has $f "CGS.eth0 = 13.598 — the same as ionfront's fixed"
has written.err "(2 unknown to pyC2Ray)"

# its dry run passes once the placeholder source list exists, next to the config
printf '1\n16 16 16 1e54 1\n' > cfg/sources.txt
"$ionfront" run $f --dry-run > dry.out 2>&1 || { cat dry.out; fail "dry run of the converted I-front file"; }
has dry.out "grid 32^3, box 800 kpc"
has dry.out "1 point source(s), 1e+54 photons/s"
has dry.out "time: 50 step(s) of 10 Myr"
[ ! -e ifront_out ] && [ ! -e cfg/ifront_out ] || fail "the dry run made the output folder"

# --sources, --dt, --t-end fill what the driving script supplies
printf '1\n8 8 8 5e53 1\n' > cfg/one.txt
"$ionfront" convert "$data/ifront.yml" --sources one.txt --dt 2 --t-end '20 Myr' -o cfg/given.yaml 2> /dev/null \
  || fail "convert with --sources --dt --t-end"
has cfg/given.yaml "sources: {file: 'one.txt', format: text}"
has cfg/given.yaml "  dt: 2 "
has cfg/given.yaml "  t_end: 20 Myr "
! grep -q "PLACEHOLDER" cfg/given.yaml || fail "placeholders left though the options gave them"
"$ionfront" run cfg/given.yaml --dry-run > given.out 2>&1 || { cat given.out; fail "dry run with --sources"; }
has given.out "time: 10 step(s) of 2 Myr"
has given.out "5e+53 photons/s"

# ---- cosmological: a uniform expanding box passes its dry run
"$ionfront" convert "$data/cosmo_plain.yml" --sources one.txt -o cfg/plain.yaml 2> /dev/null || fail "convert cosmo_plain"
has cfg/plain.yaml "  cosmological: true "
has cfg/plain.yaml "  n_H: 0.00025289 "          # 1.9e-7 x 11^3
has cfg/plain.yaml "  box_size: 20.0 Mpc "
hasj cfg/plain.yaml "comoving, as the run is cosmological"
"$ionfront" run cfg/plain.yaml --dry-run > plain.out 2>&1 || { cat plain.out; fail "dry run of cosmo_plain"; }

# an older file: no meshsize (a placeholder N), R_max and the black body under Photo
"$ionfront" convert "$data/older.yml" --sources one.txt -o cfg/older.yaml 2> /dev/null || fail "convert older"
has cfg/older.yaml "  N: 128 "
has cfg/older.yaml "PLACEHOLDER: no Grid.meshsize"
has cfg/older.yaml "  R_max: 0.3 Mpc "
has cfg/older.yaml "  T_eff: 6.0e4 "
has cfg/older.yaml "  type: blackbody "
"$ionfront" run cfg/older.yaml --dry-run > older.out 2>&1 || { cat older.out; fail "dry run of older"; }

# clumping and a black body
"$ionfront" convert "$data/ifront_clumping.yml" --sources one.txt -o cfg/clump.yaml 2> /dev/null || fail "convert clumping"
has cfg/clump.yaml "  clumping: 4.0 "
has cfg/clump.yaml "  type: blackbody "
has cfg/clump.yaml "Photo.compute_heating_rates: 1"
"$ionfront" run cfg/clump.yaml --dry-run > clump.out 2>&1 || { cat clump.out; fail "dry run of the clumping file"; }
has clump.out "clumping: C = 4 times every recombination"

# a halo run: the sequence is a commented template holding the source and sink models
"$ionfront" convert "$data/cosmo.yml" --sources one.txt -o cfg/cosmo.yaml 2> /dev/null || fail "convert cosmo"
c=cfg/cosmo.yaml
# 50 / 48 Mpc cells: pyC2Ray's pick is 1.518 (0.7 x 1.518 nearest), not ionfront's nearest 1.012
has $c "  clumping: {model: redshift, fits_cell_size: 1.518} "
has $c 'mean_free_path: {model: Worseck2014, A: "200.0 Mpc", eta: -8.0, z1: 6.0, eta1: 8.0}'
has $c "# sequence:"
has $c "  # redshifts: [REDSHIFTS] "
has $c "  # density: {pattern: '/data/run50/coarser_densities/%.3fn_all.dat', format: cubep3m, fine_mesh: 8000, hydrogen_mass_fraction: 0.8064516129}"
has $c "    # pattern: '/data/run50/sources_hdf5/%.3f-coarsest_wsubgrid_sources.hdf5'"
has $c "    # format: pyc2ray_hdf5 "
! grep -q "# f_gamma:" $c || fail "f_gamma written though fstar_kind is dpl"
! grep -q "# t_source:" $c || fail "t_source written though accretion_model is EXP"
! grep -q "f_gamma_low_mass:" $c || fail "f_gamma_low_mass written (pyC2Ray reads the high-mass haloes alone)"
has $c "      # f_star: {model: dpl, f0: 0.05, M_t: 3e8, M_p: 2e11, g1: 0.5, g2: -0.5, g3: 1, g4: -1}"
has $c "      # f_esc: {model: power, f0: 0.1, M_p: 1e10, alpha: -0.3}"
has $c "      # accretion: {model: exponential, alpha_h: 0.8}"
has $c "      # N_ion: 3000.0 "
has $c "Sinks.clumping = 3.0 — used only with"
has $c "Sinks.R_max_cMpc = 20.0 — with Sinks.mfp_model Worseck2014 the radius follows R(z)"
! grep -q "^  R_max:" $c || fail "raytracing.R_max written beside the mean free path (it would cap R(z))"
has $c "Sources.fgamma_hm = 9.2 — C2Ray_CubeP3M's efficiency: C2Ray_fstar"
has $c "Sources.ts = 15.0 — C2Ray_CubeP3M's source lifetime: C2Ray_fstar"
has $c "Sources.fgamma_lm = 0.0 — pyC2Ray reads the high-mass haloes alone"
has $c "Sources.bursty_sfr = no — "
has $c "Sources.a_s = -0.2 — "
has $c "Output.density_basename = None — not set"
"$ionfront" run $c --dry-run > cosmo.out 2>&1 || { cat cosmo.out; fail "dry run of cosmo"; }
has cosmo.out "Bianco et al. 2021's fits for 1.518 Mpc cells"
has cosmo.out "R_max: Worseck2014 mean free path"

# the density model and an older Worseck2014 (no z1_mfp, eta1_mfp), R_max_cMpc under Photo too
"$ionfront" convert "$data/cosmo_density.yml" --sources one.txt -o cfg/density.yaml 2> /dev/null || fail "convert cosmo_density"
d=cfg/density.yaml
# 100 / 64 Mpc cells: pyC2Ray's pick is 2.094 (ionfront's nearest would be 1.518)
has $d "  clumping: {model: density, x: 1+n/mean, fits_cell_size: 2.094}"
has $d 'mean_free_path: {model: Worseck2014, A: "225.0 Mpc", eta: -8.8}'
hasj $d "no z1_mfp and eta1_mfp, which today's pyC2Ray requires: ionfront's defaults z1 6, eta1 9"
! grep -q "^  R_max:" $d || fail "raytracing.R_max written beside the mean free path"
has $d "Sinks.R_max_cMpc = 15.0 — with Sinks.mfp_model Worseck2014"
has $d "Photo.R_max_cMpc = 15.0 — older pyC2Ray files' place of the radius"
has $d "    # f_gamma: 1.636661211 "       # 2 / (0.926 + 4 x 0.074)
has $d "    # t_source: 20.0 Myr "
"$ionfront" run $d --dry-run > density.out 2>&1 || { cat density.out; fail "dry run of cosmo_density"; }
has density.out "x = 1 + n_H/<n_H> (pyC2Ray), a, b, c linear in z from Bianco et al. 2021's fits for 2.094 Mpc cells"
has density.out "R_max: Worseck2014 mean free path R(z) = 225 Mpc ((1+z)/5)^-8.8 (1 + ((1+z)/7)^9)"

# ---- bad files: exit 2, nothing on stdout, the file, key and value named
bad() { # FILE EXPECTED-TEXT
  "$ionfront" convert "$data/$1" > bad.out 2> bad.err
  rc=$?
  [ "$rc" -eq 2 ] || { cat bad.err; fail "$1: exit $rc, expected 2"; }
  [ ! -s bad.out ] || fail "$1: printed a config"
  grep -qF -- "$2" bad.err || { cat bad.err; fail "$1: message lacks '$2'"; }
}
bad bad_yaml.yml "bad_yaml.yml:4:"
bad bad_type.yml "bad_type.yml:4: Grid.meshsize = lots: expected a whole number"
bad bad_bool.yml "bad_bool.yml:3: Cosmology.cosmological = maybe: expected 0 or 1"
bad bad_section.yml "bad_section.yml:2: Grid = 5: expected a section"
bad bad_missing.yml "bad_missing.yml:3: Material.avg_dens = 2.0e-7 needs Cosmology.zred_0"
bad bad_mfp.yml "bad_mfp.yml:3: Sinks.mfp_model = constant needs Sinks.R_max_cMpc"
bad bad_root.yml "bad_root.yml: not a pyC2Ray parameter file"

# a file that cannot be read (4), a folder that cannot be written (4, nothing left)
"$ionfront" convert no_such.yml > /dev/null 2> none.err
[ $? -eq 4 ] || fail "a missing file: not exit 4"
grep -q "no_such.yml" none.err || fail "the missing file is not named"
"$ionfront" convert "$data/ifront.yml" -o no_dir/x.yaml 2> nodir.err
[ $? -eq 4 ] || { cat nodir.err; fail "-o into a missing folder: not exit 4"; }
[ ! -e no_dir ] || fail "-o made a folder"

# usage errors (11)
cp "$data/ifront.yml" self.yml
"$ionfront" convert self.yml -o ./self.yml 2> self.err
[ $? -eq 11 ] || fail "-o onto the parameter file itself: not refused"
cmp -s self.yml "$data/ifront.yml" || fail "-o overwrote the parameter file"
rm self.yml
for args in "" "--dt" "$data/ifront.yml --dt ten" "$data/ifront.yml --t-end -5" \
            "$data/ifront.yml --frobnicate" "$data/ifront.yml $data/cosmo.yml"; do
  # shellcheck disable=SC2086
  "$ionfront" convert $args > /dev/null 2> usage.err
  [ $? -eq 11 ] || { cat usage.err; fail "convert $args: not exit 11"; }
done
"$ionfront" convert --help | grep -q -- "--sources FILE" || fail "convert --help"
"$ionfront" --help | grep -q "convert PARAMS.yml" || fail "ionfront --help lacks convert"
[ -z "$(ls -A | grep -v -e '^cfg$' -e '\.out$' -e '\.err$' -e '\.yaml$')" ] || fail "stray files: $(ls -A)"
echo "cli_convert: ok"
