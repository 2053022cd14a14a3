#!/usr/bin/env python3
"""Writes fleet-18.yaml: Fleet's caching experiment (ASPLOS 2024) on Fleet's own 18 apps.

The apps, their order and the workload are Fleet's (jiachengh/Fleet @ 32f22f7a,
evaluation/exp-cache-app/run-cache-commercial.py and tool-scripts/use_utils.py): the
18-app sequence twice; each launch is HOME, 2 s, `am start -W`, then 30 s of use. The
published outcome is in fleet-published.json beside this file.

Inputs, each with its source in the generated file (docs/fidelity.md, "Fleet's experiment"):
- Memory by kind in front, from `dumpsys meminfo -d` App Summaries of Android 10 on a Pixel 4
  (EMDC-OS/remote-swap @ 484a3795, shell/220316/app_RSS/<app>.txt; kB). Each app is printed 100 s
  after a cold launch, then again after a session: Fleet's script swipes in every app
  (use_utils.py), so the print after the source's swipe session (100 swipes: Chrome, Google Maps,
  Instagram) is taken where there is one; the others' sessions were no swiping (Twitter idled,
  YouTube played a video for 10 minutes, Candy Crush ran a game script), so their first print is
  taken. Figures: Java Heap, Native Heap, Private Other, Graphics (Gfx dev + EGL mtrack + GL
  mtrack) and TOTAL Private Clean (the clean mapped code and resources). Measured there for
  Twitter, YouTube, Chrome (its browser process), Google Maps, Instagram and Candy Crush; the
  other twelve apps take a measured neighbour's breakdown (ESTIMATE, marked with the
  neighbour), Twitch with its own measured Java heap (Fleet's GC log), Firefox scaled to its
  measured anonymous memory (Ariadne, HPCA 2025, Pixel 7), its graphics and clean as Chrome's.
- Graphics scaled from the Pixel 4's 1080 x 2280 panel to the Pixel 3's 1080 x 2160 (buffers
  scale with pixels: x 2,332,800 / 2,462,400, derived).
- In the background, by mechanism: the drawn views go (ViewRootImpl destroys a stopped
  activity's hardware resources: the graphics, a run with a profile), and ART's background
  collector transition compacts and trims the Java heap: measured for Twitch only (Fleet's
  gc-working-set-twitch-without-BGC.log: footprint 59 MB before ForeToBack, 32 MB after), so
  27/59 of every app's Java heap is released entering the background (ESTIMATE for the other
  seventeen). The released part is the screen's `model`, released in `on_background`; the rest
  of the Java heap, the native heap and Private Other are the app's `data`, kept.
"""
import os

