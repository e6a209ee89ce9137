#!/bin/sh
# Truncated, corrupt, empty and newer-schema cell files, a corrupt manifest,
# a path-traversal cell name and a symlinked cell: each is a warning naming
# the file, the rest is reported (exit 0).  An empty set exits 2.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" || fail "generator failed"; }

S="$T/set"
gen "$S" --devices hdd:hdd,ssd:ssd --cells 5
head -c 300 "$S/cells/0002.json" >"$T/x" && mv "$T/x" "$S/cells/0002.json"   # truncated
printf '{"schema_version": 1, "id": 3, ]]]' >"$S/cells/0003.json"             # corrupt
: >"$S/cells/0004.json"                                                       # empty
sed 's/"schema_version": 1/"schema_version": 99/' "$S/cells/0005.json" >"$T/x" && mv "$T/x" "$S/cells/0005.json"
# a hostile manifest entry, and a cell that is a symlink to a file outside
echo 'secret-outside' >"$T/outside.json"
python3 - "$S/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["cells"][0]["file"] = "../../../../etc/passwd"
m["cells"].append({"id": 999, "file": "../../outside.json", "device": "hdd", "status": "ok"})
m["cells"].append({"id": "../x", "file": "cells/../../x", "device": "hdd", "status": "ok"})
json.dump(m, open(sys.argv[1], "w"))
PY
ln -s "$T/outside.json" "$S/cells/0999.json"

expect_exit 0 "$IOMATRIX" report "$S" --charts none
for f in cells/0002.json cells/0003.json cells/0004.json cells/0005.json; do
	grep -q "'$f'" "$T/err" && ok "warning names $f" || not_ok "no warning for $f"
done
grep -q "truncated" "$T/err" && ok "truncation said" || not_ok "truncation not said"
grep -q "schema_version 99" "$T/err" && ok "newer schema said" || not_ok "newer schema not said"
grep -q "'../../../../etc/passwd'" "$T/err" && ok "traversal name warned" || not_ok "traversal not warned"
grep -q "cells/0999.json.*symbolic link" "$T/err" && ok "symlinked cell refused" || not_ok "symlink not refused"
grep -q "secret-outside\|root:x:" "$S/report/report.md" "$S/report/report.csv" \
	&& not_ok "read outside the set" || ok "nothing read outside the set"
[ ! -e "$T/x" ] && ok "nothing written outside the set" || not_ok "wrote outside"
grep -q "cells/0003.json" "$S/report/report.md" && ok "warnings section names the file" \
	|| not_ok "warnings section"
grep -q '^### ' "$S/report/report.md" && ok "the rest is reported" || not_ok "no results"

# an oversized cell file (sparse: no disk used) is refused before reading
S6="$T/set6"
gen "$S6" --cells 3
truncate -s 65M "$S6/cells/0002.json"
expect_exit 0 "$IOMATRIX" report "$S6" --charts none
grep -q "'cells/0002.json' is larger than 64 MiB" "$T/err" && ok "oversized cell refused" \
	|| not_ok "oversized: $(cat "$T/err")"

# corrupt manifest: cells are read directly
S2="$T/set2"
gen "$S2" --cells 2
printf '{"schema_version": 1, "status": "comp' >"$S2/manifest.json"
expect_exit 0 "$IOMATRIX" report "$S2" --charts none
grep -q "'manifest.json'" "$T/err" && ok "corrupt manifest warned" || not_ok "manifest warning"
grep -q '^### ' "$S2/report/report.md" && ok "cells reported without manifest" || not_ok "no cells"

# newer-schema manifest
S3="$T/set3"
gen "$S3" --cells 2
sed 's/"schema_version": 1/"schema_version": 7/' "$S3/manifest.json" >"$T/m" && mv "$T/m" "$S3/manifest.json"
expect_exit 0 "$IOMATRIX" report "$S3" --charts none
grep -q "schema_version 7" "$T/err" && ok "newer manifest warned" || not_ok "newer manifest"

# empty set, and a directory that is no set
S4="$T/set4"
gen "$S4" --cells 2
rm -f "$S4"/cells/*.json
expect_exit 2 "$IOMATRIX" report "$S4" --charts none
grep -q "no readable cell" "$T/err" && ok "empty set exits 2 with a message" || not_ok "empty set message"
mkdir "$T/nothing"
expect_exit 2 "$IOMATRIX" report "$T/nothing" --charts none
grep -q "not a result set" "$T/err" && ok "non-set exits 2" || not_ok "non-set message"
expect_exit 2 "$IOMATRIX" report "$T/missing" --charts none
ok "missing dir exits 2"

# interrupted set: finished cells reported, partial note
S5="$T/set5"
gen "$S5" --cells 4 --status interrupted --missing 3
expect_exit 0 "$IOMATRIX" report "$S5" --charts none
grep -q 'Partial report' "$S5/report/report.md" && ok "interrupted set says partial" || not_ok "partial note"
grep -q 'interrupted: only 5 of 8 cells' "$S5/report/report.md" && ok "cells done/total said" \
	|| not_ok "done/total"
tap_end
