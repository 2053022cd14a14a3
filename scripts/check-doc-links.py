#!/usr/bin/env python3
"""Checks the built documentation site (scripts/docs.sh): every page (the articles, symbols and
tutorials) opens from both of its addresses, /documentation/MODULE/PAGE and /documentation/MODULE/PAGE/ (python3 -m http.server
redirects the first to the second; a bookmark or a reload may hold either), and every link on
it resolves, from both, to a page of the site.

A DocC page is an index.html that renders data/documentation/....json in the browser; its links
are the JSON's references, each an href the browser resolves against the page's address. So
this script serves the site with the README's own server (http.server), opens both addresses
of every page, and resolves every reference's URL against each address the way a browser does
(urljoin), then checks that the page it lands on exists (an index.html, opened over HTTP).

Usage: python3 scripts/check-doc-links.py [SITE]   (default .build/docs); exit 1 on a broken link.
"""
import functools, glob, http.server, json, os, sys, threading, urllib.error, urllib.parse, urllib.request

site = sys.argv[1] if len(sys.argv) > 1 else ".build/docs"
data_root = os.path.join(site, "data")
if not os.path.isdir(os.path.join(data_root, "documentation")):
    sys.exit(f"check-doc-links: no site at {site} (build it with scripts/docs.sh)")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"


def opens(path):
    """Whether the server gives a page (an index.html, after redirects) at this path."""
    try:
        with urllib.request.urlopen(base + path) as response:
            body = response.read(4096)
            return response.status == 200 and b"<html" in body.lower() and b"Directory listing" not in body
    except urllib.error.HTTPError:
        return False


def is_page(path):
    """Whether a site path (no query or fragment) is a page: its folder holds an index.html."""
    local = os.path.normpath(os.path.join(site, path.lstrip("/")))
    return local.startswith(os.path.normpath(site)) and os.path.isfile(os.path.join(local, "index.html"))


pages, links, broken = 0, 0, []
opened = {}
json_paths = [path for kind in ("documentation", "tutorials")
              for path in glob.glob(os.path.join(data_root, kind, "**", "*.json"), recursive=True)]
for json_path in sorted(json_paths):
    page = "/" + os.path.relpath(json_path, data_root)[: -len(".json")]
    if not is_page(page):
        broken.append(f"{page}: its data has no page (no index.html)")
        continue
    pages += 1
    with open(json_path) as file:
        data = json.load(file)
    for address in (page, page + "/"):
        if not opens(address):
            broken.append(f"{address}: does not open")
    # A tutorial's chapters are in its hierarchy (the navigation bar's breadcrumb), which the
    # renderer shows as a menu of the chapter's tutorials, not as a link: a chapter has no page.
    chapters = {identifier for path in data.get("hierarchy", {}).get("paths", []) for identifier in path
                if data.get("references", {}).get(identifier, {}).get("role") == "article"
                and data["references"][identifier].get("url", "").startswith("/tutorials/")}
    for identifier, reference in data.get("references", {}).items():
        url = reference.get("url")
        if not url or reference.get("type") not in ("link", "topic") or identifier in chapters:
            continue
        if urllib.parse.urlparse(url).scheme in ("http", "https", "mailto"):
            continue
        links += 1
        for address in (page, page + "/"):
            target = urllib.parse.urlparse(urllib.parse.urljoin(base + address, url)).path
            if target not in opened:
                opened[target] = is_page(target) and opens(target)
            if not opened[target]:
                broken.append(f"{address}: link {url!r} resolves to {target}, no page")
server.shutdown()
if broken:
    print(f"check-doc-links: {len(broken)} broken, over {pages} pages and {links} links:", file=sys.stderr)
    print("\n".join(broken), file=sys.stderr)
    sys.exit(1)
print(f"check-doc-links: {pages} pages open from both addresses; {links} links resolve from both to a page")