# Where the bundled experiments live (compiled into the binary; scenarios/experiments links here).
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "PressureLabHarness", "Bundled", "scenarios", "experiments")
KB = 1024
P4 = "EMDC-OS/remote-swap @ 484a3795 shell/220316/app_RSS"
# Measured (kB): Java Heap, Native Heap, Private Other, Graphics (Pixel 4), TOTAL Private Clean; Objects: Views.
MEASURED = {
    "twitter":    (38_040, 29_104, 5_056, 38_080, 56_232, 448, f"{P4}/twitter.txt, the print at line 124, 100 s after launch"),
    "youtube":    (30_480, 41_004, 6_656, 44_044, 57_204, 287, f"{P4}/youtube.txt, the print at line 124, 100 s after launch"),
    "chrome":     (9_104, 20_072, 25_140, 65_044, 24_784, 153,
                   f"{P4}/chrome.txt, the print at line 238, after 100 swipes (browser process only)"),
    "googlemaps": (66_560, 50_812, 10_000, 99_260, 73_944, 956, f"{P4}/googlemaps.txt, the print at line 254, after 100 swipes"),
    "instagram":  (50_728, 110_344, 8_660, 176_176, 61_264, 2624, f"{P4}/instagram.txt, the print at line 257, after 100 swipes"),
    "candycrush": (26_544, 83_264, 7_896, 148_368, 51_568, 40, f"{P4}/candycrush.txt, the print at line 124, 100 s after launch"),
}
# Fleet's order: name, measured breakdown or the neighbour it borrows (ESTIMATE), note.
APPS = [
    ("twitter", "twitter", "measured"),
    ("facebook", "instagram", "ESTIMATE: Instagram's measured breakdown (a media feed)"),
    ("instagram", "instagram", "measured"),
    ("telegram", "twitter", "ESTIMATE: Twitter's measured breakdown (a messenger: no figure found)"),
    ("line", "twitter", "ESTIMATE: Twitter's measured breakdown (a messenger: no figure found)"),
    ("youtube", "youtube", "measured"),
    ("tiktok", "youtube", "ESTIMATE: YouTube's measured breakdown (a video feed)"),
    ("spotify", "youtube", "ESTIMATE: YouTube's measured breakdown (a media player)"),
    ("twitch", "youtube", "ESTIMATE: YouTube's measured breakdown, with Twitch's own Java heap (59 MB footprint in front, "
                          "Fleet's gc-working-set-twitch-without-BGC.log line 737)"),
    ("rave", "youtube", "ESTIMATE: YouTube's measured breakdown (a video player)"),
    ("bigolive", "youtube", "ESTIMATE: YouTube's measured breakdown (a live-video app)"),
    ("amazonshop", "instagram", "ESTIMATE: Instagram's measured breakdown (an image-heavy feed)"),
    ("googlemaps", "googlemaps", "measured"),
    ("chrome", "chrome", "measured (the renderer and GPU processes are not in it)"),
    ("firefox", "chrome", "DERIVED: Chrome's measured heaps scaled to Firefox's measured 560 MB of anonymous memory "
                          "(Ariadne, HPCA 2025, Pixel 7, 10 s after launch); graphics and clean as Chrome's"),
    ("linkedin", "twitter", "ESTIMATE: Twitter's measured breakdown (a social feed)"),
    ("angrybirds", "candycrush", "ESTIMATE: Candy Crush's measured breakdown (a casual game)"),
    ("candycrush", "candycrush", "measured"),
]
PIXELS_PIXEL_3, PIXELS_PIXEL_4 = 1080 * 2160, 1080 * 2280
BACKGROUND_JAVA_RELEASED = (27, 59)  # Twitch: ART's footprint 59 MB in front, 32 MB in the background
VIEW_BYTES = KB  # a view's Java objects: an assumption (as `pressurelab import meminfo`), out of the kept Java heap
TWITCH_JAVA_KB = 59 * 1024


def breakdown(name, neighbour):
    java, native, other, graphics, clean, views, source = MEASURED[neighbour]
    if name == "twitch":
        java = TWITCH_JAVA_KB
    if name == "firefox":
        # Ariadne's anonymous memory holds the heaps, not the graphics buffers (those are
        # device memory and scale with the screen): only the heaps are scaled to it.
        scale = 560_000_000 / ((java + native + other) * KB)
        java, native, other = (round(x * scale) for x in (java, native, other))
    graphics = graphics * PIXELS_PIXEL_3 // PIXELS_PIXEL_4
    released = java * BACKGROUND_JAVA_RELEASED[0] // BACKGROUND_JAVA_RELEASED[1]
    data = (java - released + native + other) * KB - views * VIEW_BYTES
    return data, released * KB, graphics * KB, clean * KB, views, source


