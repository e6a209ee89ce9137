#!/bin/sh
# io_uring's ring is set up as fio sets it up for the same job:
# the io_uring_setup flags strace shows for iomatrix equal fio's
# (CQSIZE|COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN on a kernel that has
# them), the CQ ring has iodepth entries, and io-wq's worker count is left
# alone (no IORING_REGISTER_IOWQ_MAX_WORKERS: the old cap cost IOPS on
# devices served by io-wq, such as zram and loop), and the ring fd is
# registered (IORING_REGISTER_RING_FDS: fewer fd lookups, same workload).
. "$(dirname "$0")/../../lib.sh"
need_cmd strace
need_cmd fio
need_cmd jq
fio --enghelp=io_uring >/dev/null 2>&1 || skip "fio has no io_uring engine"
truncate -s 4M "$T/f"
cat >"$T/s.yaml" <<Y
suite: t-uring-setup
defaults: {engine: io_uring, direct: false, size: 4MiB, bs: 4k, iodepth: 8,
           requests: 64, keep_files: true}
devices:
  - {name: d, path: $T/f}
matrix: {pattern: [randread]}
Y
# LeakSanitizer cannot run under ptrace: no leak check in a sanitizer build
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
strace -f -o "$T/iom.st" -e trace=io_uring_setup,io_uring_register \
	"$IOMATRIX" run "$T/s.yaml" --out "$T/o" --quiet >/dev/null 2>"$T/err" || {
	grep -q "not built in\|disabled" "$T/err" && skip "io_uring unavailable: $(cat "$T/err")"
	grep -q "Operation not permitted" "$T/err" && skip "strace not permitted here"
	cat "$T/err" >&2; fail "run failed"; }
[ "$(jq '.repetitions[0].read.ios' "$T/o/cells/0001.json")" = 64 ] && ok "the cell moved its 64 reads" \
	|| not_ok "reads: $(jq '.repetitions[0].read.ios' "$T/o/cells/0001.json")"
strace -f -o "$T/fio.st" -e trace=io_uring_setup,io_uring_register \
	fio --name=t --ioengine=io_uring --rw=randread --bs=4k --iodepth=8 --number_ios=64 \
	--size=4m --filename="$T/f" --output=/dev/null >/dev/null 2>&1 || skip "fio did not run under strace"
flags() { grep -o 'io_uring_setup([0-9]*, {flags=[^,]*' "$1" | head -n 1 | sed 's/.*flags=//'; }
cq() { grep -o 'io_uring_setup([0-9]*, {.*cq_entries=[0-9]*' "$1" | head -n 1 | sed 's/.*cq_entries=//'; }
fi_flags=$(flags "$T/fio.st"); io_flags=$(flags "$T/iom.st")
[ -n "$fi_flags" ] || skip "fio made no io_uring_setup call strace could read"
[ "$io_flags" = "$fi_flags" ] && ok "setup flags as fio's: $io_flags" \
	|| not_ok "setup flags: iomatrix '$io_flags', fio '$fi_flags'"
[ "$(cq "$T/iom.st")" = 8 ] && ok "CQ ring of iodepth (8) entries" \
	|| not_ok "CQ ring: $(cq "$T/iom.st") entries, fio $(cq "$T/fio.st")"
grep -q IOWQ_MAX_WORKERS "$T/iom.st" && not_ok "io-wq capped: $(grep IOWQ_MAX_WORKERS "$T/iom.st")" \
	|| ok "io-wq left at the kernel's worker count"
# the ring fd registered with the submitting thread (5.18+): no fd lookup
# per enter, the same requests and enters as fio's job
if grep -q 'IORING_REGISTER_RING_FDS\|io_uring_register([0-9]*, 20,\|io_uring_register([0-9]*, 0x14,' "$T/iom.st"; then
	grep 'RING_FDS\|register([0-9]*, \(20\|0x14\),' "$T/iom.st" | grep -q '= -' \
		&& ok "ring fd registration refused by this kernel (older than 5.18): left unregistered" \
		|| ok "ring fd registered (IORING_REGISTER_RING_FDS)"
else
	not_ok "no IORING_REGISTER_RING_FDS in iomatrix's io_uring_register calls"
fi
tap_end
