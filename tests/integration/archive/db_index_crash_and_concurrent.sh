#!/bin/sh
# Keeping the index current is safe:
#   - `index` killed (SIGKILL) in the middle of an update leaves the
#     previous index, whole and valid (the transaction rolls back), and the
#     next `index` completes it; killed while building a new file it leaves
#     no index.sqlite half made, and the next one removes the temporary file;
#   - two runs finishing at once in one archive both land in its index: the
#     first holds the write lock (paused by the test hook) while the second
#     finishes and waits for it (WAL and a busy timeout), then both commit.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
GEN=$ROOT/tests/report/gen_archive.py
A=$T/res
python3 "$GEN" "$A" --sets 3 --cells 2 --hosts web1 --seed 3 --sums >/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" index "$A"
count() { python3 -c 'import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
print(db.execute("SELECT count(*) FROM sets").fetchone()[0])' "$A/index.sqlite"; }
python3 "$GEN" "$A" --sets 4 --first 10 --cells 2 --hosts web1 --seed 4 --sums >/dev/null || fail "generator"
IOMATRIX_TEST_HOOK=index_set:2:kill "$IOMATRIX" index "$A" >"$T/out" 2>&1
rc=$?
[ $rc = 137 ] && ok "index killed at its second set" || not_ok "exit $rc: $(cat "$T/out")"
[ "$(count)" = 3 ] && ok "the previous index is there, whole (integrity_check ok, 3 sets)" ||
	not_ok "after the kill: $(count 2>&1)"
expect_exit 0 "$IOMATRIX" index "$A"
grep -q "7 sets (4 read, 3 unchanged, 0 dropped)" "$T/out" && ok "the next index completes it" ||
	not_ok "$(cat "$T/out")"
rm "$A/index.sqlite"*
IOMATRIX_TEST_HOOK=index_set:2:kill "$IOMATRIX" index "$A" >"$T/out" 2>&1
[ ! -e "$A/index.sqlite" ] && ok "a new index killed while built: no index.sqlite" || not_ok "$(ls "$A")"
expect_exit 0 "$IOMATRIX" index "$A"
[ -z "$(ls -a "$A" | grep iomatrix-tmp)" ] && ok "the next index made it and removed the temporary file" ||
	not_ok "left: $(ls -a "$A" | grep iomatrix-tmp)"

# two runs finishing at once
cat >"$T/s.yaml" <<Y
suite: twice
defaults: {engine: null, size: 1m, runtime: 20ms}
devices:
  - {name: d, path: $T/scratch/}
matrix: {pattern: [randread]}
Y
mkdir -p "$T/scratch"
mkfifo "$T/hook"
IOMATRIX_RESULTS=$A IOMATRIX_TEST_HOOK=index_add:1,fifo=$T/hook "$IOMATRIX" run "$T/s.yaml" --quiet \
	--out "$A/first" >"$T/out1" 2>"$T/err1" &
p1=$!
[ "$(hook_wait "$T/hook")" = "index_add 1" ] && ok "the first run holds the index's write lock" ||
	not_ok "no pause"
IOMATRIX_RESULTS=$A "$IOMATRIX" run "$T/s.yaml" --quiet --out "$A/second" >"$T/out2" 2>"$T/err2" &
p2=$!
i=0   # the second run's set is finished (its SHA256SUMS written just before its hook)
while [ ! -f "$A/second/SHA256SUMS" ] && [ $i -lt 3000 ]; do i=$((i + 1)); sleep 0.01; done
kill -0 $p2 2>/dev/null && ok "the second run waits for the lock" || not_ok "second run did not wait"
hook_go "$T/hook"
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && ok "both runs exit 0" || not_ok "exits $r1 $r2: $(cat "$T/err1" "$T/err2")"
grep -q warning "$T/err1" "$T/err2" && not_ok "warnings: $(cat "$T/err1" "$T/err2")" || ok "no warning"
[ "$(count)" = 9 ] && ok "both sets are in the index" || not_ok "sets: $(count)"
expect_exit 0 "$IOMATRIX" query "select count(*) from sets where path in ('first', 'second') and verified = 'intact'" \
	--archive "$A" --format csv
[ "$(tail -n 1 "$T/out")" = 2 ] && ok "and the index is current: query takes it" || not_ok "$(cat "$T/out" "$T/err")"
tap_end
