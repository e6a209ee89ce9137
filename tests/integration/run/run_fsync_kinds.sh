#!/bin/sh
# The three fsync rules, counted with strace in the job threads: fio's
# `fsync: N` per job and file (400 writes spread evenly over 4 files, one
# pass: 4 fsyncs); `fdatasync: N` the same with fdatasync(2); sysbench's
# `sysbench_fsync_freq: N` (after every N requests of all jobs together,
# the next `files` requests are one fsync per file: 16 per 400 requests on
# 4 files, whatever the jobs); `end_fsync` every file from every job at
# the end (sysbench --file-fsync-end); and their fio export.
. "$(dirname "$0")/../../lib.sh"
need_cmd strace
mkdir -p "$T/d"
mk() { # name requests jobs files key-line
	cat >"$T/$1.yaml" <<Y
suite: t-fsync
defaults:
  engine: psync
  direct: false
  size: 400k
  bs: 4k
  requests: $2
  jobs: $3
  files: $4
$5
devices:
  - name: d
    path: /nonexistent
matrix:
  pattern: [randwrite]
Y
}
# count NAME SYSCALL: calls on the data files from the job threads (the
# main thread's layout fsyncs are left out)
count() {
	awk -v sc="$2" 'NR == 1 { main = $1 } $1 != main && index($2, sc "(") == 1 &&
		/iomatrix\.d\./ { n++ } END { print n + 0 }' "$T/$1.st"
}
run() {
	rm -rf "$T/$1.out"
	# LeakSanitizer cannot run under ptrace (the sanitizer build)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -y -e trace=fsync,fdatasync -o "$T/$1.st" "$IOMATRIX" run "$T/$1.yaml" \
		--device d="$T/d" --out "$T/$1.out" --quiet >/dev/null 2>"$T/err" \
		|| fail "run $1: $(cat "$T/err")"
}

mk fio 400 1 4 "  fsync: 100"
run fio
n=$(count fio fsync)
[ "$n" = 4 ] && ok "fsync: 100 is per job and file: 4 fsyncs for 400 writes on 4 files" || not_ok "fsync: 100 made $n fsyncs"

mk sb 400 2 4 "  sysbench_fsync_freq: 100"
run sb
n=$(count sb fsync)
[ "$n" = 16 ] && ok "sysbench_fsync_freq: 100 is across jobs, one per file: 16 fsyncs" || not_ok "sysbench_fsync_freq: 100 made $n fsyncs"
mk sb1 400 1 4 "  sysbench_fsync_freq: 100"
run sb1
n=$(count sb1 fsync)
[ "$n" = 16 ] && ok "the same 16 with one job" || not_ok "one job: $n fsyncs"

mk fds 64 1 1 "  fdatasync: 4"
run fds
n=$(count fds fdatasync); m=$(count fds fsync)
[ "$n" = 16 ] && [ "$m" = 0 ] && ok "fdatasync: 4 makes 16 fdatasyncs and no fsync for 64 writes" \
	|| not_ok "fdatasync: 4 made $n fdatasyncs, $m fsyncs"

mk end 64 2 4 "  end_fsync: true"
run end
n=$(count end fsync)
[ "$n" = 8 ] && ok "end_fsync: every job fsyncs every file once (2 x 4)" || not_ok "end_fsync made $n fsyncs"

mk exp 64 1 4 "  fdatasync: 4
  end_fsync: true"
"$IOMATRIX" export fio "$T/exp.yaml" --device d="$T/d" -o "$T/fio" >/dev/null 2>"$T/err" || fail "export: $(cat "$T/err")"
job=$(ls "$T"/fio/*.fio | head -n 1)
grep -qx 'fdatasync=4' "$job" && grep -qx 'end_fsync=1' "$job" && ok "export writes fdatasync and end_fsync" \
	|| not_ok "export: $(grep sync "$job")"
if command -v fio >/dev/null 2>&1; then
	fio --parse-only "$job" >"$T/parse.log" 2>&1 && ok "fio --parse-only accepts it" || not_ok "fio: $(head -n 3 "$T/parse.log")"
fi
"$IOMATRIX" export fio "$T/sb.yaml" --device d="$T/d" -o "$T/fio2" >/dev/null 2>"$T/err" || fail "export: $(cat "$T/err")"
job=$(ls "$T"/fio2/*.fio | head -n 1)
grep -q '^; NOT THE SAME: sysbench_fsync_freq 100' "$job" && ! grep -q '^fsync=' "$job" \
	&& ok "export says fio has no sysbench fsync rule" || not_ok "export of sysbench_fsync_freq: $(grep -i sync "$job")"
tap_end
