#!/usr/bin/env python3
"""Writes pixel4-rounds.yaml and pixel4-published.json: the Pixel 4 runs whose background memory
PressureLab's Fleet comparison borrows (EMDC-OS/remote-swap @ 484a3795, shell/220316/), as an
experiment of their own (`pressurelab device --experiment pixel4`).

The apps are the ones those runs launched, with their memory by kind from the same phone's
`dumpsys meminfo -d` prints (shell/220316/app_RSS/<app>.txt, the print 100 s after a cold launch:
scripts/generate_fleet.py's MEASURED, graphics at the Pixel 4's own 1080 x 2280 panel, nothing
scaled), their Java heap in the background by ART's sizing rule (generate_fleet.java_in_background)
and their own processes (generate_fleet.PROCESSES). The procedure and the published figures are
read from the runs' own files; pixel4-data.json (written by reading the source, see PROCEDURE's
notes) holds them, and every figure keeps its file and line in the generated files.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate_fleet as fleet  # noqa: E402

OUT = fleet.OUT
KB = fleet.KB
SOURCE = "EMDC-OS/remote-swap @ 484a3795"


def app_lines(name, neighbour, note):
    """The scenario lines of one app, as fleet-18.yaml writes them, at the Pixel 4's panel."""
    lines = fleet.app_lines(name, neighbour, note, pixels=fleet.PIXELS_PIXEL_4)
    if name in fleet.PROCESSES:
        lines.append("    processes:")
        for process, kind, kb_size, process_source in fleet.PROCESSES[name]:
            lines += [f"      # {process_source}", f"      {process}: {{ kind: {kind}, data: {kb_size * KB}B }}"]
    return lines


# The nine apps of the runs, in their order (shell/220316/AB_z_nolock/test1.sh lines 42-489:
# launch_app.sh NAME; the packages from the round files' `Starting: Intent { cmp=... }`), with the
# breakdown each takes (generate_fleet.MEASURED) and the seconds the script sleeps after its launch
# before the next (the sum of its `sleep` lines up to the next launch; adb's own time per command
# is not counted: an estimate, the run took longer).
APPS = [
    ("googlemaps", "googlemaps", "measured", 50, "com.google.android.apps.maps"),
    ("youtube", "youtube", "measured", 50, "com.google.android.youtube"),
    ("candycrush", "candycrush", "measured", 90, "com.king.candycrushsaga"),
    ("chrome", "chrome", "measured (the browser process; its renderer, GPU process and zygote under processes)", 50,
     "com.android.chrome"),
    ("twitter", "twitter", "measured", 132, "com.twitter.android"),
    ("angrybirds2", "angrybirds2", "measured; its WebView renderer measured in this run", 130, "com.rovio.baba"),
    ("gmail", "gmail", "measured", 90, "com.google.android.gm"),
    ("instagram", "instagram", "measured", 75, "com.instagram.android"),
    ("clashroyale", "clashroyale", "measured", 180, "com.supercell.clashroyale"),
]
ROUNDS = 10  # 1109.sh: ./test1.sh 0 ... ./test1.sh 9
# Processes measured in these runs (generate_fleet.PROCESSES, read from AB_z_nolock/proc_info.txt):
# Angry Birds 2's own WebView renderer is generate_fleet's "angrybirds" entry (its source is this run).
PROCESSES = dict(fleet.PROCESSES)
PROCESSES["angrybirds2"] = [(n, k, kb, s.replace("ESTIMATE: Angry Birds 2's", "Angry Birds 2's"))
                            for n, k, kb, s in fleet.PROCESSES["angrybirds"]]

# Hot launches (`am start -W` WaitTime, ms, LaunchState HOT; rounds 1 to 9, round 0 launches cold),
# read from the round files: memory free (AB_z_nolock/N.txt, zram on, nothing locked) and memory
# locked with swap on flash (AB_playf_all/N.txt: its 1109.sh runs initialize_flash_launch.sh, which
# turns zram off and swaps to /data/swapspace, and two /data/lock_mem/lock_memory; the round files'
# `free -m` shows 2,082 MiB more used before the first launch, 4,677 against 2,595, and 8,191 MiB of
# swap; its test1.sh also uses each app after launching it: 100 swipes in Maps and Instagram, 10 minutes of
# video in YouTube, taps or swipes in Candy Crush, Chrome, Angry Birds and Clash Royale; the memory-free run does not).
HOT_MS = {
    "memory-free": "AB_z_nolock",
    "locked-flash-swap": "AB_playf_all",
}
LOCKED_MIB = 4677 - 2595
SWAP_FILE_MIB = 8191


def hot_launches(run, app_package):
    """The HOT WaitTimes of `app_package` in `run`'s round files (a checkout of the source, SOURCE_DIR)."""
    import re
    values = []
    for round_index in range(ROUNDS):
        text = open(os.path.join(SOURCE_DIR, "shell", "220316", run, f"{round_index}.txt")).read()
        package, state = None, None
        for line in text.split("\n"):
            match = re.match(r"Starting: Intent \{ cmp=([^/]+)/", line)
            if match:
                package, state = match.group(1), None
            match = re.match(r"LaunchState: (\w+)", line)
            if match:
                state = match.group(1)
            match = re.match(r"WaitTime: (\d+)", line)
            if match and package == app_package and state == "HOT":
                values.append(float(match.group(1)))
    return values


