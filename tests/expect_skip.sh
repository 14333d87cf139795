#!/usr/bin/env bash
# Runs COMMAND, which must skip (exit 77) saying TEXT: a check that cannot be made is a
# skip, never a pass.  Exits 0 when it does, 1 when it exits otherwise (0 included),
# and 77 itself when COMMAND skipped for another reason (e.g. numpy missing).
# usage: expect_skip.sh TEXT COMMAND...
set -u
text="$1"
shift
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -eq 77 ] && grep -qF -- "$text" <<<"$out"; then
  echo "ok   exit 77: $(grep -m1 -F -- "$text" <<<"$out")"
  exit 0
elif [ "$rc" -eq 77 ]; then
  echo "$out" | tail -5
  echo "skipped for another reason than '$text'"
  exit 77
fi
echo "$out" | tail -20
echo "FAIL: exit code $rc, want 77 with '$text'"
exit 1
