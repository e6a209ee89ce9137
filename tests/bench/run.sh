#!/bin/sh
# make bench: iomatrix against fio and against the bare loops (the fastest
# code we know for the same IO: bare_libaio.c, bare_uring.c, bare_psync.c)
# on the same workloads in the same run, alternating iomatrix, fio, bare,
# iomatrix, ... (BENCH_ROUNDS rounds), then the goals table: medians, the spread of the per-round ratios, whether each goal
# was met, and notes from the same runs on why a goal was missed.  Not a
# test: it prints numbers; exit 0 unless a tool failed to run.
#
#   BARE=DIR sh tests/bench/run.sh BUILD/iomatrix
#   env: BARE            directory holding bare_libaio and bare_uring
#        BENCH_SECONDS   runtime of the RSS workload (default 60)
#        BENCH_RUNTIME   runtime of every other measurement (default 5)
#        BENCH_ROUNDS    rounds per tool (default 5)
#        BENCH_DIR       directory for the disk file (default /tmp)
#        BENCH_JOBS      job counts of the jobs part (default "1 2 4 16")
#        BENCH_PIN       0: do not pin the single-threaded rows (default:
#                        round r on CPU (r-1) mod the CPU count, taskset)
#        BENCH_ROWS      run only these rows of the ram part: "aio aio32
#                        uring uringfx uringfb psync" (default all; the
#                        others are listed as not asked)
#        BENCH_SLICES    the slices of a round in the null and RAM rows
#                        (default 6): each tool runs that many times for
#                        BENCH_RUNTIME / BENCH_SLICES, interleaved
#                        (measure); 1: one run per tool and round
#        BENCH_ONLY      run only these parts: "clock null ram jobs disk rss"
#                        (default all; report_bench.sh, scale_bench.sh and
#                        archive_bench.sh take "report", "scale", "archive";
#                        tests/integration/tooling/docs_bench_only_words.sh
#                        holds the Makefile, README and docs/bench.md lists
#                        to these)
#
# Workloads: 0) what a timestamp costs and how many iomatrix takes per IO
# (clock_cost.c, clock_count.c); 1) null engine 4K randread QD32; 2) a RAM block device (a zram
# device of our own as root, else a loop device on tmpfs; skipped without
# root), 4K randread QD32 O_DIRECT: libaio default, libaio with batched
# submits and completions, io_uring default, io_uring with registerfiles +
# fixedbufs (also with iodepth_batch 32), psync at QD1; 2b) jobs 1, 2, 4, 16
# there, iomatrix's job processes and threads against fio's; 3) a file on the disk holding BENCH_DIR, O_DIRECT libaio, 4K
# randread QD32 and 1M read QD8; 4) peak RSS of 16 jobs x QD32.
set -u
BIN=${1:?usage: run.sh IOMATRIX_BINARY}
case " ${BENCH_ONLY:-null} " in *" clock "*|*" null "*|*" ram "*|*" jobs "*|*" disk "*|*" rss "*) ;; *) exit 0 ;; esac
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
BARE=${BARE:-$(dirname "$BIN")/tests/bench}
NOIVBIN=$BARE/iomatrix-noivhist; IOMBIN=""
RSS_SECS=${BENCH_SECONDS:-60}
SECS=${BENCH_RUNTIME:-5}
[ "$RSS_SECS" -lt "$SECS" ] && SECS=$RSS_SECS
ROUNDS=${BENCH_ROUNDS:-5}
# the slices of a round in the null and RAM parts (measure): each tool
# runs SLICES times for SECS / SLICES (1: one run per round); at least 1
SLICES=${BENCH_SLICES:-6}
case $SLICES in ''|*[!0-9]*|0) SLICES=1 ;; esac
[ $((SECS * 1000 / SLICES)) -ge 100 ] || SLICES=1
DISKDIR=${BENCH_DIR:-/tmp}

command -v fio >/dev/null 2>&1 || { echo "bench: 'fio' not installed; run 'make deps'" >&2; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "bench: 'jq' not installed; run 'make deps'" >&2; exit 1; }

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
# Pinning (BENCH_PIN=0 turns it off): the single-threaded rows run each
# round's tools on one CPU, alternating CPUs by round.  The two vCPUs of
# this VM differ: bare_psync pinned made 493 K IOPS on CPU 0 and 368-412 K
# on CPU 1 (2026-12-02 00:21 UTC, quiet), and whichever CPU a tool's
# thread landed on decided a round (psync: iomatrix 298-310 K in every
# round of one unpinned run, 462-480 K in the run before).
NCPU=$(nproc 2>/dev/null || echo 1)
PIN=""; PINCPUS=""
[ "${BENCH_PIN:-1}" != 0 ] && [ "$NCPU" -ge 2 ] && command -v taskset >/dev/null 2>&1 && PINCPUS=1
want() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) ;; *) return 1 ;; esac; }
# rowok NAME: a row of the ram part that BENCH_ROWS asks for (or all)
rowok() { [ -z "${BENCH_ROWS:-}" ] || case " $BENCH_ROWS " in *" $1 "*) ;; *) return 1 ;; esac; }

# iomatrix on a generated one-cell suite; EXTRA is added to the defaults.
# iom NAME PATH ENGINE PATTERN BS DEPTH SECONDS [EXTRA]
#   -> one line "iops lat_ns cpu_ns_per_io(job threads) cpu_ns_per_io(process)"
# (suite FILE NAME PATH ENGINE ... writes the suite alone, into FILE)
iom() {
	y=$T/$1.yaml; out=$T/$1.set
	suite "$y" "$@"
	rm -rf "$out"
	$PIN "${IOMBIN:-$BIN}" run "$y" --out "$out" --quiet >"$T/$name.set.log" 2>&1 || {
		log "iomatrix failed on '$name':"; sed 's/^/    /' "$T/$name.set.log" >&2; return 1; }
	# CPU per IO twice: the job threads (cpu.ns_per_io), and the whole
	# process from usr/sys % (io-wq and SQPOLL kernel threads included)
	jq -r '.repetitions[0] | [.read.iops, .read.lat_ns.mean, (.cpu.ns_per_io // "nan"),
		((.cpu.usr_pct + .cpu.sys_pct) / 100 * .runtime_ns / .read.ios)]
		| map(tostring) | join(" ")' "$out/cells/0001.json"
}
suite() {
	y=$1; shift
	name=$1; path=$2; engine=$3; pat=$4; bs=$5; depth=$6; secs=$7; extra=${8:-}
	# SECONDS: a whole number of seconds, or a slice's length with its
	# unit (measure's slices: "833ms")
	case $secs in *[!0-9]*) rt=$secs ;; *) rt=${secs}s ;; esac
	cat >"$y" <<EOF
suite: bench-$name
defaults: {engine: "$engine", direct: true, size: 1GiB, runtime: $rt,
           repeat: 1, keep_files: true $extra}
devices:
  - name: disk
    path: $path
matrix: {pattern: [$pat], bs: [$bs], iodepth: [$depth]}
EOF
}

# fio_run NAME FILENAME ENGINE RW BS DEPTH SECONDS [FIO_OPTION...] -> "iops lat cpu cpu"
fio_run() {
	name=$1; file=$2; engine=$3; rw=$4; bs=$5; depth=$6; secs=$7
	shift 7
	set -- --name=bench --ioengine="$engine" --rw="$rw" --bs="$bs" \
		--iodepth="$depth" --runtime="$secs" --time_based --size=1g \
		--output-format=json --output="$T/$name.fio.json" "$@"
	[ "$engine" != null ] && set -- "$@" --direct=1 --filename="$file"
	fio_go "$@"
}

# fio_go FIO_ARG... -> "iops lat cpu cpu": runs fio into $T/$name.fio.json
# and reads it; fio's own kernel share of its CPU (sys / (usr + sys)) goes
# to $T/$name.fiosys.last, for the notes
fio_go() {
	# in $T: the exported job writes its histogram log where fio runs
	(cd "$T" && $PIN fio "$@") >"$T/$name.fio.log" 2>&1 || {
		log "fio failed on '$name':"; sed 's/^/    /' "$T/$name.fio.log" >&2; return 1; }
	jq -r '[.jobs[] | .sys_cpu / ((.usr_cpu + .sys_cpu) | if . == 0 then 1 else . end)]
		| add / length' "$T/$name.fio.json" >"$T/$name.fiosys.last"
	# usr_cpu/sys_cpu are percent of each job's runtime: back to ns per IO,
	# summed over the jobs (numjobs > 1 without group_reporting)
	jq -r '.jobs | (map((.usr_cpu + .sys_cpu) / 100 * .job_runtime * 1e6) | add) as $ns
		| (map(.read.total_ios + .write.total_ios) | add | if . == 0 then 1 else . end) as $ios
		| ($ns / $ios) as $cpu
		| [(map(.read.iops) | add), (map(.read.lat_ns.mean * .read.total_ios) | add) / $ios,
		   $cpu, $cpu] | map(tostring) | join(" ")' \
		"$T/$name.fio.json"
}

