#!/usr/bin/env bash
# pytest of the Python package; skips (77) when pytest or numpy is missing.
# usage: run_pytest.sh PYTHON TESTS_DIR
set -u
python="$1"
"$python" -c "import pytest, numpy" 2>/dev/null || { echo "pytest or numpy missing (Debian: python3-pytest python3-numpy)"; exit 77; }
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# nothing written into the source tree: no bytecode, no cache, run from a temporary directory
export PYTHONDONTWRITEBYTECODE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tests="$(cd "$2" && pwd)"
cd "$work" && "$python" -m pytest -q -p no:cacheprovider --rootdir "$tests" "$tests"
