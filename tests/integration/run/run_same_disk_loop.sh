#!/bin/sh
# The same-disk check follows a loop device to the disk under its backing
# file: a loop over a file in the scratch directory and a directory next
# to it measure one disk, and run and report say so; a loop and a tmpfs
# directory (no disk) get no such warning.  Root and losetup; the null
# engine does no IO.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
need_cmd losetup
# our own loop over a file in the scratch directory (lib_blk.sh's loops
# live in /dev/shm, on no disk)
truncate -s 16M "$T/img" || fail "truncate"
BLK_LOOP=$(losetup -f --show "$T/img" 2>/dev/null) || skip "losetup cannot attach a loop device here"
trap 'losetup -d "$BLK_LOOP" 2>/dev/null' EXIT
[ "$(stat -f -c %T "$T")" != tmpfs ] || skip "the scratch directory is on tmpfs: no disk under it"
mkdir -p "$T/dir"
suite() { # other-path
	cat >"$T/s.yaml" <<EOF2
suite: same-disk-loop
defaults: {engine: null, size: 1m, runtime: 50ms}
devices:
  - {name: ssd, path: $BLK_LOOP}
  - {name: hdd, path: $1}
matrix: {pattern: [randread], bs: [4k]}
EOF2
}
suite "$T/dir"
"$IOMATRIX" run "$T/s.yaml" --out "$T/set1" --quiet >"$T/out1" 2>"$T/err1" || fail "run: $(cat "$T/err1")"
disk=$(jq -r '.devices[0].fingerprint.loop_backing_disk' "$T/set1/manifest.json")
[ -n "$disk" ] && [ "$disk" != null ] && ok "the loop's backing disk is recorded ($disk)" ||
	not_ok "no loop_backing_disk: $(jq -c '.devices[0].fingerprint' "$T/set1/manifest.json")"
grep -q "ssd and hdd are the same device ($disk)" "$T/err1" && ok "run warns: one disk under both" ||
	not_ok "run: $(cat "$T/err1")"
expect_exit 0 "$IOMATRIX" report "$T/set1" -o "$T/rep1" --charts none --format md
grep -q "ssd and hdd are the same device ($disk)" "$T/rep1/report.md" && ok "the report says so" ||
	not_ok "report: $(grep -i same "$T/rep1/report.md")"
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	mkdir -p /dev/shm/imx-same.$$
	suite /dev/shm/imx-same.$$
	"$IOMATRIX" run "$T/s.yaml" --out "$T/set2" --quiet >"$T/out2" 2>"$T/err2" || fail "run 2"
	rm -rf /dev/shm/imx-same.$$
	grep -q "same device" "$T/err2" && not_ok "a loop and tmpfs called one disk" || ok "loop and tmpfs: no same-disk warning"
	expect_exit 0 "$IOMATRIX" report "$T/set2" -o "$T/rep2" --charts none --format md
	grep -q "same device" "$T/rep2/report.md" && not_ok "report: loop and tmpfs called one disk" ||
		ok "report: no same-disk alert for loop and tmpfs"
fi
tap_end
