#!/bin/sh
# docs/database.md's R example (DBI, RSQLite) runs as written on an
# archive's index; skipped where R or RSQLite is missing (Debian:
# r-base-core r-cran-rsqlite, which CI installs with the extras).
. "$(dirname "$0")/../../lib.sh"
need_cmd Rscript
Rscript -e 'library(DBI); library(RSQLite)' >/dev/null 2>&1 || skip "R has no DBI/RSQLite (Debian: r-cran-rsqlite)"
. "$ROOT/tests/db_docs_lib.sh"
db_docs_archive
db_docs_examples r
Rscript "$T/ex/r/1" >"$T/out" 2>"$T/err" && grep -q "device direction" "$T/out" &&
	ok "R: $(sed -n 2p "$T/out")" || not_ok "$(cat "$T/err" "$T/out")"
tap_end
