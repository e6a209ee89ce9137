#!/bin/sh
# Two result sets from two hosts whose devices share names: the devices are
# told apart as name@host, -o is required, --baseline takes either form,
# and an unknown baseline exits 2 listing the devices.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" >/dev/null || fail "generator failed"; }
gen "$T/a" --devices disk:hdd --host hostA --cells 3 --repeat 3
gen "$T/b" --devices disk:ssd --host hostB --cells 3 --repeat 3

expect_exit 2 "$IOMATRIX" report "$T/a" "$T/b"
grep -q -- '-o DIR' "$T/err" && ok "several sets need -o" || not_ok "no -o message"

expect_exit 0 "$IOMATRIX" report "$T/a" "$T/b" -o "$T/out1" --charts none --baseline disk@hostA
grep -q '^| disk@hostA |' "$T/out1/report.md" && grep -q '^| disk@hostB |' "$T/out1/report.md" \
	&& ok "devices told apart by host" || not_ok "names not disambiguated"
grep -q 'disk@hostB did [0-9.,]*x the IOPS of disk@hostA' "$T/out1/report.md" \
	&& ok "summary across hosts" || not_ok "summary"
grep -q '^## Ratios against disk@hostA' "$T/out1/report.md" && ok "baseline by name@host" || not_ok "baseline"
grep -q '| host | hostA | hostB |' "$T/out1/report.md" && ok "hosts side by side" || not_ok "env hosts"

expect_exit 2 "$IOMATRIX" report "$T/a" "$T/b" -o "$T/out2" --charts none --baseline nvme
grep -q "unknown baseline device 'nvme' (devices: 'disk@hostA', 'disk@hostB')" "$T/err" \
	&& ok "unknown baseline exits 2 listing devices" || not_ok "$(cat "$T/err")"
tap_end
