# Shared by the reproduce_* tests (sourced after lib.sh).
# make the original steady by hand (repetitions 1000, 1005, 1010 IOPS and
# 1.000, 1.005, 1.010 ms), re-summed as a run would: the verdicts then
# depend on nothing a busy machine does.  Bandwidth follows IOPS and the
# summary follows the repetitions (JQ_AGREE, lib.sh).
STEADY="$JQ_AGREE"'
	.repetitions |= [range(0; length) as $i | .[$i] | .read |= iops_to(1000 + 5 * $i) |
	.read.lat_ns |= (.mean = (1000000 + 5000 * $i) | .min = .mean / 2 | .max = .mean * 2 |
	.percentiles |= map_values(1000000 + 5000 * $i))] | resummary'
resum() { # set directory
	(cd "$1" && sha256sum $(sed 's/^[0-9a-f]*  //' SHA256SUMS) >SHA256SUMS.new &&
		mv SHA256SUMS.new SHA256SUMS) || fail "cannot re-sum $1"
}
steady() { # set directory, cell files...
	d=$1; shift
	for c in "$@"; do
		jq "$STEADY" "$d/cells/$c.json" >"$d/cells/$c.tmp" && mv "$d/cells/$c.tmp" "$d/cells/$c.json" ||
			fail "cannot steady $d/cells/$c.json"
	done
	resum "$d"
}
# forge NAME TEXT: a copy of the set $T/orig named $T/NAME whose
# suite.yaml is TEXT, made consistent again (the manifest's suite sha256,
# SHA256SUMS): a set anyone could send, which verify passes
forge() {
	rm -rf "$T/$1" && cp -r "$T/orig" "$T/$1" && printf '%s\n' "$2" >"$T/$1/suite.yaml"
	sum=$(sha256sum "$T/$1/suite.yaml" | cut -d' ' -f1)
	jq --arg s "$sum" '.suite.sha256 = $s' "$T/$1/manifest.json" >"$T/m" &&
		mv "$T/m" "$T/$1/manifest.json"
	(cd "$T/$1" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort |
		xargs sha256sum >SHA256SUMS)
	expect_exit 0 "$IOMATRIX" verify "$T/$1"
}
