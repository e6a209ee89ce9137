#!/bin/sh
# history and the site print the report's one latency: the mean of every
# IO of every repetition (summary.lat_ns_merged), not the mean of the
# per-repetition means.  A cell whose three repetitions made 1,000, 1,000
# and 8,000 IOs at 100, 200 and 300 µs has a mean of 270 µs over its IOs;
# the per-repetition means average 200 µs.  Where the two agree (the other
# set, as the generator writes it: its merged mean is the mean of its
# repetitions' means) history prints that one number.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_archive.py" "$T/arc" --sets 2 --cells 1 --seed 3 ||
	fail "generator failed"
S1=2026-01-01T030000Z_nightly_synthhost
python3 - "$T/arc/$S1/cells/0001.json" <<'PY' || fail "patch failed"
import json, sys
p = sys.argv[1]
c = json.load(open(p))
ios, lat = [1000, 1000, 8000], [100e3, 200e3, 300e3]
bs = c["params"]["bs_bytes"]
for r, n, l in zip(c["repetitions"], ios, lat):
    # the repetition's counts agree: histogram, series and bytes hold n IOs
    d = r["read"]
    d["ios"], d["bytes"], d["lat_ns"]["mean"] = n, n * bs, l
    d["hist"]["buckets"] = [[d["hist"]["buckets"][0][0], n]]
    k = len(d["series"]["ios"])
    d["series"]["ios"] = [n // k + (1 if i < n % k else 0) for i in range(k)]
    d["series"]["bytes"] = [v * bs for v in d["series"]["ios"]]
c["summary"]["read"]["lat_mean_ns"].update(mean=200e3, stddev=100e3, min=100e3, max=300e3,
                                            cv=0.5, ci95=248433.0)
c["summary"]["lat_ns_merged"]["read"]["mean"] = sum(n * l for n, l in zip(ios, lat)) / sum(ios)
json.dump(c, open(p, "w"))
PY
expect_exit 0 "$IOMATRIX" history "$T/arc" --metric lat_mean --format csv
v=$(awk -F, -v s="$S1" '$5 == s { print $7 }' "$T/out")
case $v in 270|270.0*) ok "history csv: 270 µs, the mean of all IOs" ;;
	*) not_ok "history csv: '$v' (200 would be the mean of per-repetition means)" ;; esac
other=$(awk -F, -v s="$S1" 'NR > 1 && $5 != s { print int($7 + 0.5) }' "$T/out")
want=$(python3 -c "import json,sys; print(int(json.load(open(sys.argv[1]))['summary']['lat_ns_merged']['read']['mean'] / 1e3 + 0.5))" \
	"$T/arc/2026-01-02T030000Z_nightly_synthhost/cells/0001.json")
[ -n "$other" ] && [ "$other" = "$want" ] && ok "where both agree: $want µs" ||
	not_ok "other set: '$other' vs '$want'"
expect_exit 0 "$IOMATRIX" history "$T/arc" --metric lat_mean
grep "2026-01-01 03:00" "$T/out" | grep -q " 270 " && ok "history text: 270" ||
	not_ok "history text: $(grep "2026-01-01 03:00" "$T/out")"
# the archive's index keeps the same number for the set (history's and the
# site's record of it): history and query read it there
expect_exit 0 "$IOMATRIX" index "$T/arc"
expect_exit 0 "$IOMATRIX" query "SELECT m.mean FROM cell_metrics m JOIN sets s USING (set_id)
	WHERE s.name = '$S1' AND m.metric = 'lat_mean'" --archive "$T/arc" --format csv
[ "$(tail -n 1 "$T/out")" = 270 ] && ok "index: the set's latency is 270 µs" || not_ok "index: $(cat "$T/out")"
# the report of the set says the same
expect_exit 0 "$IOMATRIX" report "$T/arc/$S1" -o "$T/rep" --format csv --charts none
grep -q "270000" "$T/rep/report.csv" && ok "report csv: the same 270 µs" || not_ok "report csv"
tap_end
