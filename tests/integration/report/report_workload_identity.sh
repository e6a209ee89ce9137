#!/bin/sh
# One workload identity (suite/workload.h): an engine matrix (libaio,
# io_uring), a rate matrix (rate_iops 200, 1000) and a data matrix
# (random, compressible:30, compressible:70) on one device are separate
# workloads in report, compare, history, the archive's index and the site
# alike: a table each whose title names what tells it apart, no "repeats
# an earlier cell" (report and compare kept only the libaio cell and only
# one compressible cell), one compared row each, one history series each
# (from the sets' files and from the index), one workload key each in the
# index, one section each on the site's device page.
. "$(dirname "$0")/../../lib.sh"
mk() { # $1 name, $2 defaults, $3 matrix
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {size: 1MiB, bs: 4k, iodepth: 4, direct: false, $2}
devices: [{name: d, path: $T/dev}]
matrix: {$3}
YAML
	"$IOMATRIX" run "$T/$1.yaml" --out "$T/a/$1" >"$T/run.out" 2>"$T/run-$1.err" ||
		{ cp "$T/run-$1.err" "$T/run.err"; return 1; }
	cp "$T/run-$1.err" "$T/run.err"
}
mkdir -p "$T/dev" "$T/a"
mk engine "pattern: randread, runtime: 100ms" "engine: [libaio, io_uring]" ||
	{ grep -q "io_uring" "$T/run.err" && skip "io_uring not available: $(tail -1 "$T/run.err")"; fail "$(cat "$T/run.err")"; }
mk rate "engine: \"null\", pattern: randread, runtime: 200ms" "rate_iops: [200, 1000]" || fail "$(cat "$T/run.err")"
mk data "engine: \"null\", pattern: randwrite, runtime: 100ms" "data: [random, 'compressible:30', 'compressible:70']" ||
	fail "$(cat "$T/run.err")"
check() { # $1 set, $2 cells, then the words each title must hold, one each
	s=$1 n=$2
	shift 2
	expect_exit 0 "$IOMATRIX" report "$T/a/$s" -o "$T/r-$s" --charts none --format md
	grep -q "repeats an earlier cell\|is the workload of cell" "$T/err" && not_ok "$s: a cell dropped: $(cat "$T/err")"
	titles=$(grep '^### ' "$T/r-$s/report.md")
	[ "$(echo "$titles" | wc -l)" = "$n" ] && [ "$(echo "$titles" | sort -u | wc -l)" = "$n" ] \
		&& ok "$s: report, $n tables, $n titles" || not_ok "$s: titles: $titles"
	for w; do
		echo "$titles" | grep -q -- "$w" && ok "$s: a title says '$w'" || not_ok "$s: no '$w' in: $titles"
	done
	cp -r "$T/a/$s" "$T/copy-$s"
	expect_exit 0 "$IOMATRIX" compare "$T/a/$s" "$T/copy-$s" -o "$T/c-$s"
	grep -q "repeats an earlier cell\|is the workload of cell" "$T/err" && not_ok "$s: compare dropped a cell: $(cat "$T/err")"
	grep -q "^$n workloads compared" "$T/out" && ok "$s: compare pairs $n workloads" \
		|| not_ok "$s: compare: $(head -3 "$T/out")"
	mkdir -p "$T/h-$s" && cp -r "$T/a/$s" "$T/h-$s/"
	expect_exit 0 "$IOMATRIX" history "$T/h-$s" --format json
	[ "$(grep -o '"workload"' "$T/out" | wc -l)" = "$n" ] && ok "$s: history, $n series" \
		|| not_ok "$s: history: $(grep -o '"workload": *"[^"]*"' "$T/out")"
	cp "$T/out" "$T/hist-files-$s"
	expect_exit 0 "$IOMATRIX" index "$T/h-$s"
	expect_exit 0 "$IOMATRIX" query "select count(distinct workload) from cells" --archive "$T/h-$s" --format csv
	[ "$(tail -n 1 "$T/out")" = "$n" ] && ok "$s: the index holds $n workload keys" \
		|| not_ok "$s: index: $(cat "$T/out")"
	expect_exit 0 "$IOMATRIX" history "$T/h-$s" --format json
	cmp -s "$T/out" "$T/hist-files-$s" && ok "$s: history from the index is history from the files" \
		|| not_ok "$s: history differs with the index"
	expect_exit 0 "$IOMATRIX" site "$T/h-$s" -o "$T/site-$s"
	[ "$(cat "$T/site-$s"/devices/*.html | grep -c '<h2 id="w[0-9]')" = "$n" ] \
		&& ok "$s: the site's device page, $n workloads" \
		|| not_ok "$s: site: $(cat "$T/site-$s"/devices/*.html | grep -o '<h2 id="w[0-9][^<]*')"
}
# run names each finished cell apart from those of its label
grep -q "^cell 1/2 d RND4K Q4T1 randread (engine libaio): " "$T/run-engine.err" &&
	grep -q "^cell 2/2 d RND4K Q4T1 randread (engine io_uring): " "$T/run-engine.err" &&
	grep -q "^cell 2/2 d RND4K Q4T1 randread (rate_iops 1000): " "$T/run-rate.err" &&
	ok "run: each cell's line says what tells it apart" ||
	not_ok "run lines: $(grep -h '^cell' "$T"/run-*.err)"
check engine 2 "QD4, libaio (" "QD4, io\\\\_uring ("
M="$T/r-engine/report.md"
grep -q "what differs: engine)" "$M" && grep -q '^| io\\_uring options | .* (the io\\_uring cells) |$' "$M" &&
	ok "engine: Method says the engine differs, io_uring's options are io_uring's" ||
	not_ok "engine: Method: $(grep 'what differs\|io\\_uring options' "$M")"
grep -q "RND4K Q4T1 randread (engine libaio), RND4K Q4T1 randread (engine io\\\\_uring)) ran for less than 5 s" "$M" &&
	ok "engine: a warning names the cells apart" || not_ok "engine: warnings: $(grep 'less than 5 s' "$M")"
"$IOMATRIX" history "$T/h-engine" >"$T/out" 2>&1
grep -q "randread \[parameters differ: engine io_uring (main series: libaio)\]" "$T/out" \
	&& ok "engine: history names the engine alone as the difference" \
	|| not_ok "engine: history: $(cat "$T/out")"
check rate 2 "rate 200 IOPS per job" "rate 1000 IOPS per job"
check data 3 "random data" "30 % compressible data" "70 % compressible data"
tap_end
