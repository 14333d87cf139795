#!/usr/bin/env bash
# The test command: install what is missing, build, run every test (ctest).
# GPU tests skip (exit code 77) on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DIONFRONT_WERROR=ON "$@"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir build --output-on-failure -j 2
