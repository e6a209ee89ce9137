#!/bin/sh
# The exported fio job writes a latency histogram log at the cell's
# interval: write_hist_log named for its section and
# log_hist_msec the cell's interval; run-all.sh runs fio with json+ and
# moves each repetition's log beside its JSON; `import fio --hist-log`
# reads that pair back into a cell whose intervals add up and keep every
# count of fio's log.  The report's fio command line (the workload) has no
# logging in it.  (On the code before: no write_hist_log in the job.)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd jq
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: t-export-hist-log
defaults: {engine: psync, direct: false, size: 8MiB, bs: 4k, runtime: 1600ms, interval: 400ms,
           repeat: 2}
devices:
  - {name: d, path: $T/d/}
matrix: {pattern: [randread]}
Y
expect_exit 0 "$IOMATRIX" export fio "$T/s.yaml" -o "$T/x"
job=$(ls "$T/x"/*.fio)
grep -qx "write_hist_log=cell-0001" "$job" && grep -qx "log_hist_msec=400" "$job" &&
	ok "the job logs histograms every 400 ms, as the cell's interval" ||
	not_ok "job: $(grep -n hist "$job")"
grep -q 'fio --output-format=json+ ' "$T/x/run-all.sh" &&
	grep -q 'for f in cell-0001_clat_hist.\*.log; do' "$T/x/run-all.sh" &&
	ok "run-all.sh asks for json+ and keeps each repetition's log" ||
	not_ok "run-all.sh: $(grep -n 'fio \|clat_hist' "$T/x/run-all.sh")"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format md
grep -q "^fio .*--name=" "$T/rep/report.md" && ! grep -q "hist_log" "$T/rep/report.md" &&
	ok "the report's fio command line is the workload alone" ||
	not_ok "report: $(grep -n 'hist' "$T/rep/report.md" | head -n 3)"
command -v fio >/dev/null 2>&1 || { ok "# skip run-all.sh: fio not installed"; tap_end; }
(cd "$T" && sh "$T/x/run-all.sh") >"$T/run.log" 2>&1 || skip "run-all.sh failed: $(tail -n 2 "$T/run.log")"
ls "$T/x/"*.rep1_clat_hist.1.log "$T/x/"*.rep2_clat_hist.1.log >/dev/null 2>&1 &&
	[ -z "$(ls "$T"/cell-0001_clat_hist.* 2>/dev/null)" ] &&
	ok "each repetition's log beside its JSON" || not_ok "logs: $(ls "$T" "$T/x")"
expect_exit 0 "$IOMATRIX" import fio "$T/x/"*.rep2.json --hist-log "$T/x/"*.rep2_clat_hist.1.log -o "$T/imp"
out=$(ivhist_check "$T/imp" 2>&1) && ok "the pair imports ($out)" || not_ok "$out"
out=$(ivhist_fio_kept "$T/x/"*.rep2_clat_hist.1.log "$T/imp/cells/0001.json" 2>&1) &&
	ok "every count of the log kept ($out)" || not_ok "$out"
[ "$(jq '.repetitions[0].read.series.interval_ns' "$T/imp/cells/0001.json")" = 400000000 ] &&
	ok "the imported cell's interval is the cell's" ||
	not_ok "interval $(jq '.repetitions[0].read.series.interval_ns' "$T/imp/cells/0001.json")"
tap_end
