#!/usr/bin/env python3
"""Compares a run's p90s with the committed ones in Thresholds/.

The benchmark package writes a threshold file with spaces and slashes turned into
underscores (`cleanupStringForShellSafety`) but looks for it under the benchmark's own name
(`makeBenchmarkThresholds`), so `swift package benchmark thresholds check` finds none of
Thresholds/ and fails with "Could not find any matching absolute thresholds". This script
does the comparison itself, file by file:

    swift package --allow-writing-to-directory /tmp/p90 benchmark \\
        --format metricP90AbsoluteThresholds --path /tmp/p90
    python3 Scripts/check_thresholds.py /tmp/p90 [--tolerance PERCENT] [--filter REGEX]

A metric is worse when it is higher (times, ratios, bytes, counts) or, for rates (names with
"per second", "MB/s" or "throughput"), lower. Exit status 1 when any metric is worse than its
committed p90 by more than the tolerance (default 0%), 0 otherwise; benchmarks without a
committed file are listed and not checked.
"""
import argparse
import json
import pathlib
import re
import sys

RATE_WORDS = ("per second", "MB/s", "throughput")


def is_rate(metric):
    return any(word in metric for word in RATE_WORDS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=pathlib.Path, help="directory of a run's p90 files")
    parser.add_argument("--thresholds", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent / "Thresholds")
    parser.add_argument("--tolerance", type=float, default=0.0, help="percent allowed beyond the committed p90")
    parser.add_argument("--filter", default="", help="only benchmarks whose file name matches this regex")
    options = parser.parse_args()

    pattern = re.compile(options.filter)
    worse, checked, unchecked = [], 0, []
    for run_file in sorted(options.run.glob("*.p90.json")):
        if not pattern.search(run_file.name):
            continue
        committed_file = options.thresholds / run_file.name
        if not committed_file.exists():
            unchecked.append(run_file.name)
            continue
        now = json.loads(run_file.read_text())
        committed = json.loads(committed_file.read_text())
        for metric, limit in sorted(committed.items()):
            if metric not in now:
                continue
            value = now[metric]
            allowance = abs(limit) * options.tolerance / 100
            bad = value < limit - allowance if is_rate(metric) else value > limit + allowance
            checked += 1
            mark = "WORSE" if bad else "ok"
            name = run_file.name[: -len(".p90.json")]
            print(f"{mark:5}  {name}  {metric}: p90 {value} (committed {limit})")
            if bad:
                worse.append(name)
    for name in unchecked:
        print(f"-      {name[: -len('.p90.json')]}: no committed threshold")
    print(f"{checked} metrics checked, {len(worse)} worse than committed")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
