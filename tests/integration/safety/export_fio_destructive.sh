#!/bin/sh
# `export fio` of destructive suites: export warns that run-all.sh destroys
# a block device; run-all.sh refuses to write one unless
# IOMATRIX_YES_DESTROY_DATA=1, refuses a /dev path that is not a block
# device, asks before its blkdiscard purge, runs preconditioning as fio jobs
# before the device's cells and rounds as a loop; what fio cannot judge
# (steady state) is annotated; every job file passes `fio --parse-only`.
# fio, blkdiscard and blockdev are fakes on PATH that log their calls.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"

# 1. the write-cliff suite: warning, guard, purge step, 1.5x as bytes
expect_exit 0 "$IOMATRIX" export fio suites/ssd-write-cliff.yaml -o "$T/cliff"
grep -q "warning: run-all.sh writes block device '/dev/nvme0n1'" "$T/err" &&
	grep -q "IOMATRIX_YES_DESTROY_DATA=1" "$T/err" && ok "export warns: $(head -n 1 "$T/err")" ||
	not_ok "no warning: $(cat "$T/err")"
grep -q "IOMATRIX_YES_DESTROY_DATA:-}\" != 1" "$T/cliff/run-all.sh" && ok "run-all.sh has the guard" ||
	not_ok "no guard in run-all.sh"
grep -q "^blkdiscard '/dev/nvme0n1'" "$T/cliff/run-all.sh" && ok "purge is a blkdiscard step" ||
	not_ok "purge dropped"
grep -q '^io_size=${IOMATRIX_IO_SIZE}' "$T/cliff/"0001-*.fio &&
	grep -q "iosize '/dev/nvme0n1' 1.5 131072" "$T/cliff/run-all.sh" && ok "io_size 1.5x kept" ||
	not_ok "io_size: $(grep io_size "$T/cliff/"*.fio)"

# 2. the SNIA suite: preconditioning job first, rounds loop, annotations
expect_exit 0 "$IOMATRIX" export fio suites/snia-iops.yaml -o "$T/snia"
pre=$(grep -n 'pre-ssd-1.fio' "$T/snia/run-all.sh" | head -n 1 | cut -d: -f1)
first=$(grep -n '0001-ssd-' "$T/snia/run-all.sh" | head -n 1 | cut -d: -f1)
[ -f "$T/snia/pre-ssd-1.fio" ] && [ -n "$pre" ] && [ -n "$first" ] && [ "$pre" -lt "$first" ] &&
	ok "preconditioning job runs before the cells" || not_ok "preconditioning: pre=$pre first=$first"
grep -q 'while \[ $round -le 25 \]' "$T/snia/run-all.sh" && ok "rounds are a loop" || not_ok "no rounds loop"
grep -q "NOT THE SAME: rounds" "$T/snia/0001-"*.fio && grep -q "NOT THE SAME: rounds" "$T/err" &&
	ok "steady-state stop annotated" || not_ok "not annotated: $(cat "$T/err")"
grep -q '^size=75%' "$T/snia/0001-"*.fio && ok "active_range exported" || not_ok "active_range dropped"
if command -v fio >/dev/null 2>&1; then
	# one fio for all the files (50 fio start-ups cost seconds); file by
	# file only to name the one it refused
	bad=0
	if ! IOMATRIX_IO_SIZE=1m fio --parse-only "$T/cliff/"*.fio "$T/snia/"*.fio >/dev/null 2>"$T/perr"; then
		for f in "$T/cliff/"*.fio "$T/snia/"*.fio; do
			IOMATRIX_IO_SIZE=1m fio --parse-only "$f" >/dev/null 2>"$T/perr" || { bad=1; echo "# $f: $(cat "$T/perr")"; }
		done
		[ $bad = 1 ] || { bad=1; echo "# fio refused the files together: $(cat "$T/perr")"; }
	fi
	[ $bad = 0 ] && ok "every job file passes fio --parse-only" || not_ok "fio --parse-only failed"
fi

# 3. run-all.sh with fake tools
mkdir -p "$T/bin"
for t in fio blkdiscard; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$t" "$T" >"$T/bin/$t"
done
printf '#!/bin/sh\necho 16777216\n' >"$T/bin/blockdev"
chmod +x "$T/bin/"*
: >"$T/calls"
# a /dev path that is no block device: refused before anything runs
expect_exit 0 "$IOMATRIX" export fio suites/ssd-write-cliff.yaml --device ssd=/dev/iomatrix-nope-$$ -o "$T/nope"
expect_exit 2 env PATH="$T/bin:$PATH" IOMATRIX_YES_DESTROY_DATA=1 sh "$T/nope/run-all.sh" </dev/null
grep -q "no block device" "$T/err" && [ ! -s "$T/calls" ] && [ ! -e "/dev/iomatrix-nope-$$" ] &&
	ok "/dev path that is no block device refused" || not_ok "nope: $(cat "$T/err") calls: $(cat "$T/calls")"
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 && truncate -s 16M "$T/img" &&
   loop=$(losetup -f --show "$T/img" 2>/dev/null); then
	trap 'losetup -d "$loop" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	# the SNIA suite with 3 x 3 of its 7 x 7 cells (the three it tracks
	# among them): the same purge, preconditioning and 25 rounds, with 450
	# processes of fake tools instead of 2,450
	sed -e 's/^  rwmixread: \[.*/  rwmixread: [100, 65, 0]/' -e 's/^  bs: \[.*/  bs: [1m, 64k, 4k]/' \
		suites/snia-iops.yaml >"$T/snia-9.yaml"
	grep -q 'rwmixread: \[100, 65, 0\]' "$T/snia-9.yaml" && grep -q 'bs: \[1m, 64k, 4k\]' "$T/snia-9.yaml" ||
		fail "snia-iops.yaml's matrix changed: update the sed above"
	expect_exit 0 "$IOMATRIX" export fio "$T/snia-9.yaml" --device "ssd=$loop" -o "$T/loop"
	expect_exit 2 env PATH="$T/bin:$PATH" sh "$T/loop/run-all.sh" </dev/null
	grep -q "IOMATRIX_YES_DESTROY_DATA=1" "$T/err" && [ ! -s "$T/calls" ] &&
		ok "block device refused without IOMATRIX_YES_DESTROY_DATA=1" || not_ok "no refusal: $(cat "$T/err")"
	echo no >"$T/no"; echo yes >"$T/yes"
	expect_exit 1 env PATH="$T/bin:$PATH" IOMATRIX_YES_DESTROY_DATA=1 sh "$T/loop/run-all.sh" <"$T/no"
	grep -q "not purged" "$T/err" && [ ! -s "$T/calls" ] && ok "purge asks first; 'no' stops" ||
		not_ok "purge: $(cat "$T/err") calls: $(cat "$T/calls")"
	expect_exit 0 env PATH="$T/bin:$PATH" IOMATRIX_YES_DESTROY_DATA=1 sh "$T/loop/run-all.sh" <"$T/yes"
	[ "$(sed -n 1p "$T/calls")" = "blkdiscard $loop" ] && sed -n 2p "$T/calls" | grep -q 'pre-ssd-1.fio' &&
		[ "$(grep -c '0001-ssd-' "$T/calls")" = 25 ] && ok "purge, preconditioning, then 25 rounds" ||
		not_ok "calls: $(head -n 3 "$T/calls")"
fi
tap_end
