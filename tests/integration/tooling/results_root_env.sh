#!/bin/sh
# IOMATRIX_RESULTS names the results directory of every command that has a
# default one: run and import write there, and list, history and site read
# there when given no directory (list, history and site used to read
# ./results whatever the variable said).  Run from an empty working
# directory, so ./results cannot stand in for it.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/arch" "$T/cwd" "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-root
defaults: {engine: "null", size: 1MiB, requests: 64}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, read]
Y
cd "$T/cwd" || fail "no cwd"
export IOMATRIX_RESULTS="$T/arch"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --quiet
set_dir=$(cat "$T/out")
case "$set_dir" in "$T/arch/"*) ok "run writes under \$IOMATRIX_RESULTS" ;; *) not_ok "run wrote '$set_dir'" ;; esac
[ -e "$T/cwd/results" ] && not_ok "run made ./results" || ok "no ./results made"
expect_exit 0 "$IOMATRIX" list
grep -q 't-root .* 2/2 .*complete' "$T/out" && ok "list reads \$IOMATRIX_RESULTS" || not_ok "list said: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" history --format json
jq -e 'tostring | test("t-root|RND|randread|SEQ")' "$T/out" >/dev/null 2>&1 \
	&& ok "history reads \$IOMATRIX_RESULTS" || not_ok "history said: $(head -c 300 "$T/out") $(head -c 300 "$T/err")"
# (the templates are named: the working directory is not the repository)
IOMATRIX_TEMPLATES="$ROOT/templates" expect_exit 0 "$IOMATRIX" site -o "$T/site" --charts none
grep -rqs 't-root' "$T/site" && ok "site reads \$IOMATRIX_RESULTS" || not_ok "site: $(cat "$T/err")"
# empty means unset: the default ./results
IOMATRIX_RESULTS= "$IOMATRIX" list >"$T/out" 2>&1
grep -q "results" "$T/out" && ! grep -q 't-root' "$T/out" && ok "empty IOMATRIX_RESULTS: ./results" \
	|| not_ok "list with empty variable: $(cat "$T/out")"
tap_end
