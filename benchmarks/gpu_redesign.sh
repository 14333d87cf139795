#!/usr/bin/env bash
# The redesign's checks on the GPU machine (issue "One engine, concept modules"):
#   tests  - the GPU tests (ctest -L gpu; none may skip), compute-sanitizer on the new
#            CUDA tracers, chemistry and backend, and whole runs CPU against CUDA;
#   bench  - the ray-tracing kernel and the particle tracer, before (.devold: the commit
#            before the redesign) and after (.devbuild), alternating on the same GPU;
#   eor [old|new...] - the built-in `eor` run at full size (128^3), before and after
#            (both when no version is named).
# Packed and started as in ../shared/gpu-machine/README.md (benchmarks/pack_gpu.sh
# makes .devpack.tar.xz: .devbuild, .devold, .devlibs).  From the repository root:
#   bash benchmarks/gpu_redesign.sh tests|bench|eor
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
what="${1:-tests}"
final="${OUT:-/tmp/out}"
out=/tmp/gpu_redesign_logs # the logs; packed into $OUT/logs.tgz at the end (few files come back)
mkdir -p "$out" "$final"
trap 'tar -czf "$final/logs_$what.tgz" -C "$out" . 2>/dev/null' EXIT
[ -f .devpack.tar.xz ] && tar -xJf .devpack.tar.xz
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" PATH="$PATH:$PWD/.devlibs" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ -d .whl ]; then # numpy and h5py for the comparisons (pip download'ed here, for the machine's Python)
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1 &&
    export PYTHONPATH=/tmp/site
fi
export NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
root="$PWD"
mkdir -p /work
[ -e /work/main ] || ln -s "$root" /work/main # the build folder's absolute paths
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
new=.devbuild old=.devold

if [ "$what" = tests ]; then
  (cd /work/main/.devbuild && OMP_NUM_THREADS=4 ctest -L gpu --output-on-failure -j 4 2>&1) > "$out/ctest_gpu.log"
  tail -20 "$out/ctest_gpu.log"
  grep -q "Skipped\|Not Run" "$out/ctest_gpu.log" && echo "FAIL: a GPU test skipped or did not run"
  cd /work/main/.devbuild
  # the ASORA tracer's two kernels (few and many sources), the chemistry, the backend's copies
  for tool in memcheck racecheck; do
    for cfg in "24 6 40 8 1" "24 5 400 300 1" "20 0 3 0 1" \
               "24 6 40 8 1 h material.n_H=0.1 raytracing.transmission_cutoff=1e-3" \
               "24 5 400 300 1 h material.n_H=0.1 raytracing.transmission_cutoff=1e-3" \
               "20 0 3 0 1 h material.n_H=0.1 raytracing.transmission_cutoff=1e-3" \
               "24 6 40 8 1 he spectrum.quadrature=whole_bands" "24 5 400 300 1 he spectrum.quadrature=whole_bands"; do
      compute-sanitizer --tool $tool --error-exitcode 1 ./bench_raytrace cuda $cfg > "$out/san.log" 2>&1
      echo "compute-sanitizer $tool bench_raytrace cuda $cfg: exit $? ($(tail -1 "$out/san.log"))"
    done
  done
  for t in test_backend_agreement test_chem_gpu test_sequence_gpu test_mc_gpu test_bvh_gpu test_gpu_helium_k test_sph_helium_gpu; do
    compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 tests/$t > "$out/san_$t.log" 2>&1
    echo "compute-sanitizer memcheck $t: exit $? ($(tail -1 "$out/san_$t.log"))"
  done
  compute-sanitizer --tool memcheck --error-exitcode 1 tests/test_mc_gpu > "$out/san_mc_noleak.log" 2>&1
  echo "compute-sanitizer memcheck (no leak check) test_mc_gpu: exit $? ($(tail -1 "$out/san_mc_noleak.log"))"
  cd "$root"
  # whole runs on the GPU against the CPU (max relative difference of x_HII at the end)
  for p in iliev2 iliev3 dice iliev1_particles iliev2_particles helium helium_particles dice_cutoff \
           helium_whole helium_whole_particles; do
    # helium_whole*: spectrum.quadrature whole_bands (rt/bands_whole_k.h)
    q=""
    case $p in helium_whole*) q=", quadrature: whole_bands" ;; esac
    case $p in
      helium*particles) set=(--set particles.generate.count_1d=16 --set 'material.abundance_He=0.08'
                   --set 'material.isothermal=false' --set "spectrum={type: blackbody, T_eff: 1e5$q}"
                   --set 'time.t_end=30 Myr' --set 'time.outputs=[30 Myr]') ;;
      helium*) set=(--set grid.N=32 --set 'material.abundance_He=0.08' --set 'material.isothermal=false'
                   --set "spectrum={type: blackbody, T_eff: 1e5$q}" --set 'time.t_end=30 Myr'
                   --set 'time.outputs=[30 Myr]') ;;
      iliev3) set=(--set grid.N=32 --set 'time.t_end=0.5 Myr' --set 'time.outputs=[0.5 Myr]') ;;
      dice*) set=(--set grid.N=32 --set 'time.t_end=3 Myr' --set 'time.outputs=[3 Myr]'
                 --set 'sources=[{position: [15,15,15], Ndot: 5e48}, {position: [7,23,15], Ndot: 5e48}, {position: [23,7,15], Ndot: 5e48}]') ;;
      *particles) set=(--set particles.generate.count_1d=16 --set 'time.t_end=30 Myr' --set 'time.outputs=[30 Myr]') ;;
      *) set=(--set grid.N=32 --set 'time.t_end=30 Myr' --set 'time.outputs=[30 Myr]') ;;
    esac
    ex=$p
    [ $p = helium ] || [ $p = helium_whole ] && ex=iliev1
    [ $p = dice_cutoff ] && ex=dice && set+=(--set raytracing.transmission_cutoff=1e-6)
    [ $p = helium_particles ] || [ $p = helium_whole_particles ] && ex=iliev1_particles
    $new/ionfront example $ex > /tmp/agree_$p.yaml
    for b in cpu cuda; do
      OMP_NUM_THREADS=8 $new/ionfront run /tmp/agree_$p.yaml --quiet --backend $b "${set[@]}" \
        --output /tmp/agree_${p}_$b > "$out/agree_${p}_$b.log" 2>&1 || echo "FAIL: $p on $b"
    done
    python3 - "$p" <<'PY' 2>/dev/null || echo "$p: no python3/numpy to compare (see the logs)"
