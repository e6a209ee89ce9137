#!/bin/sh
# history keeps cells apart that differ only in a key the key table marks as
# defining the workload but the signature did not spell out (batching here;
# also io_uring's options and CPU placement): the same label run with
# iodepth_batch 1 and 4 is two series, the second named for the difference,
# not one series whose "change" is a different workload.  The newest set's
# series is the main one, and the difference is named whichever it is: the
# two sets get their start times here (and lose SHA256SUMS, as sets from
# before the sums), since two runs of a test may start in one second or two.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mk() { # $1 set name, $2 extra keys
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {engine: "null", pattern: randread, bs: 4k, iodepth: 8, size: 1MiB, requests: 2000$2}
devices: [{name: d, path: $T/scratch}]
include: [{label: x}]
YAML
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/sets/$1" --quiet
}
dated() { # $1 set, $2 archive, $3 started_at
	cp -r "$T/sets/$1" "$T/$2/$1"
	jq --arg d "$3" '.started_at = $d' "$T/sets/$1/manifest.json" >"$T/$2/$1/manifest.json"
	rm -f "$T/$2/$1/SHA256SUMS"
}
mkdir -p "$T/scratch" "$T/sets" "$T/new_batch" "$T/new_plain"
mk plain ""
mk batch ", iodepth_batch: 4"
dated plain new_batch 2026-01-01T10:00:00Z
dated batch new_batch 2026-01-02T10:00:00Z
dated plain new_plain 2026-01-02T10:00:00Z
dated batch new_plain 2026-01-01T10:00:00Z
for a in new_plain new_batch; do
	"$IOMATRIX" history "$T/$a" >"$T/$a.out" 2>"$T/$a.err" || fail "history: $(cat "$T/$a.err")"
	head -1 "$T/$a.out" | grep -q "2 series (1 kept apart)" && ok "$a: two series, one kept apart" \
		|| not_ok "$a: want 2 series: $(head -1 "$T/$a.out")"
done
grep -q "x randread \[parameters differ: iodepth_batch 4 (main series: 1)\]" "$T/new_plain.out" \
	&& ok "the batched series kept apart names its iodepth_batch" \
	|| not_ok "newest plain: $(grep -- '—' "$T/new_plain.out" | head -3)"
grep -q "x randread \[parameters differ: iodepth_batch 1 (main series: 4)\]" "$T/new_batch.out" \
	&& ok "the plain series kept apart names the main series' iodepth_batch" \
	|| not_ok "newest batched: $(grep -- '—' "$T/new_batch.out" | head -3)"
tap_end
