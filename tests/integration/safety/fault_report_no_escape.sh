#!/bin/sh
# Whatever a result set says, `report -o DIR` writes only inside DIR and
# never outside it: device names, labels, suite name, host name and a
# manifest cell index made of path traversals ("../../../escaped", absolute
# paths, "..", "/", NUL-free junk) with svg/png charts (file names come from
# names) and every format.  Checked with a listing of the whole sandbox
# before and after, and of the set itself.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
S="$T/a/b/c/set"
mkdir -p "$T/a/b/c"
names='["../../../escaped-dev", "/tmp/abs-dev-'"$$"'", "..", "/", ".", "a/../../b"]'
python3 "$ROOT/tests/report/gen_synthetic.py" "$S" --devices hdd:hdd,ssd:ssd --cells 3 --repeat 2 \
	--names-json "$names" >/dev/null 2>&1 || python3 "$ROOT/tests/report/gen_synthetic.py" "$S" \
	--devices "../../../escaped-dev:hdd,x:ssd" --cells 3 --repeat 2 >/dev/null \
	|| fail "generator failed"
python3 - "$S" "$$" <<'PY'
import json, os, sys
s, pid = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(s, "manifest.json")))
m.setdefault("suite", {})["name"] = "../../../escaped-suite"
m["suite"]["title"] = "../../../escaped-title"
m["suite"]["file"] = "/tmp/abs-suite-%s" % pid
m.setdefault("host", {})["hostname"] = "../../../escaped-host"
for i, c in enumerate(m.get("cells", [])):
    c["label"] = "../../../escaped-label-%d" % i
    c["device"] = "../../../escaped-dev"
m["cells"].append({"id": "../../../../etc/passwd", "file": "../../../escaped-cell", "device": "/", "status": "ok"})
m["cells"].append({"id": 0, "file": "/tmp/abs-cell-%s" % pid, "device": "..", "status": "ok"})
json.dump(m, open(os.path.join(s, "manifest.json"), "w"))
for f in sorted(os.listdir(os.path.join(s, "cells"))):
    p = os.path.join(s, "cells", f)
    c = json.load(open(p))
    c["params"]["label"] = "../../../escaped-cell-label"
    c["params"]["device"] = "../../../escaped-dev" if c["id"] % 2 else "/tmp/abs-dev-" + pid
    json.dump(c, open(p, "w"))
PY
charts=svg,png
command -v gnuplot >/dev/null 2>&1 || charts=none
(cd "$T" && find . | sort) >"$T/before"
"$IOMATRIX" report "$S" -o "$T/a/b/c/out" --charts "$charts" >"$T/out.txt" 2>"$T/err.txt"
rc=$?
[ $rc = 0 ] && [ -d "$T/a/b/c/out" ] && ok "report exit 0 into its output directory" \
	|| not_ok "report exit $rc: $(tail -n 3 "$T/err.txt")"
(cd "$T" && find . | sort) | grep -v '^\./a/b/c/out' | grep -v -e '^\./out\.txt$' -e '^\./err\.txt$' -e '^\./before$' -e '^\./after$' >"$T/after"
new=$(grep -vxF -f "$T/before" "$T/after" | head -n 5)
[ -z "$new" ] && ok "nothing written outside the output directory" || not_ok "written outside: $new"
leak=$(ls -d /tmp/abs-*-$$* /tmp/escaped-* 2>/dev/null)
[ -z "$leak" ] && ok "nothing written under /tmp by absolute names" || not_ok "written: $leak"
bad=$(cd "$T/a/b/c/out" 2>/dev/null && find . -name '*..*' | head -n 3)
[ -z "$bad" ] && ok "no '..' in output file names" || not_ok "names: $bad"
# the same with the default output directory (SET/report/)
(cd "$T" && find . | sort) >"$T/before"
"$IOMATRIX" report "$S" --charts "$charts" >"$T/out.txt" 2>"$T/err.txt"
rc=$?
[ $rc = 0 ] && [ -d "$T/a/b/c/set/report" ] && ok "default -o: exit 0 into SET/report" \
	|| not_ok "default -o: exit $rc: $(tail -n 3 "$T/err.txt")"
(cd "$T" && find . | sort) | grep -v '^\./a/b/c/set/report' | grep -v -e '^\./out\.txt$' -e '^\./err\.txt$' -e '^\./before$' -e '^\./after$' >"$T/after"
new=$(grep -vxF -f "$T/before" "$T/after" | head -n 5)
[ -z "$new" ] && ok "default output: nothing written outside SET/report" || not_ok "written outside: $new"
tap_end
