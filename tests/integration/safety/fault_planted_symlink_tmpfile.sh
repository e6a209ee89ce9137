#!/bin/sh
# Temp files have unique names (O_EXCL, never followed): links planted at
# the old fixed temp names (.report.md.tmp, .compare.md.tmp) or at
# iomatrix's temp prefix cannot make report or compare write through them.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$1" --cells 2 >/dev/null || fail "generator failed"; }
printf 'precious\n' >"$T/victim"
gen "$T/old"; gen "$T/set"
mkdir "$T/set/report" "$T/set/compare"
for n in report.md report.html report.csv report.json fio-commands.txt; do
	ln -s "$T/victim" "$T/set/report/.$n.tmp"
done
ln -s "$T/victim" "$T/set/report/.iomatrix-tmp.report.md.000000000000"
ln -s "$T/victim" "$T/set/compare/.compare.md.tmp"
ln -s "$T/victim" "$T/set/compare/.compare.html.tmp"
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/set"
[ "$(cat "$T/victim")" = precious ] && ok "victim unchanged" || not_ok "victim overwritten: $(head -c 80 "$T/victim")"
grep -q '^# ' "$T/set/report/report.md" && ok "report.md written in place" || not_ok "no report.md"
[ -f "$T/set/compare/compare.md" ] && [ ! -L "$T/set/compare/compare.md" ] && ok "compare.md written" || not_ok "no compare.md"
ls -a "$T/set/report" | grep -q '^\.iomatrix-tmp\.' && not_ok "temp litter left" || ok "no temp litter"
m=$(stat -c %a "$T/set/report/report.md")
(umask 022 && "$IOMATRIX" report "$T/set" --charts none >/dev/null 2>&1)
m=$(stat -c %a "$T/set/report/report.md")
[ "$m" = 644 ] && ok "umask 022 gives 0644" || not_ok "report.md mode $m under umask 022"
tap_end
