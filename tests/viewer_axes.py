"""Where ParaView puts a snapshot's cells (run with pvpython).

usage: pvpython viewer_axes.py FILE POINTS|CELLS FIELD
Prints the world position of the largest value of FIELD, as "x y z".
"""
import sys

from paraview import servermanager as sm
from paraview.simple import CellCenters, MergeBlocks, OpenDataFile

path, association, field = sys.argv[1], sys.argv[2], sys.argv[3]
reader = OpenDataFile(path)
if reader is None:
    sys.exit(f"ParaView cannot open {path}")
source = CellCenters(Input=reader) if association == "CELLS" else reader
data = sm.Fetch(MergeBlocks(Input=source))
values = data.GetPointData().GetArray(field)
if values is None:
    sys.exit(f"{path}: no point array {field} after {association}")
best = max(range(values.GetNumberOfTuples()), key=values.GetValue)
print("%.6g %.6g %.6g" % data.GetPoint(best))
