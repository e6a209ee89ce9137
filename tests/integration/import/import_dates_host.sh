#!/bin/sh
# Imported sets carry the measurement date, not the import date: fio's
# 'timestamp', a `date` line a script logged next to sysbench output, or
# --date where the input has none.  The set's directory name and `list`
# use it.  --host names the machine, so reports do not say 'unknown'.
. "$(dirname "$0")/../../lib.sh"
export IOMATRIX_RESULTS="$T/res"
F="$ROOT/tests/data/fio/randread-4k-qd16.json"
ts=$(sed -n 's/^ *"timestamp" *: *\([0-9][0-9]*\),.*/\1/p' "$F" | head -1)
[ -n "$ts" ] || fail "no timestamp in $F"
# fio's timestamp is when the job ended; the set is named by its start,
# a few seconds earlier: the same hour
hour=$(date -u -d "@$ts" +%Y-%m-%dT%H)
expect_exit 0 "$IOMATRIX" import fio "$F" --host web1
case "$(cat "$T/out")" in *"/${hour}"[0-9][0-9][0-9][0-9]Z_fio_*) ok "fio set named by its timestamp ($hour)" ;;
	*) not_ok "fio set name: $(cat "$T/out"), want $hour" ;; esac
expect_exit 0 "$IOMATRIX" report "$(cat "$T/out")" -o "$T/r1" --charts none --format json
grep -q '"host":[[:space:]]*"web1"' "$T/r1/report.json" && ok "--host recorded" || not_ok "host"

{ echo "Sun Jun  1 08:30:00 UTC 2025"; cat "$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log"; } >"$T/dated.log"
expect_exit 0 "$IOMATRIX" import sysbench "$T/dated.log"
case "$(cat "$T/out")" in *"/2025-06-01T083000Z_sysbench_"*) ok "sysbench dated by its date line" ;;
	*) not_ok "sysbench set: $(cat "$T/out")" ;; esac

expect_exit 0 "$IOMATRIX" import sysbench "$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log" --date 2024-02-03
case "$(cat "$T/out")" in *"/2024-02-03T000000Z_sysbench_"*) ok "--date dates an undated log" ;;
	*) not_ok "--date: $(cat "$T/out")" ;; esac
expect_exit 0 "$IOMATRIX" import sysbench "$ROOT/tests/data/sysbench/seqrd-bs16384-t1.log" -o "$T/nodate"
grep -q 'does not say when it was measured' "$T/err" && ok "undated import warns" || not_ok "no warning"
expect_exit 2 "$IOMATRIX" import sysbench "$ROOT/tests/data/sysbench/seqrd-bs16384-t1.log" --date 30/11/2026
grep -q "bad --date '30/11/2026'" "$T/err" && ok "bad --date exits 2" || not_ok "$(cat "$T/err")"

expect_exit 0 "$IOMATRIX" list "$T/res"
grep -q '^2025-06-01T08:30:00Z .*sysbench' "$T/out" && ok "list shows the measurement date" \
	|| not_ok "list: $(cat "$T/out")"
tap_end
