#!/bin/sh
# 'unpack BAD -o x/y/z' with x missing made x, x/y and
# x/y/z, and a refusal removed only z.  Every directory this run made goes;
# one that was there stays (with what it held).
. "$(dirname "$0")/../../lib.sh"
echo "not a pack" >"$T/bad.tar.gz"
expect_exit 2 "$IOMATRIX" unpack "$T/bad.tar.gz" -o "$T/x/y/z"
[ ! -e "$T/x" ] && ok "x, x/y and x/y/z all gone" || not_ok "left: $(find "$T/x")"
# a refusal after the headers passed (checksums fail): the directories exist
# by then, and go too
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-par
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/PAR"
echo "# changed" >>"$T/src/PAR/plan.json"
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$T/src/PAR" "$T/sums.tar.gz" <<'P'
import io, os, sys, tarfile
src, out = sys.argv[1], sys.argv[2]
with tarfile.open(out, "w:gz") as t:
    for d, _, names in os.walk(src):
        for n in sorted(names):
            p = os.path.join(d, n); data = open(p, "rb").read()
            ti = tarfile.TarInfo("PAR/" + os.path.relpath(p, src)); ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
P
mkdir "$T/keep" && echo mine >"$T/keep/file"
expect_exit 2 "$IOMATRIX" unpack "$T/sums.tar.gz" -o "$T/keep/a/b"
grep -q "fails its checksums" "$T/err" && [ "$(ls -A "$T/keep")" = file ] &&
	ok "checksums fail: keep/a and keep/a/b gone, keep and its file stay" ||
	not_ok "err: $(cat "$T/err"); keep: $(ls -A "$T/keep")"
tap_end
