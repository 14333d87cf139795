#!/usr/bin/env bash
# Runs a test in an empty temporary working directory, with TMPDIR an empty temporary
# directory too, and fails it when it leaves anything in either: a test writes only
# into temporary directories and removes them (never into the source or build tree,
# nor the directory it is started from).  Both are removed afterwards.
# usage: fresh_dir.sh COMMAND...   (exit: COMMAND's; 1 if it passed or skipped but left files)
set -u
base=$(mktemp -d "${TMPDIR:-/tmp}/ionf_test_XXXXXX") || { echo "fresh_dir.sh: mktemp failed"; exit 1; }
mkdir "$base/cwd" "$base/tmp"
(cd "$base/cwd" && TMPDIR="$base/tmp" exec "$@")
rc=$?
# Open MPI's session directory (TMPDIR/ompi.*, a singleton MPI_Init's) is not the test's
left=$(cd "$base" && find cwd tmp -mindepth 1 -maxdepth 1 ! -path 'tmp/ompi.*' | sort)
rm -rf "$base"
if [ -n "$left" ]; then
  echo "FAIL: the test left files behind (in its working directory cwd/ or in TMPDIR tmp/):"
  echo "$left" | sed 's/^/    /' | head -20
  if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then rc=1; fi
fi
exit "$rc"
