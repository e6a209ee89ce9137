#!/bin/sh
# --resume trusts no index: a cell file that is missing, cut short, a FIFO,
# a link, or holds another cell or other parameters is measured again; the
# set ends complete with every cell file readable and matching.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-verify
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
matrix:
  bs: [4k, 8k, 16k, 32k, 64k, 512]
include: []
Y
sed -i 's/^include: \[\]$/exclude: []/' "$T/s.yaml"
sed -i 's/^matrix:/matrix:\n  pattern: [randread]\n  requests: [4]/' "$T/s.yaml"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
ls "$T/set/cells" | grep -q 0006.json || fail "setup: 6 cells expected: $(ls "$T/set/cells")"
rm "$T/set/cells/0002.json"
head -c 100 "$T/set/cells/0003.json" >"$T/c3" && mv "$T/c3" "$T/set/cells/0003.json"
cp "$T/set/cells/0001.json" "$T/set/cells/0004.json"
rm "$T/set/cells/0005.json" && mkfifo "$T/set/cells/0005.json"
printf '{"id": 6}\n' >"$T/outside.json"
rm "$T/set/cells/0006.json" && ln -s "$T/outside.json" "$T/set/cells/0006.json"
timeout 60 "$IOMATRIX" run --resume "$T/set" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && ok "resume exit 0" || not_ok "resume exit $rc: $(cat "$T/err")"
for i in 2 3 4 5 6; do
	grep -q "cell $i (" "$T/err" && ok "cell $i measured again" || not_ok "cell $i not re-run: $(cat "$T/err")"
done
grep -q "cell 1 (" "$T/err" && not_ok "intact cell 1 re-run" || ok "intact cell 1 kept"
python3 - "$T/set" <<'PY' && ok "every cell file parses, matches its id, set complete" || not_ok "set not sound"
import json, os, sys, stat
d = sys.argv[1]
m = json.load(open(d + "/manifest.json"))
assert m["status"] == "complete", m["status"]
for i in range(1, 7):
    p = "%s/cells/%04d.json" % (d, i)
    assert stat.S_ISREG(os.lstat(p).st_mode), p
    c = json.load(open(p))
    assert c["id"] == i and c["status"] == "ok", p
PY
[ "$(cat "$T/outside.json")" = '{"id": 6}' ] && ok "the link's target untouched" || not_ok "outside.json changed"
tap_end
