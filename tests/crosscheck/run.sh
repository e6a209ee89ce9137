#!/bin/sh
# make crosscheck: every seed suite (suites/seed-*.yaml) at a small scale on
# this machine's disk, measured by iomatrix and by the tool people know --
# fio through `iomatrix export fio` (seeds 000, 001, 002, 004) or the
# equivalent `sysbench fileio` command (seed 003) -- alternating
# iomatrix, other, iomatrix, other..., then per cell the ratio
# iomatrix / other of IOPS, MB/s and mean latency (means over the rounds).
# Goal: within +-10 %; a cell outside gets an explanation (page cache,
# very short cell, sysbench's 10 us latency steps, ...).  Not a test: exit
# 0 unless a tool failed to run.
#
#   sh tests/crosscheck/run.sh BUILD/iomatrix
#   env: CROSSCHECK_SCALE   --scale of every suite (default: 0.01 for seed
#                           000, whose files are 100 GB; 0.1 for seeds 001,
#                           002 and 004, so their 3 s hdparm cells last
#                           0.3 s; seed 003 runs a variant at scale 1: the
#                           seed's 100000 requests on 16 x 64 MiB files,
#                           sysbench on the files iomatrix laid out; its
#                           seqwr rows are shown, not judged)
#        CROSSCHECK_ROUNDS  rounds per tool (default 2)
#        CROSSCHECK_DIR     where the scratch directory goes (default /tmp)
#        CROSSCHECK_SUITES  suite names to run (default: all five seeds)
set -u
BIN=${1:?usage: run.sh IOMATRIX_BINARY}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCALE_ENV=${CROSSCHECK_SCALE:-}
ROUNDS=${CROSSCHECK_ROUNDS:-2}
BASE=${CROSSCHECK_DIR:-/tmp}
SUITES=${CROSSCHECK_SUITES:-"seed-000-fio-hdd-vs-ssd seed-001-sata-vs-nvme seed-002-hdparm-dd seed-003-sysbench-fileio seed-004-dd-hdparm"}

for c in fio sysbench python3; do
	command -v $c >/dev/null 2>&1 || { echo "crosscheck: '$c' is not installed; run 'make deps'" >&2; exit 1; }
