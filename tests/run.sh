#!/bin/sh
# Test runner: every unit-test program (cmocka, TAP output) and every
# integration script in tests/integration/AREA/ (exit 0 pass, 77 skip, other
# fail; a script may also print TAP "ok"/"not ok" lines for several cases).
# Names: unit/test_X, integration/AREA/NAME (the areas: tests/integration/
# README.md).  TESTS=fleet/ runs one area; TESTS=fleet_fault any test whose
# name holds it.
# Tests run in parallel, TEST_JOBS at a time (default: the number of cores),
# each with a timeout and its own scratch directory (TMPDIR, which lib.sh's
# $T lives in).  Each test's seconds are printed as it ends; the run ends
# with the failures' output, the slowest five, and the one line CI reads:
# "N passed, N failed, N skipped".
#
# Scheduling: the slowest tests start first, so the run is not left waiting
# on one long script at the end: seconds from the last run here
# ($BUILD/test-times), else from tests/test-times (committed, for a clean
# clone; refresh it with `cp $BUILD/test-times tests/` after a full run),
# else unknown (first of all).
#
# Locks: a script whose header has the line "# test-lock: quiet" measures
# time and runs alone (it takes the pool's lock exclusively; every other
# test holds it shared).  Machine-wide resources that two runs on one
# machine could share (a fixed device such as zram0, the swap list) are
# locked by the test itself with lib.sh's test_lock NAME, which is
# machine-wide, not per run.
#
# env: IOMATRIX (binary under test), BUILD (build dir with tests/test_*),
#      TESTS (optional substring filter of the names, e.g. TESTS=suite,
#      TESTS=archive/ for one area),
#      TEST_JOBS (parallel tests), TEST_TIMEOUT (seconds per test, 300),
#      (the tests' CPU: user+sys of each test and the children it waited
#      for, /usr/bin/time; as root also every process it started, daemons
#      too, from a cpuacct cgroup per test)
#      TEST_PROCS=ns (count what each test starts exactly: each test runs
#      in its own PID namespace, where PIDs count up from 1, threads too;
#      needs root and unshare.  Off by default: the test then runs as PID
#      1's child in a namespace of its own, and PIDs repeat across tests,
#      so files named by PID in a shared /tmp collide between tests that
#      run at once (OpenMPI's session directories: the mpi_* tests failed
#      so once in two runs).  A way to measure, not to judge.  Without it
#      the run prints the processes the machine started while it ran,
#      /proc/stat's "processes", which counts every other program too.)
set -u
cd "$(dirname "$0")/.."
: "${IOMATRIX:=$PWD/iomatrix}"
: "${BUILD:=$PWD/build/default}"
: "${TESTS:=}"
export IOMATRIX BUILD
TIMEOUT=${TEST_TIMEOUT:-300}

