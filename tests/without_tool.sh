#!/usr/bin/env bash
# Runs COMMAND with TOOL missing from PATH (PATH becomes one folder of links to every
# other program of the old PATH): for checking that a test whose comparison needs TOOL
# (e.g. h5diff) skips (77) without it instead of passing unchecked.
# usage: without_tool.sh TOOL COMMAND...   (exit: COMMAND's)
set -u
tool="$1"
shift
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name=${f##*/}
    [ "$name" = "$tool" ] || [ -e "$bin/$name" ] || [ ! -x "$f" ] || ln -s "$f" "$bin/$name"
  done
done
PATH="$bin" "$@"
