#!/bin/sh
# An input past the import size bound is refused from its fstat size,
# before any byte is read: a 1 GiB sparse CSV costs no memory (it used to
# cost 825 MB RSS before it was refused).  The address space is capped at
# 200 MiB so that reading it would fail differently.
. "$(dirname "$0")/../../lib.sh"
need_cmd truncate
truncate -s 1G "$T/huge.csv" || skip "cannot make a sparse file"
# a sanitizer build cannot start under an address-space limit: go without
lim=204800
(ulimit -v $lim && "$IOMATRIX" --version) >/dev/null 2>&1 || lim=unlimited
(ulimit -v $lim && "$IOMATRIX" import csv "$T/huge.csv" -o "$T/set") >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "too large" "$T/err" && ok "refused by size (exit 2)" || not_ok "exit $rc: $(cat "$T/err")"
[ ! -e "$T/set" ] && ok "nothing written" || not_ok "set written"
tap_end
