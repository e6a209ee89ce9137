#!/bin/sh
# A received set cannot make reproduce unstoppable.  A set
# whose suite carries `model_bw: 1` verified intact, and reproduce then
# slept 4,096 s per 4K IO through SIGINT and SIGTERM, needed SIGKILL and
# left its new set `running`.  Now:
# - that set is refused by reproduce before any IO: exit 2, the suite's
#   file:line:col and the fix, no new set;
# - a set whose IO is as slow as validate allows (one 4 KiB IO per 3 s
#   runtime, model_bw 1366) reproduces until SIGINT 0.5 s into its IO,
#   then ends within 1 s of the signal, exit 130, its new set
#   `interrupted`, and `run --resume` completes that set.
# The 1 s is the design's promise, measured as run_stop_every_engine.sh
# does: the hook "wait" says the run is in its IO, and stop_log gives the
# command's own time from the signal to its end.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../../repro_lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<'EOS'
suite: repro-stop
defaults: {engine: model, bs: 4k, runtime: 50ms}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/a" --out "$T/orig" --quiet

suite() { sed "s/^defaults: .*/defaults: {$1}/" "$T/s.yaml"; }
forge bw1 "$(suite "engine: model, bs: 4k, runtime: 50ms, model_bw: 1")"
timeout 30 "$IOMATRIX" reproduce "$T/bw1" --device d="$T/b" --out "$T/r1" --quiet \
	>"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "suite.yaml:2:[0-9]*: 'model_bw' makes one 4KiB IO of the model take 1h8m16s, longer than 'runtime' 50ms" "$T/err" &&
	ok "model_bw 1: refused before any IO with file:line:col" || not_ok "exit $rc: $(cat "$T/err")"
[ ! -e "$T/r1" ] && ok "model_bw 1: no set written" || not_ok "a set was written: $(ls "$T/r1")"

forge slow "$(suite "engine: model, bs: 4k, runtime: 3s, model_bw: 1366")"
mkfifo "$T/hook" || fail "mkfifo"
IOMATRIX_TEST_HOOK="wait:1,fifo=$T/hook,stop_log=$T/log" \
	"$IOMATRIX" reproduce "$T/slow" --device d="$T/b" --out "$T/r2" --quiet >"$T/out" 2>"$T/err" &
sigint_in_io $! "$T/hook" || fail "reproduce never waited for its IO: $(cat "$T/err")"
ms=$(stop_ms "$T/log")
echo "# reproduce stopped ${ms:-?} ms after SIGINT"
[ $rc = 130 ] && stop_in_time "$ms" && ok "SIGINT honoured in $ms ms, exit 130" ||
	not_ok "exit $rc, ${ms:-?} ms: $(cat "$T/err")"
st=$(jq -r .status "$T/r2/manifest.json" 2>/dev/null)
[ "$st" = interrupted ] && ok "the reproduction is interrupted, not running" || not_ok "status '$st'"
expect_exit 0 timeout 60 "$IOMATRIX" run --resume "$T/r2" --quiet
[ "$(jq -r .status "$T/r2/manifest.json")" = complete ] && ok "resumed to complete" ||
	not_ok "resume: $(jq -r .status "$T/r2/manifest.json")"
tap_end
