#!/bin/sh
# --template DIR replaces templates file by file (a missing file falls back
# to the installed one); a malformed template stops the report with
# file:line:col and exit 2 before anything is written.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"

mkdir "$T/tpl"
cat >"$T/tpl/report.md.tmpl" <<'TPL'
CUSTOM {{title}}
{{#groups}}
* {{title}}: {{#rows}}{{device}}={{iops}} {{/rows}}
{{/groups}}
TPL
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none --template "$T/tpl" --title 'My <title>'
head -n 1 "$T/set/report/report.md" | grep -q '^CUSTOM My \\<title\\>$' && ok "custom md template used, title escaped" \
	|| not_ok "custom template: $(head -n 1 "$T/set/report/report.md")"
grep -q '^\* 4K random read.*hdd=' "$T/set/report/report.md" && ok "sections rendered" || not_ok "sections"
grep -q '<title>My &lt;title&gt;</title>' "$T/set/report/report.html" && ok "html falls back to the default template" \
	|| not_ok "html fallback"

rm -rf "$T/set/report"
printf 'line one\n{{#groups}}\n  {{title}\n{{/groups}}\n' >"$T/tpl/report.md.tmpl"
expect_exit 2 "$IOMATRIX" report "$T/set" --charts none --template "$T/tpl"
grep -q "report.md.tmpl:3:3: .*missing '}}'" "$T/err" && ok "malformed template: file:line:col" \
	|| not_ok "message: $(cat "$T/err")"
[ ! -e "$T/set/report" ] && ok "nothing written" || not_ok "output written despite bad template"

printf '{{#groups}}\nx\n' >"$T/tpl/report.md.tmpl"
expect_exit 2 "$IOMATRIX" report "$T/set" --charts none --template "$T/tpl"
grep -q "report.md.tmpl:1:1: section 'groups' is never closed" "$T/err" && ok "unclosed section located" \
	|| not_ok "message: $(cat "$T/err")"

# IOMATRIX_TEMPLATES is used when --template is not given
printf 'ENV {{title}}\n' >"$T/tpl/report.md.tmpl"
IOMATRIX_TEMPLATES="$T/tpl" "$IOMATRIX" report "$T/set" --charts none --format md >/dev/null 2>&1
grep -q '^ENV ' "$T/set/report/report.md" && ok "IOMATRIX_TEMPLATES honoured" || not_ok "env templates"

expect_exit 2 "$IOMATRIX" report "$T/set" --format pdf
grep -q "bad --format 'pdf': it takes one or more of md html csv json" "$T/err" && ok "unknown format exits 2" || not_ok "format message: $(cat "$T/err")"
tap_end
