#!/bin/sh
# Every repetition's series keeps one latency histogram per interval
# (series.hist), in the skip-counts text results/README.md
# documents: for every bucket the intervals add up exactly to the
# repetition's histogram, and each interval to its series' ios, for job
# threads and job processes (thread: false: the intervals come back down
# the pipe), both directions of a mix, every repetition.  The reader holds
# a set to that: a cell edited so that one bucket's intervals disagree
# with its histogram (each interval still adding up to its ios) refuses
# the set with exit 2 naming the cell, where the code before this change
# reported it; a set without series.hist (older, imported) reads as before.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd jq
need_cmd python3
suite() { # NAME EXTRA
	cat >"$T/$1.yaml" <<Y
suite: t-interval-hist
defaults: {engine: null, size: 64MiB, bs: 4k, runtime: 700ms, interval: 100ms,
           repeat: 2, iodepth: 4, jobs: 2 $2}
devices:
  - {name: d, path: $T/d}
matrix: {pattern: [randrw, randread]}
Y
}
mkdir -p "$T/d"
suite t ""
suite p ", thread: false"
for m in t p; do
	expect_exit 0 "$IOMATRIX" run "$T/$m.yaml" --out "$T/$m" --quiet
	what=threads; [ $m = p ] && what="job processes"
	out=$(ivhist_check "$T/$m" 2>&1) && ok "$what: every interval adds up ($out)" \
		|| not_ok "$what: $out"
done
n=$(jq '.repetitions[1].write.series.hist.intervals | length' "$T/t/cells/0001.json")
[ "$n" -ge 7 ] && ok "a 700 ms run at 100 ms intervals keeps $n interval histograms" \
	|| not_ok "intervals: $n"

# the reader's rule: a bucket's intervals that disagree with hist
cp -r "$T/t" "$T/bad"
python3 - "$T/bad/cells/0002.json" <<'PY'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
se = c["repetitions"][1]["read"]["series"]
iv = se["hist"]["intervals"]
k = next(i for i, t in enumerate(iv) if t)
toks = iv[k].split(" ")
j = next(i for i, t in enumerate(toks) if not t.startswith("-"))
toks[j] = str(int(toks[j]) + 1)   # one IO more in that bucket of interval k
iv[k] = " ".join(toks)
se["ios"][k] += 1                 # and in the interval's count: only hist disagrees
json.dump(c, open(p, "w"), indent="\t")
PY
expect_exit 2 "$IOMATRIX" report "$T/bad" -o "$T/bad.rep" --charts none
grep -q "cells/0002.json': repetition 2: read: the intervals' histograms (series.hist) hold" "$T/err" &&
	grep -q "set is refused" "$T/err" && ok "a set whose intervals disagree is refused, naming the cell" \
	|| not_ok "stderr: $(cat "$T/err")"
[ ! -e "$T/bad.rep/report.md" ] && ok "nothing written for the refused set" || not_ok "a report was written"

# older sets and imports: no series.hist, read as before
cp -r "$T/t" "$T/old"
for f in "$T/old/cells/"*.json; do
	jq 'del(.repetitions[].read.series.hist, .repetitions[].write.series.hist)' "$f" >"$f.x" &&
		mv "$f.x" "$f"
done
expect_exit 0 "$IOMATRIX" report "$T/old" -o "$T/old.rep" --charts none
ok "a set without series.hist reports as before"
tap_end
