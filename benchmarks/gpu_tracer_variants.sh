#!/usr/bin/env bash
# The ASORA tracer's speed, several builds side by side on one GPU (issue 24's protocol:
# bench_raytrace cuda N R 100000, ns per source·voxel; and the built-in eor run at 128^3).
# Each version is a folder holding bench_raytrace and ionfront: .devbuild ("new") or
# .devvar/NAME (unpacked from .devvar.tar.xz); the first version is the reference the
# others' x_v(z) is compared with.  Packed as in ../shared/gpu-machine/README.md
# (benchmarks/pack_gpu.sh).  From the repository root, on the GPU machine:
#   VERSIONS="base new" REPS=2 EOR="base new" bash benchmarks/gpu_tracer_variants.sh
# CFGS: N:R[:SPECIES[:KEY=VALUE,...]] (config overrides of bench_raytrace, e.g.
# 250:30:h:raytracing.precision=mixed); EOR: VERSION[@KEY=VALUE,...] (ionfront run --set).
set -u
final="${OUT:-/tmp/out}"
mkdir -p "$final"
[ -f .devpack.tar.xz ] && [ ! -d .devbuild ] && tar -xJf .devpack.tar.xz
[ -f .devvar.tar.xz ] && [ ! -d .devvar ] && tar -xJf .devvar.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" PATH="$PATH:$PWD/.devlibs"
if [ -d .whl ] && [ -z "${PYTHONPATH:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1 &&
    export PYTHONPATH=/tmp/site
fi
root="$PWD"
# new: .devbuild; old: .devold (benchmarks/pack_gpu.sh OLD_BUILD); else .devvar/NAME
dir_of() { case "$1" in new) echo "$root/.devbuild" ;; old) echo "$root/.devold" ;;
           *) echo "$root/.devvar/$1" ;; esac; }
versions="${VERSIONS:-new}"
reps="${REPS:-2}"
# N:R[:SPECIES] (bench_raytrace's h, he or he:B1,B2,B3)
cfgs="${CFGS:-250:30 512:30 250:10 128:13}"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
echo "# version rep backend N R n_src batch ms_per_trace ns_per_source_voxel ..."
for rep in $(seq 1 "$reps"); do
  for v in $versions; do
    for c in $cfgs; do
      IFS=: read -r n r sp ov <<< "$c"
      [ "$v" = old ] && [ -n "$ov" ] && continue # an older bench_raytrace takes no overrides
      "$(dir_of "$v")/bench_raytrace" cuda "$n" "$r" 100000 0 2 ${sp:-h} ${ov//,/ } | grep -v "^#" |
        tail -1 | sed "s/^/$v rep$rep ${ov:+$ov }/" | tee -a "$final/raytrace.txt"
    done
  done
done
mkdir -p /tmp/eor && cd /tmp/eor
first=""
for spec in ${EOR:-}; do
  b="${spec%%@*}"
  sets=()
  if [ "$spec" != "$b" ]; then
    IFS=, read -ra kv <<< "${spec#*@}"
    for x in "${kv[@]}"; do sets+=(--set "$x"); done
  fi
  v="$(echo "$spec" | sed 's/@/_/; s/=/-/g; s/,/+/g')"
  [ -f eor.yaml ] || "$(dir_of "$b")/ionfront" example eor > eor.yaml
  "$(dir_of "$b")/ionfront" run eor.yaml --quiet --backend cuda "${sets[@]}" --output "out_$v" > "eor_$v.log" 2>&1
  echo "$v eor: exit $? $(grep -E '^done' "eor_$v.log" | tail -1)"
  cp "out_$v/log.csv" "$final/eor_${v}_log.csv" 2>/dev/null
  if [ -n "$first" ]; then
    python3 - "$first" "$v" <<'PY'
import sys, csv
def xv(v):
    with open(f"/tmp/eor/out_{v}/log.csv") as f:
        return [(float(r["redshift"]), float(r["x_HII_mean_volume"]), int(r["iterations"]))
                for r in csv.DictReader(f)]
a, b = xv(sys.argv[1]), xv(sys.argv[2])
worst = max(abs(y - x) / x for (_, x, _), (_, y, _) in zip(a, b))
print(f"eor {sys.argv[2]} vs {sys.argv[1]}: x_v(z) largest relative difference {worst:.3g} over "
      f"{len(a)} steps; passes {sum(i for *_, i in a)} vs {sum(i for *_, i in b)}")
PY
    # the snapshots' x_HII and T (needs h5py: carry .whl)
    python3 "$root/scripts/compare_fields.py" "out_$first" "out_$v" 1e-5 2>&1 | tail -1
  else
    first="$v"
  fi
done
