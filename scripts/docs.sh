#!/usr/bin/env bash
# Builds the documentation site: the DocC catalogs of PressureLab, PressureLabHarness,
# PressureLabTesting and PressureLabCommandLine as one static site in .build/docs (or the
# folder given), with warnings as errors: a symbol or article link that does not resolve, or
# a parameter left undocumented, fails it.
#
# The catalogs' articles are the files of docs/, linked into each catalog (symbolic links:
# one text, read on GitHub and in the site). docs/ links between its files the way GitHub
# reads them (`[limits.md](limits.md)`); DocC keeps such a link as it is, so the last step
# points each one at the article's page, in whichever catalog it is (an address absolute within
# the site, so that it holds however the page was reached), and fails on a link to no article.
#
# Open it: `python3 -m http.server --directory .build/docs 8000`, then
# http://localhost:8000/documentation/ (a DocC site is read over HTTP, not from file://).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH=/opt/swift/usr/bin:$PATH; fi
output="${1:-.build/docs}"
targets=(PressureLab PressureLabHarness PressureLabTesting PressureLabCommandLine)
swift package --disable-sandbox --allow-writing-to-directory "$output" generate-documentation \
  --enable-experimental-combined-documentation "${targets[@]/#/--target=}" \
  --warnings-as-errors --transform-for-static-hosting --output-path "$output"
python3 - "$output" "${targets[@]}" <<'PY'
import glob, json, os, re, sys
output, targets = sys.argv[1], sys.argv[2:]
# Which catalog presents each docs/ file: its symbolic link's catalog.
home = {}
for target in targets:
    for path in glob.glob(f"Sources/{target}/{target}.docc/*.md"):
        if os.path.islink(path):
            home[os.path.basename(path)[:-3]] = target.lower()
broken = []
for page in glob.glob(f"{output}/data/documentation/**/*.json", recursive=True):
    with open(page) as file:
        data = json.load(file)
    changed = False
    for reference in data.get("references", {}).values():
        match = re.fullmatch(r"([a-z0-9-]+)\.md(#.*)?", reference.get("url", "")) if reference.get("type") == "link" else None
        if not match:
            continue
        if match.group(1) not in home:
            broken.append(f"{page}: {reference['url']}")
            continue
        # Absolute within the site: a page is reached as documentation/MODULE/PAGE and, after
        # http.server's redirect (or a bookmark), as .../PAGE/, and a relative link would
        # resolve one folder off from one of them (scripts/check-doc-links.py checks both).
        reference["url"] = f"/documentation/{home[match.group(1)]}/{match.group(1)}"
        changed = True
    if changed:
        with open(page, "w") as file:
            json.dump(data, file)
if broken:
    sys.exit("docs: links to no article of any catalog:\n" + "\n".join(broken))
print(f"docs: {len(home)} articles from docs/ in {len(targets)} catalogs; open {output}/documentation/ over HTTP")
PY
