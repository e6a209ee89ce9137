#!/bin/sh
# The fleet at a scale one machine can simulate: N ssh destinations (default
# 20) that are aliases of a few sshd on 127.0.0.1, each running its own
# `iomatrix agent`; a survey and an aggregate run of a null-engine suite.
# Prints the controller's CPU time and peak RSS (GNU time) and the start
# skew of each aggregate cell.  Not a test: numbers for docs/fleet.md.
# Needs root (sshd).
#
#   sh tests/bench/fleet_scale.sh BUILD/iomatrix [N] [SSHD_COUNT]
set -u
IOMATRIX=${1:?usage: fleet_scale.sh IOMATRIX_BINARY [HOSTS] [SSHD]}
IOMATRIX=$(cd "$(dirname "$IOMATRIX")" && pwd)/$(basename "$IOMATRIX")
N=${2:-20}
NSSHD=${3:-4}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/iomatrix-fleet-scale.XXXXXX)
skip() { echo "fleet_scale: $*"; exit 0; }
fail() { echo "fleet_scale: $*" >&2; exit 1; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "'$1' not installed"; }
need_cmd jq
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed"
. "$ROOT/tests/fleet_lib.sh"
fleet_start "$NSSHD"
# aliases f1..fN spread over the sshd hosts
i=1
while [ "$i" -le "$N" ]; do
	h=$(( (i - 1) % NSSHD + 1 ))
	echo "Host f$i" >>"$SSHCFG"
	sed -n "/^Host h$h\$/,/^Host /p" "$SSHCFG" | sed '1d;/^Host /d' >>"$SSHCFG"
	i=$((i + 1))
done
hosts=$(seq -s, -f 'f%g' 1 "$N")
cat >"$T/s.yaml" <<Y
suite: fleet-scale
defaults: {engine: null, size: 1MiB, runtime: 2s, bs: 4k, pattern: randread}
devices:
  - {name: shared, path: $T/shared.dat}
matrix:
  iodepth: [1, 8]
Y
dd if=/dev/zero of="$T/shared.dat" bs=1M count=1 status=none
echo "fleet_scale: $N hosts over $NSSHD sshd on 127.0.0.1, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in survey aggregate; do
	flag=""; [ "$mode" = aggregate ] && flag=--aggregate
	# shellcheck disable=SC2086
	/usr/bin/time -f "%e %U %S %M" -o "$T/time-$mode" "$IOMATRIX" run "$T/s.yaml" --hosts "$hosts" \
		$flag --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" --out "$T/set-$mode" --quiet \
		>/dev/null 2>"$T/err-$mode" || { cat "$T/err-$mode"; fail "$mode run failed"; }
	read -r wall usr sys rss <"$T/time-$mode"
	cells=$(jq '[.cells[] | select(.status == "ok")] | length' "$T/set-$mode/manifest.json")
	echo "$mode: $cells ok cells, wall ${wall} s, controller CPU ${usr} s user + ${sys} s sys, peak RSS $((rss / 1024)) MiB"
done
jq -s -r '.[] | select(.host == "all") | "aggregate \(.params.label): \(.summary.read.iops.mean | floor) IOPS over \(.fleet.hosts | length) hosts, start skew \(.fleet.start_skew_ns / 1e6 * 100 | floor / 100) ms, barrier margin \(.fleet.barrier_margin_ns / 1e6) ms"' \
	"$T"/set-aggregate/cells/*.json
jq -r '[.fleet.hosts[].clock.rtt_min_ns] | "ssh RTT (min per host): \(min / 1e3 | floor) .. \(max / 1e3 | floor) us"' "$T/set-aggregate/manifest.json"
jq -s -r '[.[] | select(.host != "all") | .starts[]?.late_ns] | sort | "agents late against their go time: median \(.[length/2|floor] / 1e6) ms, max \(.[-1] / 1e6) ms (late = woke after the barrier time)"' \
	"$T"/set-aggregate/cells/*.json
