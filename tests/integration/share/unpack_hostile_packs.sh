#!/bin/sh
# A hostile pack exits 2 and leaves nothing behind: each pack below holds a
# real set's files plus one bad member (built with python3's tarfile), and
# after each unpack the target directory holds exactly what it held before
# (no set, no temporary directory) and nothing appeared outside it.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-hostile
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/SETX"
mkdir "$T/packs"
python3 - "$T/src/SETX" "$T/packs" "$T" <<'P' || fail "python3 could not build the packs"
import io, os, sys, tarfile
src, out, top = sys.argv[1], sys.argv[2], sys.argv[3]
files = []
for d, _, names in os.walk(src):
    for n in sorted(names):
        p = os.path.join(d, n)
        files.append(("SETX/" + os.path.relpath(p, src), open(p, "rb").read()))
files.sort()

def pack(name, extra, keep=True, before=False):
    with tarfile.open(os.path.join(out, name + ".tar.gz"), "w:gz", compresslevel=1,
                      format=tarfile.GNU_FORMAT) as t:
        if before:
            extra(t)
        for n, data in (files if keep else []):
            ti = tarfile.TarInfo(n); ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        if not before:
            extra(t)

def reg(t, n, data=b"x"):
    ti = tarfile.TarInfo(n); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
def typ(t, n, kind, link=""):
    ti = tarfile.TarInfo(n); ti.type = kind; ti.linkname = link
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        ti.devmajor, ti.devminor = 1, 3
    t.addfile(ti)

pack("dotdot", lambda t: reg(t, "SETX/../evil"))
pack("dotdot-top", lambda t: reg(t, "../evil"))
pack("absolute", lambda t: reg(t, top + "/evil"))
pack("symlink", lambda t: typ(t, "SETX/link", tarfile.SYMTYPE, top + "/evil"))
pack("symlink-first", lambda t: typ(t, "SETX/cells", tarfile.SYMTYPE, top), before=True)
pack("hardlink", lambda t: typ(t, "SETX/hard", tarfile.LNKTYPE, "SETX/manifest.json"))
pack("device", lambda t: typ(t, "SETX/null", tarfile.CHRTYPE))
pack("blockdev", lambda t: typ(t, "SETX/disk", tarfile.BLKTYPE))
pack("fifo", lambda t: typ(t, "SETX/fifo", tarfile.FIFOTYPE))
pack("two-sets", lambda t: reg(t, "OTHER/manifest.json"))
pack("duplicate-member", lambda t: reg(t, "SETX/manifest.json", b"{}\n"))
pack("tampered", lambda t: reg(t, "SETX/notes.txt"))  # not in SHA256SUMS: extra
pack("temp-name", lambda t: reg(t, "SETX/cells/.iomatrix-tmp.x"))  # outside every list
def many(t):
    # 100,000 empty members; headers patched from one template (tarfile's
    # own addfile takes seconds for this many)
    h = bytearray(tarfile.TarInfo("SETX/m/000000").tobuf(tarfile.USTAR_FORMAT))
    h[148:156] = b" " * 8
    base = sum(h) - sum(b"000000")
    for i in range(100000):
        d = b"%06d" % i
        h[7:13] = d
        h[148:156] = b"%06o\0 " % (base + sum(d))
        t.fileobj.write(h)
    t.offset += 512 * 100000
pack("100000-members", many)
# a member that declares 10 GB: its header only, the data never written
def huge(t):
    ti = tarfile.TarInfo("SETX/huge"); ti.size = 10 * 1024**3
    t.fileobj.write(ti.tobuf(tarfile.GNU_FORMAT))
with tarfile.open(os.path.join(out, "10GB-member.tar.gz"), "w:gz", compresslevel=1) as t:
    huge(t)
    t.closed = True   # no end-of-archive blocks, no padding: a header only
    t.fileobj.close()
P
[ "$(ls "$T/packs" | wc -l)" = 15 ] || fail "expected 15 packs, got $(ls "$T/packs")"

# the duplicate set id: a real pack of SETX into a directory that has SETX
expect_exit 0 "$IOMATRIX" pack "$T/src/SETX" -o "$T/packs/same-set-id.tar.gz"
mkdir -p "$T/dest" "$T/dup/SETX" && echo mine >"$T/dup/SETX/keep"

for p in "$T"/packs/*.tar.gz; do
	n=$(basename "$p" .tar.gz)
	before=$(cd "$T" && find . -path ./packs -prune -o -path ./src -prune -o -print | LC_ALL=C sort)
	d="$T/dest"; [ "$n" = same-set-id ] && d="$T/dup"
	"$IOMATRIX" unpack "$p" -o "$d" >"$T/out" 2>"$T/err"; rc=$?
	after=$(cd "$T" && find . -path ./packs -prune -o -path ./src -prune -o -print | LC_ALL=C sort)
	if [ $rc != 2 ]; then not_ok "$n: exit $rc, expected 2 ($(cat "$T/err"))"; continue; fi
	if [ "$before" != "$after" ]; then
		not_ok "$n: files changed: $(printf '%s\n' "$before" "$after" | sort | uniq -u | head -3)"; continue
	fi
	[ -s "$T/out" ] && { not_ok "$n: printed a path"; continue; }
	grep -q "^iomatrix: unpack: .*$(basename "$p")" "$T/err" || { not_ok "$n: message $(cat "$T/err")"; continue; }
	ok "$n: exit 2, nothing written ($(sed 's/^iomatrix: unpack: [^:]*: //; s/; a pack holds.*//' "$T/err" | cut -c1-100))"
done
[ "$(cat "$T/dup/SETX/keep")" = mine ] && [ "$(ls "$T/dup/SETX")" = keep ] && ok "the existing set is untouched" || not_ok "existing set changed"
[ -e "$T/evil" ] && not_ok "something was written outside" || ok "nothing outside the target"
# the same pack unpacks where no set of its name exists: the refusals above
# were about the members, not the pack format
expect_exit 0 "$IOMATRIX" unpack "$T/packs/same-set-id.tar.gz" -o "$T/fresh"
ok "the genuine pack unpacks elsewhere"
tap_end
