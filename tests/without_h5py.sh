#!/usr/bin/env bash
# Runs COMMAND with a Python that cannot import h5py (a module of that name that raises
# ImportError comes first on PYTHONPATH): for checking that a test whose comparison
# needs h5py skips (77) without it instead of passing unchecked.
# usage: without_h5py.sh COMMAND...   (exit: COMMAND's)
set -u
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
echo 'raise ImportError("h5py hidden by tests/without_h5py.sh")' > "$fake/h5py.py"
PYTHONPATH="$fake${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1 "$@"
