#!/bin/sh
# make bench: iomatrix against fio on the same workloads in the same run,
# alternating iomatrix, fio, iomatrix, fio... (BENCH_ROUNDS rounds each),
# then the medians and their ratio, one table.  Not a test: it prints
# numbers and whether each target of issue 3 was met; exit 0 unless a tool
# failed to run.
#
#   sh tests/bench/run.sh BUILD/iomatrix
#   env: BENCH_SECONDS   runtime of the RSS workload (default 60)
#        BENCH_RUNTIME   runtime of every other measurement (default 5)
#        BENCH_ROUNDS    rounds per tool (default 3)
#        BENCH_DIR       directory for the ext4 file (default /tmp)
#        BENCH_ONLY      run only these parts: "null ram disk rss" (default
#                        all; scale_bench.sh and report_bench.sh take
#                        "scale" and "report")
#
# Workloads: 1) null engine 4K randread QD32; 2) a RAM block device (a new
# zram device as root, else a loop device on tmpfs; skipped without root)
# 4K randread QD32 O_DIRECT with libaio and io_uring; 3) a file on the disk
# holding BENCH_DIR, O_DIRECT libaio, 4K randread QD32 and 1M read QD8;
# 4) peak RSS of 16 jobs x QD32.
set -u
BIN=${1:?usage: run.sh IOMATRIX_BINARY}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
RSS_SECS=${BENCH_SECONDS:-60}
SECS=${BENCH_RUNTIME:-5}
[ "$RSS_SECS" -lt "$SECS" ] && SECS=$RSS_SECS
ROUNDS=${BENCH_ROUNDS:-3}
DISKDIR=${BENCH_DIR:-/tmp}

# BENCH_ONLY names none of this script's parts: nothing to do here
case " ${BENCH_ONLY:-null} " in
*" null "*|*" ram "*|*" disk "*|*" rss "*) ;;
*) exit 0 ;;
esac
command -v fio >/dev/null 2>&1 || { echo "bench: 'fio' not installed; run 'make deps'" >&2; exit 1; }
if command -v jq >/dev/null 2>&1; then
	jget() { jq -r "$2" "$1"; }
elif command -v python3 >/dev/null 2>&1; then
	jget() {
		python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].lstrip(".").split("."):
    d=d[int(k[1:-1])] if k.startswith("[") else d[k.strip("\"")]
print(d)' "$1" "$(echo "$2" | sed 's/\[\([0-9]*\)\]/.[\1]/g; s/\.\././g')"
	}
else
	echo "bench: needs 'jq' or 'python3' to read JSON" >&2
	exit 1
fi

T=$(mktemp -d /tmp/iomatrix-bench.XXXXXX)
ZRAM_ID=""; LOOPDEV=""; TMPFS=""
cleanup() {
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV" 2>/dev/null
	[ -n "$TMPFS" ] && umount "$TMPFS" 2>/dev/null
	[ -n "$ZRAM_ID" ] && { echo 1 > "/sys/block/zram$ZRAM_ID/reset"; \
		echo "$ZRAM_ID" > /sys/class/zram-control/hot_remove; } 2>/dev/null
	rm -rf "$T" "$DISKDIR/iomatrix-bench.$$"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "bench: $*" >&2; }
want() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) ;; *) return 1 ;; esac; }

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# iomatrix run on a generated one-cell suite.
# iom NAME PATH ENGINE PATTERN BS DEPTH JOBS SECONDS -> $T/NAME.iom/cells/0001.json
iom() {
	name=$1; path=$2; engine=$3; pat=$4; bs=$5; depth=$6; jobs=$7; secs=$8
	y=$T/$name.yaml; out=$T/$name.iom
	rm -rf "$out"
	cat >"$y" <<EOF
suite: bench-$name
defaults:
  engine: "$engine"
  direct: true
  size: 1GiB
  runtime: ${secs}s
  repeat: 1
  keep_files: true
devices:
  - name: disk
    path: $path
matrix:
  pattern: [$pat]
  bs: [$bs]
  iodepth: [$depth]
  jobs: [$jobs]
EOF
	"$BIN" run "$y" --out "$out" --quiet >"$T/$name.iom.log" 2>&1 || {
		log "iomatrix failed on '$name':"; sed 's/^/    /' "$T/$name.iom.log" >&2; return 1; }
}

# fio NAME FILENAME ENGINE RW BS DEPTH JOBS SECONDS -> $T/NAME.fio.json
fio_run() {
	name=$1; file=$2; engine=$3; rw=$4; bs=$5; depth=$6; jobs=$7; secs=$8
	set -- --name=bench --ioengine="$engine" --rw="$rw" --bs="$bs" \
		--iodepth="$depth" --numjobs="$jobs" --group_reporting \
		--runtime="$secs" --time_based --size=1g --output-format=json \
		--output="$T/$name.fio.json"
	[ "$engine" != null ] && set -- "$@" --direct=1 --filename="$file"
	fio "$@" >"$T/$name.fio.log" 2>&1 || {
		log "fio failed on '$name':"; sed 's/^/    /' "$T/$name.fio.log" >&2; return 1; }
}

