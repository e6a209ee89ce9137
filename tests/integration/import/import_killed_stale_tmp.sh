#!/bin/sh
# An import killed with SIGKILL (no handler runs) leaves its hidden
# .iomatrix-tmp.NAME.importing.PID directory beside the set it was making;
# the next import into the same directory removes it because its process
# is gone (resultset/tmpdir.h, the same rule as unpack's), and keeps one
# whose process still runs.  The test hook kills the import after its
# second cell (no clock).
. "$(dirname "$0")/../../lib.sh"
printf 'device,pattern,bs,iops,lat_ms,mib_s\n' >"$T/a.csv"
for i in 1 2 3 4; do printf 'd%d,rndrd,4k,%d,0.5,1.0\n' $i $((1000 + i)) >>"$T/a.csv"; done
mkdir -p "$T/res"
IOMATRIX_TEST_HOOK=import_cell:2:kill "$IOMATRIX" import csv "$T/a.csv" -o "$T/res/one" \
	>"$T/out" 2>"$T/err"
rc=$?
stale=$(ls -A "$T/res" | grep '^\.iomatrix-tmp\..*\.importing\.' | head -n 1)
[ $rc = 137 ] && [ -n "$stale" ] && [ ! -e "$T/res/one" ] &&
	ok "SIGKILL mid-way leaves $stale and no set" || not_ok "rc=$rc res: $(ls -A "$T/res")"
live=".iomatrix-tmp.two.importing.$$"
mkdir "$T/res/$live"
expect_exit 0 "$IOMATRIX" import csv "$T/a.csv" -o "$T/res/two"
[ ! -e "$T/res/$stale" ] && ok "the next import removed $stale (its pid is gone)" ||
	not_ok "still there: $(ls -A "$T/res")"
[ -d "$T/res/$live" ] && ok "a live process's directory is kept" || not_ok "$live removed"
expect_exit 0 "$IOMATRIX" list "$T/res"
grep -q "iomatrix-tmp" "$T/out" && not_ok "list shows a leftover" || ok "list shows no leftover"
tap_end
