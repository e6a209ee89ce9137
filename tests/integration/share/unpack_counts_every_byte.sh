#!/bin/sh
# Every byte that libarchive decompresses is counted.
# - a GNU dumpdir member (type 'D': a directory that carries data) is
#   refused at its header, before its data is read (it was taken for a
#   directory and its data never counted: rc 0);
# - a pax header carrying 900 KiB that no member declares (libarchive reads
#   it and drops it) is refused as soon as the stream holds more than the
#   headers declare (it was accepted: rc 0).
# Each leaves nothing behind; the same set packed by iomatrix unpacks.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-count
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/CNT"
python3 - "$T/src/CNT" "$T" <<'P' || fail "python3 could not build the packs"
import io, os, sys, tarfile
src, top = sys.argv[1], sys.argv[2]
files = []
for d, _, names in os.walk(src):
    for n in sorted(names):
        p = os.path.join(d, n)
        files.append(("CNT/" + os.path.relpath(p, src), open(p, "rb").read()))
files.sort()
def pack(name, extra, fmt=tarfile.GNU_FORMAT):
    with tarfile.open(os.path.join(top, name + ".tar.gz"), "w:gz", compresslevel=6,
                      format=fmt) as t:
        for n, data in files:
            ti = tarfile.TarInfo(n); ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        extra(t)
def dumpdir(t):
    ti = tarfile.TarInfo("CNT/dumpdir"); ti.type = b"D"; ti.size = 8 << 20
    t.addfile(ti, io.BytesIO(b"\0" * ti.size))
pack("dumpdir", dumpdir)
def pax(t):
    ti = tarfile.TarInfo("CNT/notes"); ti.size = 1
    ti.pax_headers = {"comment": "z" * (900 << 10)}
    t.addfile(ti, io.BytesIO(b"x"))
pack("pax-hidden", pax, tarfile.PAX_FORMAT)
P
mkdir "$T/dest"
expect_exit 2 "$IOMATRIX" unpack "$T/dumpdir.tar.gz" -o "$T/dest"
grep -q "member 'CNT/dumpdir': a directory that carries data (GNU dumpdir)" "$T/err" &&
	ok "GNU dumpdir: exit 2 at its header" || not_ok "dumpdir: $(cat "$T/err")"
[ -z "$(ls -A "$T/dest")" ] && ok "nothing left" || not_ok "left: $(ls -A "$T/dest")"
expect_exit 2 "$IOMATRIX" unpack "$T/pax-hidden.tar.gz" -o "$T/dest"
grep -q "more data than its headers declare" "$T/err" &&
	ok "900 KiB in a pax header: exit 2, counted though nothing is written" ||
	not_ok "pax: $(cat "$T/err")"
[ -z "$(ls -A "$T/dest")" ] && ok "nothing left" || not_ok "left: $(ls -A "$T/dest")"
expect_exit 0 "$IOMATRIX" pack "$T/src/CNT" -o "$T/good.tar.gz"
expect_exit 0 "$IOMATRIX" unpack "$T/good.tar.gz" -o "$T/dest"
ok "the set packed by iomatrix unpacks within the count"
tap_end
