#!/bin/sh
# The static site writes its pages through unique temp names (never a
# fixed NAME.tmp.PID opened with fopen): links planted at the old temp
# names are not followed, and their targets keep their bytes.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
# 2,000 links planted and removed (1.1 s of CPU on ext4, 0.1 s on tmpfs)
tmpfs_T
mkdir -p "$T/arch"
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/arch/a" --cells 2 >/dev/null || fail "generator failed"
expect_exit 0 "$IOMATRIX" site "$T/arch" -o "$T/site"
printf 'precious\n' >"$T/victim"
# the pids the next run may get are unknown: plant the old names for the
# next 400 pids (one python for the 2,000 links: an ln each cost 2,000
# processes)
python3 - "$T/site" "$T/victim" <<'PY' || fail "cannot plant the links"
import os, sys
site, victim = sys.argv[1], sys.argv[2]
pages = sorted(os.path.join(d, f) for d, _, fs in os.walk(site) for f in fs if f.endswith(".html"))[:5]
try:
    p = int(open("/proc/sys/kernel/ns_last_pid").read())
except OSError:
    p = 1
for page in pages:
    for i in range(400):
        try:
            os.symlink(victim, "%s.tmp.%d" % (page, p + i))
        except FileExistsError:
            pass
PY
expect_exit 0 "$IOMATRIX" site "$T/arch" -o "$T/site"
[ "$(cat "$T/victim")" = precious ] && ok "victim unchanged" || not_ok "victim overwritten"
(umask 022 && "$IOMATRIX" site "$T/arch" -o "$T/site2" >/dev/null 2>&1)
m=$(stat -c %a "$T/site2/index.html")
[ "$m" = 644 ] && ok "pages 0644 under umask 022" || not_ok "index.html mode $m"
tap_end
