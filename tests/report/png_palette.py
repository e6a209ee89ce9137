#!/usr/bin/env python3
"""png_palette.py PNG - how many pixels of an 8-bit RGB(A) PNG lie on the
palette of the latency heatmap (charts/lattime_chart.c: viridis, its five
stops and the colours between them), within a few levels.  A screenshot
of a report whose heatmap rendered holds thousands (its colour box is
part of the heatmap's image); a page without it a few hundred.  Pure Python (zlib and the PNG filters), no imaging module.
"""
import struct
import sys
import zlib


def read_png(path):
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    i, idat = 8, b""
    while i < len(d):
        n, t = struct.unpack(">I4s", d[i:i + 8])
        c = d[i + 8:i + 8 + n]
        if t == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", c[:10])
        elif t == b"IDAT":
            idat += c
        i += 12 + n
    if depth != 8 or ctype not in (2, 6):
        raise SystemExit("%s: not 8-bit RGB or RGBA" % path)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    rows, prev, o = [], bytearray(w * bpp), 0
    for _ in range(h):
        f = raw[o]
        line = bytearray(raw[o + 1:o + 1 + w * bpp])
        o += 1 + w * bpp
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, bpp, rows


STOPS = [(0x44, 0x01, 0x54), (0x3b, 0x52, 0x8b), (0x21, 0x91, 0x8c), (0x5e, 0xc9, 0x62),
         (0xfd, 0xe7, 0x25)]


def main(path):
    near = set()
    for a, b in zip(STOPS, STOPS[1:]):
        for k in range(16):
            q = [int(a[i] + (b[i] - a[i]) * k / 16) >> 3 for i in range(3)]
            for dr in range(-2, 3):
                for dg in range(-2, 3):
                    for db in range(-2, 3):
                        near.add((q[0] + dr, q[1] + dg, q[2] + db))
    w, bpp, rows = read_png(path)
    n = 0
    for r in rows:
        for x in range(0, w * bpp, bpp):
            if (r[x] >> 3, r[x + 1] >> 3, r[x + 2] >> 3) in near:
                n += 1
    print(n)


main(sys.argv[1])
