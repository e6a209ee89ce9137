# Sourced by tests/integration/archive/db_docs_*.sh after tests/lib.sh:
# the archive the examples of docs/database.md run on ($T/results: the
# real sets of tests/data/db-archive and a synthetic series with a kernel
# change, all with SHA256SUMS, indexed), the working directory $T (the
# examples say results/index.sqlite), and the examples of one kind.
#
#   db_docs_archive          make and index it, cd "$T"
#   db_docs_examples KIND    write the KIND examples to $T/ex/KIND/1, 2, ...
#                            and set DB_DOCS_N to how many (none: fail)
need_cmd python3
db_docs_archive() {
	cp -a "$ROOT/tests/data/db-archive/sets" "$T/results" || fail "copy"
	python3 "$ROOT/tests/report/gen_archive.py" "$T/results" --sets 6 --cells 3 --hosts web1,web2 \
		--step-at 4 --seed 3 --sums >/dev/null || fail "generator"
	"$IOMATRIX" index "$T/results" >/dev/null || fail "index"
	cd "$T" || fail "cd"
	export IOMATRIX_RESULTS="$T/results"
}
db_docs_examples() {
	DB_DOCS_N=$(python3 "$ROOT/tests/report/doc_examples.py" "$ROOT/docs/database.md" "$1" "$T/ex/$1") ||
		fail "doc_examples.py"
	[ "$DB_DOCS_N" -gt 0 ] || fail "docs/database.md has no '$1' example"
}
