#!/bin/sh
# Malformed input to any importer: exit 2, a message with the position
# (file:line:col for JSON and CSV, file:line for sysbench logs) on stderr,
# nothing on stdout, and nothing written: no set, no temporary directory.
. "$(dirname "$0")/../../lib.sh"
D="$ROOT/tests/data"
R="$T/results"
mkdir "$R"

# nothing_written NAME: the results directory is still empty
nothing_written() {
	if [ -z "$(ls -A "$R")" ]; then ok "$1: nothing written"
	else not_ok "$1: left $(ls -A "$R")"; fi
}
# bad NAME WANT_REGEX CMD...: exit 2, stderr matches, stdout empty
bad() {
	name=$1; want=$2; shift 2
	IOMATRIX_RESULTS="$R" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -Eq "$want" "$T/err" && [ ! -s "$T/out" ]; then
		ok "$name: exit 2, $(head -n 1 "$T/err" | cut -c1-100)"
	else
		not_ok "$name: rc=$rc stderr: $(head -n 2 "$T/err")"
	fi
	nothing_written "$name"
}

# a fio report cut short (e.g. fio killed): position = end of file
head -n 40 "$D/fio/randread-4k-qd16.json" >"$T/cut.json"
bad "truncated fio JSON" "cut\.json:41:1: malformed JSON" "$IOMATRIX" import fio "$T/cut.json"
# a good file and a bad one: still nothing written
bad "good + bad fio files" "cut\.json:41:1" "$IOMATRIX" import fio "$D/fio/randread-4k-qd16.json" "$T/cut.json"
# a stray character
printf '{\n  "fio version" : "fio-3.33",\n  "jobs" : [ } ]\n}\n' >"$T/stray.json"
bad "stray character in fio JSON" "stray\.json:3:14: malformed JSON" "$IOMATRIX" import fio "$T/stray.json"
# JSON that is not fio's
printf '{"hello": "world"}\n' >"$T/other.json"
bad "JSON that is not fio output" "other\.json:1:1: not fio output" "$IOMATRIX" import fio "$T/other.json"
# a bad option value
sed 's/"bs" : "4k"/"bs" : "4q"/' "$D/fio/randread-4k-qd16.json" >"$T/badbs.json"
bad "bad fio bs" "badbs\.json:19:16: job 'randread4k': bad bs '4q'" "$IOMATRIX" import fio "$T/badbs.json"
bad "missing fio file" "cannot read" "$IOMATRIX" import fio "$T/nope.json"

# sysbench: a figure that is not a number, and a log cut before the figures
sed 's/reads\/s:                      25361.10/reads\/s:                      25,361.10/' \
	"$D/sysbench/rndrw-bs4096-t4.log" >"$T/badnum.log"
bad "sysbench bad number" "badnum\.log:23:35: bad number for reads/s: '25,361.10'" "$IOMATRIX" import sysbench "$T/badnum.log"
head -n 18 "$D/sysbench/rndrw-bs4096-t4.log" >"$T/cut.log"
bad "sysbench log cut short" "cut\.log:1:1: sysbench run is incomplete" "$IOMATRIX" import sysbench "$T/cut.log"
printf 'nothing to see\n' >"$T/empty.log"
bad "not a sysbench log" "empty\.log:1:1: no sysbench fileio results" "$IOMATRIX" import sysbench "$T/empty.log"

# CSV
printf 'device,pattern,bs,iops,lat_ms,mb_s\nssd,randread,4k,1000,0.5,4\nhdd,randread,4k,1O0,8,0.4\n' >"$T/typo.csv"
bad "CSV typo in a number" "typo\.csv:3:17: bad iops '1O0'" "$IOMATRIX" import csv "$T/typo.csv"
printf 'device,pattern,bs,iops\n"ssd,randread,4k,1000\n' >"$T/quote.csv"
bad "CSV unclosed quote" "quote\.csv:2:1: quoted field is not closed" "$IOMATRIX" import csv "$T/quote.csv"
printf 'device,pattern,blocksize,iops\n' >"$T/hdr.csv"
bad "CSV unknown column" "hdr\.csv:1:16: unknown column 'blocksize'" "$IOMATRIX" import csv "$T/hdr.csv"

# usage
bad "unknown kind" "unknown kind 'iostat'" "$IOMATRIX" import iostat x
bad "no file" "missing FILE.json..." "$IOMATRIX" import fio
bad "unknown option" "unknown option '--frob'" "$IOMATRIX" import fio --frob x.json
# an existing set is never overwritten
"$IOMATRIX" import csv "$D/seed-003-published.csv" -o "$T/set" >/dev/null 2>&1 || fail "good import failed"
cp "$T/set/manifest.json" "$T/manifest.before"
"$IOMATRIX" import csv "$D/seed-003-published.csv" -o "$T/set" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "already exists" "$T/err" && cmp -s "$T/set/manifest.json" "$T/manifest.before" \
	&& ok "-o onto an existing set: exit 2, set untouched" || not_ok "-o existing: rc=$rc $(cat "$T/err")"
tap_end
