#!/bin/sh
# Sentences across cells say what the numbers say, in words a reader takes
# as written (each with the case that must stay as it was):
# - ties: "on the one workload", "on either workload", "on any of the 3
#   workloads", never "show no significant difference on both workloads"
#   (or "on 1 workload", "on all 3 workloads");
# - a ratio that reads 1.00x is neither faster nor slower ("1.00x", never
#   "1.00x faster"); 1.03x keeps its word;
# - a sustained load above the maximum the probe measured is "more than the
#   8,570 IOPS its probe measured as the maximum", never "(105 % of its
#   maximum)"; 80 % stays "80 % of its maximum";
# - a device named "a@host#2" is tied to its set: the Method lists "Result
#   set #2, ..."; a report of one set numbers no set;
# - two load sweeps of one label are told apart in their titles by their
#   loads and targets, and a sentence that states its own target ("m
#   sustains 400 IOPS of 4K random reads at QD1 with p99 <= 500 ms") does
#   not repeat them.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { # $1 dir, then gen_synthetic's options
	d=$1
	shift
	python3 "$ROOT/tests/report/gen_synthetic.py" "$T/$d" "$@" >/dev/null || fail "gen $d"
}
rep() { # $1 out, then sets
	o=$1
	shift
	expect_exit 0 "$IOMATRIX" report "$@" -o "$T/$o" --charts none --format md
}
for n in 1 2 3; do
	gen syn$n --devices a:ssd,b:ssd --cells $n --repeat 3 --noise 0.05
	rep r$n "$T/syn$n"
done
grep -q "^- b and a show no significant difference on the one workload (" "$T/r1/report.md" &&
	ok "one tie: 'on the one workload'" || not_ok "one: $(grep 'difference' "$T/r1/report.md")"
grep -q "^- b and a show no significant difference on either workload (" "$T/r2/report.md" &&
	ok "two ties: 'on either workload'" || not_ok "two: $(grep 'difference' "$T/r2/report.md")"
grep -q "^- b and a show no significant difference on any of the 3 workloads (" "$T/r3/report.md" &&
	ok "three ties: 'on any of the 3 workloads'" || not_ok "three: $(grep 'difference' "$T/r3/report.md")"
cat "$T"/r[123]/report.md | grep -q "difference on both workloads\|difference on 1 workload\|difference on all" &&
	not_ok "a tie said as a count: $(cat "$T"/r[123]/report.md | grep 'difference on')" ||
	ok "no tie said as 'both', '1 workload' or 'all N'"
# the toy model puts b's latency at a's to three figures on the one workload
grep -q '^| 4K random read (RND4K Q1T1) | b | [0-9.]*x\\\* | [0-9.]*x\\\* | 1\.00x |$' "$T/r1/report.md" &&
	ok "1.00x: neither faster nor slower" || not_ok "ratio: $(grep '^| 4K random read' "$T/r1/report.md")"
grep -q '1\.00x \(faster\|slower\)' "$T"/r[123]/report.md && not_ok "'1.00x faster/slower'" ||
	ok "never '1.00x faster' or '1.00x slower'"
grep -q '^| 4K random read (RND4K Q1T1) | b | .* | 1\.03x faster |$' "$T/r2/report.md" &&
	ok "1.03x keeps its word" || not_ok "ratio: $(grep '^| 4K random read' "$T/r2/report.md")"
# a's probe measured 8,570 IOPS (its points say 9,000): the sustained load
# is above the maximum; b's 96 IOPS stay 80 % of its 120
gen sq --devices a:ssd,b:hdd --cells 1 --sweep --qos-ms 50
python3 - "$T/sq" <<'EOP' || fail "edit"
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/cells/*.json")):
    c = json.load(open(f))
    if c["params"]["device"] == "a" and "load_sweep" in c:
        c["load_sweep"]["max_iops"] = c["load_sweep"]["max_iops"] / 1.05
        json.dump(c, open(f, "w"), indent=1)
EOP
rep rq "$T/sq"
grep -q "^- a sustains 9,000 IOPS of 4K random reads at QD1 with p99 ≤ 50 ms (more than the 8,570 IOPS its probe measured as the maximum)\.$" "$T/rq/report.md" &&
	ok "above the probed maximum: said so" || not_ok "a: $(grep 'a sustains' "$T/rq/report.md")"
grep -q "^- b sustains 96 IOPS of 4K random reads at QD1 with p99 ≤ 50 ms (80 % of its maximum)\.$" "$T/rq/report.md" &&
	ok "below it: its share" || not_ok "b: $(grep 'b sustains' "$T/rq/report.md")"
grep -q "% of its maximum" "$T/rq/report.md" && grep "% of its maximum" "$T/rq/report.md" | grep -q "1[0-9][0-9] % of" &&
	not_ok "over 100 % of its maximum" || ok "never over 100 % of its maximum"
# one set twice: hosts and names clash, so displays carry #1/#2 and the
# Method numbers its sets; one set alone numbers none
cp -R "$T/syn1" "$T/syn1b"
rep two "$T/syn1" "$T/syn1b"
grep -q '^- Result set \\#1, .*syn1: suite synthetic' "$T/two/report.md" &&
	grep -q '^- Result set \\#2, .*syn1b: suite synthetic' "$T/two/report.md" &&
	grep -q 'a@synthhost\\#2' "$T/two/report.md" &&
	ok "a@synthhost#2: the Method says which set is #2" ||
	not_ok "sets: $(grep '^- Result set' "$T/two/report.md")"
grep -q '^- Result set \\#' "$T/r1/report.md" && not_ok "one set numbered" || ok "one set: no number"
# two sweeps of one label: their titles tell them apart by their loads
# and targets; a sentence that states its target does not repeat them
cat >"$T/q.yaml" <<EOS
suite: sweeps
defaults: {engine: model, model_latency: 500us, size: 1MiB, runtime: 100ms, iodepth: 1}
devices: [{name: m, path: $T/m}]
include:
  - {pattern: randread, load_sweep: {iops: [200, 400]}, qos: {p99: 500ms}}
  - {pattern: randread, load_sweep: {iops: [200, 300]}, qos: {p99: 1us}}
EOS
expect_exit 0 "$IOMATRIX" run "$T/q.yaml" --out "$T/qset" --quiet
rep rqs "$T/qset"
[ "$(grep -c '^### 4K random read, load sweep at 200 and [34]00 IOPS, p99 ≤ \(500 ms\|1 µs\) (RND4K Q1T1)$' "$T/rqs/report.md")" = 2 ] &&
	ok "the titles name each sweep's loads and target" || not_ok "titles: $(grep '^###' "$T/rqs/report.md")"
grep -q "^- m sustains [0-9,]* IOPS of 4K random reads at QD1 with p99 ≤ 500 ms" "$T/rqs/report.md" &&
	grep -q "^- m does not meet p99 ≤ 1 µs for 4K random reads at QD1 at any tested load" "$T/rqs/report.md" &&
	ok "the sweep sentences: the workload, then their own target" ||
	not_ok "sweep sentences: $(grep 'sustains\|does not meet' "$T/rqs/report.md")"
tap_end
