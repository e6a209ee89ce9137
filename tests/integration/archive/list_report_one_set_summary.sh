#!/bin/sh
# `list --format json` and report.json describe a set by one writer with
# one set of keys (docs/reports.md, "A set in brief"): for a run, an
# interrupted set with failed and missing cells, and a fio import, list's
# object and the report's are the same, key for key and value for value.
# (They disagreed: list said "devices": "a,b", report "dir" and
# "cells_read"; list's status carried "(fio), FAILS VERIFY".)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/a" "$T/d"
cat >"$T/s.yaml" <<EOS
suite: brief
defaults: {engine: "null", size: 1MiB, requests: 16}
devices:
  - {name: d, path: $T/d}
  - {name: e, path: $T/d}
matrix: {pattern: [randread, write]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/a/run" --quiet
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/a/cut" --cells 6 --failed 1 --missing 1 \
	--status interrupted >/dev/null || fail "gen_synthetic"
expect_exit 0 "$IOMATRIX" import fio "$ROOT/tests/data/fio/randread-4k-qd16.json" -o "$T/a/fio"
expect_exit 0 "$IOMATRIX" list "$T/a" --format json
cp "$T/out" "$T/list.json"
for s in run cut fio; do
	expect_exit 0 "$IOMATRIX" report "$T/a/$s" -o "$T/r$s" --format json --charts none
	python3 - "$T/list.json" "$T/r$s/report.json" "$T/a/$s" <<'PY' \
		&& ok "$s: list and report.json say the same" || not_ok "$s differs"
import json, sys
l = {x["path"]: x for x in json.load(open(sys.argv[1]))}[sys.argv[3]]
r = json.load(open(sys.argv[2]))["sets"][0]
if l != r:
    for k in sorted(set(l) | set(r)):
        if l.get(k) != r.get(k):
            print("# %s: list %r, report %r" % (k, l.get(k), r.get(k)))
    sys.exit(1)
PY
done
python3 - "$T/list.json" "$T/a" <<'PY' && ok "the values: devices a list, counts, command, source" || not_ok "values"
import json, sys
a = {x["path"].rsplit("/", 1)[-1]: x for x in json.load(open(sys.argv[1]))}
assert a["run"]["devices"] == ["d", "e"] and a["run"]["cells_done"] == 4, a["run"]
assert a["run"]["command"].startswith("iomatrix run ") and a["run"]["status"] == "complete", a["run"]
assert a["cut"]["status"] == "interrupted" and a["cut"]["cells_failed"] == 1, a["cut"]
assert a["fio"]["source"] == "fio" and a["fio"]["command"] is None, a["fio"]
PY
tap_end
