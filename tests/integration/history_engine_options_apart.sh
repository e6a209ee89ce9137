#!/bin/sh
# history keeps cells apart that differ only in a key the key table marks as
# defining the workload but the signature did not spell out (batching here;
# also io_uring's options and CPU placement): the same label run with
# iodepth_batch 1 and 4 is two series, the second named for the difference,
# not one series whose "change" is a different workload.
. "$(dirname "$0")/../lib.sh"
mk() { # $1 set name, $2 extra keys
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {engine: "null", pattern: randread, bs: 4k, iodepth: 8, size: 1MiB, requests: 2000$2}
devices: [{name: d, path: $T/scratch}]
include: [{label: x}]
YAML
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/arc/$1" --quiet
}
mkdir -p "$T/scratch" "$T/arc"
mk plain ""
mk batch ", iodepth_batch: 4"
"$IOMATRIX" history "$T/arc" >"$T/out" 2>"$T/err" || fail "history: $(cat "$T/err")"
head -1 "$T/out" | grep -q "2 series (1 kept apart)" && ok "two series, one kept apart" \
	|| not_ok "want 2 series: $(head -1 "$T/out")"
grep -q "iodepth_batch 4 (main series: none)" "$T/out" && ok "the difference is named" \
	|| not_ok "no iodepth_batch in: $(grep -- '—' "$T/out" | head -3)"
tap_end