done
W=$(mktemp -d "$BASE/iomatrix-crosscheck.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT INT TERM
failed=0
echo "crosscheck: $ROUNDS rounds per tool, scratch $W ($(df -T "$W" | awk 'NR==2 {print $2}'))"

# the scale each suite runs at (seed 003: its variant at 1, see below)
suite_scale() {
	if [ -n "$SCALE_ENV" ]; then echo "$SCALE_ENV"; return; fi
	case $1 in seed-000*) echo 0.01 ;; seed-003*) echo 1 ;; *) echo 0.1 ;; esac
}
# first, how long it will take: plan's estimate of every suite at its
# scale, for both tools and every round (cells stopped by size and file
# layout come on top, so it is a lower bound)
est=0
for s in $SUITES; do
	f="$ROOT/suites/$s.yaml"
	[ -f "$f" ] || continue
	sc=$(suite_scale "$s")
	case $s in seed-003*) [ -z "$SCALE_ENV" ] && sc=0.02 ;; esac  # ~ the 64 MiB variant's time
	t=$("$BIN" plan "$f" --scale "$sc" --format json 2>/dev/null | python3 -c '
import json, sys
c = json.load(sys.stdin)["cells"]
print(int(sum((x["ramp_ns"] + x["runtime_ns"]) * x["repeat"] + x["cooldown_ns"] * max(0, x["repeat"] - 1) for x in c) / 1e9))' 2>/dev/null || echo 0)
	est=$((est + t))
done
est=$((est * 2 * ROUNDS))
[ $est -ge 60 ] && estt="$((est / 60))m$((est % 60))s" || estt="${est}s"
echo "crosscheck: expected duration at least $estt (plan's estimate x 2 tools x $ROUNDS rounds; cells stopped by size and file layout come on top)"

# devices NAME: "--device a=W/NAME/dev/a ..." for every device of the suite
devices() {
	"$BIN" plan "$SUITE" --format json | python3 -c '
import json, os, sys
seen = []
for c in json.load(sys.stdin)["cells"]:
    if c["device"] not in seen:
        seen.append(c["device"])
for d in seen:
    os.makedirs("%s/%s" % (sys.argv[1], d), exist_ok=True)
print(" ".join("--device %s=%s/%s" % (d, sys.argv[1], d) for d in seen))' "$W/$1/dev"
}

# sysbench_round SUITE ROUND: run every cell of the plan with sysbench, on
# the very files iomatrix laid out (hard links named test_file.N, removed
# after each cell).  Not on files of sysbench's own `prepare`: those are
# another file set -- zero-filled, written through the page cache and left
# in it, made at another time in another place of the disk -- and that
# alone moved sysbench's 4K rndwr by 1.1-1.5x in runs alternating the two
# file sets (2026-12-01; docs/bench.md, make crosscheck), while sysbench on iomatrix's files
# matched iomatrix.  Round 1 starts with iomatrix, so the files exist.
sysbench_round() {
	s=$1; r=$2
	mkdir -p "$W/$s/sb-$r"
	"$BIN" plan "$SUITE" --scale "$SCALE" --format json >"$W/$s/plan.json" || return 1
	python3 - "$W/$s/plan.json" "$W/$s/dev" <<'PY' >"$W/$s/sb-cmds" || return 1
import json, math, sys
mode = {"randread": "rndrd", "randwrite": "rndwr", "randrw": "rndrw",
        "read": "seqrd", "write": "seqwr", "rewrite": "seqrewr"}
for c in json.load(open(sys.argv[1]))["cells"]:
    idir = "%s/%s" % (sys.argv[2], c["device"])
    d = idir + "/sysbench"
    total = c["size_bytes"] * c["files"]
    common = "--file-num=%d --file-total-size=%d" % (c["files"], total)
    rw = c["rwmixread"] / max(1, 100 - c["rwmixread"])
    # the fsync rules sysbench has: its own periodic one (sysbench_fsync_freq;
    # fio's per-file `fsync` it cannot do) and the one at the end
    if c.get("fsync") or c.get("fdatasync"):
        sys.stderr.write("crosscheck: cell %d: sysbench has no per-file fsync; "
                         "use sysbench_fsync_freq\n" % c["id"])
    run = ("%s --file-test-mode=%s --file-block-size=%d --threads=%d "
           "--time=%d --events=%d --file-fsync-freq=%d --file-fsync-end=%s "
           "--file-rw-ratio=%g%s" %
           (common, mode[c["pattern"]], c["bs_bytes"], c["jobs"],
            max(1, math.ceil(c["runtime_ns"] / 1e9)), c["requests"],
            c.get("sysbench_fsync_freq", 0), "on" if c.get("end_fsync") else "off", rw,
            " --file-extra-flags=direct" if c["direct"] else ""))
    # id, sysbench's directory, iomatrix's directory, files, run options
    print("%04d\t%s\t%s\t%d\t%s" % (c["id"], d, idir, c["files"], run))
PY
	while IFS="$(printf '\t')" read -r id dir idir nf run; do
		mkdir -p "$dir"
		rm -f "$dir"/test_file.*
		# seqwr creates its own files (it unlinks test_file.N first, so
		# iomatrix's stay untouched); every other mode runs on iomatrix's
		case $run in *--file-test-mode=seqwr*) ;; *)
			i=0
			while [ "$i" -lt "$nf" ]; do
				src=""
				for f in "$idir"/iomatrix.*."$i"; do [ -f "$f" ] && src=$f; done
				[ -n "$src" ] && ln -f "$src" "$dir/test_file.$i" || {
					echo "crosscheck: no file $i laid out by iomatrix in $idir (keep_files)" >&2
					rm -f "$dir"/test_file.*; return 1; }
				i=$((i + 1))
			done ;;
		esac
		(cd "$dir" && sysbench fileio $run run) </dev/null >"$W/$s/sb-$r/$id.log" 2>&1 \
			|| { echo "crosscheck: sysbench cell $id failed: $(tail -n 3 "$W/$s/sb-$r/$id.log")" >&2
			     rm -f "$dir"/test_file.*; return 1; }
		# iomatrix refuses a file with a second link: unlink ours now
		rm -f "$dir"/test_file.*
	done <"$W/$s/sb-cmds"
	return 0
}

