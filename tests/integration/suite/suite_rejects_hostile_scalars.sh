#!/bin/sh
# Scalars that used to crash, truncate or be misread are errors with exit 2
# and a position: size: "" (a heap overflow in value_parse under ASan), a
# "\0" escape in a path (silently cut), offset "0junk%" (read as 0),
# path: "" (accepted by validate), size 15E (past a file offset), --scale
# 0x10 (hex through strtod), and files: 4 on a file path (measured one
# file, recorded four).
. "$(dirname "$0")/../../lib.sh"
base() { # $1: defaults line, $2: path
	cat >"$T/s.yaml" <<Y
suite: t-scalars
defaults: {engine: psync, direct: false, $1}
devices:
  - {name: d, path: $2, size: 64k}
include:
  - {pattern: randread, bs: 4k, requests: 4}
Y
}
mkdir "$T/dir"
check() { # $1 label, $2 message fragment, rest: command
	label=$1 frag=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q -- "$frag" "$T/err"; then ok "$label"; else
		not_ok "$label: exit $rc: $(head -c 300 "$T/err")"; fi
}
base 'size: ""' "$T/dir";        check 'size: ""' 's.yaml:2:' "$IOMATRIX" validate "$T/s.yaml"
base 'offset: ""' "$T/dir";      check 'offset: ""' 's.yaml:2:' "$IOMATRIX" validate "$T/s.yaml"
base 'offset: "0junk%"' "$T/dir"; check 'offset 0junk%' 'percentage' "$IOMATRIX" validate "$T/s.yaml"
base 'size: 15E' "$T/dir";        check 'size 15E' 'not a size' "$IOMATRIX" validate "$T/s.yaml"
base 'seed: 1' '""';              check 'path ""' 'path is empty' "$IOMATRIX" validate "$T/s.yaml"
base 'seed: 1' "\"$T/dir\\0/../x\"";  check 'NUL in a path' 'NUL character' "$IOMATRIX" validate "$T/s.yaml"
base 'seed: 1' "$T/dir"
check '--scale 0x10' 'bad --scale' "$IOMATRIX" run "$T/s.yaml" --scale 0x10 --out "$T/set1"
check '--scale inf' 'bad --scale' "$IOMATRIX" run "$T/s.yaml" --scale inf --out "$T/set2"
head -c 65536 /dev/zero >"$T/file"
base 'files: 4' "$T/file";        check 'files: 4 on a file' 'needs a directory' "$IOMATRIX" run "$T/s.yaml" --out "$T/set3" --quiet
base 'offset: "0%"' "$T/dir"
expect_exit 0 "$IOMATRIX" validate "$T/s.yaml"; ok 'offset "0%" still valid'
tap_end
