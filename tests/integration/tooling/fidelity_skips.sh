#!/bin/sh
# make fidelity cannot run everywhere: without root, or without fio (or
# strace, losetup, zram), tests/fidelity/run.sh exits 77 with the reason
# on stderr, and touches no device.
. "$(dirname "$0")/../../lib.sh"
H="$ROOT/tests/fidelity/run.sh"
# no fio on PATH: only what the script needs before its checks
mkdir -p "$T/bin"
for c in sh dirname basename id cat; do
	p=$(command -v $c) && ln -s "$p" "$T/bin/$c"
done
PATH="$T/bin" "$T/bin/sh" "$H" "$IOMATRIX" >"$T/out" 2>"$T/err"
rc=$?
if [ "$(id -u)" = 0 ]; then
	[ $rc = 77 ] && grep -q "'fio' is not installed" "$T/err" \
		&& ok "no fio: exit 77, says so" || not_ok "no fio: exit $rc, $(cat "$T/err")"
	if command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups sh "$H" "$IOMATRIX" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc = 77 ] && grep -q "needs root" "$T/err" \
			&& ok "not root: exit 77, says so" || not_ok "not root: exit $rc, $(cat "$T/err")"
	fi
else
	[ $rc = 77 ] && grep -q "needs root" "$T/err" \
		&& ok "not root: exit 77, says so" || not_ok "not root: exit $rc, $(cat "$T/err")"
fi
tap_end