# fio_job NAME SUITE -> "iops lat cpu cpu": fio on the job `iomatrix export
# fio` writes for iomatrix's suite SUITE (X.yaml; the same workload by the
# equivalence rule), exported once per measure into X.export
fio_job() {
	name=$1; fy=$2; fx=${2%.yaml}.export
	if [ ! -d "$fx" ]; then
		"$BIN" export fio "$fy" -o "$fx" >/dev/null 2>"$T/$name.export.log" || {
			log "export fio failed on '$name':"; sed 's/^/    /' "$T/$name.export.log" >&2; return 1; }
	fi
	job=$(ls "$fx"/*.fio | head -n 1)
	fio_go --output-format=json --output="$T/$name.fio.json" "$job"
}

# syscalls NAME: IO syscalls per IO of iomatrix and of the exported fio
# job on NAME's workload, one short untimed run of each under strace -f -c
# (the equivalence check: within 10 %); one row into $ROWS.  fio's IOs from
# its JSON, iomatrix's from the cell.  Only the calls that submit, reap or
# do IO are counted: set-up differs by thousands of calls (fio stats
# /sys and /proc, sleeps in its helper thread), which in a 1 s run under
# strace, at 500 1M reads, would read as 4 more calls per IO.
syscalls() {
	name=$1
	command -v strace >/dev/null 2>&1 || { skiprow "$name syscalls per IO" "calls/IO" "no strace" "iom/fio=0.90..1.10"; return 0; }
	sed "s/runtime: [0-9]*m*s/runtime: 1s/" "$T/$name.def.yaml" >"$T/$name.sc.yaml"
	rm -rf "$T/$name.sc.set" "$T/$name.sc.export"
	sc=io_submit,io_getevents,io_pgetevents,io_uring_enter,pread64,pwrite64,preadv,pwritev,preadv2,pwritev2
	strace -f -c -e trace=$sc -o "$T/$name.sc.iom" "$BIN" run "$T/$name.sc.yaml" --out "$T/$name.sc.set" --quiet >/dev/null 2>&1 &&
	"$BIN" export fio "$T/$name.sc.yaml" -o "$T/$name.sc.export" >/dev/null 2>&1 &&
	(cd "$T" && strace -f -c -e trace=$sc -o "$T/$name.sc.fio" fio --output-format=json --output="$T/$name.sc.json" \
		"$(ls "$T/$name.sc.export"/*.fio | head -n 1)") >/dev/null 2>&1 || {
		skiprow "$name syscalls per IO" "calls/IO" "strace run failed" "iom/fio=0.90..1.10"; return 0; }
	a=$(awk '$NF == "total" { print $4 }' "$T/$name.sc.iom")
	b=$(awk '$NF == "total" { print $4 }' "$T/$name.sc.fio")
	ia=$(jq '.repetitions[0] | (.read.ios // 0) + (.write.ios // 0)' "$T/$name.sc.set/cells/0001.json")
	ib=$(jq '[.jobs[] | .read.total_ios + .write.total_ios] | add' "$T/$name.sc.json")
	awk -v l="$2" -v a="$a" -v b="$b" -v ia="$ia" -v ib="$ib" 'BEGIN {
		if (!ia || !ib) exit
		x = a / ia; y = b / ib; r = x / y
		printf "| %s | IO syscalls/IO (strace -f -c, 1 s, once) | %.3f | %.3f | - | %.2f | - | - | iom/fio 0.90..1.10 | %s |\n",
			l, x, y, r, (r >= 0.90 && r <= 1.10) ? "yes" : "NO" }' >>"$ROWS"
}

# bare KIND PATH SECONDS -> "iops lat thread_cpu process_cpu"; KIND libaio |
# libaio-getevents | uring | uring-fixed | uring-one | uring-one-fixed | psync.  The variant a bare loop
# ran is appended to $T/$name.variant (the twin's is not), and kept in $T/$name.KIND.pick:
# with BARE_PICK set (a round's later slices, measure) bare_uring runs
# that variant instead of calibrating again, and nothing is appended.
bare() {
	# KIND-twin: the same loop built with -DBARE_TWIN (bare.h: what iomatrix
	# keeps per IO, with its own code): the yardstick of "iomatrix/twin"
	tw=""; kind=$1
	case $1 in *-twin) tw=_twin; set -- "${1%-twin}" "$2" "$3" ;; esac
	case $1 in
	libaio) set -- "$BARE/bare_libaio" "$2" "$3" ;;
	# the same syscalls as the libaio default (an io_submit per IO, one
	# io_getevents per turn): the floor of CPU per IO at that workload
	libaio-getevents) set -- "$BARE/bare_libaio" "$2" "$3" 32 4096 getevents,single ;;
	# no single variant was fastest in every run on a shared 2-core VM
	# (waiting for 1, 4 or 16 per enter, submitting apart, a registered
	# ring fd, COOP_TASKRUN with CQ peeks: see bare_uring.c), so the bare
	# loop calibrates (under a second) and measures with the fastest
	uring) set -- "$BARE/bare_uring" "$2" "$3" 32 4096 "${BARE_PICK:-best}" ;;
	uring-fixed) set -- "$BARE/bare_uring" "$2" "$3" 32 4096 "${BARE_PICK:-fixed,best}" ;;
	# the syscalls of fio's default batching (iodepth_batch 1): an enter
	# per SQE; the fastest of the loops that make them (bestone)
	uring-one) set -- "$BARE/bare_uring" "$2" "$3" 32 4096 "${BARE_PICK:-bestone}" ;;
	uring-one-fixed) set -- "$BARE/bare_uring" "$2" "$3" 32 4096 "${BARE_PICK:-fixed,bestone}" ;;
	psync) set -- "$BARE/bare_psync" "$2" "$3" ;;
	esac
	x=$1$tw; shift
	set -- "$x" "$@"
	[ -x "$1" ] || { log "'$1' not built (make bare)"; return 1; }
	# the notes count the bare loop's picks, one per round (not the twin's)
	vf="$T/${name:-bare}.variant"; [ -n "${BARE_PICK:-}" ] || [ -n "$tw" ] && vf=/dev/null
	$PIN "$@" | awk -v vf="$vf" -v pf="$T/${name:-bare}.$kind.pick" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
		if (v["variant"] != "") { print v["variant"] >>vf; print v["variant"] >pf }
		print v["iops"], v["lat_mean_ns"], v["thread_cpu_ns_per_io"], v["cpu_ns_per_io"] }'
}

# measure NAME PATH IOM_ENGINE FIO_FILE FIO_ENGINE PATTERN FIO_RW BS DEPTH
#         BARE_KIND IOM_EXTRA [FIO_OPTION...]
# Alternates the tools ROUNDS times; appends "iops lat cpu" per round to
# $T/NAME.iom, $T/NAME.fio and (with a bare kind) $T/NAME.bare.  BARE_KIND
# fio-thread puts fio with thread=1 in the third column instead; export
# runs fio on the job `iomatrix export fio` writes for the suite (no bare).  With
# IOMP_EXTRA set, iomatrix runs a second time per round with it added to
# the defaults, into $T/NAME.iomp.
# With SLICED set (the null and RAM parts) and SLICES > 1, a round runs
# every tool SLICES times for SECS / SLICES each, interleaved:
# the per-round ratios then pair runs seconds apart, not a whole round.
# devreads: reads the block device under DEVSTAT completed and merged
# (/sys/class/block/DEV/stat fields 1 and 2); nothing without DEVSTAT.
# devreq BEFORE JSON FILTER: "requests/IO merges/IO nan nan" since
# BEFORE, the IOs counted by jq FILTER in JSON (4 columns, as goal reads
# them), or "nan nan nan nan"
devreads() { [ -n "${DEVSTAT:-}" ] && awk '{ print $1, $2 }' "$DEVSTAT"; }
devreq() {
	[ -n "${DEVSTAT:-}" ] && [ -n "$1" ] || { echo "nan nan nan nan"; return 0; }
	awk -v b="$1" -v n="$(jq "$3" "$2")" '{ split(b, x, " ")
		if (n > 0) printf "%.4f %.4f nan nan\n", ($1 - x[1]) / n, ($2 - x[2]) / n
		else print "nan nan nan nan" }' "$DEVSTAT"
}
# slicemerge: the slices' "iops lat cpu cpu" lines of one tool in one round
# (equal lengths) as one: the mean IOPS, the other columns weighted by
# IOPS (by IOs); a column that is not a number in any slice is nan
slicemerge() {
	awk '{ n++; w += $1; for (i = 2; i <= NF; i++) {
		if ($1 !~ /^[0-9.eE+-]+$/ || $i !~ /^[0-9.eE+-]+$/) bad[i] = 1; else s[i] += $1 * $i }
		if ($1 !~ /^[0-9.eE+-]+$/) bad[1] = 1; nf = NF }
	END { if (!n) exit 1
		printf "%s", bad[1] ? "nan" : sprintf("%.10g", w / n)
		for (i = 2; i <= nf; i++) printf " %s", (bad[i] || w <= 0) ? "nan" : sprintf("%.10g", s[i] / w)
		printf "\n" }'
}
# toolrun TOOL SLICE_TIME BARE_SECONDS: one run of one of measure()'s tools
# (iom iomp fio bare twin noiv), its line appended to $T/$name.TOOL.s
toolrun() {
	tool=$1; tlen=$2; tsecs=$3
	shift 3
	case $tool in
	iom)
		q0=$(devreads)
		iom "$name" "$path" "$ieng" "$pat" "$bs" "$depth" "$tlen" "$mextra" >>"$T/$name.iom.s" || return 1
		devreq "$q0" "$T/$name.set/cells/0001.json" \
			'.repetitions[0] | (.read.ios // 0) + (.write.ios // 0)' >>"$T/${name}q.iom.s"
		;;
	iomp)
		iom "$name" "$path" "$ieng" "$pat" "$bs" "$depth" "$tlen" "$mextra$IOMP_EXTRA" \
			>>"$T/$name.iomp.s" || return 1 ;;
	fio)
		# fio runs the job `iomatrix export fio` writes (the same workload:
		# thread=1, iodepth_batch_complete_max, buffers, map), except on the
		# null engine: a plain fio command line with the same options
		# reaps one completion per call (iodepth_batch_complete_max
		# defaults to 1) and keeps all 32 in flight where iomatrix's
		# default refills after a reap of up to 32: 205-255 K IOPS at 125-
		# 156 us against the exported job's 318-337 K at 48-51 us on zram
		# (2026-12-01 22:10 UTC), another workload
		q0=$(devreads)
		if [ "$bk" = fio-thread ]; then
			# the suite with IOMP_EXTRA (thread: false: fio's processes)
			fio_job "$name" "$T/$name.p.yaml" >>"$T/$name.fio.s" || return 1
		elif [ -n "${IOMP_EXTRA:-}" ] || [ "$bk" = export ] || [ "$feng" != null ]; then
			# with IOMP_EXTRA too the suite without it (an iomatrix
			# option fio has no counterpart for)
			fio_job "$name" "$T/$name.def.yaml" >>"$T/$name.fio.s" || return 1
		else
			fio_run "$name" "$ffile" "$feng" "$rw" "$bs" "$depth" "$tlen" "$@" >>"$T/$name.fio.s" || return 1
		fi
		devreq "$q0" "$T/$name.fio.json" '[.jobs[] | .read.total_ios + .write.total_ios] | add' \
			>>"$T/${name}q.fio.s"
		cat "$T/$name.fiosys.last" >>"$T/$name.fiosys.s" ;;
	fiot)
		# the export of the default suite (thread=1)
		fio_job "$name" "$T/$name.def.yaml" >>"$T/$name.bare.s" || return 1 ;;
	bare|twin)
		bkind=$bk; [ "$tool" = twin ] && bkind=$bk-twin
		BARE_PICK=""
		[ -n "${SLICEPICK:-}" ] && [ -s "$T/$name.$bkind.pick" ] && BARE_PICK=$(cat "$T/$name.$bkind.pick")
		bare "$bkind" "$ffile" "$tsecs" >>"$T/$name.$tool.s" || return 1 ;;
	noiv)
		# iomatrix without per-interval histograms (Makefile:
		# iomatrix-noivhist), on the same suite
		IOMBIN=$NOIVBIN
		iom "$name" "$path" "$ieng" "$pat" "$bs" "$depth" "$tlen" "$mextra" \
			>>"$T/$name.noiv.s" || { IOMBIN=""; return 1; }
		IOMBIN="" ;;
	esac
}
measure() {
	name=$1; path=$2; ieng=$3; ffile=$4; feng=$5; pat=$6; rw=$7; bs=$8; depth=$9
	shift 9
	bk=$1; mextra=$2 # not $extra: iom() sets that one
	shift 2
	# a ram row BENCH_ROWS leaves out: skiprow says so
	[ -n "${RAMPART:-}" ] && ! rowok "$name" && { ROWSKIP=1; return 1; }
	for f in iom fio bare iomp fiosys variant twin noiv; do : >"$T/$name.$f"; done
	: >"$T/${name}q.iom"; : >"$T/${name}q.fio"; : >"$T/${name}q.bare"
	rm -rf "$T/$name.def.export" "$T/$name.p.export"
	# the tools of a round, in the order of its first slice: unsliced,
	# iomatrix first (the export fio runs is of its suite); sliced, each
	# pair held to a ratio (iomatrix and its twin, without interval
	# histograms, and with IOMP_EXTRA) side by side, and every other
	# slice in the reverse order, so that a drift of the machine's speed
	# through a round lands on both of a pair alike
	case $bk in
	fio-thread) third=" fiot" ;;
	""|export) third="" ;;
	*) third=" bare twin" ;;
	esac
	tools="iom${IOMP_EXTRA:+ iomp} fio$third${NOIV:+ noiv}"
	nsl=1; slen="$SECS"; bsecs="$SECS"
	if [ -n "${SLICED:-}" ] && [ -z "${DEVSTAT:-}" ] && [ "$SLICES" -gt 1 ]; then
		nsl=$SLICES
		slen="$(( SECS * 1000 / SLICES ))ms"
		bsecs=$(awk -v s="$SECS" -v k="$SLICES" 'BEGIN { printf "%.3f", int(s * 1000 / k) / 1000 }')
		tools="fio$third${IOMP_EXTRA:+ iomp} iom${NOIV:+ noiv}"
	fi
	# the suites fio's job is exported from, before any tool runs
	suite "$T/$name.def.yaml" "$name" "$path" "$ieng" "$pat" "$bs" "$depth" "$slen" "$mextra"
	[ -n "${IOMP_EXTRA:-}" ] && suite "$T/$name.p.yaml" "$name" "$path" "$ieng" "$pat" "$bs" \
		"$depth" "$slen" "$mextra$IOMP_EXTRA"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		# PINNED: every tool of round r on CPU (r-1) mod NCPU (taskset;
		# io-wq workers are not bound by it), so that a round pairs the
		# tools on the same CPU whatever the CPUs' speeds (see cpuspeed)
		PIN=""
		[ -n "${PINNED:-}" ] && [ -n "$PINCPUS" ] && PIN="taskset -c $(( (r - 1) % NCPU ))"
		for t in $tools; do rm -f "$T/$name.$t.s" "$T/${name}q.$t.s"; done
		rm -f "$T/$name.fiosys.s" "$T/$name.$bk.pick" "$T/$name.$bk-twin.pick"
		s=1; SLICEPICK=""
		while [ "$s" -le "$nsl" ]; do
			order=$tools
			[ $((s % 2)) = 0 ] && order=$(echo "$tools" | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "\n") }')
			for t in $order; do toolrun "$t" "$slen" "$bsecs" "$@" || return 1; done
			SLICEPICK=1; s=$((s + 1))
		done
		for t in $tools; do
			f=$t; [ "$t" = fiot ] && f=bare
			slicemerge <"$T/$name.$f.s" >>"$T/$name.$f" || return 1
		done
		for t in iom fio; do
			if [ "$nsl" = 1 ]; then cat "$T/${name}q.$t.s" >>"$T/${name}q.$t"
			else echo "nan nan nan nan" >>"$T/${name}q.$t"; fi
		done
		awk '{ s += $1; n++ } END { if (n) printf "%.6g\n", s / n }' "$T/$name.fiosys.s" >>"$T/$name.fiosys"
		line="round $r${PIN:+ (CPU ${PIN#taskset -c })}: IOPS iomatrix $(tail -n 1 "$T/$name.iom" | cut -d' ' -f1), fio $(tail -n 1 "$T/$name.fio" | cut -d' ' -f1)"
		case " $tools " in *" fiot "*) line="$line, fio thread=1 $(tail -n 1 "$T/$name.bare" | cut -d' ' -f1)" ;; esac
		case " $tools " in *" bare "*) line="$line, bare $(tail -n 1 "$T/$name.bare" | cut -d' ' -f1), twin $(tail -n 1 "$T/$name.twin" | cut -d' ' -f1)" ;; esac
		case " $tools " in *" noiv "*) line="$line, without interval histograms $(tail -n 1 "$T/$name.noiv" | cut -d' ' -f1)" ;; esac
		[ -n "${IOMP_EXTRA:-}" ] && line="$line, iomatrix$IOMP_EXTRA $(tail -n 1 "$T/$name.iomp" | cut -d' ' -f1)"
		[ "$nsl" -gt 1 ] && line="$line ($nsl slices of $slen)"
		log "$name: $line"
		r=$((r + 1))
	done
	PIN=""
}

ROWS=$T/rows
: >"$ROWS"
CLOCK=$T/clock
: >"$CLOCK"
CLOCK_NS=""
# clockcount LABEL PATH ENGINE DEPTH: how many clock readings iomatrix takes
# per IO there (LD_PRELOAD counter), what they cost, and their share of its
# CPU per IO; one line into $CLOCK
clockcount() {
	[ -n "$CLOCK_NS" ] && [ -f "$BARE/clock_count.so" ] || return 0
	LD_PRELOAD="$BARE/clock_count.so" iom clk "$2" "$3" randread 4k "$4" 2 >"$T/clk.r" 2>/dev/null || return 0
	calls=$(sed -n 's/^clock_gettime_calls=//p' "$T/clk.set.log" | tail -n 1)
	ios=$(jq '.repetitions[0].read.ios' "$T/clk.set/cells/0001.json")
	awk -v l="$1" -v c="$calls" -v n="$ios" -v ns="$CLOCK_NS" -v cpu="$(cut -d' ' -f3 "$T/clk.r")" 'BEGIN {
		if (!n || c == "") exit
		per = c / n
		printf "- %s: %.3f readings per IO = %.1f ns per IO", l, per, per * ns
		if (cpu ~ /^[0-9.]+$/ && cpu > 0 && per * ns <= cpu)
			printf " (%.1f %% of the %.0f ns of CPU iomatrix spends per IO)", 100 * per * ns / cpu, cpu
		else if (cpu ~ /^[0-9.]+$/ && cpu > 0)
			printf " (more than the %.0f ns of CPU iomatrix spends per IO: a tight loop overstates a reading there)", cpu
		printf "\n" }' >>"$CLOCK"
}
if want clock && [ -x "$BARE/clock_cost" ]; then
	cc=$("$BARE/clock_cost")
	CLOCK_NS=$(echo "$cc" | sed -n 's/.*clock_gettime_ns=\([0-9.]*\).*/\1/p')
	echo "- one CLOCK_MONOTONIC reading (vDSO) costs $CLOCK_NS ns here; a raw TSC read $(echo "$cc" | sed -n 's/.*rdtsc_ns=\([0-9.]*\).*/\1/p') ns" >>"$CLOCK"
	mkdir -p "$T/null"
	clockcount "null engine QD32" "$T/null" null 32
	clockcount "null engine QD1" "$T/null" null 1
fi
# goal LABEL METRIC NAME COL(1 iops, 2 lat, 3 cpu of the job threads,
#      4 cpu of the process) SCALE UNIT GOAL
# GOAL: "iom/fio>=1.3", "iom/bare>=0.9", "iom/fio<=0.7", "iom/fio=0.95..1.05"
# or "-".  Ratios are paired per round (each round ran the tools back to
# back), so the spread shown is that of the ratio itself.  met: yes when
# the median and every round meet the goal; "median only" or "no, within
# spread" when the rounds disagree; NO when none meets it.
goal() {
	label=$1; metric=$2; name=$3; col=$4; scale=$5; unit=$6; g=$7
	paste -d' ' "$T/$name.iom" "$T/$name.fio" "$T/$name.bare" 2>/dev/null | awk \
		-v l="$label" -v m="$metric" -v c="$col" -v s="$scale" -v u="$unit" -v g="$g" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n ? (n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2) : "nan"
	}
	function fmt(a, n,   lo, hi, i) {
		if (!n) return "-"
		lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		return sprintf("%.1f (%.1f-%.1f)", med(a, n) / s, lo / s, hi / s)
	}
	function rfmt(a, n,   lo, hi, i) {
		if (!n) return "-"
		lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		RLO = lo; RHI = hi
		return sprintf("%.2f (%.2f-%.2f)", med(a, n), lo, hi)
	}
	function ok(x) { return (op == ">=") ? x >= v1 : (op == "<=") ? x <= v1 : (x >= v1 && x <= v2) }
	function num(x) { return x ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ && x > 0 }
	{
		i = $(c); f = $(4 + c); b = (NF >= 12) ? $(8 + c) : ""
		if (num(i)) I[++n] = i
		if (num(f)) F[++nf] = f
		if (num(b)) B[++nb] = b
		if (num(i) && num(f)) RIF[++nif] = i / f
		if (num(i) && num(b)) RIB[++nib] = i / b
		if (num(f) && num(b)) RFB[++nfb] = f / b
	}
	END {
		split(g, gg, /(>=|<=|=)/); who = gg[1]
		op = (g ~ />=/) ? ">=" : (g ~ /<=/) ? "<=" : "="
		if (op == "=") { split(gg[2], vv, /\.\./); v1 = vv[1]; v2 = vv[2] } else v1 = gg[2]
		sif = rfmt(RIF, nif); sib = rfmt(RIB, nib); sfb = rfmt(RFB, nfb)
		met = "-"; goal_s = "-"
		if (g != "-") {
			if (who == "iom/fio") { split("", R); for (i = 1; i <= nif; i++) R[i] = RIF[i]; k = nif }
			else { split("", R); for (i = 1; i <= nib; i++) R[i] = RIB[i]; k = nib }
			rm = med(R, k); lo = hi = R[1]; good = 0
			for (i = 1; i <= k; i++) { if (R[i] < lo) lo = R[i]; if (R[i] > hi) hi = R[i]; if (ok(R[i])) good++ }
			if (!k) met = "-"
			else if (ok(rm) && good == k) met = "yes"
			else if (ok(rm)) met = sprintf("median only (%d/%d rounds)", good, k)
			else if (good) met = sprintf("no, within spread (%d/%d rounds)", good, k)
			else met = "NO"
			goal_s = (op == "=") ? sprintf("%s %.2f..%.2f", who, v1, v2) : sprintf("%s %s %.2f", who, op, v1)
		}
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", l, m, fmt(I, n),
			fmt(F, nf), fmt(B, nb), sif, sib, sfb, goal_s, met
	}' >>"$ROWS"
}
# The notes under the table: why a goal was missed, from the same runs.
NOTES=$T/notes
: >"$NOTES"
# medcol FILE COL [FILE2 COL2]: median of a column, or of the per-line
# ratio of two files' columns (paired by round); empty when none
medcol() {
	if [ $# -eq 4 ]; then paste -d' ' "$1" "$3" | awk -v a="$2" -v b="$(($(head -n 1 "$1" | wc -w) + $4))" \
		'$a ~ /^[0-9.eE+-]+$/ && $b ~ /^[0-9.eE+-]+$/ && $a > 0 && $b > 0 { print $a / $b }'
	else awk -v a="$2" '$a ~ /^[0-9.eE+-]+$/ && $a > 0 { print $a }' "$1"; fi |
	sort -g | awk '{ v[++n] = $1 } END { if (n) printf "%.2f\n", n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2 }'
}
# cpunote NAME LABEL GOAL: when iomatrix's CPU per IO is above GOAL x fio's,
# say how much of fio's CPU per IO is fio's own kernel time (the syscalls
# both make) and, with a bare loop making those syscalls, what it spends
cpunote() {
	r=$(medcol "$T/$1.iom" 3 "$T/$1.fio" 3); k=$(medcol "$T/$1.fiosys" 1)
	[ -n "$r" ] && [ -n "$k" ] || return 0
	awk -v r="$r" -v g="$3" 'BEGIN { exit !(r > g) }' || return 0
	b=$(medcol "$T/$1.bare" 3 "$T/$1.fio" 3); ib=$(medcol "$T/$1.iom" 3 "$T/$1.bare" 3)
	awk -v l="$2" -v r="$r" -v g="$3" -v k="$k" -v b="$b" -v ib="$ib" -v bk="${4:-}" 'BEGIN {
		printf "- %s: CPU per IO %.2f of fio'"'"'s, goal %.2f, missed. fio'"'"'s kernel time (sys) alone is %.2f of its CPU per IO", l, r, g, k
		if (k >= g) printf ", above the goal: at the same syscalls 0.70 would need less kernel work than fio'"'"'s own, i.e. another workload"
		else printf ": at the same syscalls the goal leaves iomatrix %.2f of fio'"'"'s CPU for all its user space", g - k
		if (b != "" && bk != "") printf "; the bare loop (%s) spends %.2f of fio'"'"'s, iomatrix %.2f of the bare loop'"'"'s", bk, b, ib
		printf ".\n" }' >>"$NOTES"
}
# barenote NAME LABEL [GOAL WHAT]: a bare loop below fio or iomatrix (a yardstick bug),
# and the variants bare_uring's calibration picked
barenote() {
	ib=$(medcol "$T/$1.iom" 1 "$T/$1.bare" 1); fb=$(medcol "$T/$1.fio" 1 "$T/$1.bare" 1)
	v=$(sort "$T/$1.variant" 2>/dev/null | uniq -c | awk '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $2, $1 }')
	[ -n "$v" ] && echo "- $2: bare_uring calibrated to $v of the rounds." >>"$NOTES"
	[ -n "$ib" ] && [ -n "$fb" ] || return 0
	awk -v l="$2" -v ib="$ib" -v fb="$fb" 'BEGIN { if (ib > 1 || fb > 1)
		printf "- %s: the bare loop was below %s (iomatrix %.2f, fio %.2f of it): the yardstick is no limit in this run.\n",
			l, (ib > 1 && fb > 1 ? "both tools" : (ib > 1 ? "iomatrix" : "fio")), ib, fb }' >>"$NOTES"
	# under 0.9 of the loop: where the difference is (CPU per IO of the
	# job thread; for bare_uring, the pattern its calibration chose)
	cb=$(medcol "$T/$1.iom" 3 "$T/$1.bare" 3)
	[ -n "${3:-}" ] || return 0
	awk -v l="$2" -v g="$3" -v ib="$ib" -v cb="$cb" -v v="$v" -v w="${4:-}" 'BEGIN { if (ib >= g || cb == "") exit
		printf "- %s: iomatrix at %.2f of the bare loop (goal %.2f), its thread spending %.2f of the loop'"'"'s CPU per IO", l, ib, g, cb
		if (w != "") printf "; the loop: %s", w
		if (v != "") printf "%s variants picked: %s (tests/bench/bare_uring.c describes each)", (w != "" ? ";" : "; the loop'"'"'s"), v
		printf ".\n" }' >>"$NOTES"
}
# jobsnote N MODEL: why jobs=N misses +-10 % of fio: IOPS = CPU / CPU per IO
jobsnote() {
	f=j$1${2%"${2#?}"}
	i=$(medcol "$T/$f.iom" 1 "$T/$f.fio" 1); c=$(medcol "$T/${f}c.iom" 1 "$T/${f}c.fio" 1)
	p=$(medcol "$T/$f.iom" 4 "$T/$f.fio" 4)
	ci=$(medcol "$T/${f}c.iom" 1); cf=$(medcol "$T/${f}c.fio" 1)
	[ -n "$i" ] && [ -n "$c" ] && [ -n "$p" ] || return 0
	awk -v n="$1" -v m="$2" -v i="$i" -v c="$c" -v p="$p" -v ci="$ci" -v cf="$cf" 'BEGIN {
		if (i >= 0.9 && i <= 1.1) exit
		printf "- jobs=%s, %s: IOPS %.2f of fio'"'"'s, outside +-10 %%. IOPS = CPU / CPU per IO on a CPU-bound device: iomatrix got %.0f %% of one core, fio %.0f %% (%.2f), and iomatrix'"'"'s CPU per IO (process) is %.2f of fio'"'"'s, so the IOPS ratio follows (%.2f / %.2f = %.2f)",
			n, m, i, ci * 100, cf * 100, c, p, c, p, c / p
		if (c >= 0.9 && c <= 1.1) printf ": with equal CPU, +-10 %% of fio cannot hold while the CPU per IO is lower.\n"
		else printf "; the CPU each got differed too (the machine'"'"'s other load), on top of the lower CPU per IO.\n" }' >>"$NOTES"
}
# twingoal NAME: iomatrix against the twin of its row's bare loop (the
# same loop keeping what iomatrix keeps per IO: bare.h), goal 0.97
twingoal() {
	cp "$T/$1.iom" "$T/$1w.iom"; cp "$T/$1.fio" "$T/$1w.fio"; cp "$T/$1.twin" "$T/$1w.bare"
	goal "" "K IOPS, bare column: the twin" "$1w" 1 1000 "" "iom/bare>=0.97"
	goal "" "CPU ns/IO, bare column: the twin" "$1w" 3 1 "" "-"
}
# irtwin NAME BARE_KIND: user instructions per IO of iomatrix's job thread
# (callgrind, worker_main inclusive) and of the twin's loop (main
# inclusive, the twin's fixed variant for the kind: no calibration) on
# NAME's workload, 1 s each under valgrind: what iomatrix does per IO
# beyond the twin, which the machine's load does not blur as it blurs
# their IOPS.  One row, no goal.  Both count their interval closes, 100 ms
# apart, over the few IOs valgrind lets an interval hold: a few
# instructions per IO more than at full speed.
irtwin() {
	command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 || return 0
	case $2 in
	libaio-getevents) b=bare_libaio; m="32 4096 getevents,single" ;;
	libaio) b=bare_libaio; m="32 4096" ;;
	uring-one) b=bare_uring; m="32 4096 one,after,regring" ;;
	uring-one-fixed) b=bare_uring; m="32 4096 one,after,regring,fixed" ;;
	uring-fixed) b=bare_uring; m="32 4096 wait=16,fixed" ;;
	psync) b=bare_psync; m="" ;;
	*) return 0 ;;
	esac
	[ -x "$BARE/${b}_twin" ] || return 0
	sed "s/runtime: [0-9]*m*s/runtime: 1s/" "$T/$1.def.yaml" >"$T/$1.ir.yaml"
	rm -rf "$T/$1.ir.set"
	# shellcheck disable=SC2086 # m: the twin's arguments, word-split
	valgrind --tool=callgrind --callgrind-out-file="$T/$1.ir.cg" "$BIN" run "$T/$1.ir.yaml" \
		--out "$T/$1.ir.set" --quiet >/dev/null 2>&1 &&
	valgrind --tool=callgrind --callgrind-out-file="$T/$1.irt.cg" "$BARE/${b}_twin" "$RAMDEV" 1 $m \
		>"$T/$1.irt.out" 2>/dev/null || return 0
	n=$(jq '.repetitions[0].read.ios' "$T/$1.ir.set/cells/0001.json")
	w=$(callgrind_annotate --inclusive=yes "$T/$1.ir.cg" 2>/dev/null |
		awk '/worker_main/ { gsub(",", "", $1); print $1; exit }')
	tn=$(sed -n 's/.*ios=\([0-9]*\).*/\1/p' "$T/$1.irt.out")
	# the loop's main, inclusive: the first (largest) line naming it
	# (how the path reads depends on the directory the bench runs in)
	tw=$(callgrind_annotate --inclusive=yes "$T/$1.irt.cg" 2>/dev/null |
		awk '/bare_[a-z]+\.c:main/ { gsub(",", "", $1); print $1; exit }')
	awk -v w="$w" -v n="$n" -v tw="$tw" -v tn="$tn" 'BEGIN { if (!(w > 0 && n > 0 && tw > 0 && tn > 0)) exit
		printf "| | user instructions per IO of the job thread (callgrind, 1 s), bare column: the twin | %.1f | - | %.1f | - | %.2f | - | - | - |\n",
			w / n, tw / tn, (w / n) / (tw / tn) }' >>"$ROWS"
}
# noivgoal NAME: iomatrix with per-interval histograms against itself
# without (iomatrix-noivhist, same rounds), goal: at most 2 % of IOPS
noivgoal() {
	[ -s "$T/$1.noiv" ] || return 0
	cp "$T/$1.iom" "$T/$1v.iom"; cp "$T/$1.fio" "$T/$1v.fio"; cp "$T/$1.noiv" "$T/$1v.bare"
	goal "" "K IOPS, bare column: iomatrix without interval histograms" "$1v" 1 1000 "" "iom/bare>=0.98"
}
# irrow: what the interval histograms cost in instructions, which a busy
# machine does not blur: the job thread's user instructions per IO
# (callgrind, worker_main inclusive) of iomatrix and iomatrix-noivhist on
# the null engine, 1 s at 100 ms intervals (ten closes a second: a 1 s
# interval costs a tenth of it).  Goal: at most 2 % more.
irrow() {
	command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 &&
		[ -x "$NOIVBIN" ] || return 0
	printf 'suite: bench-ir\ndefaults: {engine: null, size: 1GiB, runtime: 1s, interval: 100ms, iodepth: 32}\ndevices:\n  - {name: d, path: %s}\nmatrix: {pattern: [randread]}\n' \
		"$T/null" >"$T/ir.yaml"
	for v in iom noiv; do
		b=$BIN; [ $v = noiv ] && b=$NOIVBIN
		rm -rf "$T/ir.$v.set"
		valgrind --tool=callgrind --callgrind-out-file="$T/ir.$v.cg" "$b" run "$T/ir.yaml" \
			--out "$T/ir.$v.set" --quiet >/dev/null 2>&1 || return 0
		n=$(jq '.repetitions[0].read.ios' "$T/ir.$v.set/cells/0001.json")
		w=$(callgrind_annotate --inclusive=yes "$T/ir.$v.cg" 2>/dev/null |
			awk '/worker_main/ { gsub(",", "", $1); print $1; exit }')
		awk -v w="$w" -v n="$n" 'BEGIN { if (n > 0) printf "%.1f\n", w / n }' >"$T/ir.$v"
	done
	awk -v a="$(cat "$T/ir.iom")" -v b="$(cat "$T/ir.noiv")" 'BEGIN { if (!(a > 0 && b > 0)) exit
		printf "| | user instructions per IO of the job thread (callgrind, 1 s at 100 ms intervals), bare column: without interval histograms | %.1f | - | %.1f | - | %.3f | - | iom/bare <= 1.02 | %s |\n",
			a, b, a / b, a / b <= 1.02 ? "yes" : "NO" }' >>"$ROWS"
}
skiprow() {
	why=$3; [ -n "${ROWSKIP:-}" ] && why="not asked (BENCH_ROWS)"; ROWSKIP=""
	printf "| %s | %s | skipped: %s | | | | | | %s | - |\n" "$1" "$2" "$why" "$4" >>"$ROWS"
}

