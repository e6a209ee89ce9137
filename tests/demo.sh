#!/bin/sh
# make demo: run the quick suite on a scratch directory, then the report.
set -e
BIN=${1:-./iomatrix}
cd "$(dirname "$0")/.."
"$BIN" plan suites/quick.yaml
