#!/bin/sh
# The HTML report's contents bar links every section the page has
# (the QoS and PTS sections had no link): "Latency under load" for a set
# with a load sweep, "Steady state" for one with SNIA PTS rounds, each
# pointing at one element with that id; a set with neither has neither
# link; every link of the bar has its target exactly once.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
check_links() { # HTML: every nav href has exactly one id
	python3 - "$1" <<'EOP'
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
nav = re.search(r"<nav>(.*?)</nav>", h, re.S).group(1)
bad = [a for a in re.findall(r'href="#([^"]+)"', nav) if len(re.findall(r'id="%s"' % re.escape(a), h)) != 1]
print(" ".join(bad))
sys.exit(1 if bad else 0)
EOP
}
nav() { sed -n 's/.*<nav>\(.*\)<\/nav>.*/\1/p' "$1"; }
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/q" --devices hdd:hdd,ssd:ssd --cells 2 \
	--sweep --qos-ms 50 >/dev/null || fail "gen"
expect_exit 0 "$IOMATRIX" report "$T/q" -o "$T/qrep" --baseline hdd --charts none --format html
nav "$T/qrep/report.html" | grep -q '<a href="#qos">Latency under load</a>' && ok "QoS: linked" ||
	not_ok "nav: $(nav "$T/qrep/report.html")"
bad=$(check_links "$T/qrep/report.html") && ok "QoS: every link has one target" || not_ok "no single target: $bad"
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
cp -r "$SRC" "$T/s" && rm -f "$T/s/SHA256SUMS" || fail "copy"
python3 "$ROOT/tests/report/gen_steady.py" "$T/s" disk --max 8 --track RW=100,300,50,400,60,100,250,40 || fail "gen_steady"
expect_exit 0 "$IOMATRIX" report "$T/s" -o "$T/srep" --charts none --format html
nav "$T/srep/report.html" | grep -q '<a href="#steady">Steady state</a>' && ok "rounds: steady state linked" ||
	not_ok "nav: $(nav "$T/srep/report.html")"
bad=$(check_links "$T/srep/report.html") && ok "rounds: every link has one target" || not_ok "no single target: $bad"
# neither: no such links
expect_exit 0 "$IOMATRIX" report "$SRC" -o "$T/prep" --charts none --format html
nav "$T/prep/report.html" | grep -q '#qos\|#steady\|#pts\|#preconditioning' &&
	not_ok "links to absent sections: $(nav "$T/prep/report.html")" || ok "plain set: no QoS or PTS links"
bad=$(check_links "$T/prep/report.html") && ok "plain set: every link has one target" || not_ok "no single target: $bad"
tap_end
