#!/bin/sh
# A device directory the user may not enter (mode 000) or not write (mode
# 555) is refused before any IO with the path and the reason: run as
# 'nobody' (root ignores permission bits), exit 2, nothing created.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd setpriv
need_cmd jq
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
grp=$(id -gn nobody)
as_nobody() { setpriv --reuid=nobody --regid="$grp" --clear-groups "$@"; }
as_nobody "$IOMATRIX" --version >/dev/null 2>&1 || skip "'nobody' cannot run '$IOMATRIX'"
chmod 755 "$T"
mkdir -p "$T/out" "$T/noenter" "$T/nowrite"
chown nobody "$T/out"
chmod 000 "$T/noenter"
chmod 555 "$T/nowrite"
for d in noenter nowrite; do
	cat >"$T/s-$d.yaml" <<Y
suite: t-perm
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: $T/$d}
include:
  - {pattern: randread, bs: 4k, requests: 10}
  - {pattern: read, bs: 4k, requests: 10}
Y
	chmod 644 "$T/s-$d.yaml"
	as_nobody "$IOMATRIX" run "$T/s-$d.yaml" --out "$T/out/set-$d" >"$T/out.txt" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok "$d: exit 2" || not_ok "$d: exit $rc: $(cat "$T/err")"
	grep -qF "$T/$d" "$T/err" && grep -qi "permission" "$T/err" \
		&& ok "$d: message: $(grep -i permission "$T/err" | head -n 1)" || not_ok "$d: message: $(cat "$T/err")"
	grep -q "did any IO" "$T/err" && ok "$d: stopped before any IO" || not_ok "$d: no 'before any IO' in: $(cat "$T/err")"
	m="$T/out/set-$d/manifest.json"
	if [ -f "$m" ]; then
		# the set made before the cell was prepared records the failure
		[ "$(jq -r '[.cells[].status] | join(",")' "$m" 2>/dev/null)" = failed ] \
			&& ok "$d: cell recorded as failed, run stopped" || not_ok "$d: cells: $(jq -c .cells "$m")"
	else
		ok "$d: no result set made"
	fi
done
[ -z "$(ls -A "$T/nowrite")" ] && ok "nothing written in the read-only directory" || not_ok "written: $(ls -A "$T/nowrite")"
tap_end