for s in $SUITES; do
	[ -f "$ROOT/suites/$s.yaml" ] || { echo "crosscheck: no suite '$s'" >&2; failed=1; continue; }
	SCALE=$(suite_scale "$s")
	SUITE="$ROOT/suites/$s.yaml"
	note=""
	case $s in seed-003*)
		# The variant iomatrix and sysbench both run: iomatrix keeps
		# the files it lays out (keep_files) and sysbench runs on them.
		# Unless CROSSCHECK_SCALE is given, --scale would also cut
		# --max-requests=100000 to 1000, i.e. 15 ms cells that compare
		# start-up costs only.  Instead: the seed's requests, runtime
		# and threads on 16 files of 64 MiB, on the first device only
		# (all four would be this same disk).
		mkdir -p "$W/$s"
		python3 - "$SUITE" "$W/$s/suite.yaml" "$SCALE_ENV" <<'PY' || { failed=1; continue; }
import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))
s["keep_files"] = True
if not sys.argv[3]:
    s["devices"] = s["devices"][:1]
    s["defaults"]["size"] = "64m"
open(sys.argv[2], "w").write(
    "# crosscheck variant of %s: files kept for sysbench%s\n" %
    (sys.argv[1], "" if sys.argv[3] else ", 16 x 64 MiB files, first device") +
    yaml.safe_dump(s, sort_keys=False))
PY
		SUITE="$W/$s/suite.yaml"
		if [ -z "$SCALE_ENV" ]; then
			SCALE=1
			note=", 16 x 64 MiB files, the seed's 100000 requests, one device"
		fi
		note="$note; sysbench on iomatrix's files"
		;;
	esac
	echo
	echo "== $s (scale $SCALE$note)"
	mkdir -p "$W/$s"
	devs=$(devices "$s") || { echo "crosscheck: cannot plan $s" >&2; failed=1; continue; }
	other=fio
	case $s in *sysbench*) other=sysbench ;; esac
	if [ $other = fio ]; then
		"$BIN" export fio "$SUITE" $devs --scale "$SCALE" -o "$W/$s/fio" >/dev/null 2>"$W/$s/export.err" \
			|| { echo "crosscheck: export fio failed: $(head -n 3 "$W/$s/export.err")" >&2; failed=1; continue; }
	fi
	r=1
	ok=1
	while [ $r -le "$ROUNDS" ]; do
		# alternate which tool goes first, so drift hurts both alike
		for tool in iomatrix $other; do
			[ $((r % 2)) = 0 ] && { [ $tool = iomatrix ] && tool=$other || tool=iomatrix; }
			printf '   round %d: %s\n' "$r" "$tool"
			if [ $tool = iomatrix ]; then
				"$BIN" run "$SUITE" $devs --scale "$SCALE" --out "$W/$s/iom-$r" --quiet \
					>/dev/null 2>"$W/$s/iom-$r.err" || { echo "crosscheck: iomatrix run failed: $(tail -n 3 "$W/$s/iom-$r.err")" >&2; ok=0; }
			elif [ $tool = fio ]; then
				sh "$W/$s/fio/run-all.sh" >"$W/$s/fio-$r.log" 2>&1 || { echo "crosscheck: fio failed: $(tail -n 3 "$W/$s/fio-$r.log")" >&2; ok=0; }
				mkdir -p "$W/$s/fio-$r"
				mv "$W/$s/fio/"*.json "$W/$s/fio-$r/" 2>/dev/null
			else
				sysbench_round "$s" "$r" || { echo "crosscheck: sysbench failed" >&2; ok=0; }
			fi
		done
		r=$((r + 1))
	done
	[ $ok = 1 ] || { failed=1; continue; }
	python3 - "$W/$s" "$ROUNDS" "$other" "$W/counts" <<'PY' || failed=1
