#!/usr/bin/env python3
"""Follows the tutorial literally, as a reader would, in a fresh package outside the checkout.

The tutorial (Sources/PressureLabTesting/PressureLabTesting.docc/Tutorials/YourFirstPolicy.tutorial)
shows each step's file with `@Code(name: ..., file: ...)`. This script reads them in order:
- "Terminal": the commands are run with bash in the reader's current folder (a `cd` carries over);
- "Output": what the commands just before printed, compared with what they print here (exactly;
  for `swift test`, its lines in order among the lines it prints; times in seconds are masked);
- any other name is a file of the package, written at that path; in Package.swift the one line
  the reader edits, `let pressureLabPath = "/path/to/PressureLab"`, gets this clone's absolute path.

So the tutorial's code compiles, its commands print what it shows and its tests pass, in a
package of the reader's own anywhere on disk, or CI fails. One debug build of the package
(PressureLab with it). The package is left in place, and its folder printed, when a step fails.

Usage: python3 scripts/tutorial.py [--keep]
"""
import os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
catalog = os.path.join(root, "Sources/PressureLabTesting/PressureLabTesting.docc")
tutorial = open(os.path.join(catalog, "Tutorials/YourFirstPolicy.tutorial")).read()
steps = re.findall(r'@Code\(name: "([^"]+)", file: ([^)\s]+)\)', tutorial)
placeholder = 'let pressureLabPath = "/path/to/PressureLab"'
keep = "--keep" in sys.argv[1:]

work = tempfile.mkdtemp(prefix="pressurelab-tutorial-")
if os.path.realpath(work).startswith(os.path.realpath(root) + "/"):
    sys.exit(f"tutorial: {work} is inside the checkout; the reader's package is not")
cwd = work
last = None  # (commands, stdout) of the last Terminal step


def fail(message):
    print(f"tutorial: {message}\n(the package is left in {cwd})", file=sys.stderr)
    sys.exit(1)


def masked(text):
    lines = [re.sub(r"\b\d+(\.\d+)? seconds\b", "N seconds", line.rstrip()) for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


env = dict(os.environ)
if shutil.which("swift", path=env.get("PATH")) is None:
    env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
for number, (name, file) in enumerate(steps, 1):
    text = open(os.path.join(catalog, "Resources", file)).read()
    if name == "Terminal":
        marker = os.path.join(work, ".cwd")
        script = f"set -euo pipefail\ncd {cwd!r}\n{text}\npwd > {marker!r}\n"
        print(f"tutorial: step {number}: {file}", flush=True)
        done = subprocess.run(["bash", "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            fail(f"step {number} ({file}) exited {done.returncode}:\n{done.stdout}{done.stderr}")
        cwd = open(marker).read().strip()
        last = (text, done.stdout + (done.stderr if "swift test" in text else ""))
    elif name == "Output":
        if last is None:
            fail(f"step {number} ({file}): an output with no command before it")
        expected, actual = masked(text), masked(last[1])
        if "swift test" in last[0]:
            position = 0
            for line in expected:
                while position < len(actual) and actual[position] != line:
                    position += 1
                if position == len(actual):
                    fail(f"step {number} ({file}): the tests did not print {line!r}; they printed:\n{last[1]}")
                position += 1
        elif expected != actual:
            fail(f"step {number} ({file}): the tutorial shows\n" + "\n".join(expected)
                 + "\nbut the commands printed\n" + "\n".join(actual))
        print(f"tutorial: step {number}: the output shown, printed", flush=True)
    else:
        if name == "Package.swift":
            if placeholder not in text:
                fail(f"step {number} ({file}): no line `{placeholder}` for the reader to edit")
            text = text.replace(placeholder, f'let pressureLabPath = "{root}"')
        path = os.path.join(cwd, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)
        print(f"tutorial: step {number}: wrote {name}", flush=True)
if not any(name == "Terminal" and "swift test" in open(os.path.join(catalog, "Resources", file)).read() for name, file in steps):
    fail("the tutorial runs no tests")
print(f"tutorial: {len(steps)} steps followed in {work}: it builds, prints what it shows, its tests pass")
if not keep:
    shutil.rmtree(work)
