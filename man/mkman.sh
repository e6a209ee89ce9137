#!/bin/sh
# mkman.sh IOMATRIX VERSION > iomatrix.1 - the manual page, built from the
# same help text the program prints (`iomatrix --help` and each
# `iomatrix COMMAND --help`), so the two cannot drift apart.
set -eu
bin=$1 version=$2
esc() { # roff-safe text: backslashes, leading dots and quotes
	sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'
}
# options: a command's help (already esc'd) as roff: its usage, prose and
# epilogs as they are printed (.nf), each option row of its table
# ("  -o, --out DIR   text", its text's lines indented under it) a .TP
# paragraph whose tag is the option and whose text is filled.
options() {
	awk '
	function para(t) { if (t != "") print t }
	/^  \\-/ {
		if (mode != "opt") { if (mode == "nf") print ".fi"; mode = "opt" }
		line = substr($0, 3)
		i = match(line, /  +/)
		tag = i ? substr(line, 1, i - 1) : line
		text = i ? substr(line, i + RLENGTH) : ""
		gsub(/"/, "\\(dq", tag)
		print ".TP"; print ".B \"" tag "\""; para(text)
		next
	}
	mode == "opt" && /^                    +[^ ]/ {
		sub(/^ +/, "")
		if ($0 ~ /^[.\047]/) $0 = "\\&" $0   # a line may not start a request
		print; next
	}
	{ if (mode != "nf") { print ".nf"; mode = "nf" } print }
	END { if (mode == "nf") print ".fi" }'
}
cat <<HEAD
.TH IOMATRIX 1 "" "iomatrix $version" "User Commands"
.SH NAME
iomatrix \\- reproducible storage benchmarks and blog\\-ready reports
.SH SYNOPSIS
.nf
HEAD
"$bin" --help | sed -n '/^commands:/,/^$/p' | sed -e '1d' -e '/^$/d' -e 's/^  //' | esc
cat <<'MID'
.fi
.SH DESCRIPTION
A YAML suite names devices and a matrix of block sizes, IO patterns, queue
depths and jobs.
.B iomatrix run
expands it into cells, runs each with its own IO engines (libaio with
O_DIRECT, io_uring, psync, null), and archives a dated, self\-describing
result set under
.IR results/ .
.B iomatrix report
turns result sets into GitHub\-flavoured Markdown, one self\-contained HTML
page, CSV and JSON, with gnuplot charts;
.B iomatrix compare
judges two sets against each other;
.B iomatrix reproduce
re\-runs a set from its own suite and judges each workload against it.
A run with
.B \-\-scale
is a rehearsal, and every report of it says so.
.SH COMMANDS
MID
for c in $("$bin" --help | sed -n 's/^  iomatrix \([a-z][a-z]*\) .*/\1/p' | uniq); do
	printf '.SS "iomatrix %s"\n' "$c"
	"$bin" "$c" --help | esc | options
done
cat <<'TAIL'
.SH EXIT STATUS
0 success; 1 runtime failure (IO error, device vanished, gnuplot failed);
2 bad input or usage (the message names file:line:col where one exists);
3
.B compare \-\-fail\-on\-regression
found a regression, or
.B reproduce \-\-fail\-if\-not\-reproduced
found a workload slower or faster than the original beyond the tolerance;
4
.B compare \-\-fail\-on\-inconclusive
found an inconclusive change beyond the threshold;
130 interrupted by SIGINT or SIGTERM after saving what
was complete.
.SH ENVIRONMENT
.TP
.B IOMATRIX_RESULTS
the results directory: where
.B run
and
.B import
put new sets, and what
.BR list ,
.B history
and
.B site
read when given no directory (default
.IR ./results ).
.TP
.B IOMATRIX_TEMPLATES
report templates to use instead of the installed ones.
.TP
.B IOMATRIX_TRACE
a file that
.B run
appends one line per IO to (issued, submitted, completed with a hash of
its bytes), as fio's write_iolog; see docs/engines.md.
.TP
.B GITHUB_STEP_SUMMARY
a file that
.B compare
appends its verdicts to as a Markdown table (GitHub Actions sets it for
each step); never one inside a result set or a link, and a file that
cannot be written is a warning, not a change of the exit code.
.TP
.B SOURCE_DATE_EPOCH
pins the "generated" date of a report.
.SH FILES
.TP
.I results/<UTC time>_<suite>_<host>/
a result set: manifest.json, suite.yaml, plan.json, cells/NNNN.json,
SHA256SUMS once it has ended (coreutils' format:
.B sha256sum \-c SHA256SUMS
checks it, as does
.BR "iomatrix verify" )
and, after
.BR "iomatrix report" ,
report/ with its own SHA256SUMS.
A set that fails the check is named by report, compare and list
(a warning, a line in the report's Method section, FAILS VERIFY in
list's row); history and site leave its numbers out.
.TP
.I FILE.tar.gz, FILE.tar.zst
a set as one file
.RB ( "iomatrix pack" ,
.BR "iomatrix unpack" ).
.TP
.I share/iomatrix/suites/
ready suites: quick, CrystalDiskMark presets, HDD vs SSD, one per published
write\-up the project reproduces.
.SH SEE ALSO
.BR fio (1),
.BR sysbench (1),
.BR gnuplot (1)
TAIL
