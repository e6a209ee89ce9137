#!/bin/sh
# Every suite shipped in suites/ validates: exit 0, "FILE: ok, N cells" on
# stdout, nothing on stderr but, for the SSD suites that name /dev/nvme0n1
# on a machine without one, the warning that it is missing here.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
n=0
for f in suites/*.yaml; do
	n=$((n + 1))
	"$IOMATRIX" validate "$f" >"$T/out" 2>"$T/err"; rc=$?
	grep -v "^$f:[0-9]*:[0-9]*: warning: device '[^']*': no block device .* on this machine" "$T/err" >"$T/other"
	if [ $rc = 0 ] && grep -q "^$f: ok, [0-9][0-9]* cells*\$" "$T/out" && [ ! -s "$T/other" ]; then
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
