#!/bin/sh
# The static site writes its pages through unique temp names (never a
# fixed NAME.tmp.PID opened with fopen): links planted at the old temp
# names are not followed, and their targets keep their bytes.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/arch"
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/arch/a" --cells 2 >/dev/null || fail "generator failed"
expect_exit 0 "$IOMATRIX" site "$T/arch" -o "$T/site"
printf 'precious\n' >"$T/victim"
# the pids the next run may get are unknown: plant the old names for many
for f in $(cd "$T/site" && find . -name '*.html' | head -n 5); do
	p=$(( $(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 1) ))
	i=0; while [ $i -lt 400 ]; do
		ln -sf "$T/victim" "$T/site/$f.tmp.$((p + i))" 2>/dev/null; i=$((i + 1))
	done
done
expect_exit 0 "$IOMATRIX" site "$T/arch" -o "$T/site"
[ "$(cat "$T/victim")" = precious ] && ok "victim unchanged" || not_ok "victim overwritten"
(umask 022 && "$IOMATRIX" site "$T/arch" -o "$T/site2" >/dev/null 2>&1)
m=$(stat -c %a "$T/site2/index.html")
[ "$m" = 644 ] && ok "pages 0644 under umask 022" || not_ok "index.html mode $m"
tap_end