import glob, json, os, re, sys
base, rounds, other, counts = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
MODES = {"randread": "rndrd", "randwrite": "rndwr", "randrw": "rndrw",
         "read": "seqrd", "write": "seqwr", "rewrite": "seqrewr"}

def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None

def spread(xs):
    xs = [x for x in xs if x]
    return (max(xs) - min(xs)) / (sum(xs) / len(xs)) if len(xs) > 1 else 0.0

def iom_cell(r, cid):
    j = json.load(open("%s/iom-%d/cells/%04d.json" % (base, r, cid)))
    tot_iops = tot_bw = 0.0
    lat_w = lat_n = 0.0
    for rep in j["repetitions"]:
        for d in ("read", "write"):
            x = rep.get(d)
            if not x:
                continue
            tot_iops += x["iops"]; tot_bw += x["bw_bytes_s"]
            if x.get("lat_ns") and x["ios"]:
                lat_w += x["lat_ns"]["mean"] * x["ios"]; lat_n += x["ios"]
    n = max(1, len(j["repetitions"]))
    rt = mean([rep.get("runtime_ns", 0) for rep in j["repetitions"]]) or 0
    return tot_iops / n, tot_bw / n, (lat_w / lat_n if lat_n else None), j["params"], rt

def fio_cell(r, cid):
    files = sorted(glob.glob("%s/fio-%d/%04d-*.json" % (base, r, cid)))
    vals = []
    for f in files:
        t = open(f).read()
        t = t[t.index("{"):]
        j = json.JSONDecoder().raw_decode(t)[0]
        iops = bw = lw = ln = 0.0
        for job in j["jobs"]:
            for d in ("read", "write"):
                x = job[d]
                iops += x["iops"]; bw += x["bw_bytes"]
                if x["lat_ns"]["N"]:
                    lw += x["lat_ns"]["mean"] * x["lat_ns"]["N"]; ln += x["lat_ns"]["N"]
        vals.append((iops, bw, lw / ln if ln else None))
    if not vals:
        return None
    return tuple(mean([v[i] for v in vals]) for i in range(3))

def sb_cell(r, cid):
    t = open("%s/sb-%d/%04d.log" % (base, r, cid)).read()
    def num(k):
        m = re.search(r"^\s*" + re.escape(k) + r"\s+([0-9.]+)", t, re.M)
        return float(m.group(1)) if m else None
    iops = (num("reads/s:") or 0) + (num("writes/s:") or 0)
    bw = ((num("read, MiB/s:") or 0) + (num("written, MiB/s:") or 0)) * 1048576
    lat = num("avg:")
    return iops, bw, lat * 1e6 if lat is not None else None

plan = json.load(open(glob.glob(base + "/iom-1/plan.json")[0]))["cells"]
print("   %-4s %-20s %-26s %10s %10s %7s %7s %7s  %s" %
      ("cell", "device", "label", "iomatrix", other, "IOPS", "MB/s", "lat", "verdict"))
