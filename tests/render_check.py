#!/usr/bin/env python3
"""Checks of `ionfront render` images, with a PNG reader of its own (zlib and
the five PNG row filters) so that libpng is not checked against itself.

usage: render_check.py text IMAGE.png KEY=VALUE...       the tEXt chunks hold these
       render_check.py slice IMAGE.png SNAPSHOT.h5        slice pixels match the data
"""
import struct
import sys
import zlib

import numpy as np


def read_png(path):
    """(rgb array [rows, cols, 3], {tEXt key: text}) of an 8-bit RGB PNG."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, text = 8, b"", {}
    while pos < len(raw):
        length, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 2, "expected 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            key, value = body.split(b"\0", 1)
            text[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    data = zlib.decompress(idat)
    stride = width * 3
    img = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for r in range(height):
        f = data[r * (stride + 1)]
        line = np.frombuffer(data[r * (stride + 1) + 1:(r + 1) * (stride + 1)], dtype=np.uint8).astype(np.int32)
        if f == 0:
            out = line
        elif f == 1:  # sub: a running sum per channel
            out = np.cumsum(line.reshape(-1, 3), axis=0).reshape(-1) & 255
        elif f == 2:  # up
            out = (line + prev) & 255
        else:  # average, Paeth: byte by byte
            out = np.zeros(stride, dtype=np.int32)
            for c in range(stride):
                a = int(out[c - 3]) if c >= 3 else 0
                b = int(prev[c])
                cc = int(prev[c - 3]) if c >= 3 else 0
                if f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - cc
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                out[c] = (int(line[c]) + pred) & 255
        img[r] = out
        prev = out
    return img.reshape(height, width, 3), text


def check_text(path, pairs):
    _, text = read_png(path)
    for pair in pairs:
        key, want = pair.split("=", 1)
        assert key in text, "no tEXt chunk %r (have %s)" % (key, sorted(text))
        assert text[key] == want, "tEXt %s = %r, expected %r" % (key, text[key], want)
    for key in ("field", "time_s", "redshift", "camera", "snapshot", "Software"):
        assert key in text, "no tEXt chunk %r" % key
    print("%s: %d text chunks, as expected" % (path, len(text)))


def check_slice(path, snapshot):
    import h5py
    import matplotlib
    img, text = read_png(path)
    field = text["field"]
    with h5py.File(snapshot, "r") as f:
        data = f["Grid/" + field][...]
        assert abs(float(text["time_s"]) - f.attrs["time_s"]) <= 1e-12 * f.attrs["time_s"]
    mode = text["mode"]  # "slice z:INDEX"
    axis, index = "xyz".index(mode.split()[1][0]), int(mode.split(":")[1])
    x0, y0, w, h = (int(v) for v in text["panel"].split())
    cell = int(text["cell_px"])
    n = data.shape[0]
    assert w == h == n * cell
    vmin, vmax = float(text["vmin"]), float(text["vmax"])
    log = text["scale"] == "log"
    cmap = matplotlib.colormaps[text["colour_map"]]
    table = np.round(cmap(np.arange(256) / 255.0)[:, :3] * 255).astype(int)
    h_axis = 1 if axis == 0 else 0
    v_axis = 1 if axis == 2 else 2
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(200):
        c, r = rng.integers(0, n, size=2)
        ijk = [0, 0, 0]
        ijk[axis], ijk[h_axis], ijk[v_axis] = index, c, n - 1 - r
        v = data[tuple(ijk)]
        s = (np.log10(v / vmin) / np.log10(vmax / vmin)) if log else (v - vmin) / (vmax - vmin)
        k = int(np.clip(np.round(np.clip(s, 0, 1) * 255), 0, 255))
        px = img[y0 + r * cell + cell // 2, x0 + c * cell + cell // 2]
        # the table entry of the value (its neighbour where s sits on a rounding edge)
        ok = any((table[j] == px).all() for j in range(max(k - 1, 0), min(k + 2, 256)))
        assert ok, "pixel of cell %s: %s, value %g -> entry %d %s" % (ijk, px, v, k, table[k])
        checked += 1
    # and the colours vary: the slice is not one flat colour
    panel = img[y0:y0 + h, x0:x0 + w].reshape(-1, 3)
    assert len(np.unique(panel, axis=0)) > 8, "a flat slice"
    print("%s: %d sampled cells match the snapshot's %s through %s" % (path, checked, field, mode))


if __name__ == "__main__":
    if sys.argv[1] == "text":
        check_text(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "slice":
        check_slice(sys.argv[2], sys.argv[3])
    else:
        sys.exit("unknown check " + sys.argv[1])