# compare NAME PATH IOM_ENGINE FIO_FILE FIO_ENGINE PATTERN FIO_RW BS DEPTH
# appends medians to $T/NAME.{iops,bw,lat}.{iom,fio}
compare() {
	name=$1; path=$2; ieng=$3; ffile=$4; feng=$5; pat=$6; rw=$7; bs=$8; depth=$9
	: >"$T/$name.iops.iom"; : >"$T/$name.iops.fio"
	: >"$T/$name.bw.iom"; : >"$T/$name.bw.fio"
	: >"$T/$name.lat.iom"; : >"$T/$name.lat.fio"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		iom "$name" "$path" "$ieng" "$pat" "$bs" "$depth" 1 "$SECS" || return 1
		c=$T/$name.iom/cells/0001.json
		jget "$c" '.repetitions[0].read.iops' >>"$T/$name.iops.iom"
		jget "$c" '.repetitions[0].read.bw_bytes_s' >>"$T/$name.bw.iom"
		jget "$c" '.repetitions[0].read.lat_ns.mean' >>"$T/$name.lat.iom"
		fio_run "$name" "$ffile" "$feng" "$rw" "$bs" "$depth" 1 "$SECS" || return 1
		f=$T/$name.fio.json
		jget "$f" '.jobs[0].read.iops' >>"$T/$name.iops.fio"
		jget "$f" '.jobs[0].read.bw_bytes' >>"$T/$name.bw.fio"
		jget "$f" '.jobs[0].read.lat_ns.mean' >>"$T/$name.lat.fio"
		log "$name: round $r: IOPS iomatrix $(tail -n 1 "$T/$name.iops.iom"), fio $(tail -n 1 "$T/$name.iops.fio")"
		r=$((r + 1))
	done
}

ROWS=$T/rows
: >"$ROWS"
# row LABEL METRIC NAME KIND(iops|bw|lat) TARGET(min:max ratio) SCALE UNIT
row() {
	a=$(median <"$T/$3.$4.iom"); b=$(median <"$T/$3.$4.fio")
	awk -v l="$1" -v m="$2" -v a="$a" -v b="$b" -v t="$5" -v s="$6" -v u="$7" 'BEGIN {
		split(t, lim, ":"); r = (b > 0) ? a / b : 0
		ok = (r >= lim[1] && (lim[2] == "" || r <= lim[2])) ? "yes" : "NO"
		tgt = (lim[2] == "") ? sprintf(">= %.2fx", lim[1]) : sprintf("%.2f..%.2fx", lim[1], lim[2])
		if (t == "") { ok = "-"; tgt = "-" }
		printf "| %-34s | %-9s | %12.1f %-4s | %12.1f %-4s | %6.2fx | %-11s | %-3s |\n",
			l, m, a / s, u, b / s, u, r, tgt, ok }' >>"$ROWS"
}
skiprow() { printf "| %-34s | %-9s | %17s | %17s | %7s | %-11s | %-3s |\n" "$1" "$2" "skipped" "" "" "" "-" >>"$ROWS"; }

log "iomatrix: $BIN ($("$BIN" --version 2>/dev/null | head -n 1)); $(fio --version)"
log "$ROUNDS rounds per tool, ${SECS}s per measurement, RSS workload ${RSS_SECS}s"

# 1) overhead: the null engine
mkdir -p "$T/null"
if want null && compare null "$T/null" null "" null randread randread 4k 32; then
	row "null engine 4K randread QD32" "IOPS" null iops "2.0" 1000 "K"
else skiprow "null engine 4K randread QD32" "IOPS"; fi

# 2) a RAM block device
RAMDEV=""
if [ "$(id -u)" = 0 ] && { want ram || want rss; }; then
	[ -e /sys/class/zram-control ] || modprobe zram num_devices=0 2>/dev/null || modprobe zram 2>/dev/null
	if [ -e /sys/class/zram-control/hot_add ]; then
		ZRAM_ID=$(cat /sys/class/zram-control/hot_add 2>/dev/null) || ZRAM_ID=""
		if [ -n "$ZRAM_ID" ] && echo 1G > "/sys/block/zram$ZRAM_ID/disksize" 2>/dev/null; then
			RAMDEV=/dev/zram$ZRAM_ID
		fi
	fi
	if [ -z "$RAMDEV" ] && command -v losetup >/dev/null 2>&1; then
		TMPFS=$T/tmpfs; mkdir -p "$TMPFS"
		if mount -t tmpfs -o size=1100m none "$TMPFS" 2>/dev/null; then
			truncate -s 1G "$TMPFS/disk"
			LOOPDEV=$(losetup -f --show "$TMPFS/disk" 2>/dev/null) && RAMDEV=$LOOPDEV
		else TMPFS=""; fi
	fi
