#!/bin/sh
# Pack -> unpack round-trips every pack that pack writes.
# A set whose SHA256SUMS lists 'notes v2.txt', or a --with-report report
# holding 'my notes.txt', packed with rc 0 and then failed to unpack
# (members are [A-Za-z0-9._+-]).  pack now applies unpack's rules first
# and refuses, naming the file and the rule; nothing is written.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-names
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/NAMES"
cp -r "$T/NAMES" "$T/NOTES"
echo "see" >"$T/NOTES/notes v2.txt"
(cd "$T/NOTES" && sha256sum "notes v2.txt" >>SHA256SUMS &&
	LC_ALL=C sort -k2 SHA256SUMS -o SHA256SUMS) || skip "no sha256sum"
expect_exit 0 "$IOMATRIX" verify "$T/NOTES"
expect_exit 2 "$IOMATRIX" pack "$T/NOTES" -o "$T/notes.tar.gz"
grep -q "holds 'notes v2.txt': a name outside \[A-Za-z0-9._+-\]" "$T/err" && [ ! -e "$T/notes.tar.gz" ] &&
	ok "SHA256SUMS lists 'notes v2.txt': refused, the name and the rule given, no pack" ||
	not_ok "notes: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" report "$T/NAMES"
echo "mine" >"$T/NAMES/report/my notes.txt"
(cd "$T/NAMES/report" && sha256sum "my notes.txt" >>SHA256SUMS && LC_ALL=C sort -k2 SHA256SUMS -o SHA256SUMS)
expect_exit 0 "$IOMATRIX" verify "$T/NAMES"
expect_exit 2 "$IOMATRIX" pack "$T/NAMES" -o "$T/rep.tar.gz" --with-report
grep -q "holds 'report/my notes.txt'" "$T/err" && [ ! -e "$T/rep.tar.gz" ] &&
	ok "--with-report with 'my notes.txt': refused" || not_ok "report: $(cat "$T/err")"
rm "$T/NAMES/report/my notes.txt"
(cd "$T/NAMES/report" && grep -v "my notes" SHA256SUMS >s && mv s SHA256SUMS)
expect_exit 0 "$IOMATRIX" pack "$T/NAMES" -o "$T/rep.tar.gz" --with-report
expect_exit 0 "$IOMATRIX" unpack "$T/rep.tar.gz" -o "$T/dest"
ok "what pack writes, unpack takes"
tap_end
