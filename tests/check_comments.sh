#!/bin/sh
# check_comments.sh - the code outlives the tracker: no comment in the
# product's code (cmd/, bench/, report/, templates/), its tests, docs,
# suites and build files cites an issue by its number ("issue 35 §3", "issue 21 item 7").  A comment says the rule and
# the measurement that made it; the commit message names the issue.
#
# Exit 1 with one line per citation (file:line and the line), 0 when none.
# Arguments: [TREE].
cd "${1:-$(dirname "$0")/..}" || exit 2
# this check and its own test name such citations on purpose
hits=$(grep -rnIiE --exclude-dir=node_modules '(^|[^a-z])issues? #?[0-9]+' \
	cmd bench report templates tests docs suites Makefile README.md .ci 2>/dev/null |
	grep -vE '^tests/(check_comments\.sh|integration/tooling/check_comments_rejects_issue_number\.sh):')
if [ -n "$hits" ]; then
	echo "$hits" | sed 's/^/check-comments: /'
	echo "check-comments: a comment cites an issue by number; say the rule it stands for (the commit message names the issue)"
	exit 1
fi
echo "check-comments: no comment cites an issue by number"