lines = [
    "# Fleet's caching experiment (ASPLOS 2024) on Fleet's 18 apps: generated by scripts/generate_fleet.py; edit that.",
    "# Each launch as Fleet's script does it: HOME, 2 s, launch, 30 s of use; the sequence twice, on the",
    "# Pixel 3 profile. Published outcome: fleet-published.json (jiachengh/Fleet @ 32f22f7a).",
    "# Each app: data = the Java heap it keeps in the background + Native Heap + Private Other; the",
    "# screen's model = the Java heap ART's background transition releases (on_background); backing =",
    "# Graphics (discarded by the system when the activity stops); clean = TOTAL Private Clean.",
    "scenario: 1",
    "name: fleet-18",
    "description: Fleet's 18 apps (6 measured breakdowns, 12 borrowed from a measured neighbour) launched in Fleet's order twice, 30 s each.",
    "seed: 18",
    "device:",
    "  # The Pixel 3 profile's budget (an estimate from inputs, see profiles/pixel-3-2018.yaml).",
    "  memory: 2149MiB",
    "  profile: pixel-3-2018",
    "apps:",
]
for name, neighbour, note in APPS:
    data, model, backing, clean, views, source = breakdown(name, neighbour)
    lines += [
        f"  {name}:   # {note}: {source}",
        f"    data: {data}B",
        f"    clean: {clean}B",
        "    on_background: [models]",
        "    screens:",
        f"      main: {{ tree: {{ views: {views}, fanout: 8, bytes: 1KiB }}, backing: {backing}B, model: {model}B }}",
        "    root: main",
    ]
apps_section = lines[lines.index("apps:"):]
lines += ["script:", "  - repeat:", "      times: 2", "      steps:"]
for name, _, _ in APPS:
    lines += ["        - home", "        - idle: 2s", f"        - launch: {name}", "        - idle: 30s"]
open(f"{OUT}/fleet-18.yaml", "w").write("\n".join(lines) + "\n")

# Fleet's hot-launch experiment (evaluation/exp-hot-launch/run-launch.py @ 32f22f7a): every app
# but the two games started and used 10 s (start_all_apps), then groups of three apps, each
# group in REPEAT_TIME = 4 rounds of: HOME, 2 s, launch, 30 s of use (3 x USE_DURATION 10 s;
# the last group twice that). Fleet records a round's launches from the second round on
# (commit 5241a180) and keeps those `am start -W` reports as HOT; here every resume is kept.
GROUPS = [("twitter", "facebook", "instagram"), ("telegram", "line", "youtube"), ("tiktok", "spotify", "twitch"),
          ("rave", "bigolive", "amazonshop"), ("googlemaps", "chrome", "firefox"), ("linkedin", "bigolive", "amazonshop"),
          ("spotify", "angrybirds", "candycrush")]
hot = [
    "# Fleet's hot-launch experiment (ASPLOS 2024) on Fleet's 18 apps: generated by scripts/generate_fleet.py; edit that.",
    "# As run-launch.py runs it: 16 apps started and used 10 s each, then groups of three apps, each group in",
    "# four rounds of HOME, 2 s, launch, 30 s of use (the last group 60 s). Published: fleet-published.json.",
    "scenario: 1",
    "name: fleet-hot-launch",
    "description: Fleet hot-launch workload, groups of three of its 18 apps relaunched in rounds.",
    "seed: 18",
    "device:",
    "  # The Pixel 3 profile's budget (an estimate from inputs, see profiles/pixel-3-2018.yaml).",
    "  memory: 2149MiB",
    "  profile: pixel-3-2018",
] + apps_section + ["script:"]
for name, _, _ in APPS:
    if name in ("angrybirds", "candycrush"):
        continue
    hot += ["  - home", "  - idle: 2s", f"  - launch: {name}", "  - idle: 10s"]
for index, group in enumerate(GROUPS):
    use = "60s" if index == len(GROUPS) - 1 else "30s"
    hot += ["  - repeat:", "      times: 4", "      steps:"]
    for name in group:
        hot += ["        - home", "        - idle: 2s", f"        - launch: {name}", f"        - idle: {use}"]
open(f"{OUT}/fleet-hot-launch.yaml", "w").write("\n".join(hot) + "\n")
