#!/usr/bin/env python3
"""Counts the public symbols without a `///` comment in the four documented modules.

Reads the symbol graphs `bash scripts/docs.sh` extracts (swift-symbolgraph-extract, public
and open symbols) and counts, per module, the symbols declared in its own sources
(Sources/MODULE/, extensions included) whose graph entry has no doc comment.
`--list` names each one with its file and line. Exits 1 when any is undocumented.
"""
import glob, json, os, sys

MODULES = ["PressureLab", "PressureLabHarness", "PressureLabTesting", "PressureLabCommandLine"]
graphs = glob.glob(".build/*/extracted-symbols/*")
if not graphs:
    sys.exit("doc-coverage: no symbol graphs; run `bash scripts/docs.sh` first")
total = 0
for module in MODULES:
    symbols = {}
    for path in glob.glob(f"{graphs[0]}/{module}/{module}*.symbols.json"):
        for symbol in json.load(open(path))["symbols"]:
            location = symbol.get("location", {}).get("uri", "")
            if symbol.get("accessLevel") in ("public", "open") and f"/Sources/{module}/" in location:
                symbols[symbol["identifier"]["precise"]] = symbol
    missing = [s for s in symbols.values() if not s.get("docComment")]
    total += len(missing)
    print(f"{module}: {len(symbols)} public symbols, {len(missing)} without a doc comment")
    if "--list" in sys.argv:
        for s in sorted(missing, key=lambda s: (s["location"]["uri"], s["location"]["position"]["line"])):
            print(f"  {s['location']['uri'].split('/Sources/')[1]}:{s['location']['position']['line'] + 1}: {'.'.join(s['pathComponents'])}")
sys.exit(1 if total else 0)
