#!/bin/sh
# A string from a set reaches a terminal only through
# termesc and a CSV cell only through the CSV escaper.  Every string of a
# set (device, host, suite title and description, label, fingerprint,
# warnings, error texts, the set's own directory name, the fleet's ranks)
# is given ESC ] 2 ; ... BEL ESC [ 2 J, then every command that reads a set
# runs on it: no ESC or BEL byte may be in its stdout, its stderr or any
# text file it writes.  report printed its summary raw ("The best means of
# d<ESC>]2;..."), report.csv and history --format csv held the names raw,
# fio-commands.txt quoted them raw, validate/plan/export and run --resume
# echoed the suite's device name and the set's host raw.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-esc
title: "T\e]2;owned\a\e[2J"
description: "D\e]2;owned\a"
defaults: {engine: null, size: 1MiB, runtime: 50ms}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
include:
  - {pattern: read, bs: 8k}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/clean"
# hostile.py SET [devices]: every free-text string of the set gets the
# escape; with 'devices', device and host names too (the suite's device
# names then no longer load: the loaders' errors are checked as well)
cat >"$T/hostile.py" <<'P'
import hashlib, json, os, sys
d, names = sys.argv[1], len(sys.argv) > 2
E = "\x1b]2;owned\x07\x1b[2J"
TEXT = {"hostname", "kernel", "kernel_version", "os", "cpu_model", "governor",
        "virtualization", "container", "title", "description", "model",
        "vendor", "firmware", "scheduler", "mount_options", "fs_type",
        "block_device", "disk", "write_cache", "mount_source", "label",
        "compiler", "implementation", "error", "path", "warnings"}
ren = {}
# spreadsheet formulas in front of the texts of the set without hostile names
FORMULA = {} if names else {"error": "=1+1", "hostname": "@SUM(A1)", "label": "+cmd",
                            "path": " =1", "fs_type": "-2+3"}
def load(f): return json.load(open(os.path.join(d, f)))
m = load("manifest.json")
if names:
    for x in m["devices"]: ren[x["name"]] = x["name"] + E
    for h in (m.get("fleet") or {}).get("hosts", []): ren[h["name"]] = h["name"] + E
def walk(v, key=None):
    if isinstance(v, dict): return {k: walk(x, k) for k, x in v.items()}
    if isinstance(v, list): return [walk(x, key) for x in v]
    if isinstance(v, str):
        if v in ren and key in ("name", "device", "host"): return ren[v]
        if key in TEXT: return FORMULA.get(key, "") + v + E
    return v
m = walk(m)
files = {"manifest.json": m, "plan.json": walk(load("plan.json"))}
for f in sorted(os.listdir(os.path.join(d, "cells"))):
    c = walk(load("cells/" + f))
    c.setdefault("warnings", []).append("w" + E)
    if c["id"] == 1:
        c["status"], c["error"] = "failed", "e" + E
    files["cells/" + f] = c
s = open(os.path.join(d, "suite.yaml")).read()
for old, new in ren.items():
    s = s.replace("name: %s," % old, 'name: "%s",' % new.replace("\x1b", "\\e").replace("\x07", "\\a"))
sha = hashlib.sha256(s.encode()).hexdigest()
open(os.path.join(d, "suite.yaml"), "w").write(s)
m["suite"]["sha256"] = files["plan.json"]["sha256"] = sha
for f, v in files.items():
    open(os.path.join(d, f), "w").write(json.dumps(v, indent=1))
lines = []
for root, _, fs in os.walk(d):
    for f in fs:
        p = os.path.join(root, f); rel = os.path.relpath(p, d)
        if rel != "SHA256SUMS":
            lines.append("%s  %s\n" % (hashlib.sha256(open(p, "rb").read()).hexdigest(), rel))
open(os.path.join(d, "SHA256SUMS"), "w").write("".join(sorted(lines)))
P
E=$(printf 'S\033]2;owned\007')
mkdir -p "$T/arch" "$T/o"
cp -r "$T/clean" "$T/arch/$E"
python3 "$T/hostile.py" "$T/arch/$E" devices || fail "hostile set"
cp -r "$T/clean" "$T/arch/texts"
python3 "$T/hostile.py" "$T/arch/texts" || fail "hostile set"
H=$T/arch/$E
cp -r "$H" "$T/copy"
if command -v mpirun >/dev/null 2>&1 && [ -x "$(dirname "$IOMATRIX")/iomatrix-mpi" ]; then
	. "$ROOT/tests/mpi_lib.sh"
	mpi_start
	mpi_run -np 2 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --quiet \
		--out "$T/arch/fleet" >"$T/o/mpi.out" 2>&1 || fail "mpi run: $(cat "$T/o/mpi.out")"
	python3 "$T/hostile.py" "$T/arch/fleet" devices || fail "hostile fleet set"
