#!/bin/sh
# reproduce refuses, with exit 2 and before any IO or any new set, what it
# cannot re-run faithfully: a device of the set left unmapped (the message
# lists every device of the set with the path it had), a --device naming no
# device of the set, a suite.yaml changed after the run (its sha256 no longer
# the manifest's), a set imported from published CSV figures (no size, no
# runtime: the message lists what is missing), a path on a kernel pseudo
# filesystem (run's own safety rule), and a file that is no pack (unpack's
# refusal: nothing is left in the results directory).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<EOS
suite: repro-refuse
defaults: {engine: "null", size: 1m, requests: 16}
devices:
  - {name: hdd, path: $T/a/h}
  - {name: ssd, path: $T/a/s}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
export IOMATRIX_RESULTS="$T/results"
nothing_new() { [ ! -e "$T/results" ] && [ ! -e "$T/new" ]; }

expect_exit 2 "$IOMATRIX" reproduce "$T/orig" --device hdd="$T/b/h" --out "$T/new"
grep -q "ran on devices hdd (was $T/a/h), ssd (was $T/a/s); map each to a path here: --device ssd=PATH" "$T/err" &&
	nothing_new && ok "unmapped device: exit 2 listing the set's devices, nothing written" ||
	not_ok "unmapped: $(cat "$T/err")"

expect_exit 2 "$IOMATRIX" reproduce "$T/orig" --device hdd="$T/b/h" --device ssd="$T/b/s" \
	--device nvme="$T/b/n" --out "$T/new"
grep -q "\-\-device 'nvme=$T/b/n': the suite has no device 'nvme' (it has: hdd, ssd)" "$T/err" &&
	nothing_new && ok "unknown device name: exit 2" || not_ok "unknown: $(cat "$T/err")"

cp -r "$T/orig" "$T/changed"
echo "# edited" >>"$T/changed/suite.yaml"
expect_exit 2 "$IOMATRIX" reproduce "$T/changed" --device hdd="$T/b/h" --device ssd="$T/b/s" --out "$T/new"
grep -q "suite.yaml' has sha256 .* but the manifest records .*: the suite was changed after the run" "$T/err" &&
	nothing_new && ok "changed suite.yaml: exit 2, nothing written" || not_ok "changed: $(cat "$T/err")"

expect_exit 2 "$IOMATRIX" reproduce "$T/orig" --device hdd=/proc/iomatrix-x --device ssd="$T/b/s" --out "$T/new"
grep -q "'/proc/iomatrix-x' is on procfs, a kernel pseudo filesystem" "$T/err" && nothing_new &&
	ok "run's safety rules apply: a pseudo filesystem is refused" || not_ok "procfs: $(cat "$T/err")"

expect_exit 0 "$IOMATRIX" import csv "$ROOT/tests/data/seed-003-published.csv" -o "$T/csv"
expect_exit 2 "$IOMATRIX" reproduce "$T/csv" --out "$T/new"
grep -q "imported from csv output that lacks what a re-run needs" "$T/err" &&
	grep -q "every cell: size and runtime (csv figures give neither)" "$T/err" && nothing_new &&
	ok "published CSV figures: exit 2 listing what is missing" || not_ok "csv: $(cat "$T/err")"

echo "not a set" >"$T/set.tar.gz"
expect_exit 2 "$IOMATRIX" reproduce "$T/set.tar.gz" --out "$T/new"
grep -q "^iomatrix: reproduce: " "$T/err" && [ -z "$(ls -A "$T/results" 2>/dev/null)" ] &&
	[ ! -e "$T/new" ] && ok "a file that is no pack: exit 2, nothing left" ||
	not_ok "file: $(cat "$T/err"); results: $(ls -A "$T/results" 2>&1)"
tap_end
