#!/usr/bin/env python3
"""The shape rules of the code (docs/design.md, "Rules of shape"), checked:

  - no source file over 800 lines (src gpu io mpi include);
  - no function over 120 lines, except those listed in ALLOWED_LONG with the reason;
  - no include cycle between concept folders (src/<concept>[/<sub>], gpu/..., io, mpi,
    include): the folder graph of #include "..." edges is acyclic.

usage: check_structure.py [REPO]   (exit 0: all hold; 1: a rule is broken, each listed)
"""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120
# function -> why it may be longer (keep this list short and each reason true)
ALLOWED_LONG = {
}
EXTS = (".c", ".h", ".cu", ".cuh")
TOP = ("src", "gpu", "io", "mpi", "include")


def strip_comments_strings(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, line count) of every top-level brace block that is a function."""
    clean = strip_comments_strings(text)
    depth, start, head_start, found = 0, None, 0, []
    line = 1
    for i, c in enumerate(clean):
        if c == "\n":
            line += 1
        elif c == "{":
            if depth == 0:
                head = clean[head_start:i]
                m = re.search(r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?$", head)
                is_func = m and not re.search(r"\b(struct|enum|union)\s+\w*\s*$|=\s*$", head) \
                    and m.group(1) not in ("if", "for", "while", "switch", "sizeof")
                start = (m.group(1), line) if is_func else None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if start:
                    found.append((start[0], start[1], line - start[1] + 1))
                start, head_start = None, i + 1
        elif c == ";" and depth == 0:
            head_start = i + 1
        elif c == "#" and depth == 0:
            head_start = i + 1
    return found


def folder_of(path):
    parts = path.split("/")
    if parts[0] in ("src", "gpu") and len(parts) > 2:
        sub = parts[1]
        if sub == "rt" and len(parts) > 3:
            sub = "rt/" + parts[2]
        return parts[0] + "/" + sub
    return parts[0]


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    os.chdir(repo)
    files = []
    for top in TOP:
        for d, _, names in os.walk(top):
            files += [os.path.join(d, f) for f in names if f.endswith(EXTS)]
    problems = []
    includes = {}
    for f in sorted(files):
        text = open(f, encoding="utf-8").read()
        n = text.count("\n")
        if n > MAX_FILE_LINES:
            problems.append(f"{f}: {n} lines (at most {MAX_FILE_LINES})")
        for name, first, count in functions(text):
            if count > MAX_FUNCTION_LINES and name not in ALLOWED_LONG:
                problems.append(f"{f}:{first}: function {name} is {count} lines (at most {MAX_FUNCTION_LINES})")
        src_folder = folder_of(f)
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            for base in ("src/" + inc, inc):
                if os.path.exists(base):
                    dst = folder_of(base)
                    if dst != src_folder:
                        includes.setdefault(src_folder, {}).setdefault(dst, []).append(f)
                    break
    # cycles between folders (depth-first search for a back edge)
    state, stack = {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(includes.get(u, {})):
            if state.get(v) == 1:
                cyc = stack[stack.index(v):] + [v]
                edges = []
                for a, b in zip(cyc, cyc[1:]):
                    edges.append(f"{a} -> {b} ({includes[a][b][0]})")
                problems.append("include cycle: " + "; ".join(edges))
            elif not state.get(v):
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(includes):
        if not state.get(u):
            visit(u)
    for p in problems:
        print(p)
    print(f"{len(files)} files: {'the rules hold' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
