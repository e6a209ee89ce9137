#!/bin/sh
# A refused pack leaves nothing, at any depth.  A pack
# with a file 70 directories deep is refused before anything is written
# ("deeper than a set can be": a set nests at most SUMS_MAX_DEPTH
# directories), and a temporary tree 200 levels deep that a killed unpack
# left (a dead PID, no lock) is swept whole by the next unpack; before, the
# removal stopped at 64 levels and the data below stayed, hidden.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-deep
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/DEEP"
python3 - "$T/src/DEEP" "$T/deep.tar.gz" <<'P' || fail "python3 could not build the pack"
import io, os, sys, tarfile
src, out = sys.argv[1], sys.argv[2]
with tarfile.open(out, "w:gz", compresslevel=1, format=tarfile.GNU_FORMAT) as t:
    for d, _, names in os.walk(src):
        for n in sorted(names):
            p = os.path.join(d, n); data = open(p, "rb").read()
            ti = tarfile.TarInfo("DEEP/" + os.path.relpath(p, src)); ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    data = b"x" * 100000
    ti = tarfile.TarInfo("DEEP/" + "d/" * 70 + "data"); ti.size = len(data)
    t.addfile(ti, io.BytesIO(data))
P
mkdir "$T/dest"
expect_exit 2 "$IOMATRIX" unpack "$T/deep.tar.gz" -o "$T/dest"
grep -q "deeper than a set can be" "$T/err" && ok "a file 70 directories deep: exit 2, the rule named" ||
	not_ok "message: $(cat "$T/err")"
[ -z "$(ls -A "$T/dest")" ] && ok "nothing left in the directory" || not_ok "left: $(ls -A "$T/dest")"

# a leftover of a killed unpack (PID 99999999, above any pid_max), 200 levels deep
stale="$T/dest/.iomatrix-tmp.unpack.99999999.0"
mkdir "$stale"
python3 - "$stale" <<'P'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(200):
    with open("data", "wb", opener=lambda p, f: os.open(p, f, dir_fd=fd)) as f:
        f.write(b"y" * 4096)
    os.mkdir("d", dir_fd=fd)
    nfd = os.open("d", os.O_RDONLY, dir_fd=fd); os.close(fd); fd = nfd
os.close(fd)
P
expect_exit 0 "$IOMATRIX" pack "$T/src/DEEP" -o "$T/good.tar.gz"
expect_exit 0 "$IOMATRIX" unpack "$T/good.tar.gz" -o "$T/dest"
[ "$(ls -A "$T/dest")" = DEEP ] && ok "the next unpack swept the 200-level leftover whole" ||
	not_ok "dest holds: $(ls -A "$T/dest"); files left: $(find "$T/dest" -name data | wc -l)"
tap_end
