#!/usr/bin/env python3
"""Compare the ionized fractions and temperatures of two ionfront output folders within a
tolerance (a tracer setting against the default: raytracing.precision, ...).

usage: compare_fields.py DIR_A DIR_B TOL

Every snapshot_*.h5 of A must be in B.  Per snapshot: the largest absolute difference of
Grid/x_HII, x_HeII, x_HeIII (or PartType0/IonizedFraction, x_HeII, x_HeIII) and the largest
relative difference of Grid/T (PartType0/Temperature), NaN counted as a difference.  Prints
the worst of each over all snapshots; exit 0 when all are <= TOL, 1 otherwise, 77 without
h5py.
"""
import glob
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py/numpy not found (Debian: python3-h5py)")
    sys.exit(77)

FRACTIONS = ("Grid/x_HII", "Grid/x_HeII", "Grid/x_HeIII", "PartType0/IonizedFraction",
             "PartType0/x_HeII", "PartType0/x_HeIII")
TEMPERATURES = ("Grid/T", "PartType0/Temperature")


def worst(d):
    d = np.asarray(d, dtype=float)
    return float("inf") if np.isnan(d).any() else float(np.max(d)) if d.size else 0.0


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    da, db, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
    snaps = sorted(glob.glob(os.path.join(da, "snapshot_*.h5")))
    if not snaps:
        print(f"{da}: no snapshots")
        return 1
    result = {}
    for pa in snaps:
        pb = os.path.join(db, os.path.basename(pa))
        if not os.path.exists(pb):
            print(f"{pb}: missing")
            return 1
        with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
            for key in FRACTIONS + TEMPERATURES:
                if key not in fa:
                    continue
                a, b = fa[key][()].astype(float), fb[key][()].astype(float)
                d = np.abs(a - b)
                if key in TEMPERATURES:
                    d = d / np.maximum(np.abs(a), 1e-300)
                result[key] = max(result.get(key, 0.0), worst(d))
    bad = [k for k, v in result.items() if not v <= tol]
    print(f"{da} vs {db}: {len(snaps)} snapshot(s); " +
          ", ".join(f"{k} {v:.3g}" + (" (rel)" if k in TEMPERATURES else "")
                    for k, v in result.items()) + f": {'within' if not bad else 'BEYOND'} {tol:g}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
