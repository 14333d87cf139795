#!/usr/bin/env python3
"""Compare two ionfront output folders bit for bit.

usage: compare_outputs.py DIR_A DIR_B

Every file of A must be in B and the reverse.  HDF5 files: every dataset equal to the
bit (dtype, shape, bytes) and every attribute equal, except the provenance ones
('created', 'ionfront_version'); log.csv: every column but wall_s; other files
(xmf, csv, C2-Ray binaries): byte for byte.  Exit 0 when equal, 1 otherwise (the
differences are listed), 77 without h5py.

The environment's IONF_COMPARE_NEW_KEYS (comma-separated, e.g. "decomposition") names
config keys the newer binary adds with their default: their lines are dropped from the
'config' attribute before it is compared (a new key, not a changed run).
"""
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py/numpy not found (Debian: python3-h5py)")
    sys.exit(77)

PROVENANCE = {"created", "ionfront_version"}
NEW_KEYS = [k for k in os.environ.get("IONF_COMPARE_NEW_KEYS", "").split(",") if k]


def config_text(v):
    """The 'config' attribute without the lines of keys the newer binary adds."""
    text = v.decode() if isinstance(v, bytes) else str(v)
    return "\n".join(l for l in text.splitlines()
                     if not any(l.strip().startswith(k + ":") for k in NEW_KEYS))


def same_value(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fiubc":
        return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
    return bool(np.all(a == b))


def compare_h5(pa, pb, out):
    with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
        names_a, names_b = [], []
        fa.visit(names_a.append)
        fb.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            out.append(f"{pa}: objects differ: {sorted(set(names_a) ^ set(names_b))}")
            return
        for name in [""] + names_a:
            oa = fa[name] if name else fa
            ob = fb[name] if name else fb
            ka = set(oa.attrs.keys()) - PROVENANCE
            kb = set(ob.attrs.keys()) - PROVENANCE
            if ka != kb:
                out.append(f"{pa}:/{name}: attributes differ: {sorted(ka ^ kb)}")
            for k in sorted(ka & kb):
                if k == "config" and NEW_KEYS:
                    if config_text(oa.attrs[k]) != config_text(ob.attrs[k]):
                        out.append(f"{pa}:/{name}: attribute {k} differs")
                elif not same_value(oa.attrs[k], ob.attrs[k]):
                    out.append(f"{pa}:/{name}: attribute {k} differs")
            if isinstance(oa, h5py.Dataset):
                va, vb = oa[()], ob[()]
                if not same_value(va, vb):
                    msg = f"{pa}:/{name}: data differs"
                    try:
                        d = np.abs(va.astype(float) - vb.astype(float))
                        s = np.maximum(np.abs(va.astype(float)), 1e-300)
                        msg += f" (max rel {np.nanmax(d / s):.3g}, {np.count_nonzero(va != vb)} values)"
                    except (TypeError, ValueError):
                        pass
                    out.append(msg)


def compare_log(pa, pb, out):
    with open(pa) as fa, open(pb) as fb:
        la, lb = fa.read().splitlines(), fb.read().splitlines()
    if len(la) != len(lb) or not la:
        out.append(f"{pa}: {len(la)} lines against {len(lb)}")
        return
    head = la[0].split(",")
    drop = head.index("wall_s") if "wall_s" in head else -1
    for i, (a, b) in enumerate(zip(la, lb)):
        ca, cb = a.split(","), b.split(",")
        if drop >= 0 and i > 0:
            ca.pop(drop)
            cb.pop(drop)
        if ca != cb:
            out.append(f"{pa}: line {i + 1} differs:\n  {a}\n  {b}")
            return


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    da, db = sys.argv[1], sys.argv[2]
    fa = sorted(os.listdir(da))
    fb = sorted(os.listdir(db))
    out = []
    if fa != fb:
        out.append(f"files differ: {sorted(set(fa) ^ set(fb))}")
    for name in sorted(set(fa) & set(fb)):
        pa, pb = os.path.join(da, name), os.path.join(db, name)
        if os.path.isdir(pa):
            continue
        if name.endswith((".h5", ".hdf")):  # snapshots, checkpoints, VTKHDF sidecars
            compare_h5(pa, pb, out)
        elif name == "log.csv":
            compare_log(pa, pb, out)
        else:
            with open(pa, "rb") as a, open(pb, "rb") as b:
                if a.read() != b.read():
                    out.append(f"{pa}: bytes differ")
    for line in out:
        print(line)
    print(f"{da} vs {db}: {len(fa)} files, {'EQUAL' if not out else 'DIFFERENT'}")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
