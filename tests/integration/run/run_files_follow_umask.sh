#!/bin/sh
# Files iomatrix writes follow the umask (0666 less it), as open(2) does:
# under umask 077 the set directory is 0700 and so is every file in it
# (manifest, plan, cells, the report), never a forced 0644;
# under umask 022 files are 0644.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-umask
defaults: {engine: null, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 8}
Y
for case in 077:700:600 022:755:644; do
	mask=${case%%:*}; rest=${case#*:}; dmode=${rest%%:*}; fmode=${rest#*:}
	set="$T/set$mask"
	(umask "$mask" && "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$set" --quiet \
		>/dev/null 2>"$T/err$mask" &&
	 "$IOMATRIX" report "$set" --charts none >/dev/null 2>>"$T/err$mask") ||
		fail "umask $mask: $(cat "$T/err$mask")"
	m=$(stat -c %a "$set")
	[ "$m" = "$dmode" ] && ok "umask $mask: set directory $m" || not_ok "umask $mask: set directory $m, want $dmode"
	bad=""
	for f in manifest.json plan.json suite.yaml cells/0001.json report/report.md \
		 report/report.json report/.iomatrix-files; do
		[ -f "$set/$f" ] || { bad="$bad $f(missing)"; continue; }
		m=$(stat -c %a "$set/$f")
		[ "$m" = "$fmode" ] || bad="$bad $f($m)"
	done
	[ -z "$bad" ] && ok "umask $mask: every file $fmode" || not_ok "umask $mask: want $fmode:$bad"
done
tap_end
