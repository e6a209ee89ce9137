#!/bin/sh
# compare on real runs with a known effect: the null engine completes each
# IO after IOMATRIX_NULL_LATENCY_US, so 4 ms vs 4 ms is no change and
# 4 ms vs 5.72 ms is a 30 % IOPS drop (long enough that wake-up jitter on a
# busy machine stays small beside it).  Two identical runs give 0
# regressions; the throttled one gives exactly that one regression.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: throttle
defaults: {engine: "null", size: 16MiB, runtime: 400ms, repeat: 5}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
run() { # latency_us out
	IOMATRIX_NULL_LATENCY_US=$1 "$IOMATRIX" run "$T/s.yaml" --out "$T/$2" --quiet >/dev/null 2>"$T/err" \
		|| fail "run $2: $(cat "$T/err")"
}
run 4000 a
run 4000 b
run 5720 c
# the busy test machine adds noise: judge 15 % effects, the known one is 30 %
expect_exit 0 "$IOMATRIX" compare "$T/a" "$T/b" -o "$T/ab" --threshold 15 --fail-on-regression
grep -q '^1 workload compared: 0 regressions' "$T/out" && ok "identical runs: 0 regressions" \
	|| not_ok "identical: $(sed -n 2p "$T/out")"
expect_exit 3 "$IOMATRIX" compare "$T/a" "$T/c" -o "$T/ac" --threshold 15 --fail-on-regression
grep -q '^1 workload compared: 1 regression,' "$T/out" && ok "throttled run: exactly 1 regression" \
	|| not_ok "throttled: $(sed -n 2p "$T/out")"
chg=$(sed -n 's/.*regression  dev: .*IOPS \(-[0-9.]*\) %.*/\1/p' "$T/out")
awk -v c="$chg" 'BEGIN { exit !(c <= -20 && c >= -40) }' && ok "change near -30 % ($chg %)" \
	|| not_ok "change $chg"
tap_end
