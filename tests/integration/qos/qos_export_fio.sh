#!/bin/sh
# export fio maps rate_iops and rate_process to fio's options (a single
# rate of a mixed cell split by rwmixread: fio throttles each direction),
# says in a comment that fio's latency counts from issue, not from the
# intended start, and that a sweep's job is its unthrottled probe.
. "$(dirname "$0")/../../lib.sh"
cat >"$T/s.yaml" <<EOS
suite: rate
defaults: {engine: libaio, size: 16MiB, runtime: 1s}
devices:
  - {name: dev, path: $T/d/}
include:
  - {pattern: randrw, rwmixread: 70, rate_iops: 1000, rate_process: poisson}
  - {pattern: randread, rate_iops: [500, 0]}
  - {pattern: read, load_sweep: {iops: [100, 200]}}
EOS
mkdir -p "$T/d"
expect_exit 0 "$IOMATRIX" export fio "$T/s.yaml" -o "$T/ex"
f1=$(ls "$T"/ex/0001-*.fio) f2=$(ls "$T"/ex/0002-*.fio) f3=$(ls "$T"/ex/0003-*.fio)
grep -qx 'rate_iops=700,300' "$f1" && grep -qx 'rate_process=poisson' "$f1" \
	&& ok "mixed 1000 IOPS at 70 % reads: rate_iops=700,300, rate_process=poisson" \
	|| not_ok "cell 1: $(grep rate "$f1")"
grep -qx 'rate_iops=500,0' "$f2" && ! grep -q rate_process "$f2" \
	&& ok "[read, write] as fio's pair, linear left at fio's default" \
	|| not_ok "cell 2: $(grep rate "$f2")"
grep -q "NOT THE SAME: latency under rate_iops" "$f1" && ok "comment: fio measures latency from issue" \
	|| not_ok "no latency comment"
grep -q "NOT THE SAME: load_sweep" "$f3" && ! grep -q '^rate_iops' "$f3" \
	&& ok "a sweep's job is its unthrottled probe, said in a comment" || not_ok "cell 3"
if command -v fio >/dev/null 2>&1; then
	fio --parse-only "$f1" "$f2" "$f3" >/dev/null 2>&1 && ok "fio --parse-only accepts the jobs" \
		|| not_ok "fio refuses: $(fio --parse-only "$f1" 2>&1 | head -3)"
fi
tap_end
