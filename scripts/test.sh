#!/usr/bin/env bash
# The test command (what CI runs): install what is missing, then build with -Werror
# and run every test (ctest) in build/ (with CUDA when nvcc is found) and, when that
# build has CUDA, also the CPU-only build in build-cpu/ (-DIONFRONT_CUDA=OFF: the
# code a machine without the CUDA toolkit compiles).  GPU tests skip (exit code 77)
# on machines without a GPU.  Extra arguments go to cmake (both builds).
#
# Time: the CPU-only build registers no validation tests (-DIONFRONT_VALIDATION_TESTS=OFF):
# they run `ionfront` on the CPU backend, which in CI (nvcc, no GPU) is what the CUDA
# build's validation tests already run; everything else (unit, CLI, API, Python tests)
# runs in both builds, since it exercises what differs between them (backend choice,
# the stubs that replace CUDA code, the shared library).  The test pip_install (`pip
# install .` of a clone, CPU only) runs in build/ only: it does not use the build it is in.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
scripts/build.sh -DIONFRONT_WERROR=ON "$@"
cuda_build=0
grep -q '^IONFRONT_CUDA:BOOL=ON' build/CMakeCache.txt && cuda_build=1
if [ "$cuda_build" = 1 ]; then
  IONF_BUILD_DIR=build-cpu scripts/build.sh -DIONFRONT_WERROR=ON -DIONFRONT_CUDA=OFF \
    -DIONFRONT_VALIDATION_TESTS=OFF -DIONFRONT_PIP_INSTALL_TEST=OFF "$@"
fi
status=0
echo "== ctest: build/ (CUDA: $([ "$cuda_build" = 1 ] && echo yes || echo no))"
ctest --test-dir build --output-on-failure -j 2 || status=1
if [ "$cuda_build" = 1 ]; then
  echo "== ctest: build-cpu/ (CPU only)"
  ctest --test-dir build-cpu --output-on-failure -j 2 || status=1
fi
exit "$status"
