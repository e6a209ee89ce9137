#!/bin/sh
# make demo: run the quick suite on a scratch directory of the current
# filesystem, print where the result set is, then (once `iomatrix report`
# is built) render its report and print where that is.
set -e
BIN=${1:-./iomatrix}
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
cd "$(dirname "$0")/.."
SCRATCH=$(pwd)/iomatrix-scratch
mkdir -p "$SCRATCH"
echo "== iomatrix plan suites/quick.yaml"
"$BIN" plan suites/quick.yaml
echo "== iomatrix run suites/quick.yaml --device scratch=$SCRATCH"
set +e
SET=$("$BIN" run suites/quick.yaml --device scratch="$SCRATCH")
rc=$?
set -e
rmdir "$SCRATCH" 2>/dev/null || true
if [ -z "$SET" ] || [ ! -f "$SET/manifest.json" ]; then
	echo "demo: the run wrote no result set (exit $rc)" >&2
	exit 1
fi
echo "result set: $SET"
[ "$rc" = 0 ] || echo "demo: run exited $rc (see the messages above)" >&2
if "$BIN" report --help >/dev/null 2>&1; then
	# report prints where it wrote the files
	"$BIN" report "$SET" -o "$SET/report"
else
	echo "(iomatrix report is not built yet: no report)"
fi
exit "$rc"
