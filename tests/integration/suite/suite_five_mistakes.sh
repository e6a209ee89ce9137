#!/bin/sh
# A suite with five different mistakes: validate lists all five, each with
# its line:col, in one pass, and exits 2.
. "$(dirname "$0")/../../lib.sh"
cat >"$T/five.yaml" <<'YAML'
suite: five
devices:
  - name: hdd
    path: /tmp
  - name: hdd
    path: /var/tmp
defaults:
  iodepht: 4
  runtime: 30x
matrix:
  pattern: [read, randreed]
  bs: [4k, 100k, 1000]
YAML
"$IOMATRIX" validate "$T/five.yaml" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok "exit 2" || not_ok "exit $rc"
[ ! -s "$T/out" ] && ok "nothing on stdout" || not_ok "stdout: $(cat "$T/out")"
chk() { grep -qF -- "$T/five.yaml:$1" "$T/err" && ok "$2" || not_ok "$2: want '$1' in: $(cat "$T/err")"; }
chk "5:5: duplicate device name 'hdd' (first at line 3)" "duplicate device"
chk "8:3: unknown key 'iodepht' in 'defaults' (did you mean 'iodepth'?)" "misspelt key"
chk "9:12: 'runtime' 30x is not a duration" "bad duration"
chk "11:19: unknown pattern 'randreed' (did you mean 'randread'?)" "misspelt pattern"
chk "12:18: 'bs' 1000 is not a multiple of 512" "bs not a multiple of 512"
[ "$(wc -l <"$T/err")" = 5 ] && ok "exactly five messages" || not_ok "$(wc -l <"$T/err") messages"
tap_end