log "iomatrix: $BIN ($("$BIN" --version 2>/dev/null | head -n 1)); $(fio --version)"
SLICE_LOG=""; [ "$SLICES" -gt 1 ] && SLICE_LOG=" (null and RAM rows: in $SLICES interleaved slices of $((SECS * 1000 / SLICES)) ms)"
log "$ROUNDS rounds per tool, ${SECS}s per measurement$SLICE_LOG, RSS workload ${RSS_SECS}s"

# 1) overhead: the null engine
mkdir -p "$T/null"
PINNED=1
# the null and RAM rows interleave their tools in slices (measure)
SLICED=1
# the null row and the RAM rows run iomatrix a second time per round
# without per-interval histograms (goal: they cost at most 2 % of IOPS)
NOIV=""; [ -x "$NOIVBIN" ] && NOIV=1
if want null && measure null "$T/null" null "" null randread randread 4k 32 "" ""; then
	goal "null engine 4K randread QD32" "K IOPS" null 1 1000 "" "iom/fio>=20"
	noivgoal null
	irrow
else skiprow "null engine 4K randread QD32" "K IOPS" "not asked or failed" "iom/fio >= 20"; fi

# 2) a RAM block device, under the lock every user of zram takes
RAMDEV=""
if [ "$(id -u)" = 0 ] && { want ram || want jobs || want rss; }; then
	exec 9>/tmp/iomatrix-zram.lock
	log "waiting for /tmp/iomatrix-zram.lock"
	flock 9
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
URING_OK=""
[ -x "$BARE/bare_uring" ] && fio --enghelp=io_uring >/dev/null 2>&1 && URING_OK=1
# cpuspeed: IOPS of bare_psync pinned to each CPU in turn (0.5 s each, on
# the RAM device), into $T/cpuspeed: what pinning evens out
if [ -n "$RAMDEV" ] && [ -n "$PINCPUS" ] && [ -x "$BARE/bare_psync" ] && { want ram || want jobs; }; then
	c=0; sp=""
	while [ "$c" -lt "$NCPU" ]; do
		k=$(taskset -c "$c" "$BARE/bare_psync" "$RAMDEV" 0.5 | sed -n 's/.*iops=\([0-9]*\).*/\1/p')
		sp="$sp${sp:+, }CPU $c $(( ${k:-0} / 1000 )) K"
		c=$((c + 1))
	done
	echo "$sp" >"$T/cpuspeed"
	log "CPU speeds (bare_psync pinned): $sp"