fi
n=0
c() {  # c CMD...: run one command; its stdout and stderr are kept
	n=$((n + 1))
	(cd "$T/o" && "$IOMATRIX" "$@") >"$T/o/$n.stdout" 2>"$T/o/$n.stderr"
	echo "$n: $*" >>"$T/cmds"
}
c run "$T/s.yaml" --out "$T/o/run"
for S in "$H" "$T/arch/texts" "$T/arch/fleet"; do
	[ -d "$S" ] || continue
	c verify "$S"
	c report "$S" -o "$T/o/rep$n"
	c report "$S" --format md,html,csv,json
	c compare "$S" "$T/copy" -o "$T/o/cmp$n"
	c compare "$T/copy" "$S"
	c pack "$S" -o "$T/o/p$n.tar.gz" --with-report
	c reproduce "$S"
	c reproduce "$S" --device d=$T/scratch --out "$T/o/repro$n"
	c run --resume "$S"
	c validate "$S/suite.yaml"
	c plan "$S/suite.yaml"
	c export fio "$S/suite.yaml" -o "$T/o/exp$n"
done
# imports: the input's names are someone else's too
python3 - "$ROOT/tests/data/fio/randread-4k-qd16.json" "$T" <<'P'
import json, sys
E = "\x1b]2;owned\x07\x1b[2J"
j = json.load(open(sys.argv[1]))
j["jobs"][0]["jobname"] = "job" + E
j["jobs"][0]["job options"]["filename"] = "/dev/x" + E
j["fio version"] = "fio-3.33" + E
for du in j.get("disk_util", []): du["name"] = "vda" + E
json.dump(j, open(sys.argv[2] + "/fio.json", "w"))
open(sys.argv[2] + "/pub.csv", "w").write(
    'device,pattern,bs,iops,lat_ms,mib_s\n"d%s",rndrd,4k,100,1,0.4\n"=1+2",rndrd,4k,100,1,0.4\n' % E)
P
c import fio "$T/fio.json" -o "$T/arch/ifio"
c import csv "$T/pub.csv" -o "$T/arch/icsv"
c report "$T/arch/ifio" -o "$T/o/repifio"
c report "$T/arch/icsv" -o "$T/o/repicsv"
c list "$T/arch"
c history "$T/arch"
c history "$T/arch" --format csv
c history "$T/arch" --format json
c site "$T/arch" -o "$T/o/site"
c verify "$T/arch"
# every text file written, every stdout and stderr: no ESC, no BEL
bad=$(find "$T/o" "$T/arch" -type f ! -name '*.png' ! -name '*.tar.gz' \
	-exec grep -laP '\x1b|\x07' {} + 2>/dev/null | sed "s|$T/||")
[ -z "$bad" ] && ok "$n commands: no ESC or BEL in any output or file" ||
	not_ok "ESC or BEL in: $(echo "$bad" | head -20) (commands: $(cat "$T/cmds"))"
# the escaped forms are there: the strings were shown, as text
grep -qF 'The best means of d\e]2;owned\x07\e[2J were' "$T"/o/*.stdout &&
	ok "report prints the device name in its summary as text" ||
	not_ok "report: $(grep -h "best means" "$T"/o/*.stdout | cat -A)"
grep -lF "T\\e]2;owned\\x07" "$T"/o/*.stdout >/dev/null &&
	ok "a title is shown as text" || not_ok "no title shown escaped"
# CSV: one row per line, every cell that starts like a formula is text
for f in "$T"/o/rep*/report.csv; do
	python3 - "$f" <<'P' || not_ok "$f: $(head -3 "$f")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = [c for r in rows for c in r if c.lstrip()[:1] in ("=", "+", "@") or
       (c[:1] == "-" and not c[1:2].isdigit())]
sys.exit(1 if bad else 0)
P
done
ok "report.csv: no cell starts a formula"
tap_end
