#!/bin/sh
# The model device's keys read the same in docs/engines.md as in
# `validate --help` (the key table: the docs wrote
# `model_noise: N` where the help says `N%`): every row of the docs' table
# has the help's default, a key the help takes as N% is written with a %
# in its row and wherever the docs give it a value, and every model key
# of the help has a row.
. "$(dirname "$0")/../../lib.sh"
D=$ROOT/docs/engines.md
"$IOMATRIX" validate --help >"$T/help" 2>&1 || fail "validate --help: $(cat "$T/help")"
grep -E '^  model_[a-z_]+ ' "$T/help" >"$T/keys"
[ -s "$T/keys" ] || fail "no model keys in validate --help"
while read -r key type rest; do
	def=$(echo "$rest" | sed -n 's/.*default \([^ ]*\).*/\1/p')
	row=$(grep -E "^\| \`$key\` \|" "$D")
	[ -n "$row" ] || { not_ok "$key: no row in docs/engines.md"; continue; }
	ddef=$(echo "$row" | awk -F'|' '{ gsub(/^ +| +$/, "", $3); print $3 }')
	[ "$ddef" = "$def" ] && ok "$key: default $def" || not_ok "$key: docs say '$ddef', help '$def'"
	if [ "$type" = "N%" ]; then
		echo "$row" | grep -q 'N%' && ok "$key: the row says N%" || not_ok "$key: row without N%: $row"
		bad=$(grep -n "$key: [0-9N][0-9.]*\([^0-9.%]\|$\)" "$D")
		[ -z "$bad" ] && ok "$key: every value in the docs has its %" || not_ok "$key: $bad"
	fi
done <"$T/keys"
tap_end
