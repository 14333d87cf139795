#!/usr/bin/env bash
# Build here what a GPU-machine call needs and pack it into .devpack.tar.xz (git ignores
# it; carry it): .devbuild (this tree, sm_90: the command line, the benchmarks and the
# GPU tests), optionally .devold (the same binaries of an older commit, for before/after
# timings) and .devlibs (the shared libraries the GPU machine lacks,
# ../shared/gpu-machine/bundle-libs).  Needs ../shared (exits 77 without it).
#   benchmarks/pack_gpu.sh [OLD_BUILD_DIR]
# then on the GPU machine: bash benchmarks/gpu_redesign.sh tests|bench|eor
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/gpu-machine
[ -x "$shared/bundle-libs" ] || { echo "no $shared/bundle-libs: run this beside ../shared"; exit 77; }
old="${1:-}"
targets=(ionfront bench_raytrace bench_sph_trace bench_mc test_gpu_k_headers test_backend_agreement
         test_mc_gpu test_render_gpu test_sequence_gpu test_bvh_gpu test_chem_gpu test_sph_trace_gpu
         test_api_iliev1 test_gpu_helium_k test_sph_helium_gpu gpu_probe bench_decomp
         ionfront-particles test_chem_clumping_gpu test_engine_subgrid_gpu bench_thermal
         test_thermal_gpu test_api_thermal test_api_thermal_gpu ionfront_shared)
cmake -S . -B .devbuild -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /dev/null
cmake --build .devbuild -j "$(nproc)" --target "${targets[@]}"
rm -rf .devlibs .devold
"$shared/bundle-libs" .devlibs .devbuild/ionfront "$(command -v h5diff)"
cp "$shared/prune-libs" .devlibs/
cp "$(command -v h5diff)" .devlibs/
if [ -n "$old" ]; then
  mkdir -p .devold
  for b in ionfront bench_raytrace bench_sph_trace; do [ ! -f "$old/$b" ] || cp "$old/$b" .devold/; done
fi
# only what the calls run: the binaries, the test registration, the libraries (the objects
# stay here for the next build)
tar -cJf .devpack.tar.xz --exclude='*.o' --exclude='*.a' .devbuild .devlibs $([ -d .devold ] && echo .devold)
ls -la .devpack.tar.xz
