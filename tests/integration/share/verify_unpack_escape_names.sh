#!/bin/sh
# A name that comes from a set or a pack cannot forge a
# line or send an escape sequence to the terminal.  verify printed an
# extra file's name raw: "x\nFORGED: intact (4 files)" made a line of its
# own, and ESC ] 0 ; retitled the window; report's warning that the set
# fails verification quoted the same names.  unpack echoed a member's
# escape codes in its refusal.  All now print them as text (\n, \e).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-esc
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/ESC"
python3 - "$T/ESC" <<'P'
import os, sys
open(os.path.join(sys.argv[1], "x\nFORGED: intact (4 files)"), "w").write("1")
open(os.path.join(sys.argv[1], "t\x1b]0;owned\x07"), "w").write("1")
P
expect_exit 1 "$IOMATRIX" verify "$T/ESC"
! grep -q "^FORGED" "$T/out" && grep -qF 'extra x\nFORGED: intact (4 files)' "$T/out" &&
	ok "verify: the newline is printed as text, no forged line" || not_ok "verify: $(cat -A "$T/out")"
! grep -q "$(printf '\033')" "$T/out" && grep -qF 'extra t\e]0;owned\x07' "$T/out" &&
	ok "verify: no escape byte reaches the terminal" || not_ok "verify: $(cat -A "$T/out")"
"$IOMATRIX" report "$T/ESC" -o "$T/rep" --format md >"$T/out" 2>"$T/err"
grep -q "fails verification" "$T/err" && ! grep -q "^FORGED" "$T/err" &&
	! grep -q "$(printf '\033')" "$T/err" &&
	ok "report: the warning quotes the names as text" || not_ok "report: $(cat -A "$T/err")"
python3 - "$T/bad.tar.gz" <<'P'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    ti = tarfile.TarInfo("SET/\x1b[2J\x1b[31mred\nFORGED line"); ti.size = 1
    t.addfile(ti, io.BytesIO(b"x"))
P
expect_exit 2 "$IOMATRIX" unpack "$T/bad.tar.gz" -o "$T/dest"
! grep -q "$(printf '\033')" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -qF "member 'SET/\e[2J\e[31mred\nFORGED line'" "$T/err" &&
	ok "unpack: the member's escapes and newline are printed as text, one line" ||
	not_ok "unpack: $(cat -A "$T/err")"
tap_end