outside = explained = unjudged = 0
for c in plan:
    cid = c["id"]
    a = [iom_cell(r, cid) for r in range(1, rounds + 1)]
    b = [(fio_cell if other == "fio" else sb_cell)(r, cid) for r in range(1, rounds + 1)]
    b = [x for x in b if x]
    if not b:
        print("   %04d no %s result" % (cid, other)); continue
    ai, ab, al = (mean([x[i] for x in a]) for i in range(3))
    bi, bb, bl = (mean([x[i] for x in b]) for i in range(3))
    rat = lambda x, y: x / y if x and y else None
    ri, rb, rl = rat(ai, bi), rat(ab, bb), rat(al, bl)
    fmt = lambda v: "%6.2fx" % v if v else "     - "
    name = c["label"]
    if other == "sysbench":  # by its mode name (rndrd...), as the seed's tables are
        name = "%s %s" % (MODES.get(c["pattern"], c["pattern"]), name)
    if other == "sysbench" and c["pattern"] == "write":
        # shown, never judged: not the same workload
        unjudged += 1
        print("   %04d %-20s %-26s %10.0f %10.0f %s %s %s  %s" %
              (cid, c["device"][:20], name[:26], ai, bi, fmt(ri), fmt(rb), fmt(rl),
               "not judged: sysbench seqwr is another workload -- it unlinks "
               "the files, creates them empty and extends them write by write "
               "(block allocation, size and extent updates in the journal), "
               "while iomatrix's write overwrites the laid-out files"))
        continue
    bad = [n for n, v in (("IOPS", ri), ("MB/s", rb), ("latency", rl)) if v and abs(v - 1) > 0.10]
    why = []
    if bad:
        outside += 1
        p = c
        rt = a[0][3]
        # (fio's default invalidate=1 once made buffered reads 30-60x apart:
        # export fio now writes invalidate=0 unless drop_caches, as we run)
        if not p["direct"]:
            why.append("buffered IO: the page cache serves or absorbs it, so both tools time memory copies and writeback, which vary run to run")
        if p["data"] == "zero" and other == "fio":
            why.append("zero-filled buffers (dd if=/dev/zero): fio writes random data")
        if a[0][4] < 1e9:
            why.append("a very short cell at this scale (%.0f ms measured: start-up, first IOs and timer effects weigh heavily); raise CROSSCHECK_SCALE" % (a[0][4] / 1e6))
        if other == "sysbench" and "latency" in bad and bl and bl < 200e3:
            why.append("sysbench prints latency in ms with 2 decimals: at %.0f us a 10 us step is %.0f %%" % (bl / 1e3, 1e6 / bl))
        if other == "sysbench" and p["requests"] and a[0][4] < 1e9:
            why.append("sysbench --time is whole seconds and its threads start and stop one by one: in a short cell that weighs")
        sa, sb = spread([x[0] for x in a]), spread([x[0] for x in b])
        if max(sa, sb) > 0.10:
            why.append("the tools' own rounds differ by %.0f %% (iomatrix) and %.0f %% (%s): this disk is noisy right now (a shared virtual disk, other jobs); more CROSSCHECK_ROUNDS on a quiet machine" % (sa * 100, sb * 100, other))
        if not why:
            why.append("no known cause: both tools were steady across rounds; look at this cell")
        else:
            explained += 1
    verdict = "ok" if not bad else "outside +-10%% (%s): %s" % (", ".join(bad), "; ".join(why))
    print("   %04d %-20s %-26s %10.0f %10.0f %s %s %s  %s" %
          (cid, c["device"][:20], name[:26], ai, bi, fmt(ri), fmt(rb), fmt(rl), verdict))
judged = len(plan) - unjudged
print("   %d of %d cells within +-10 %% (IOPS, MB/s and mean latency, iomatrix / %s)%s" %
      (judged - outside, judged, other,
       "; %d not judged (another workload)" % unjudged if unjudged else ""))
with open(counts, "a") as f:
    f.write("%d %d %d %d\n" % (judged, judged - outside, explained, unjudged))
PY
	rm -rf "$W/$s/dev"
done
# one line to end with: how many cells agree, how many of the others have
# a known cause
if [ -s "$W/counts" ]; then
	awk '{ n += $1; w += $2; e += $3; u += $4 } END {
		printf "crosscheck: %d of %d cells within \302\261 10 %%; %d explained, %d unexplained", w, n, e, n - w - e
		if (u) printf "; %d not judged (another workload)", u
		printf "\n" }' "$W/counts"
fi
exit $failed
