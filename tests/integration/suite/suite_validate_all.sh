#!/bin/sh
# Every suite shipped in suites/ validates: exit 0, "FILE: ok, N cells" on
# stdout, nothing on stderr.  The SSD suites name /dev/nvme0n1; where that
# is no block device validate says so (exit 2, "no block device") and the
# suite must then validate with the device pointed at a directory.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
n=0
for f in suites/*.yaml; do
	n=$((n + 1))
	over=""
	if ! "$IOMATRIX" validate "$f" >/dev/null 2>"$T/err"; then
		d=$(sed -n "s/^$(echo "$f" | sed 's/[./]/\\&/g'):[0-9]*:[0-9]*: device '\([^']*\)': no block device .*/\1/p" "$T/err" | head -n 1)
		[ -n "$d" ] && over="--device $d=$T/no-such-disk"
	fi
	# shellcheck disable=SC2086
	"$IOMATRIX" validate "$f" $over >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 0 ] && grep -q "^$f: ok, [0-9][0-9]* cells*\$" "$T/out" && [ ! -s "$T/err" ]; then
		ok "$f validates"
	else
		not_ok "$f (exit $rc): $(head -n 5 "$T/err")"
	fi
done
[ $n -ge 4 ] && ok "$n suites found" || not_ok "only $n suites in suites/"
# several files at once: all listed, exit 0
"$IOMATRIX" validate suites/quick.yaml suites/cdm.yaml >"$T/out" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$T/out")" = 2 ] && ok "two files at once" || not_ok "two files: rc=$rc"
tap_end