import sys, glob
p = sys.argv[1]
try:
    import h5py, numpy as np
except ImportError:
    sys.exit(1)
a, b = (sorted(glob.glob(f"/tmp/agree_{p}_{k}/snapshot_*.h5"))[-1] for k in ("cpu", "cuda"))
with h5py.File(a) as fa, h5py.File(b) as fb:
    keys = [k for k in ("PartType0/IonizedFraction", "PartType0/x_HeII", "PartType0/x_HeIII",
                        "PartType0/Temperature") if k in fa] if "PartType0" in fa else \
           [k for k in ("Grid/x_HII", "Grid/x_HeII", "Grid/x_HeIII", "Grid/T") if k in fa]
    for key in keys:
        xa, xb = fa[key][()], fb[key][()]
        print(f"{p}: CPU vs CUDA {key} max rel diff {np.max(np.abs(xa - xb) / np.maximum(np.abs(xa), 1e-300)):.3g}")
PY
  done
fi

if [ "$what" = tests ]; then
  # the memory estimate with the GPU's figure (--dry-run prints it; a run that cannot fit
  # is refused naming needed and available, before anything is allocated)
  $new/ionfront run --dry-run --backend cuda --set grid.N=512 > "$out/dry512.log" 2>&1
  echo "dry-run N=512 on the GPU: exit $? ($(grep -i 'gpu' "$out/dry512.log" | grep -i 'memory\|GB' | head -2 | tr '\n' ' '))"
  $new/ionfront run --dry-run --backend cuda --set grid.N=4096 > "$out/dry4096.log" 2>&1
  echo "dry-run N=4096 on the GPU: exit $? ($(tail -1 "$out/dry4096.log"))"
fi

if [ "$what" = bench ]; then
  echo "# version N R n_src batch ms_per_trace ns_per_source_voxel ... (bench_raytrace columns)"
  for rep in 1 2; do
    for v in old new; do
      d=$([ $v = old ] && echo $old || echo $new)
      for cfg in "250 30 100000 0 3" "512 30 100000 0 2"; do
        $d/bench_raytrace cuda $cfg | sed "s/^/$v rep$rep /" | tee -a "$out/raytrace.txt"
      done
    done
  done
  for rep in 1 2; do
    for v in old new; do
      d=$([ $v = old ] && echo $old || echo $new)
      $d/bench_sph_trace cuda 2097152 uniform 32:10,128:1 3 | grep -v "^#" | sed "s/^/$v rep$rep /" | tee -a "$out/sph_trace.txt"
    done
  done
fi

if [ "$what" = eor ]; then
  mkdir -p /tmp/eor && cd /tmp/eor
  "$root/$new/ionfront" example eor > eor.yaml
  # (the first run makes the synthetic inputs in eor_inputs/; the "done:" lines time the
  # run loop alone, the same work for both versions)
  versions="${*:2}"
  for v in ${versions:-old new}; do
    d=$([ $v = old ] && echo $old || echo $new)
    /usr/bin/time -f "$v eor wall %e s" "$root/$d/ionfront" run eor.yaml --quiet --backend cuda \
      --output out_$v > "$out/eor_$v.log" 2>&1
    tail -1 "$out/eor_$v.log"
    grep -E "^done" "$out/eor_$v.log" | sed "s/^/$v: /"
  done
  [ -d out_old ] && [ -d out_new ] && python3 - <<'PY' 2>/dev/null || echo "eor: no h5py (or one version only) to compare x_v(z)"
import h5py, numpy as np, glob
worst = 0.0
for a in sorted(glob.glob("/tmp/eor/out_old/snapshot_*.h5")):
    b = a.replace("out_old", "out_new")
    with h5py.File(a) as fa, h5py.File(b) as fb:
        xa, xb = fa["Grid/x_HII"][()].mean(), fb["Grid/x_HII"][()].mean()
        worst = max(worst, abs(xa - xb) / xa)
print(f"eor: x_v(z) old vs new, largest relative difference {worst:.3g}")
PY
  for v in old new; do [ -f out_$v/log.csv ] && cp out_$v/log.csv "$out/eor_${v}_log.csv"; done
fi
