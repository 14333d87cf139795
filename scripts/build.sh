#!/usr/bin/env bash
# Configure and build ionfront (Release) into build/, or into $IONF_BUILD_DIR when set.
# CUDA is used when nvcc is found; pass -DIONFRONT_CUDA=OFF to force a CPU-only build.
# Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
dir="${IONF_BUILD_DIR:-build}"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$dir" -j "$(nproc)"