# one test: run_one LOGDIR NAME CMD...  (called through xargs, one per slot)
run_one() {
	log=$1; name=$2; shift 2
	safe=$(echo "$name" | tr '/' '_')
	out="$log/$safe.log"
	# short, and no test name in it: reports escape '_' and cap name
	# lengths, and tests grep for names made from $T; open like /tmp, for
	# tests that drop to another user
	scratch=$(mktemp -d "$tmp/imx.XXXXXX") && chmod 1777 "$scratch"
	mode=-s
	case "$name" in integration/*)
		grep -q '^# test-lock: quiet$' "$2" && mode=-x ;;
	esac
	t0=$(date +%s%N)
	# each test's CPU seconds (user+sys of it and the children it waited
	# for), when GNU time is there
	timed=""
	[ -x /usr/bin/time ] && timed="/usr/bin/time -q -f %U+%S -o $log/$safe.cpu"
	# TEST_PROCS=ns: PID 1 of the namespace runs the test, then reads the
	# last PID handed out there with cat (the shell's read takes one byte
	# of it); minus PID 1 and the cat
	counted=""
	[ "${TEST_PROCS:-}" = ns ] &&
		counted="unshare -pf --kill-child --mount-proc sh -c"
	# and, as root, the CPU of every process the test started, whether it
	# waited for it or not (a daemon such as a fleet test's sshd and the
	# agents below it): this shell joins a cpuacct cgroup of its own for
	# the test, and its usage is the test's
	cgdir=""
	if [ -w "$cgroot" ]; then
		cgdir=$(mktemp -d "$cgroot$cghome/iomatrix-test.XXXXXX" 2>/dev/null) &&
			echo $$ >"$cgdir/cgroup.procs" || cgdir=""
	fi
	# shellcheck disable=SC2086,SC2016
	TMPDIR=$scratch CMOCKA_MESSAGE_OUTPUT=TAP flock "$mode" "$log/quiet.lock" \
		$timed timeout -k 5 "$TIMEOUT" ${counted:+$counted} \
		${counted:+'"$@"; r=$?; n=$(cat /proc/sys/kernel/ns_last_pid); echo $((n - 2)) >"$0"; exit $r'} \
		${counted:+"$log/$safe.procs"} "$@" >"$out" 2>&1
	rc=$?
	if [ -n "$cgdir" ]; then
		cat "$cgdir/cpuacct.usage" >"$log/$safe.cgcpu"
		# this shell, then whatever the test left running, go back
		for p in $$ $(cat "$cgdir/cgroup.procs"); do
			echo "$p" >"$cgroot$cghome/cgroup.procs"
		done 2>/dev/null
		rmdir "$cgdir" 2>/dev/null
	fi
	t1=$(date +%s%N)
	rm -rf --one-file-system "$scratch" # never into a mount a test left
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	tp=$(grep -c '^ok ' "$out")
	tf=$(grep -c '^not ok ' "$out")
	[ "$rc" = 124 ] && echo "TIMEOUT after ${TIMEOUT}s" >>"$out"
	echo "$rc $tp $tf $secs $name" >"$log/$safe.res"
	if [ "$rc" = 77 ]; then
		echo "SKIP $name ($secs s): $(tail -n 1 "$out")"
	elif [ "$rc" != 0 ] || [ "$tf" -gt 0 ]; then
		echo "FAIL $name ($secs s, exit $rc)"
	else
		echo "PASS $name ($secs s)"
	fi
}
tmp=${TMPDIR:-/tmp}
cgroot=/sys/fs/cgroup/cpuacct
cghome=$(awk -F: '$2 ~ /(^|,)cpuacct(,|$)/ { print $3 }' /proc/self/cgroup 2>/dev/null)
[ "$cghome" = / ] && cghome=""
if [ "${1:-}" = --one ]; then
	shift
	run_one "$@"
	exit 0
fi

# Two tests per core: the suite waits more than it computes (fsync, blkio
# throttles, ssh hand-shakes, a child's exit).  Measured 2026-12-01 on the
# 2-core VM: the tests' CPU (user+sys, /usr/bin/time) sums to 170 s where
# their wall times, one test per core on a quiet machine, sum to 246 s; one
# per core leaves a third of the machine idle.  $BUILD/test-cpu keeps both
# columns of the last run.
cores=$(nproc 2>/dev/null || echo 2)
jobs=${TEST_JOBS:-$((cores * 2))}
log=$(mktemp -d "$tmp/iomatrix-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT
trap 'exit 130' INT TERM
times=$BUILD/test-times
# python3 is resolved once for the run and put first on the tests' PATH,
# run without site-packages (-S): the tests need only the standard
# library, and what a machine has installed must not change them or their
# cost.  A version manager's shim runs a program of its own at every call
# (pyenv's is a bash script that runs pyenv), and site-packages may import
# modules at start-up through .pth files; here `python3 -c pass` took
# 0.10 s of CPU through the shim, 0.05 s for the interpreter it picks and
# 0.01 s with -S, and the tests call python3 a few hundred times.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ] &&
   mkdir "$log/bin" && printf '#!/bin/sh\nexec %s -S "$@"\n' "'$py'" >"$log/bin/python3" &&
   chmod +x "$log/bin/python3"; then
	PATH=$log/bin:$PATH
	export PATH
fi

# the list, one "name<TAB>command" line each, slowest of the last run first
{
	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] && printf 'unit/%s\t%s\n' "$(basename "$t")" "$t"
	done
	# integration/AREA/NAME for tests/integration/AREA/NAME.sh
	find tests/integration -name '*.sh' -type f | sort | while read -r t; do
		n=${t#tests/}
		printf '%s\tsh\t%s\n' "${n%.sh}" "$t"
	done
} | while IFS='	' read -r name cmd; do
	# TESTS matches the name, or the name as it was before the areas
	# (integration/NAME), so that older filters still select the same
	old=integration/${name##*/}
	case "$name" in
	*"$TESTS"*) ;;
	integration/*) case "$old" in *"$TESTS"*) ;; *) continue ;; esac ;;
	*) continue ;;
	esac
	s=$(cat "$times" tests/test-times 2>/dev/null | awk -v n="$name" '$2 == n { print $1; exit }')
	printf '%s\t%s\t%s\n' "${s:-9999}" "$name" "$cmd"
done | sort -t '	' -k1,1nr -k2,2 | cut -f2- >"$log/list"

procs_at() { awk '$1 == "processes" { print $2 }' /proc/stat 2>/dev/null; }
p0=$(procs_at)
t0=$(date +%s%N)
# xargs: one test per slot; names and paths hold no blanks or quotes
tr '\t' ' ' <"$log/list" | xargs -P "$jobs" -L 1 sh tests/run.sh --one "$log"
wall=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }')
p1=$(procs_at)

pass=0; fail=0; skip=0; failed_names=""
for r in "$log"/*.res; do
	[ -f "$r" ] || continue
	read -r rc tp tf secs name <"$r"
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1))
		continue
	fi
	if [ "$tp" -gt 0 ] || [ "$tf" -gt 0 ]; then
		pass=$((pass + tp)); fail=$((fail + tf))
		[ "$rc" != 0 ] && [ "$tf" = 0 ] && fail=$((fail + 1))
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	if [ "$rc" != 0 ] || [ "$tf" -gt 0 ]; then
		failed_names="$failed_names $name"
		echo "--- FAIL $name (exit $rc)"
		sed 's/^/    /' "${r%.res}.log" | grep -v '^    ok ' | tail -n 40
	fi
done
# a test that never wrote its result (killed runner) counts as failed
n_list=$(wc -l <"$log/list")
n_res=$(ls "$log" | grep -c '\.res$')
if [ "$n_res" -lt "$n_list" ]; then
	fail=$((fail + n_list - n_res))
	failed_names="$failed_names (and $((n_list - n_res)) that never finished)"
fi

# seconds per test for the next run's order: this run's, then older ones
if [ -d "$BUILD" ]; then
	{ cat "$log"/*.res 2>/dev/null | awk '{ print $4, $5 }'; cat "$times" 2>/dev/null; } |
		awk '!seen[$2]++' >"$times.tmp" && mv -f "$times.tmp" "$times"
fi
for r in "$log"/*.res; do
	[ -f "$r" ] || continue
	read -r _ _ _ secs name <"$r"
	c=$(awk -F+ '{ printf "%.1f", $1 + $2 }' "${r%.res}.cpu" 2>/dev/null)
	p=$(cat "${r%.res}.procs" 2>/dev/null)
	g=$(awk '{ printf "%.1f", $1 / 1e9 }' "${r%.res}.cgcpu" 2>/dev/null)
	echo "$secs ${c:-?} ${p:-?} ${g:-?} $name"
done >"$log/cpu"
[ -d "$BUILD" ] && { echo "# wall_s cpu_s processes cgroup_cpu_s test (the last run; processes with TEST_PROCS=ns, cgroup CPU as root)"; cat "$log/cpu"; } >"$BUILD/test-cpu"
echo "slowest:"
cat "$log"/*.res 2>/dev/null | sort -k4,4nr | head -n 5 | awk '{ printf "  %6.1f s  %s\n", $4, $5 }'
cpu=$(awk '$2 != "?" { c += $2 } END { printf "%.0f", c }' "$log/cpu")
cgcpu=$(awk '$4 != "?" { c += $4; n++ } END { if (n) printf "%.0f", c }' "$log/cpu")
if [ "${TEST_PROCS:-}" = ns ]; then
	procs="$(awk '$3 != "?" { p += $3 } END { printf "%d", p }' "$log/cpu") processes started by the tests"
else
	procs="$((${p1:-0} - ${p0:-0})) processes started on the machine during the run"
fi
echo "wall: $wall s with $jobs jobs; the tests' CPU: $cpu s${cgcpu:+ ($cgcpu s with the processes they did not wait for)}; $procs"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
