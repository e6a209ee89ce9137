#!/bin/sh
# An agent's cell is validated before it is stored (survey) or merged
# (aggregate): histogram scheme "other", negative IOPS, a mean of 1e308 are
# refused and the host fails with the reason, nothing of it lands in the
# set as ok; and two hosts each claiming 1e19 IOs in one bucket make the
# aggregate fail, not wrap into a small total: each host's cell is refused
# before the merge, its histogram (1e19) disagreeing with its ios (64)
# (resultset/cellsums.h; the merge's checked adds stay behind it).
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 2
need_cmd jq
mkdir -p "$T/d1" "$T/d2"
cat >"$T/s.yaml" <<Y
suite: fleet-hostile-cell
defaults: {engine: null, size: 64KiB, requests: 64}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread]
Y
# the real agent; a filter edits the result lines of the hosts in $T/who
cat >"$T/agent.sh" <<W
#!/bin/sh
port=\$(echo "\$SSH_CONNECTION" | cut -d' ' -f4)
for h in \$(cat "$T/who"); do
	[ "\$port" = "\$(cat "$T/\$h/port")" ] && { "$IOMATRIX" "\$@" | sed -u "/\"op\":\"result\"/\$(cat "$T/mode")"; exit; }
done
exec "$IOMATRIX" "\$@"
W
chmod +x "$T/agent.sh"
run() { # name flag sed who want
	printf "%s\n" "$3" >"$T/mode"; printf "%s\n" "$4" >"$T/who"
	S=$T/set-$1
	"$IOMATRIX" run "$T/s.yaml" --hosts h1,h2 $2 --ssh-config "$SSHCFG" --remote-iomatrix "$T/agent.sh" \
		--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$S" --quiet >"$T/out" 2>"$T/err"
}
for c in 'scheme|s/"scheme":"loglin64"/"scheme":"other"/|hist is not a loglin64' \
	 'negative|s/"iops":\([0-9]\)/"iops":-\1/|iops is -' \
	 'huge|s/"mean":\([0-9]\)/"mean":1e308,"was":\1/|1e+308'; do
	name=${c%%|*}; rest=${c#*|}; sedx=${rest%%|*}; want=${rest#*|}
	run "$name" "" "$sedx" h2; rc=$?
	if [ $rc = 1 ] && grep -q "host 'h2' protocol error: its cell 1 fails validation: .*$want" "$T/err" &&
	   jq -e '([.cells[] | select(.host == "h1") | .status] == ["ok"]) and ([.cells[] | select(.host == "h2") | .status] == ["failed"])' \
		"$S/manifest.json" >/dev/null; then
		ok "survey, $name: h2 failed with the reason, h1 ok"
	else
		not_ok "survey, $name: exit $rc, $(head -c 300 "$T/err")"
	fi
done
# (the hosts send no interval histograms here, as older agents: with them,
# the first bucket's 1e19 disagrees with its intervals and each host is
# refused on its own before the sum is made)
run overflow --aggregate 's/"buckets":\[\[\([0-9]*\),[0-9]*\]/"buckets":[[\1,1e19]/;s/,"hist":{"scheme":"loglin64","encoding":"skip-counts","intervals":\[[^]]*\]}//' "h1 h2"; rc=$?
if [ $rc = 1 ] && jq -e '[.cells[] | select(.host == "all") | .status] == ["failed"]' "$S/manifest.json" >/dev/null &&
   jq -e '.error | contains("the histogram holds 10000000000000000") and contains("ios says 64")' \
	"$S/cells/0001.json" >/dev/null; then
	ok "aggregate of two 1e19 buckets: refused, not wrapped"
else
	not_ok "aggregate overflow: exit $rc, $(jq -c '[.status, .error]' "$S/cells/0001.json" 2>&1 | head -c 300) $(head -c 300 "$T/err")"
fi
tap_end