fi
if [ -n "$RAMDEV" ] && want ram; then
	# Left unwritten on purpose: reads are served without touching stored
	# data, so the tools' own per-IO cost dominates (what this row measures).
	log "RAM device $RAMDEV"
	if compare ram_aio "$RAMDEV" libaio "$RAMDEV" libaio randread randread 4k 32; then
		row "$(basename "$RAMDEV") 4K randread QD32 libaio" "IOPS" ram_aio iops "1.5" 1000 "K"
		row "" "lat mean" ram_aio lat "" 1000 "us"
	else skiprow "RAM device libaio" "IOPS"; fi
	if "$BIN" --version >/dev/null && fio --enghelp=io_uring >/dev/null 2>&1 &&
	   compare ram_uring "$RAMDEV" io_uring "$RAMDEV" io_uring randread randread 4k 32; then
		row "$(basename "$RAMDEV") 4K randread QD32 io_uring" "IOPS" ram_uring iops "1.0" 1000 "K"
		row "" "lat mean" ram_uring lat "" 1000 "us"
	else skiprow "RAM device io_uring" "IOPS"; fi
else
	log "no RAM block device (needs root for zram or a loop device): skipped"
	skiprow "RAM device 4K randread QD32" "IOPS"
fi

# 3) accuracy on this machine's disk: one laid-out file both tools read
D=$DISKDIR/iomatrix-bench.$$
mkdir -p "$D"
FILE=$D/iomatrix.disk.0
if want disk && compare disk4k "$D" libaio "$FILE" libaio randread randread 4k 32; then
	row "disk file 4K randread QD32 libaio" "IOPS" disk4k iops "0.95:1.05" 1000 "K"
	row "" "lat mean" disk4k lat "0.90:1.10" 1000 "us"
else skiprow "disk file 4K randread QD32" "IOPS"; fi
if want disk && compare disk1m "$D" libaio "$FILE" libaio read read 1m 8; then
	row "disk file 1M read QD8 libaio" "MB/s" disk1m bw "0.95:1.05" 1000000 "MB/s"
	row "" "lat mean" disk1m lat "0.90:1.10" 1000 "us"
else skiprow "disk file 1M read QD8" "MB/s"; fi

# 4) peak RSS, 16 jobs x QD32 (RAM device if there is one, else the file)
maxrss() { # CMD... -> peak RSS of the child in KiB on stdout
	/usr/bin/time -f '%M' -o "$T/rss" "$@" >/dev/null 2>&1 && cat "$T/rss"
}
RSSPATH=${RAMDEV:-$D}; RSSFILE=${RAMDEV:-$FILE}
log "peak RSS: 16 jobs x QD32, ${RSS_SECS}s each"
if [ -x /usr/bin/time ] && want rss; then
	cat >"$T/rss.yaml" <<EOF
suite: bench-rss
defaults: {engine: "libaio", direct: true, size: 1GiB, runtime: ${RSS_SECS}s, keep_files: true}
devices:
  - {name: disk, path: $RSSPATH}
matrix: {pattern: [randread], bs: [4k], iodepth: [32], jobs: [16]}
EOF
	a=$(maxrss "$BIN" run "$T/rss.yaml" --out "$T/rss.iom" --quiet)
	b=$(maxrss fio --name=rss --ioengine=libaio --direct=1 --rw=randread --bs=4k \
		--iodepth=32 --numjobs=16 --group_reporting --runtime="$RSS_SECS" --time_based \
		--size=1g --filename="$RSSFILE" --output-format=json)
	if [ -n "$a" ] && [ -n "$b" ]; then
		awk -v a="$a" -v b="$b" 'BEGIN {
			ok = (a <= 16384) ? "yes" : "NO"
			printf "| %-34s | %-9s | %12.1f %-4s | %12.1f %-4s | %6.2fx | %-11s | %-3s |\n",
				"peak RSS 16 jobs x QD32", "RSS", a / 1024, "MiB", b / 1024, "MiB",
				a / b, "<= 16 MiB", ok }' >>"$ROWS"
	else skiprow "peak RSS 16 jobs x QD32" "RSS"; fi
else skiprow "peak RSS 16 jobs x QD32" "RSS"; fi

echo
echo "iomatrix vs fio ($(fio --version)), median of $ROUNDS alternating rounds, ${SECS}s each"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (other work on the machine shows up as noise, mostly in the disk rows)"
echo
printf "| %-34s | %-9s | %17s | %17s | %7s | %-11s | %-3s |\n" workload metric iomatrix fio ratio target met
echo "|------------------------------------|-----------|-------------------|-------------------|---------|-------------|-----|"
cat "$ROWS"
exit 0
