#!/usr/bin/env bash
# pytest of the Python package; skips (77) when pytest or numpy is missing.
# usage: run_pytest.sh PYTHON TESTS_DIR
set -u
python="$1"
"$python" -c "import pytest, numpy" 2>/dev/null || { echo "pytest or numpy missing (Debian: python3-pytest python3-numpy)"; exit 77; }
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
cd "$2" && exec "$python" -m pytest -q -p no:cacheprovider "$2"
