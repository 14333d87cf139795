#!/usr/bin/env python3
"""libionfront.so exports exactly the functions include/ionfront.h declares: no internal
name (an exported function the header does not declare, or exported data) and no
declared call missing.
usage: check_exports.py NM LIBIONFRONT.so IONFRONT.h   (exit 0: equal; 1: lists the differences)"""
import re
import subprocess
import sys


def declared(header_path):
    """The ionf_* names followed by '(' in the header, comments removed."""
    text = open(header_path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return set(re.findall(r"\b(ionf_\w+)\s*\(", text))


def exported(nm, lib_path):
    """(functions, other symbols) the shared library defines in its dynamic symbol table."""
    out = subprocess.run([nm, "-D", "--defined-only", lib_path], check=True,
                         capture_output=True, text=True).stdout
    functions, other = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[-2], parts[-1].split("@")[0]
        if kind in ("T", "W", "i"):  # code: text, weak, indirect
            functions.add(name)
        else:  # data (D, B, R, V, ...)
            other.add(f"{name} ({kind})")
    return functions, other


def main():
    nm, lib_path, header_path = sys.argv[1:4]
    want = declared(header_path)
    functions, other = exported(nm, lib_path)
    problems = [f"exported but not declared in {header_path}: {n}" for n in sorted(functions - want)]
    problems += [f"declared but not exported: {n}" for n in sorted(want - functions)]
    problems += [f"exported non-function symbol: {n}" for n in sorted(other)]
    for p in problems:
        print(p)
    print(f"{len(want)} declared call(s), {len(functions)} exported function(s), "
          f"{len(other)} other export(s): {'equal' if not problems else 'NOT equal'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
