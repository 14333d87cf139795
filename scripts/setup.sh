#!/usr/bin/env bash
# One command from a fresh clone: install the Debian packages, build, and run
# the built-in default problem (Iliev et al. 2006 Test 1, reduced size).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh "$@"
build/ionfront run