# A checkout of EMDC-OS/remote-swap at 484a3795 (the round files are read from it): the first
# argument, else the environment's PRESSURELAB_REMOTE_SWAP.
SOURCE_DIR = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PRESSURELAB_REMOTE_SWAP", "")


def main():
    lines = [
        "# The Pixel 4 runs (EMDC-OS/remote-swap @ 484a3795, shell/220316/AB_z_nolock and AB_playf_all): generated by",
        "# scripts/generate_pixel4.py; edit that. Nine apps launched in turn (no Home between: each launch brings the next",
        "# app to the front), each followed by the script's sleeps, for ten rounds; round 0 launches cold. Published:",
        "# pixel4-published.json. Memory by kind as fleet-18.yaml's, at the Pixel 4's own panel.",
        "scenario: 1",
        "name: pixel4-rounds",
        "description: Nine apps launched in turn for ten rounds on a Pixel 4, as the source's runs did.",
        "seed: 4",
        "device:",
        "  # Memory as the kernel holds it (the profile's kernel: section, docs/memory-under-load.md);",
        "  # memory is the most the apps could hold: MemTotal.",
        "  memory_model: kernel",
        "  memory: 5447MiB",
        "  profile: pixel-4-2019",
        "apps:",
    ]
    for name, neighbour, note, _, _ in APPS:
        app = app_lines(name, neighbour, note)
        if name in PROCESSES and name not in fleet.PROCESSES:
            app.append("    processes:")
            for process, kind, kb_size, process_source in PROCESSES[name]:
                app += [f"      # {process_source}", f"      {process}: {{ kind: {kind}, data: {kb_size * KB}B }}"]
        lines += app
    lines += ["script:", "  - repeat:", f"      times: {ROUNDS}", "      steps:"]
    for name, _, _, seconds, _ in APPS:
        lines += [f"        - launch: {name}", f"        - idle: {seconds}s"]
    open(f"{OUT}/pixel4-rounds.yaml", "w").write("\n".join(lines) + "\n")

    if not SOURCE_DIR:
        sys.exit("generate_pixel4.py: give a checkout of EMDC-OS/remote-swap (argument or PRESSURELAB_REMOTE_SWAP) "
                 "to read the hot launches from")
    # PressureLabHarness's MeasuredBackgroundMemory.byApp (its source: AB_z_nolock/proc_info.txt), kB.
    measured_background = {
        "googlemaps": 162_789, "youtube": 150_646, "candycrush": 329_012,
        "chrome": 256_089, "twitter": 113_103, "instagram": 188_147,
        # The same definition over the same file for the other three apps (read 2026-11-28 with the six above
        # reproduced: proc_info.txt lines 1185-15514, 1318-15475 and 1708-15328).
        "angrybirds2": 690_909, "gmail": 102_415, "clashroyale": 627_398,
    }
    published = {
        "published": "Pixel 4, Android 10 (AOSP QQ3A.200805.001 with GMS): nine apps launched in turn for ten rounds, "
                     "with memory free (zram on, nothing locked) and with 2,082 MiB locked and swap on flash; each app's "
                     "memory in the background (PSS + swap, the mean over the prints after its first launch but those "
                     "right after its own launches) and its hot launches (WaitTime of `am start -W`, LaunchState HOT).",
        "source": {
            "repository": "EMDC-OS/remote-swap",
            "commit": COMMIT,
            "files": {
                "procedure": "shell/220316/AB_z_nolock/1109.sh, test1.sh; shell/220316/AB_playf_all/1109.sh, test1.sh",
                "hotLaunchMs": "shell/220316/AB_z_nolock/N.txt and shell/220316/AB_playf_all/N.txt, N = 1 to 9",
                "backgroundKB": "shell/220316/AB_z_nolock/proc_info.txt (as PressureLabHarness's MeasuredBackgroundMemory)",
                "locked": "shell/220316/AB_playf_all/0.txt: free -m before the first launch, used 4,677 MiB (2,595 in AB_z_nolock/0.txt), swap 8,191 MiB",
            },
        },
        "apps": [name for name, *_ in APPS],
        "aliveAfterLaunch": {},
        "hotLaunchMs": {configuration: {name: hot_launches(run, package) for name, _, _, _, package in APPS}
                        for configuration, run in HOT_MS.items()},
        "backgroundKB": {"memory-free": {name: float(kb) for name, kb in measured_background.items()}},
        "notes": {
            "memory-free": "zram 2 GiB (lz4), nothing locked, no use between launches: no memory pressure, nothing killed.",
            "locked-flash-swap": "2,082 MiB locked by two lock_memory processes, zram off, an 8 GiB swap file on flash; the "
                                 "source's test1.sh there also uses each app after launching it (100 swipes in Maps and Instagram, "
                                 "10 minutes of video in YouTube, taps or swipes in the games and Chrome); the modelled "
                                 "workload does not, so its hot launches mix pressure with heavier use.",
            "backgroundKB": "Measured for all nine apps (the six the Fleet comparison uses as PressureLabHarness's MeasuredBackgroundMemory).",
        },
    }
    with open(f"{OUT}/pixel4-published.json", "w") as out:
        json.dump(published, out, indent=1)
        out.write("\n")


COMMIT = "484a37951c74fef9b87bae3de52a3d468d33909d"

if __name__ == "__main__":
    main()