fi
if [ -n "$RAMDEV" ] && want ram; then
	# Left unwritten on purpose: reads are served without touching stored
	# data, so the tools' own per-IO cost dominates (what these rows measure).
	R=$(basename "$RAMDEV")
	log "RAM device $RAMDEV"
	RAMPART=1
	# The goals against fio and the bare loops.  The default rows run the workload the exported fio
	# job runs, so iomatrix's edge there must come from less CPU per IO;
	# the opt-in fast modes are held against the bare loops.
	# the bare loop of this row makes the default's syscalls (io_getevents
	# per turn): the floor of CPU per IO at this workload; the batched row
	# below has the fastest libaio loop (ring reaping)
	if measure aio "$RAMDEV" libaio "$RAMDEV" libaio randread randread 4k 32 libaio-getevents ""; then
		goal "$R libaio, default settings" "K IOPS" aio 1 1000 "" "iom/fio>=1.0"
		goal "" "CPU ns/IO" aio 3 1 "" "iom/fio<=0.7"
		goal "" "lat mean us" aio 2 1000 "" "-"
		twingoal aio
		irtwin aio libaio-getevents
		noivgoal aio
		cpunote aio "$R libaio, default settings" 0.7 "an io_submit per IO, io_getevents per turn, as the default"
	else skiprow "$R libaio, default settings" "K IOPS" "failed" "iom/fio >= 1.00"; fi
	rowok aio && clockcount "$R libaio QD32" "$RAMDEV" libaio 32
	# the opt-in fast mode: batched submits, completions read from the AIO
	# ring (userspace_reap), as the bare loop takes them
	if measure aio32 "$RAMDEV" libaio "$RAMDEV" libaio randread randread 4k 32 libaio \
		", iodepth_batch: 32, iodepth_batch_complete_min: 1, iodepth_batch_complete_max: 32, userspace_reap: true" \
		--iodepth_batch_submit=32 --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=32 \
		--userspace_reap=1; then
		goal "$R libaio, iodepth_batch 32, completions 1..32, userspace_reap" "K IOPS" aio32 1 1000 "" "iom/bare>=0.9"
		goal "" "K IOPS" aio32 1 1000 "" "iom/fio>=1.0"
		goal "" "CPU ns/IO" aio32 3 1 "" "-"
		twingoal aio32
		irtwin aio32 libaio
		noivgoal aio32
		barenote aio32 "$R libaio, iodepth_batch 32" 0.9 "completions taken from the AIO ring, one io_submit for all re-armed iocbs"
	else skiprow "$R libaio, iodepth_batch 32" "K IOPS" "failed" "iom/bare >= 0.90"; fi
	# the default rows are held to the loop that makes their syscalls (an
	# enter per SQE); the fastest loop (batched) is the opt-in row's
	if [ -n "$URING_OK" ] && measure uring "$RAMDEV" io_uring "$RAMDEV" io_uring randread randread 4k 32 uring-one ""; then
		goal "$R io_uring, default settings" "K IOPS" uring 1 1000 "" "iom/fio>=1.0"
		goal "" "CPU ns/IO" uring 3 1 "" "iom/fio<=0.7"
		goal "" "CPU ns/IO, process" uring 4 1 "" "-"
		twingoal uring
		irtwin uring uring-one
		noivgoal uring
		cpunote uring "$R io_uring, default settings" 0.7 "an enter per SQE, as the default"
		barenote uring "$R io_uring, default settings" "" "an enter per SQE, as the default"
	else skiprow "$R io_uring, default settings" "K IOPS" "no io_uring or failed" "iom/fio >= 1.00"; fi
	[ -n "$URING_OK" ] && rowok uring && clockcount "$R io_uring QD32" "$RAMDEV" io_uring 32
	if [ -n "$URING_OK" ] && measure uringfx "$RAMDEV" io_uring "$RAMDEV" io_uring randread randread 4k 32 uring-one-fixed \
		", registerfiles: true, fixedbufs: true" --registerfiles=1 --fixedbufs=1; then
		goal "$R io_uring, registerfiles + fixedbufs" "K IOPS" uringfx 1 1000 "" "iom/fio>=1.1"
		goal "" "K IOPS" uringfx 1 1000 "" "iom/bare>=0.9"
		goal "" "CPU ns/IO" uringfx 3 1 "" "-"
		goal "" "CPU ns/IO, process" uringfx 4 1 "" "-"
		twingoal uringfx
		irtwin uringfx uring-one-fixed
		noivgoal uringfx
		barenote uringfx "$R io_uring, registerfiles + fixedbufs" 0.9 "an enter per SQE, as fio's default batching (iodepth_batch 1) with these options"
	else skiprow "$R io_uring, registerfiles + fixedbufs" "K IOPS" "no io_uring or failed" "iom/fio >= 1.10"; fi
	# the fastest loop submits a whole reaped batch per enter and, with
	# its thread pinned, waits for 16 there: one enter that submits and
	# waits (bare_uring picked wait=16 in 5 of 5 pinned rounds, 2026-12-02
	# 00:30 UTC; unpinned it picked sep or wait=1).  iomatrix runs the
	# batched options twice a round: as fio's job has them (fio commits,
	# then enters again to wait: two enters a turn), held to fio; and with
	# submit_and_wait, the loop's one enter, which fio has no option for,
	# held to the loop
	if [ -n "$URING_OK" ] && IOMP_EXTRA=", submit_and_wait: true" measure uringfb "$RAMDEV" io_uring "$RAMDEV" io_uring randread randread 4k 32 uring-fixed \
		", registerfiles: true, fixedbufs: true, iodepth_batch: 32, iodepth_batch_complete_min: 16, iodepth_batch_complete_max: 32" \
		--registerfiles=1 --fixedbufs=1 --iodepth_batch_submit=32 --iodepth_batch_complete_min=16 \
		--iodepth_batch_complete_max=32; then
		goal "$R io_uring, registerfiles + fixedbufs + iodepth_batch 32, completions 16..32" "K IOPS" uringfb 1 1000 "" "iom/fio>=1.1"
		goal "" "CPU ns/IO" uringfb 3 1 "" "-"
		noivgoal uringfb
		# the submit_and_wait runs against the same rounds' fio and loop
		cp "$T/uringfb.iomp" "$T/uringfs.iom"; cp "$T/uringfb.fio" "$T/uringfs.fio"
		cp "$T/uringfb.bare" "$T/uringfs.bare"; cp "$T/uringfb.variant" "$T/uringfs.variant"
		cp "$T/uringfb.twin" "$T/uringfs.twin"
		goal "$R io_uring, the same + submit_and_wait (fio: the job above, it has no such option)" "K IOPS" uringfs 1 1000 "" "iom/bare>=0.9"
		goal "" "K IOPS" uringfs 1 1000 "" "iom/fio>=1.0"
		goal "" "CPU ns/IO" uringfs 3 1 "" "-"
		twingoal uringfs
		cp "$T/uringfb.p.yaml" "$T/uringfs.def.yaml" # the suite with submit_and_wait
		irtwin uringfs uring-fixed
		barenote uringfs "$R io_uring, fixed + iodepth_batch 32 + submit_and_wait" 0.9 "one enter submits the batch and waits for 16, as submit_and_wait"
	else skiprow "$R io_uring, fixed + iodepth_batch 32" "K IOPS" "no io_uring or failed" "iom/fio >= 1.10"; fi
	if measure psync "$RAMDEV" psync "$RAMDEV" psync randread randread 4k 1 psync ""; then
		goal "$R psync (pread), QD1" "K IOPS" psync 1 1000 "" "iom/fio>=1.0"
		goal "" "K IOPS" psync 1 1000 "" "iom/bare>=0.9"
		goal "" "CPU ns/IO" psync 3 1 "" "-"
		twingoal psync
		irtwin psync psync
		noivgoal psync
		barenote psync "$R psync (pread), QD1" 0.9 "a pread per IO, as iomatrix's psync, and no other per-IO work: the rest is iomatrix's own (clock readings, the histogram, the accounting)"
	else skiprow "$R psync (pread), QD1" "K IOPS" "failed" "iom/fio >= 1.00"; fi
	RAMPART=""
