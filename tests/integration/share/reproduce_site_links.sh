#!/bin/sh
# The site links an original set to its reproductions, each with its
# verdict, and each reproduction back to its original.  Reproductions are
# made by hand here (a copy of the set whose manifest records "reproduces"),
# so the verdicts are exact: the identical copy is "reproduced", the copy
# with every repetition's IOPS halved is "1 slower" and never "reproduced";
# a copy whose recorded manifest sha256 is wrong is linked to nothing; a
# copy changed after its SHA256SUMS was written is linked but not judged
# (the site never publishes numbers of a set that fails verification); the
# row of a set without reproductions says nothing of reproduction.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/d" "$T/arch"
cat >"$T/s.yaml" <<EOS
suite: repro-site
defaults: {engine: "null", size: 1m, requests: 200, iodepth: 64, repeat: 3}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
. "$ROOT/tests/repro_lib.sh" # steady(), resum(): a steady original by hand
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/arch/orig" --quiet
steady "$T/arch/orig" 0001
cp -r "$T/arch/orig" "$T/arch/plain" # a set that nobody reproduces
sha=$(sha256sum "$T/arch/orig/manifest.json" | cut -d' ' -f1)
mkrep() { # name sha jq-filter-on-the-cell
	cp -r "$T/arch/orig" "$T/arch/$1"
	jq --arg s "$2" '.reproduces = {set: "orig", manifest_sha256: $s, path: "orig", tolerance_pct: 10}
		| .started_at = "2099-01-01T00:00:00Z"' "$T/arch/orig/manifest.json" >"$T/arch/$1/manifest.json"
	jq "$JQ_AGREE $3 | resummary" "$T/arch/orig/cells/0001.json" >"$T/arch/$1/cells/0001.json"
	[ "${4:-}" = tampered ] && return
	resum "$T/arch/$1" # signed as a run would have
}
mkrep same "$sha" .
mkrep half "$sha" '.repetitions[].read |= rates(0.5)'
mkrep wrong 0000000000000000000000000000000000000000000000000000000000000000 .
mkrep tampered "$sha" '.repetitions[].read |= rates(0.5)' tampered
expect_exit 0 "$IOMATRIX" site "$T/arch" -o "$T/site"
idx=$T/site/index.html
grep -q 'reproduced by <a href="sets/same/report.html">same</a>: reproduced within ±10 %' "$idx" &&
	grep -q 'reproduces <a href="sets/orig/report.html">orig</a>: reproduced within ±10 %' "$idx" &&
	ok "identical reproduction: linked both ways, reproduced" || not_ok "same: $(grep -o 'repro[^<]*<a[^<]*</a>[^<]*' "$idx")"
grep -q 'reproduced by <a href="sets/half/report.html">half</a>: not reproduced within ±10 %: 1 slower' "$idx" &&
	ok "halved IOPS: not reproduced, 1 slower" || not_ok "half: $(grep -o 'repro[^<]*<a[^<]*</a>[^<]*' "$idx")"
grep -q 'half</a>: reproduced' "$idx" && not_ok "halved IOPS called reproduced" || ok "halved IOPS never 'reproduced'"
grep -q 'wrong</a>' "$idx" && grep -o 'reproduc[^<]*<a href="sets/wrong' "$idx" | grep -q . &&
	not_ok "a wrong manifest sha256 is linked" || ok "a wrong manifest sha256 links nothing"
grep -q 'reproduced by <a href="sets/tampered/report.html">tampered</a>: not judged: tampered fails verification' "$idx" &&
	ok "a reproduction failing verification: linked, not judged" ||
	not_ok "tampered: $(grep -o 'repro[^<]*<a[^<]*</a>[^<]*' "$idx")"
row=$(grep 'sets/plain/report.html' "$idx")
[ -n "$row" ] && ! echo "$row" | grep -q reproduc && ok "a set without reproductions: silent" ||
	not_ok "plain row: $row"
tap_end
