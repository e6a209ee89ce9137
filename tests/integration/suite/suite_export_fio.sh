#!/bin/sh
# `export fio` writes one job file per cell of every suite in suites/ and a
# run-all.sh; fio accepts every job file (fio --parse-only); the file names
# and contents follow the cell (rw, bs, iodepth, numjobs, runtime, the
# runner's file names).  One tiny job really runs when fio is there.
. "$(dirname "$0")/../../lib.sh"
need_cmd fio
cd "$ROOT" || fail "no root"
export IOMATRIX_IO_SIZE=1m
exported=""
for f in suites/*.yaml; do
	n=$(basename "$f" .yaml)
	# the SSD suites name /dev/nvme0n1: where it is missing validate warns
	# (exit 0) and counts the cells all the same
	"$IOMATRIX" validate "$f" >"$T/vout" 2>/dev/null || { not_ok "$n does not validate"; continue; }
	cells=$(sed 's/.*ok, \([0-9]*\) cell.*/\1/' "$T/vout")
	"$IOMATRIX" export fio "$f" -o "$T/$n" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 0 ] || { not_ok "$n: export exit $rc: $(head -n 3 "$T/err")"; continue; }
	got=$(ls "$T/$n"/[0-9]*.fio | wc -l) # pre-*.fio: preconditioning
	[ "$got" = "$cells" ] && ok "$n: $got job files for $cells cells" || not_ok "$n: $got job files, $cells cells"
	[ -x "$T/$n/run-all.sh" ] && sh -n "$T/$n/run-all.sh" && ok "$n: run-all.sh is a shell script" || not_ok "$n: run-all.sh"
	exported="$exported $n"
done
# fio accepts every job of every suite: one fio for all of them (a fio per
# suite cost a second), suite by suite and then file by file only to name
# the culprit.  A job writing more than a device (io_size over 100 %) takes
# its bytes from IOMATRIX_IO_SIZE, which run-all.sh sets.
all_ok=0
# shellcheck disable=SC2086
fio --parse-only $(for n in $exported; do echo "$T/$n"/*.fio; done) >"$T/fio.out" 2>&1 && all_ok=1
for n in $exported; do
	bad=0
	if [ $all_ok = 0 ] && ! fio --parse-only "$T/$n"/*.fio >"$T/fio.out" 2>&1; then
		for j in "$T/$n"/*.fio; do
			fio --parse-only "$j" >"$T/fio.out" 2>&1 || { bad=1; echo "# $j: $(head -n 3 "$T/fio.out")"; }
		done
	fi
	[ $bad = 0 ] && ok "$n: fio --parse-only accepts every job" || not_ok "$n: fio refused a job"
done
# contents follow the cell
j=$(ls "$T/quick"/0003-*.fio)
case "$j" in *0003-scratch-rnd4k-q32t1-randread.fio) ok "file name from id, device, label, pattern" ;; *) not_ok "name: $j" ;; esac
for line in rw=randread bs=4096 iodepth=32 numjobs=1 ioengine=libaio direct=1 \
	time_based=1 runtime=3000ms filename=./iomatrix-scratch filesize=268435456; do
	grep -qxF -- "$line" "$j" && ok "quick cell 3 has $line" || not_ok "quick cell 3 lacks $line"
done
grep -q 'rw=randrw' "$T/hdd-vs-ssd"/*r70*.fio && grep -q 'rwmixread=70' "$T/hdd-vs-ssd"/*r70*.fio \
	&& ok "mixed cell has rwmixread" || not_ok "mixed cell"
grep -q '^fsync=1$' "$T/hdd-vs-ssd"/*sync4k*.fio && grep -q '^ioengine=psync$' "$T/hdd-vs-ssd"/*sync4k*.fio \
	&& ok "sync-write cell has fsync=1, psync" || not_ok "sync-write cell"
grep -q '^offset=95%$' "$T/hdd-vs-ssd"/*zone-95*.fio && ok "zone cell has offset=95%" || not_ok "zone offset"
j=$(ls "$T/hdd-vs-ssd"/0001-*.fio)
grep -qxF 'filename=/mnt/hdd/iomatrix.hdd.0' "$j" \
	&& ok "a directory device gives directory= and the runner's file names" || not_ok "directory device: $(grep -e directory -e filename "$j")"

# a tiny suite really runs under fio, on the files the runner would use
mkdir -p "$T/dev"
cat >"$T/tiny.yaml" <<YAML
suite: tiny
defaults: {size: 1m, runtime: 200ms, engine: psync, direct: false}
devices:
  - {name: t, path: "$T/dev"}
matrix:
  pattern: [seqrd, rndwr]
  bs: 4k
YAML
"$IOMATRIX" export fio "$T/tiny.yaml" -o "$T/tinyfio" >/dev/null 2>&1 || fail "export tiny"
grep -qxF 'rw=read' "$T/tinyfio"/0001-*.fio && grep -qxF 'rw=randwrite' "$T/tinyfio"/0002-*.fio \
	&& ok "sysbench aliases become fio rw names" || not_ok "aliases"
if sh "$T/tinyfio/run-all.sh" >"$T/run.out" 2>&1 && [ -f "$T/dev/iomatrix.t.0" ] &&
   grep -q '"jobs"' "$T"/tinyfio/0001-*.rep1.json; then
	ok "run-all.sh runs fio on iomatrix.t.0 and writes JSON"
else
	not_ok "run-all.sh: $(tail -n 5 "$T/run.out")"
fi

# stop rules: fio stops where our cell stops (null engine: no real IO)
mkdir -p "$T/sdev"
cat >"$T/stop.yaml" <<YAML
suite: stop
defaults: {size: 1m, engine: "null", direct: false}
devices:
  - {name: t, path: "$T/sdev/"}
include:
  - {pattern: read, requests: 1000}
  - {pattern: read, io_size: 8m, runtime: 30s}
  - {pattern: randread, requests: 1000, io_size: 1g, jobs: 2}
  - {pattern: read}
YAML
"$IOMATRIX" export fio "$T/stop.yaml" -o "$T/stopfio" >/dev/null 2>&1 || fail "export stop"
want="1000 2048 1000 256"
i=0
for w in $want; do
	i=$((i + 1))
	j=$(ls "$T/stopfio"/000$i-*.fio)
	fio --output-format=json --output="$T/stop$i.json" "$j" >/dev/null 2>&1
	got=$(grep -m1 '"total_ios"' "$T/stop$i.json" | tr -dc '0-9')
	[ "$got" = "$w" ] && ok "stop rule of cell $i: $w IOs under fio" || not_ok "cell $i: fio did $got IOs, want $w"
done
tap_end
