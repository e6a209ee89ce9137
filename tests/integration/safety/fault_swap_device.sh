#!/bin/sh
# A block device in use as swap is refused with the reason, for writes (even
# with destructive: true and --yes-destroy-data) and for reads, before any
# IO: exit 2, the device and "swap" named, no result set made.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkswap
need_cmd swapon
# one test with a swap device at a time, machine-wide (tests run in
# parallel, and swapoff of a device the kernel paged onto takes a while)
test_lock swap
truncate -s 16M "$T/img" || skip "cannot create image"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
cleanup() { swapoff "$loop" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
mkswap "$loop" >/dev/null 2>&1 || skip "mkswap failed"
swapon "$loop" 2>/dev/null || skip "cannot swapon $loop (container?)"
grep -q "^$loop " /proc/swaps || skip "$loop not listed in /proc/swaps"
head0=$(head -c 4096 "$T/img" | sha256sum | cut -d' ' -f1)
tracer=""
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	tracer="strace -f -e trace=%file,%desc"
fi
for pat in randwrite randread; do
	cat >"$T/s.yaml" <<Y
suite: t-swap
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: sw, path: $loop, destructive: true}
include:
  - {pattern: $pat, bs: 4k, requests: 10}
Y
	if [ -n "$tracer" ]; then
		# LeakSanitizer cannot run under ptrace (the sanitizer pass)
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			$tracer -o "$T/trace-$pat" "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set-$pat" >"$T/out" 2>"$T/err"
	else
		"$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set-$pat" >"$T/out" 2>"$T/err"
	fi
	rc=$?
	[ $rc = 2 ] && ok "$pat on swap device: exit 2" || not_ok "$pat: exit $rc: $(cat "$T/err")"
	grep -q "swap" "$T/err" && grep -q "$loop" "$T/err" && ok "$pat: reason given: $(head -n 1 "$T/err")" \
		|| not_ok "$pat: message: $(cat "$T/err")"
	[ ! -e "$T/set-$pat" ] && ok "$pat: no result set made" || not_ok "$pat: set made"
	if [ -n "$tracer" ]; then
		# stat and statfs of the path are how it is judged; any open is IO
		opened=$(grep -E "open[a-z0-9]*\\(.*\"$loop\"" "$T/trace-$pat")
		[ -z "$opened" ] && ok "$pat: $loop never opened" || not_ok "$pat: device opened: $opened"
		grep -q "stat[a-z0-9]*(.*\"$loop\"" "$T/trace-$pat" && ok "$pat: the trace saw the device judged" \
			|| not_ok "$pat: the trace shows no stat of $loop (is the trace read right?)"
	else
		echo "# $pat: strace not usable here: the opens of the device are not traced"
	fi
done
swapoff "$loop"
[ "$(head -c 4096 "$T/img" | sha256sum | cut -d' ' -f1)" = "$head0" ] && ok "swap header untouched" || not_ok "swap header written"
tap_end
