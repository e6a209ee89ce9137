#!/bin/sh
# The seed a set records is the seed that was used.
# seed: 1234567890123456789 was recorded as 1.2345678901234568e+18 (a
# double), and running again from the recorded seed gave other offsets;
# seeds are bounded by 10^15-1 (validate says so) and written exactly: a run
# from the seed read back out of cells/0001.json issues the same offsets
# (IOMATRIX_TRACE, as run_trace_offsets.sh).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
mk() { # file seed
	cat >"$1" <<Y
suite: t-seed
defaults: {engine: psync, direct: false, size: 2MiB, seed: $2}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 200}
Y
}
offsets() { # suite trace set
	IOMATRIX_TRACE="$2" "$IOMATRIX" run "$1" --device d="$T/scratch" --out "$3" --quiet >/dev/null 2>"$T/err" ||
		fail "run $1: $(cat "$T/err")"
	[ -s "$2" ] || skip "IOMATRIX_TRACE wrote nothing: the runner has no trace"
	grep -E '^[0-9]+ (read|write) ' "$2" | cut -d' ' -f3 >"$2.off"
}
mk "$T/big.yaml" 1234567890123456789
expect_exit 2 "$IOMATRIX" validate "$T/big.yaml"
grep -q "'seed' 1234567890123456789 is out of range 0..999999999999999 (the largest whole number" "$T/err" &&
	ok "a seed past 10^15-1 is refused with its range" || not_ok "message: $(cat "$T/err")"

for seed in 999999999999999 999999999999998; do
	mk "$T/a-$seed.yaml" "$seed"
	offsets "$T/a-$seed.yaml" "$T/t1-$seed" "$T/s1-$seed"
	rec=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["params"]["seed"])' \
		"$T/s1-$seed/cells/0001.json")
	[ "$rec" = "$seed" ] && ok "seed $seed recorded exactly" || not_ok "seed $seed recorded as $rec"
	mk "$T/b-$seed.yaml" "$rec"
	offsets "$T/b-$seed.yaml" "$T/t2-$seed" "$T/s2-$seed"
	cmp -s "$T/t1-$seed.off" "$T/t2-$seed.off" && ok "the recorded seed gives the same offsets" ||
		not_ok "the recorded seed $rec gave other offsets than $seed"
done
# the two seeds differ by one: the seed reaches the offsets whole
cmp -s "$T/t1-999999999999999.off" "$T/t1-999999999999998.off" &&
	not_ok "seeds 10^15-1 and 10^15-2 gave the same offsets" || ok "seeds 10^15-1 and 10^15-2 differ"
tap_end
