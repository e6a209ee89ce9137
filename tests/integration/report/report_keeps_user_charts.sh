#!/bin/sh
# report -o DIR deletes only what iomatrix wrote there: the user's own
# DIR/charts/*.png, *.svg, *.gp and the like survive, while a chart an
# earlier report drew and this one does not is removed (from the list
# .iomatrix-files the earlier report left: name and sha256), unless it was
# changed since: a chart the user edited is theirs.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd gnuplot
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/big" --cells 3 >/dev/null || fail "generator failed"
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/small" --cells 1 >/dev/null || fail "generator failed"
mkdir -p "$T/blog/charts"
for f in holiday.png logo.svg plot.gp data.dat notes.log; do printf 'mine\n' >"$T/blog/charts/$f"; done
printf 'mine\n' >"$T/blog/index.md"
expect_exit 0 "$IOMATRIX" report "$T/big" -o "$T/blog"
n1=$(ls "$T/blog/charts" | wc -l)
# a chart the next report will not draw again, edited by the user
expect_exit 0 "$IOMATRIX" report "$T/small" -o "$T/probe"
edited=$(sed 's/^[0-9a-f]*  //' "$T/blog/charts/.iomatrix-files" | grep '\.dat$' |
	 while read -r f; do
		grep -q "  $f\$" "$T/probe/charts/.iomatrix-files" || { echo "$f"; break; }
	 done)
[ -n "$edited" ] || fail "no chart that only the big report draws"
printf '# my note\n' >>"$T/blog/charts/$edited"
expect_exit 0 "$IOMATRIX" report "$T/small" -o "$T/blog"
for f in holiday.png logo.svg plot.gp data.dat notes.log; do
	[ "$(cat "$T/blog/charts/$f" 2>/dev/null)" = mine ] && ok "kept charts/$f" || not_ok "charts/$f deleted or changed"
done
[ "$(cat "$T/blog/index.md")" = mine ] && ok "kept index.md" || not_ok "index.md changed"
n2=$(ls "$T/blog/charts" | wc -l)
[ "$n2" -lt "$n1" ] && ok "stale charts of the earlier report removed ($n1 -> $n2 files)" ||
	not_ok "stale charts left ($n1 -> $n2)"
grep -q "# my note" "$T/blog/charts/$edited" && ok "a stale chart the user edited is kept ($edited)" ||
	not_ok "edited $edited removed"
(cd "$T/blog/charts" && sha256sum -c --quiet .iomatrix-files) && ok "every listed file is there with its hash" ||
	not_ok "list does not match the files"
grep -q "  holiday.png\$" "$T/blog/charts/.iomatrix-files" && not_ok "user's file listed as ours" || ok "list holds only iomatrix's files"
tap_end
