#!/bin/sh
# report and --resume on a set the user cannot write end with exit 2 (bad
# input, as documented) and a message naming the fix, not exit 1.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch" "$T/ro"
cat >"$T/s.yaml" <<'Y'
suite: t-roset
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 8}
  - {pattern: read, bs: 4k, requests: 8}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
python3 - "$T/set/manifest.json" <<'PY' || fail "python3"
import json, sys
m = json.load(open(sys.argv[1])); m["cells"] = m["cells"][:1]; m["status"] = "interrupted"
json.dump(m, open(sys.argv[1], "w"))
PY
if [ "$(id -u)" = 0 ]; then
	# root ignores permission bits: a read-only bind mount of the set
	mount --bind "$T/set" "$T/ro" 2>/dev/null && mount -o remount,bind,ro "$T/ro" 2>/dev/null ||
		{ umount "$T/ro" 2>/dev/null; skip "cannot make a read-only bind mount"; }
	trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
else
	rmdir "$T/ro"; cp -r "$T/set" "$T/ro"; chmod -R a-w "$T/ro"
	trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT INT TERM
fi
expect_exit 2 "$IOMATRIX" report "$T/ro" --charts none
grep -q -- "-o DIR" "$T/err" && ok "report: exit 2, names -o DIR" || not_ok "report: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" run --resume "$T/ro" --device d="$T/scratch" --quiet
grep -q "make it writable" "$T/err" && ok "resume: exit 2, says how" || not_ok "resume: $(cat "$T/err")"
tap_end
