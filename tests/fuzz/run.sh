#!/bin/sh
# Run every libFuzzer target built in BUILDDIR for SECONDS each, one after the
# other, on a work copy of its seed corpus (tests/fuzz/corpus/<target>/ plus
# the regression inputs in tests/fuzz/regress/<target>/), so the committed
# corpus stays small.  Prints per target: executions, coverage (cov/ft) and
# crashes; saves crashing inputs to tests/fuzz/crashes/ and exits 1 if any.
#
#   sh tests/fuzz/run.sh build/fuzz 60
#   FUZZ_TARGETS="fuzz_units fuzz_suite" sh tests/fuzz/run.sh build/fuzz 10
#   FUZZ_ARGS="-detect_leaks=0" ...     extra libFuzzer flags
set -u
[ $# -ge 1 ] || { echo "usage: run.sh BUILDDIR [SECONDS]" >&2; exit 2; }
bdir=$1
secs=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
crashes=$here/crashes
work=$here/corpus-work
logs=$work/logs
mkdir -p "$crashes" "$work" "$logs"

# Longest input worth trying per target: unit strings are short, documents
# (suites, result files, tool outputs) a few tens of KiB.
max_len() {
	case "$1" in
	fuzz_units) echo 96 ;;
	fuzz_template) echo 8192 ;;
	fuzz_suite) echo 16384 ;;
	*) echo 65536 ;;
	esac
}

# Shared dictionaries: json.dict for JSON inputs, yaml.dict for suites.
dict_of() {
	case "$1" in
	fuzz_suite) echo yaml.dict ;;
	fuzz_units|fuzz_template|fuzz_import_sysbench|fuzz_import_csv|fuzz_unpack) echo none ;;
	*) echo json.dict ;;
	esac
}

targets=${FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
	for b in "$bdir"/fuzz_*; do
		[ -x "$b" ] && targets="$targets $(basename "$b")"
	done
fi
[ -n "$targets" ] || { echo "run.sh: no fuzz targets in '$bdir' (build them with make fuzz)" >&2; exit 2; }

# The Makefile builds with recoverable UBSan: make every report fatal so it
# counts as a crash and its input is saved.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export UBSAN_OPTIONS

status=0
summary=""
for t in $targets; do
	bin=$bdir/$t
	[ -x "$bin" ] || { echo "run.sh: '$bin' not built" >&2; status=1; continue; }
	cw=$work/$t
	mkdir -p "$cw"
	for src in "$here/corpus/$t" "$here/regress/$t"; do
		[ -d "$src" ] && cp -n "$src"/* "$cw"/ 2>/dev/null
	done
	dict=""
	if [ -f "$here/$t.dict" ]; then dict="-dict=$here/$t.dict"
	elif [ -f "$here/$(dict_of "$t")" ]; then dict="-dict=$here/$(dict_of "$t")"; fi
	log=$logs/$t.log
	before=$(ls "$crashes" | grep -c "^$t-" || true)
	echo "  FUZZ    $t for ${secs}s (log: $log)"
	# -close_fd_mask=1: targets may print to stdout; keep stderr for reports.
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len="$(max_len "$t")" -print_final_stats=1 -close_fd_mask=1 \
		-artifact_prefix="$crashes/$t-" $dict ${FUZZ_ARGS:-} "$cw" >"$log" 2>&1
	rc=$?
	after=$(ls "$crashes" | grep -c "^$t-" || true)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	# The last status line looks like "#123456 DONE cov: 812 ft: 2345 corp: ..."
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	found=$((after - before))
	line=$(printf '%-20s execs=%-10s cov=%-6s ft=%-6s corpus=%-6s crashes=%s' \
		"$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found")
	if [ "$rc" != 0 ] || [ "$found" -gt 0 ]; then
		status=1
		line="$line  FAILED (exit $rc)"
		grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -n 5 >&2
		ls "$crashes" | grep "^$t-" | sed "s|^|    saved: tests/fuzz/crashes/|" >&2
	fi
	echo "$line"
	summary="$summary
$line"
done
echo "=== fuzz summary (${secs}s per target)$summary"
[ "$status" = 0 ] || echo "fuzz: failures; add each saved input to tests/fuzz/regress/<target>/ once fixed" >&2
exit $status