elif want ram; then
	log "no RAM block device (needs root for zram or a loop device): skipped"
	skiprow "RAM device 4K randread QD32" "K IOPS" "needs root" "-"
else skiprow "RAM device 4K randread QD32" "K IOPS" "not asked" "-"; fi
NOIV=""

# 2b) jobs scale: N jobs on the RAM device, 4K randread QD32 libaio, each
# model against its fio twin: iomatrix's job processes (thread: false)
# against fio's (its default), iomatrix's threads (its default) against fio
# thread=1, all four alternating in each round.  fio's job processes each
# call setsid(), so with sched_autogroup each is a scheduling group of its
# own, and so are iomatrix's with thread: false; threads of one process
# share one: on a busy machine that alone gives the processes N times the
# CPU.  The "CPU %" rows show it (IOPS x CPU per IO of the whole process).
JROWS=$T/jrows
: >"$JROWS"
# from here on one run per tool and round (the disk rows count the
# device's requests around each run)
SLICED=""
# pair NEW IOMFILE FIOFILE: a two-tool measurement out of the four
pair() {
	cp "$T/$2" "$T/$1.iom"; cp "$T/$3" "$T/$1.fio"; : >"$T/$1.bare"
	awk '{ printf "%.4f %s %s %s\n", $1 * $4 / 1e9, $2, $3, $4 }' "$T/$2" >"$T/$1c.iom"
	awk '{ printf "%.4f %s %s %s\n", $1 * $4 / 1e9, $2, $3, $4 }' "$T/$3" >"$T/$1c.fio"
	: >"$T/$1c.bare"
}
if [ -n "$RAMDEV" ] && want jobs; then
	R=$(basename "$RAMDEV")
	ROWS_SAVE=$ROWS; ROWS=$JROWS
	for n in ${BENCH_JOBS:-1 2 4 16}; do
		# one job is one thread: pinned as the rows above; more spread
		PINNED=""; [ "$n" = 1 ] && PINNED=1
		if IOMP_EXTRA=", thread: false" measure "j$n" "$RAMDEV" libaio "$RAMDEV" libaio \
			randread randread 4k 32 fio-thread ", jobs: $n" --numjobs="$n"; then
			pair "j${n}p" "j$n.iomp" "j$n.fio"
			pair "j${n}t" "j$n.iom" "j$n.bare"
			goal "$R libaio jobs=$n, processes (thread: false / its fio job, thread=0)" "K IOPS" "j${n}p" 1 1000 "" "iom/fio=0.9..1.1"
			goal "" "CPU % of one core" "j${n}pc" 1 0.01 "" "-"
			goal "" "CPU ns/IO, process" "j${n}p" 4 1 "" "-"
			goal "$R libaio jobs=$n, threads (default / its fio job, thread=1)" "K IOPS" "j${n}t" 1 1000 "" "iom/fio=0.9..1.1"
			goal "" "CPU % of one core" "j${n}tc" 1 0.01 "" "-"
			goal "" "CPU ns/IO, process" "j${n}t" 4 1 "" "-"
			jobsnote "$n" processes
			jobsnote "$n" threads
		else skiprow "$R libaio jobs=$n" "K IOPS" "failed" "iom/fio 0.90..1.10"; fi
	done
	ROWS=$ROWS_SAVE
	PINNED=1
