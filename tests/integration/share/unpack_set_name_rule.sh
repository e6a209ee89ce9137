#!/bin/sh
# A pack's top directory is a set's name.  A set named
# '...' (or '.hidden') unpacked with rc 0 into a name that list hides and
# verify's directory walk skips; now it is refused and nothing is left.
# pack refuses such a set too.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-name
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/NAME"
for top in ... .hidden; do
	python3 - "$T/src/NAME" "$T/p.tar.gz" "$top" <<'P' || fail "python3"
import io, os, sys, tarfile
src, out, top = sys.argv[1:4]
with tarfile.open(out, "w:gz") as t:
    for d, _, names in os.walk(src):
        for n in sorted(names):
            p = os.path.join(d, n); data = open(p, "rb").read()
            ti = tarfile.TarInfo(top + "/" + os.path.relpath(p, src)); ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
P
	mkdir -p "$T/dest"
	expect_exit 2 "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest"
	grep -q "the set's directory must be a set's name" "$T/err" && [ -z "$(ls -A "$T/dest")" ] &&
		ok "a set named '$top': exit 2, nothing left" ||
		not_ok "'$top': $(cat "$T/err"); dest: $(ls -A "$T/dest")"
done
cp -r "$T/src/NAME" "$T/src/.dotset"
expect_exit 2 "$IOMATRIX" pack "$T/src/.dotset" -o "$T/dot.tar.gz"
[ ! -e "$T/dot.tar.gz" ] && ok "pack refuses a set named '.dotset'" || not_ok "packed it"
tap_end
