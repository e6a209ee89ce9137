#!/usr/bin/env python3
"""check_site.py - link check of a static site written by `iomatrix site`:
every href/src of every HTML page must be internal (no scheme, no //host,
no absolute path), resolve to a file inside the site, and every #fragment
must name an id in its target page.  Prints each problem; exit 1 if any.

usage: check_site.py SITE_DIR
"""
import html.parser, os, re, sys, urllib.parse

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids = [], set()
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" and v:
                self.ids.add(v)
            if k in ("href", "src", "xlink:href", "action", "srcset", "poster", "data") and v is not None:
                self.links.append((tag, k, v))
    handle_startendtag = handle_starttag

def main():
    root = os.path.realpath(sys.argv[1])
    pages = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".html"):
                p = os.path.join(d, f)
                parser = Page()
                with open(p, encoding="utf-8") as fh:
                    text = fh.read()
                parser.feed(text)
                pages[p] = (parser, text)
    bad, nlinks = [], 0
    for p, (parser, text) in sorted(pages.items()):
        rel = os.path.relpath(p, root)
        for m in re.finditer(r"url\(\s*['\"]?([^)'\"]+)", text):
            if not m.group(1).startswith("#"):
                bad.append(f"{rel}: CSS url({m.group(1)}) is not internal")
        for tag, attr, v in parser.links:
            nlinks += 1
            u = urllib.parse.urlsplit(v)
            if u.scheme or u.netloc or v.startswith("/"):
                bad.append(f"{rel}: <{tag} {attr}=\"{v}\"> is an external reference")
                continue
            target = p if not u.path else os.path.realpath(os.path.join(os.path.dirname(p), urllib.parse.unquote(u.path)))
            if not (target == root or target.startswith(root + os.sep)):
                bad.append(f"{rel}: {v} leaves the site")
                continue
            if not os.path.exists(target):
                bad.append(f"{rel}: {v} does not exist")
                continue
            if u.fragment and target.endswith(".html"):
                ids = pages[target][0].ids if target in pages else set()
                if u.fragment not in ids:
                    bad.append(f"{rel}: {v}: no id '{u.fragment}' in the target")
    for b in bad:
        print(b)
    print(f"{len(pages)} pages, {nlinks} links, {len(bad)} problems")
    sys.exit(1 if bad else 0)

main()