elif want jobs; then
	skiprow "jobs 1, 2, 4, 16 on a RAM device" "K IOPS" "needs root" "-"
fi

# 3) accuracy on this machine's disk: one laid-out file both tools read,
# fio running the job `iomatrix export fio` writes for the bench's own
# suite (the same workload by the equivalence rule, checked by the
# syscalls-per-IO row)
D=$DISKDIR/iomatrix-bench.$$
mkdir -p "$D"
FILE=$D/iomatrix.disk.0
# the block device under D: how many reads it completed per IO of each
# tool, and how many it merged (1M reads on a virtio disk of 254 segments
# are split into two when the buffer's 4K pages are not contiguous, and
# merged into 2M when they are and the next one queues behind: one run,
# 2026-12-02 00:55 UTC, gave iomatrix 1.34 bios per IO, fio 1.09; at equal
# syscalls the device saw another workload, which the rows below show)
DEVSTAT=""
ddev=$(df --output=source "$D" 2>/dev/null | tail -n 1)
ddev=${ddev##*/}
[ -n "$ddev" ] && [ -r "/sys/class/block/$ddev/stat" ] && DEVSTAT=/sys/class/block/$ddev/stat
# devrows NAME LABEL: the two device rows under a disk row, and a note
# when the device saw another number of reads per IO from the two tools
devrows() {
	[ -n "$DEVSTAT" ] || return 0
	goal "" "device reads per 100 IOs ($ddev stat)" "${1}q" 1 0.01 "" "-"
	goal "" "of them merged, per 100 IOs" "${1}q" 2 0.01 "" "-"
	a=$(medcol "$T/${1}q.iom" 1); b=$(medcol "$T/${1}q.fio" 1); i=$(medcol "$T/$1.iom" 1 "$T/$1.fio" 1)
	[ -n "$a" ] && [ -n "$b" ] && [ -n "$i" ] || return 0
	awk -v l="$2" -v a="$a" -v b="$b" -v i="$i" -v d="$ddev" 'BEGIN { if (a / b >= 0.95 && a / b <= 1.05) exit
		printf "- %s: IOPS %.2f of fio'"'"'s, but %s completed %.0f reads per 100 IOs of iomatrix and %.0f of fio: the device saw another workload (large IOs split where a buffer'"'"'s pages are not contiguous, merged where they are: both tools'"'"' buffers are 4K pages, contiguous or not by chance; mem: mmaphuge would make iomatrix'"'"'s huge pages), so +-5 %% of fio is not a goal this row can hold here.\n", l, i, d, a * 100, b * 100 }' >>"$NOTES"
}
if want disk && measure disk4k "$D" libaio "$FILE" libaio randread randread 4k 32 export ""; then
	goal "disk file 4K randread QD32 libaio" "K IOPS" disk4k 1 1000 "" "iom/fio=0.95..1.05"
	goal "" "lat mean us" disk4k 2 1000 "" "iom/fio=0.90..1.10"
	goal "" "CPU ns/IO" disk4k 3 1 "" "-"
	devrows disk4k "disk file 4K randread QD32"
	syscalls disk4k ""
else skiprow "disk file 4K randread QD32" "K IOPS" "not asked or failed" "iom/fio 0.95..1.05"; fi
if want disk && measure disk1m "$D" libaio "$FILE" libaio read read 1m 8 export ""; then
	goal "disk file 1M read QD8 libaio" "IOPS (= MB/s ratio)" disk1m 1 1 "" "iom/fio=0.95..1.05"
	goal "" "lat mean us" disk1m 2 1000 "" "iom/fio=0.90..1.10"
	goal "" "CPU ns/IO" disk1m 3 1 "" "-"
	devrows disk1m "disk file 1M read QD8"
	syscalls disk1m ""
else skiprow "disk file 1M read QD8" "K IOPS" "not asked or failed" "iom/fio 0.95..1.05"; fi
DEVSTAT=""

# 4) peak RSS, 16 jobs x QD32 (RAM device if there is one, else the file)
maxrss() { # CMD... -> peak RSS of the child in KiB on stdout
	/usr/bin/time -f '%M' -o "$T/rss" "$@" >/dev/null 2>&1 && cat "$T/rss"
}
RSSPATH=${RAMDEV:-$D}; RSSFILE=${RAMDEV:-$FILE}
if [ -x /usr/bin/time ] && want rss; then
	log "peak RSS: 16 jobs x QD32, ${RSS_SECS}s each"
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
			printf "| peak RSS 16 jobs x QD32 | MiB | %.1f | %.1f | - | %.2f | - | - | iomatrix <= 16 MiB | %s |\n",
				a / 1024, b / 1024, a / b, (a <= 16384) ? "yes" : "NO" }' >>"$ROWS"
	else skiprow "peak RSS 16 jobs x QD32" "MiB" "failed" "iomatrix <= 16 MiB"; fi
