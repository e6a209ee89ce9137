#!/bin/sh
# A link planted under a scratch name (DIR/iomatrix.NAME.0 -> victim) is
# never followed: the run is refused with exit 2, the victim keeps its
# bytes, and the link is left in place as evidence (not unlinked).  The
# same for a dangling link, which O_CREAT alone would have followed.
. "$(dirname "$0")/../../lib.sh"
mkdir "$T/dir"
printf 'precious data\n' >"$T/victim"
ln -s "$T/victim" "$T/dir/iomatrix.d.0"
for pat in randread randwrite; do
	cat >"$T/s.yaml" <<Y
suite: t-link
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: $T/dir}
include:
  - {pattern: $pat, bs: 4k, requests: 8}
Y
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set-$pat" --quiet
	[ "$(cat "$T/victim")" = "precious data" ] && ok "$pat: victim unchanged" ||
		not_ok "$pat: victim now $(stat -c %s "$T/victim") bytes"
	[ -L "$T/dir/iomatrix.d.0" ] && ok "$pat: link left in place" || not_ok "$pat: link removed"
	grep -q "symbolic link" "$T/err" && ok "$pat: message says why" || not_ok "$pat: $(cat "$T/err")"
done
rm "$T/dir/iomatrix.d.0"
ln -s "$T/made-by-link" "$T/dir/iomatrix.d.0"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set-dangling" --quiet
[ ! -e "$T/made-by-link" ] && ok "a dangling link does not create its target" ||
	not_ok "file created through a dangling link"
tap_end
