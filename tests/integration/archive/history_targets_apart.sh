#!/bin/sh
# history and site keep distinct targets distinct.  Two
# devices of one suite, a (dir1) and b (dir2), on one disk: each is a series
# of its own with one point a set, and the site counts two devices (the old
# identity, host + model + serial, made them one series 'vm · b' with two
# points a set and '2 sets, 1 device').  The other side: one device across
# two sets stays one series.  And one rule for which sets count: a set under
# examples/ or reference/ of the archive is the repository's own, left out
# by list, history and site alike (each says so), counted with --all, and
# counted when its directory is named itself.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/d1" "$T/d2" "$T/arc/examples"
cat >"$T/two.yaml" <<EOS
suite: twodirs
defaults: {engine: null, size: 4MiB, runtime: 50ms}
devices:
  - {name: a, path: $T/d1}
  - {name: b, path: $T/d2}
matrix:
  pattern: [randread]
EOS
for s in s1 s2; do
	expect_exit 0 "$IOMATRIX" run "$T/two.yaml" --out "$T/arc/$s" --quiet
done
expect_exit 0 "$IOMATRIX" history "$T/arc" --format json
python3 - "$T/out" >"$T/v" <<'EOP'
import json, sys
j = json.load(open(sys.argv[1]))
ser = j["series"]
for s in ser:
    print("# %s %s: %s" % (s["device"], s["workload"], [p["set"] for p in s["points"]]))
print("series %d" % len(ser))
print("onepointaset %d" % all(sorted(p["set"] for p in s["points"]) == ["s1", "s2"] for s in ser))
print("devices %s" % ",".join(sorted(s["device"] for s in ser)))
EOP
grep '^#' "$T/v"
grep -q '^series 2$' "$T/v" && grep -q '^devices a,b$' "$T/v" \
	&& ok "two targets of one set on one disk: two series" || not_ok "series: $(cat "$T/v")"
grep -q '^onepointaset 1$' "$T/v" && ok "one device across two sets: one series, one point a set" \
	|| not_ok "points: $(cat "$T/v")"
grep -q "left out" "$T/err" && not_ok "history says it left sets out when none were: $(cat "$T/err")" \
	|| ok "no example set: history says nothing of leaving any out"
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site" --charts none
grep -q "2 sets, 2 devices" "$T/site/index.html" && ok "site: 2 sets, 2 devices" \
	|| not_ok "site: $(grep -o '[0-9]* sets\?, [0-9]* devices\?' "$T/site/index.html")"

# which sets count: one rule for list, history and site
expect_exit 0 "$IOMATRIX" run "$T/two.yaml" --out "$T/arc/examples/ex" --quiet
IOMATRIX_RESULTS="$T/arc" expect_exit 0 "$IOMATRIX" list
grep -c "twodirs" "$T/out" | grep -q '^2$' && ok "list: the example set left out" || not_ok "list: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" history "$T/arc"
grep -q "^history: 2 sets," "$T/out" && ok "history: the example set left out, as list" \
	|| not_ok "history: $(head -1 "$T/out")"
grep -q "1 example and reference set of this repository left out (--all counts them)" "$T/err" \
	&& ok "history says what it left out" || not_ok "history stderr: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" history "$T/arc" --all
grep -q "^history: 3 sets," "$T/out" && ok "history --all counts it" || not_ok "history --all: $(head -1 "$T/out")"
expect_exit 0 "$IOMATRIX" history "$T/arc/examples"
grep -q "^history: 1 set," "$T/out" && ok "a directory named itself counts" || not_ok "named: $(head -1 "$T/out")"
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site2" --charts none
grep -q "2 sets, 2 devices" "$T/site2/index.html" && ok "site: the example set left out, as list" \
	|| not_ok "site: $(grep -o '[0-9]* sets\?, [0-9]* devices\?' "$T/site2/index.html")"
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site3" --charts none --all
grep -q "3 sets, 2 devices" "$T/site3/index.html" && ok "site --all counts it" \
	|| not_ok "site --all: $(grep -o '[0-9]* sets\?, [0-9]* devices\?' "$T/site3/index.html")"
tap_end
