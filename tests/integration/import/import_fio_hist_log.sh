#!/bin/sh
# `import fio JOB.json --hist-log LOG`: fio's histogram log
# (write_hist_log, log_hist_msec) becomes the cell's series.hist, one
# interval per window of the log with every count of it, then the IOs
# after its last line (from the json+ bins), so that the intervals add up
# to the histogram; the interval is the job's log_hist_msec.  The json+
# bins are the run's histogram, bucket for bucket: fio's own percentiles
# fall in the buckets the histogram gives at every p fio printed.  Refused
# with exit 2 and nothing written: a JSON without json+ bins, a log of
# merged bins (log_hist_coarseness), a log that holds more than the job
# did, a line that is not fio's, --hist-log with a JSON of two jobs or
# with sysbench.  (On the code before: --hist-log was an unknown option.)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd fio
need_cmd jq
need_cmd python3
dd if=/dev/urandom of="$T/f" bs=1M count=16 2>/dev/null
job() { # NAME SECONDS EXTRA...
	n=$1; s=$2; shift 2
	fio --name="$n" --filename="$T/f" --rw=randread --bs=4k --ioengine=psync \
		--runtime="${s}ms" --time_based --write_hist_log="$n" --log_hist_msec=500 \
		--output-format=json+ --output="$T/$n.json" "$@" >"$T/$n.fio.log" 2>&1 ||
		skip "fio cannot run here: $(tail -n 1 "$T/$n.fio.log")"
}
job h 1800
[ "$(grep -c . "$T/h_clat_hist.1.log")" -ge 2 ] || skip "fio logged fewer than 2 windows in 1.8 s"
expect_exit 0 "$IOMATRIX" import fio "$T/h.json" --hist-log "$T/h_clat_hist.1.log" -o "$T/set"
c=$T/set/cells/0001.json
out=$(ivhist_check "$T/set" 2>&1) && ok "the imported intervals add up to the histogram ($out)" \
	|| not_ok "$out"
out=$(ivhist_fio_kept "$T/h_clat_hist.1.log" "$c" 2>&1) && ok "every count of fio's log kept ($out)" \
	|| not_ok "fio's log: $out"
[ "$(jq '.repetitions[0].read.series.interval_ns' "$c")" = 500000000 ] &&
	ok "the interval is the job's log_hist_msec" ||
	not_ok "interval_ns $(jq '.repetitions[0].read.series.interval_ns' "$c")"
[ "$(jq '.repetitions[0].read.series.ios | add' "$c")" = "$(jq '.jobs[0].read.total_ios' "$T/h.json")" ] &&
	ok "the intervals hold every IO of the job" ||
	not_ok "series ios $(jq '.repetitions[0].read.series.ios' "$c")"
# fio's printed percentiles against the imported histogram's at every p
python3 - "$c" <<'PY' && ok "fio's percentiles lie in the buckets of the imported histogram" || not_ok "percentiles"
import json, sys
x = json.load(open(sys.argv[1]))["repetitions"][0]["read"]
b = sorted(x["hist"]["buckets"])
n = sum(c for _, c in b)
def bucket_of(v):
    lo = max(l for l, _ in b if l <= v)
    return lo
for k, v in x["lat_ns"]["percentiles"].items():
    rank, cum = max(1, -(-int(float(k) * n * 1e6) // int(100e6))), 0
    for lo, c in b:
        cum += c
        if cum >= rank:
            break
    if bucket_of(v) != lo:
        print("p%s: fio %s in bucket %d, histogram's bucket %d" % (k, v, bucket_of(v), lo))
        sys.exit(1)
PY
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format md
ok "the imported set reports"

# refusals
refused() { # WHAT WANT ARGS...
	what=$1; want=$2; shift 2
	rm -rf "$T/no"
	"$IOMATRIX" import "$@" -o "$T/no" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" "$T/err" && [ ! -e "$T/no" ]; then ok "refused: $what"
	else not_ok "$what: exit $rc, $(head -c 400 "$T/err")"; fi
}
jq 'del(.jobs[0].read.clat_ns.bins)' "$T/h.json" >"$T/nobins.json"
refused "a JSON without json+ bins" "output-format=json+" fio "$T/nobins.json" --hist-log "$T/h_clat_hist.1.log"
job c 1200 --log_hist_coarseness=1
refused "merged bins" "log_hist_coarseness=1" fio "$T/c.json" --hist-log "$T/c_clat_hist.1.log"
awk -F', ' 'NR == 1 { $40 = $40 + 1000000000 } { print }' OFS=', ' "$T/h_clat_hist.1.log" >"$T/more.log"
refused "a log that holds more than the job" "give the logs of this job's run" fio "$T/h.json" --hist-log "$T/more.log"
printf '500, 0, 4096, 1, x\n' >"$T/bad.log"
refused "a line that is not fio's" "bad.log:1:17: not a line of fio's histogram log" fio "$T/h.json" --hist-log "$T/bad.log"
jq '.jobs += [.jobs[0] | .jobname = "other"]' "$T/h.json" >"$T/two.json"
refused "a JSON of two jobs" "JSON of one fio job" fio "$T/two.json" --hist-log "$T/h_clat_hist.1.log"
printf 'x\n' >"$T/s.log"
refused "--hist-log with sysbench" "is not an option of 'iomatrix import sysbench'" sysbench "$T/s.log" --hist-log "$T/h_clat_hist.1.log"
tap_end