else skiprow "peak RSS 16 jobs x QD32" "MiB" "not asked" "iomatrix <= 16 MiB"; fi

echo
SLICE_HEAD=""
[ "$SLICES" -gt 1 ] && SLICE_HEAD="; in the null and RAM rows each round interleaves the tools in $SLICES slices of $((SECS * 1000 / SLICES)) ms, a pair held to a ratio side by side and every other slice in the reverse order (iomatrix's figures of a round: its slices together)"
echo "iomatrix vs fio ($(fio --version)) vs the bare loops, median (min-max) of $ROUNDS alternating rounds, ${SECS}s each$SLICE_HEAD"
echo "fio runs the job iomatrix export fio writes for each row's suite (the same workload; the null row: a plain fio command line); ratios are paired per round; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (other work on the machine shows up as spread)"
if [ -n "$PINCPUS" ]; then
	sp=""; [ -s "$T/cpuspeed" ] && sp="; the CPUs' speeds, bare_psync pinned for 0.5 s each: $(cat "$T/cpuspeed") IOPS"
	echo "pinned: the single-threaded rows (null, RAM device, jobs=1, disk) run every tool of round r on CPU (r-1) mod $NCPU (taskset), so each ratio pairs the tools on one CPU$sp"
fi
echo "the twin: the bare loop keeping what iomatrix keeps per IO (tests/bench/bare.h): its clock readings, the histogram, the moments, the interval's histogram and sums, and a random map of its own, every block once per pass as iomatrix's and fio's default (a full-period LCG over the next power of two, values past the end skipped); the bare loop draws uniformly"
echo "CPU ns/IO: iomatrix cpu.ns_per_io (job threads, usr+sys); 'process': iomatrix usr_pct+sys_pct, io-wq/SQPOLL kernel threads included; fio: (usr_cpu+sys_cpu) x runtime / IOs (on io_uring it leaves io-wq out, like our job-thread figure); bare: getrusage of its thread, and of the process for 'process'"
echo
echo "| workload | metric | iomatrix | fio | bare loop | iomatrix/fio | iomatrix/bare | fio/bare | goal | met |"
echo "|---|---|---|---|---|---|---|---|---|---|"
cat "$ROWS"
if [ -s "$JROWS" ]; then
	echo
	echo "jobs scale: each job model against its exported fio job (processes: iomatrix thread: false vs its job, thread=0; threads: iomatrix's default vs its job, thread=1), all four alternating per round"
	echo
	echo "| workload | metric | iomatrix | fio | - | iomatrix/fio | - | - | goal | met |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$JROWS"
fi
if [ -s "$NOTES" ]; then
	echo
	echo "Notes (from the same runs):"
	echo
	cat "$NOTES"
fi
if [ -s "$CLOCK" ]; then
	echo
	echo "Timestamps (iomatrix reads the clock once per submitted and once per reaped batch):"
	echo
	cat "$CLOCK"
fi
exit 0
