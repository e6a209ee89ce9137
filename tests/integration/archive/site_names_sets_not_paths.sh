#!/bin/sh
# A published site names each set by its folder in the archive, never by
# the path of the machine that built it: an archive under an absolute
# path holds a synthetic set (its page warns "NAME holds SYNTHETIC
# numbers"), a measured set, and a set whose cell was edited after its run
# (it fails verification); after `site`, no page, CSV or data file of the
# site carries that path, the synthetic set's Method line, warning and
# CSV name it "syn".  The silent side: `report` of the same set still
# names it as given on its command line, as it always did.  (On the code
# before: the site's set pages showed "/tmp/.../arc/syn" in each.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/arc" "$T/scratch"
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/arc/syn" --devices ssd:ssd --cells 2 \
	--started 2026-11-01T00:00:00Z >/dev/null || fail "generator"
cat >"$T/s.yaml" <<Y
suite: t-names
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
# run from $T: the command line each manifest records (and the Method
# shows, as the record of what was run) names arc/NAME
for n in ran edited; do
	(cd "$T" && "$IOMATRIX" run s.yaml --quiet --out "arc/$n" >/dev/null 2>&1) || fail "run $n"
done
sed -i 's/"iops"/"iops" /' "$T/arc/edited/cells/0001.json"
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site"
# (the measured set's device path, $T/scratch, is what it measured: shown)
leak=$(grep -rlF "$T/arc" "$T/site")
[ -z "$leak" ] && ok "no file of the site names the archive's path" ||
	not_ok "the path $T/arc is in: $(echo $leak)"
page=$T/site/sets/syn/report.html
[ -s "$page" ] || fail "no page for the synthetic set"
grep -q '<code class="path">syn</code>' "$page" && ok "the Method line names the set 'syn'" ||
	not_ok "Method: $(grep -o '<code class="path">[^<]*' "$page")"
grep -q '<li>syn holds SYNTHETIC numbers' "$page" && ok "the warning names it 'syn'" ||
	not_ok "warnings: $(grep -o '<li>[^<]*SYNTHETIC' "$page")"
[ "$(sed -n 2p "$T/site/sets/syn/report.csv" | cut -d, -f1)" = syn ] && ok "the CSV's set column is 'syn'" ||
	not_ok "CSV: $(sed -n 2p "$T/site/sets/syn/report.csv" | cut -c1-60)"
ls "$T/site/sets" | grep -q '^edited' && ok "the edited set has a page" || not_ok "sets: $(ls "$T/site/sets")"

# report names a set as given, as before
expect_exit 0 "$IOMATRIX" report "$T/arc/syn" --format md --charts none -o "$T/rep"
grep -qF "$T/arc/syn holds SYNTHETIC" "$T/rep/report.md" && ok "report still names the set by the path it was given" ||
	not_ok "report: $(grep -o '[^ ]* holds SYNTHETIC' "$T/rep/report.md")"
tap_end
