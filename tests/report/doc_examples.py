#!/usr/bin/env python3
"""doc_examples.py - the examples of a documentation page, for the tests that
run them: every fenced code block right after a line
"<!-- example: KIND -->" whose KIND is the one asked for is written to
OUTDIR/1, OUTDIR/2, ... (its text as the page has it); prints how many.

usage: doc_examples.py PAGE KIND OUTDIR
"""
import os, re, sys

page, kind, out = sys.argv[1:4]
text = open(page).read()
os.makedirs(out, exist_ok=True)
n = 0
for m in re.finditer(r"<!-- example: (\S+) -->\n```[a-z]*\n(.*?)\n```", text, re.S):
    if m.group(1) == kind:
        n += 1
        with open(os.path.join(out, str(n)), "w") as f:
            f.write(m.group(2) + "\n")
print(n)
