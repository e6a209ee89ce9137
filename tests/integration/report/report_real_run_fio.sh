#!/bin/sh
# End to end on real IO: `iomatrix run` a one-cell suite in $T, report it,
# and the fio command line the report gives for the cell runs with fio and
# measures the same kind of IO (it reads the files the runner named).
. "$(dirname "$0")/../../lib.sh"
mkdir "$T/dev"
cat >"$T/s.yaml" <<YAML
suite: report-e2e
devices:
  - {name: scratch, path: $T/dev}
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 300ms, keep_files: true}
matrix: {pattern: [randread], bs: [4k]}
YAML
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
grep -q '^| scratch | [0-9]' "$T/set/report/report.md" && ok "real cell in the table" || not_ok "no row"
grep -q '^fio --name=cell-0001 ' "$T/set/report/fio-commands.txt" && ok "fio command written" \
	|| not_ok "no fio command"
if command -v fio >/dev/null 2>&1; then
	grep -m1 '^fio --name=cell-0001 ' "$T/set/report/fio-commands.txt" >"$T/fio.sh"
	(cd "$T" && sh "$T/fio.sh" >"$T/fio.json" 2>"$T/fio.err")
	rc=$?
	[ $rc = 0 ] && grep -q '"read"' "$T/fio.json" && ok "fio runs the report's command" \
		|| not_ok "fio exit $rc: $(head -n 3 "$T/fio.err")"
	# keep_files left the runner's file; fio must have used it, not made its own
	n=$(ls "$T/dev" | wc -l)
	[ "$n" = 1 ] && [ -f "$T/dev/iomatrix.scratch.0" ] && ok "fio used the runner's file name" \
		|| not_ok "files in the device dir: $(ls "$T/dev" | tr '\n' ' ')"
else
	echo "# fio not installed: command not run"
fi
tap_end
