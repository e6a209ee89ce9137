#!/bin/sh
# A workload's name says what a reader tells it by: zone reads that differ
# only in offset are named by their offsets (0 % included), a latency cell
# that differs only in runtime by its runtime, and the stop rule is never
# named where it is not what differs: not "1s run, 51M io" on a zone read
# (the example report's headings), not on a sustained write whose queue
# depth already sets it apart, not on the plain CrystalDiskMark cell.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<EOS
suite: names
defaults: {engine: "null", size: 64MiB, runtime: 100ms}
devices:
  - {name: hdd, path: $T/a}
  - {name: ssd, path: $T/b}
include:
  - {pattern: read, bs: 1m, iodepth: 8}
  - {label: "ZONE 0% SEQ1M Q8T1", pattern: read, bs: 1m, iodepth: 8, offset: 0, io_size: 2m}
  - {label: "ZONE 50% SEQ1M Q8T1", pattern: read, bs: 1m, iodepth: 8, offset: 50%, io_size: 2m}
  - {label: "ZONE 75% SEQ1M Q8T1", pattern: read, bs: 1m, iodepth: 8, offset: 75%, io_size: 2m}
  - {pattern: randread, bs: 4k, iodepth: 1}
  - {label: "LAT RND4K Q1T1", pattern: randread, bs: 4k, iodepth: 1, runtime: 300ms}
  - {pattern: write, bs: 1m, iodepth: 8}
  - {label: "SUSTAINED SEQ1M Q32T1", pattern: write, bs: 1m, iodepth: 32, runtime: 300ms}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/run" --quiet
expect_exit 0 "$IOMATRIX" report "$T/run" -o "$T/r" --charts none --format md,json
H=$(grep '^### ' "$T/r/report.md")
has() { echo "$H" | grep -qxF "### $1" && ok "$2" || not_ok "$2: no '### $1' in: $H"; }
has '1M sequential read, QD8, offset 0% (ZONE 0% SEQ1M Q8T1)' "zone 0 % named by its offset"
has '1M sequential read, QD8, offset 50% (ZONE 50% SEQ1M Q8T1)' "zone 50 % named by its offset"
has '1M sequential read, QD8, offset 75% (ZONE 75% SEQ1M Q8T1)' "zone 75 % named by its offset"
has '4K random read, QD1, 300ms run (LAT RND4K Q1T1)' "the latency cell named by its runtime"
# the silent side: the usual cell keeps its plain name, and no stop rule
# is said where something else already tells the workloads apart
has '1M sequential read, QD8 (SEQ1M Q8T1)' "plain CrystalDiskMark read: no offset, no stop rule"
has '4K random read, QD1 (RND4K Q1T1)' "plain 4K QD1 read: no runtime"
has '1M sequential write, QD32 (SUSTAINED SEQ1M Q32T1)' "sustained write: its queue depth sets it apart"
echo "$H" | grep -q ' io\b\|2M io' && not_ok "a size named: $(echo "$H" | grep ' io')" \
	|| ok "no title names the bytes read"
n=$(echo "$H" | sort | uniq -d | wc -l)
[ "$n" = 0 ] && ok "every heading unique" || not_ok "$n repeated headings"
# the sentences' words are unique too: every group title in report.json
python3 - "$T/r/report.json" <<'PY' && ok "report.json titles unique" || not_ok "report.json titles repeat"
import json, sys
t = [g["title"] for g in json.load(open(sys.argv[1]))["groups"]]
sys.exit(0 if len(t) == len(set(t)) == 8 else 1)
PY
tap_end
