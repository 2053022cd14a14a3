#!/usr/bin/env python3
"""Writes fleet-18.yaml: Fleet's caching experiment (ASPLOS 2024) on Fleet's own 18 apps.

The apps, their order and the workload are Fleet's (jiachengh/Fleet @ 32f22f7a,
evaluation/exp-cache-app/run-cache-commercial.py and tool-scripts/use_utils.py): the
18-app sequence twice; each launch is HOME, 2 s, `am start -W`, then 30 s of use. The
published outcome is in fleet-published.json beside this file.

Inputs, each with its source in the generated file (docs/fidelity.md, "Fleet's experiment"):
- Memory by kind in front, from `dumpsys meminfo -d` App Summaries of Android 10 on a Pixel 4
  (EMDC-OS/remote-swap @ 484a3795, shell/220316/app_RSS/<app>.txt; kB). Each app is printed 100 s
  after a cold launch (the print at line 124, taken here), then again after a session of use.
  Figures: Java Heap, Native Heap, Private Other, Graphics (Gfx dev + EGL mtrack + GL
  mtrack) and TOTAL Private Clean (the clean mapped code and resources). Measured there for
  Twitter, YouTube, Chrome (its browser process), Google Maps, Instagram and Candy Crush (and for
  the Pixel 4 experiment's Gmail, Clash Royale and Angry Birds 2); the
  other twelve apps take a measured neighbour's breakdown (ESTIMATE, marked with the
  neighbour), Twitch with its own measured Java heap (Fleet's GC log), Firefox scaled to its
  measured anonymous memory (Ariadne, HPCA 2025, Pixel 7), its graphics and clean as Chrome's.
- Graphics scaled from the Pixel 4's 1080 x 2280 panel to the Pixel 3's 1080 x 2160 (buffers
  scale with pixels: x 2,332,800 / 2,462,400, derived).
- A game's own graphics context (Candy Crush, Clash Royale, Angry Birds 2: a game engine's GL context,
  not HWUI's): its Gfx dev + GL mtrack are `gpu`, held while the process lives and kept in the background
  (Angry Birds 2's pmap in the background, measured; the other games an ESTIMATE); its EGL mtrack (the
  window's buffers) is its screen's backing. Every other app's graphics are its screen's backing.
- In the background, by mechanism: the drawn views go (ViewRootImpl destroys a stopped
  activity's hardware resources: the graphics, a run with a profile), and ART's background
  collector transition frees the heap's garbage and shrinks its headroom: the heap a print
  catches in front is its live bytes plus half the foreground headroom, in the background its
  live bytes plus half the background headroom (ART's GrowForUtilization with the phones'
  dalvik.vm.heap* properties; the half is an ESTIMATE: a print falls anywhere between two
  collections). Twitch's live bytes are its own (Fleet's GC log). Until 2026-11-28, 27/59 of every
  app's Java heap was released, read from Twitch's 59 MB and 32 MB: those are ART's targets, not
  what the heap held. The released part is the screen's `model`, released in `on_background`;
  the rest of the Java heap, the native heap and Private Other are the app's `data`, kept.
- Growth with use: the same source's second print, after a session (Instagram and Google Maps:
  100 swipes, swipe100times.sh; Chrome: chrome_swipe100times.sh; YouTube: a 10-minute video,
  youtube_play10minutes.sh; Candy Crush: candycrush_play.sh), less the first: Java Heap + Native
  Heap + Private Other, per second of the session's own script (its sleeps and gesture
  durations; adb's own time per command not counted, so the rate is an upper bound: ESTIMATE).
  Fleet's use of an app (swipes for 30 s in the caching experiment, 10 s in the hot-launch
  one) grows it by that rate times its seconds of use: a `grow` step. Graphics growth is left
  out (the drawn views go when the activity stops), and the Java heap's growth is kept whole in
  the background (ESTIMATE). Apps with no session print take their breakdown neighbour's rate,
  Twitter's neighbours Instagram's (Twitter's second print is after 20 s idle, not use).
- Processes: the app's own processes besides the main one, each with its mean PSS + swap in
  the background on the Pixel 4 (shell/220316/AB_z_nolock/proc_info.txt, no memory pressure;
  the mean over the prints after the app's first launch, its own launches' prints left out, or
  over every print of that pid), and the kind OomAdjuster ranks it as: Chrome's renderer
  (isolated), GPU process and app zygote (bound); Instagram's `:mqtt` (a started service,
  FbnsService); Candy Crush's WebView renderer (isolated). ESTIMATES: Angry Birds Classic takes
  the renderer of Angry Birds 2 (the game the source ran); TikTok runs `:push` and
  `:pushservice`, declared as services in TikTok 9.8.3's manifest (MonkeyJerry/apkdump @
  32281f7a, apk.json), each of Instagram's `:mqtt` size. Firefox's content and GPU processes are
  declared by GeckoView but nothing measured their sizes: one process, holding Ariadne's total.
  Processes an app starts in another app's package (Twitter and Candy Crush start Chrome's main
  process through Custom Tabs) are not modelled.
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
    "chrome":     (8_720, 12_328, 17_028, 37_560, 24_460, 151,
                   f"{P4}/chrome.txt, the print at line 124, 100 s after launch (browser process only)"),
    "googlemaps": (51_000, 44_884, 9_160, 137_588, 72_132, 805, f"{P4}/googlemaps.txt, the print at line 124, 100 s after launch"),
    "instagram":  (35_428, 57_724, 6_952, 71_060, 51_336, 2036, f"{P4}/instagram.txt, the print at line 124, 100 s after launch"),
    "candycrush": (26_544, 83_264, 7_896, 148_368, 51_568, 40, f"{P4}/candycrush.txt, the print at line 124, 100 s after launch"),
    # Measured on the same phone for the Pixel 4 experiment's other three apps (scripts/generate_pixel4.py).
    "gmail":      (30_112, 34_372, 8_232, 50_324, 65_284, 444, f"{P4}/gmail.txt, the print at line 124, 100 s after launch"),
    "clashroyale": (18_476, 93_188, 4_544, 376_896, 42_936, 8, f"{P4}/clashroyale.txt, the print at line 124, 100 s after launch"),
    "angrybirds2": (16_856, 105_968, 258_304, 228_712, 87_944, 15,
                    f"{P4}/angrybirds.txt (Angry Birds 2, com.rovio.baba), the print at line 124, 100 s after launch"),
}
# Graphics by row (kB, the same prints): Gfx dev (GPU driver memory mapped into the process), EGL mtrack
# (the window's buffers) and GL mtrack (the GPU driver's memory for the app's GL objects).
GRAPHICS_ROWS = {
    "twitter": (2_920, 29_388, 5_772), "youtube": (8_844, 29_388, 5_812), "chrome": (1_288, 29_388, 6_884),
    "googlemaps": (33_916, 63_320, 40_352), "instagram": (15_432, 30_500, 25_128), "candycrush": (104_804, 34_376, 9_188),
    "gmail": (2_860, 29_388, 18_076), "clashroyale": (295_448, 48_980, 32_468), "angrybirds2": (162_016, 29_388, 37_308),
}
# Games that draw with a graphics context of their own (a game engine's GL context, not HWUI's): what that
# context holds (Gfx dev + GL mtrack) stays in the background while the process lives, and only the window's
# buffers (EGL mtrack) go (docs/fidelity.md, "Background footprints by mechanism"). Measured for Angry Birds 2
# (Unity, com.unity3d.player.UnityPlayerActivity): its pmap in the background keeps 161-165 MB of kgsl-3d0
# resident, none swapped (shell/220316/AB_z_nolock/AB_pmap_N.txt, N = 1 to 9). Clash Royale (Supercell's
# engine, com.supercell.titan.GameApp) and Candy Crush (King's engine) are taken to do the same: ESTIMATE.
OWN_GRAPHICS_CONTEXT = {"candycrush", "clashroyale", "angrybirds2"}
# Growth with use (kB of Java Heap + Native Heap + Private Other, the second print less the first)
# and the session's seconds by its script (EMDC-OS/remote-swap @ 484a3795 shell/play/): sleeps and
# gesture durations.
GROWTH = {
    "instagram":  (15_300 + 52_620 + 1_708, 100 * (0.2 + 1), f"{P4}/instagram.txt lines 151-157 and 284-290; swipe100times.sh"),
    "googlemaps": (15_560 + 5_928 + 840, 100 * (0.2 + 1), f"{P4}/googlemaps.txt lines 151-157 and 281-287; swipe100times.sh"),
    "chrome":     (384 + 7_744 + 8_112, 50 * (3 * 0.2 + 1 + 1 + 2), f"{P4}/chrome.txt lines 151-157 and 265-271; chrome_swipe100times.sh"),
    "youtube":    (27_824 + 83_320 + 2_024, 10 + 10 + 10 + 600 + 10 + 10 + 10 + 0.2,
                   f"{P4}/youtube.txt lines 151-157 and 278-284; youtube_play10minutes.sh"),
    "candycrush": (-2_948 + 26_412 + 184, 39 + 11 * 0.1, f"{P4}/candycrush.txt lines 150-156 and 268-274; candycrush_play.sh"),
}
# Processes besides the main one: (name, kind, kB, source).
PI = "EMDC-OS/remote-swap @ 484a3795 shell/220316/AB_z_nolock/proc_info.txt"
PROCESSES = {
    "chrome": [("sandboxed-process0", "isolated", 60_110, f"{PI}: com.android.chrome:sandboxed_process0 (:0), background mean of 77 prints"),
               ("privileged-process0", "bound", 90_393, f"{PI}: com.android.chrome:privileged_process0 (GPU), background mean of 77 prints"),
               ("zygote", "bound", 6_762, f"{PI}: com.android.chrome_zygote, background mean of 77 prints")],
    "instagram": [("mqtt", "service", 32_872, f"{PI}: com.instagram.android:mqtt, background mean of 73 prints")],
    "candycrush": [("webview-sandboxed-process0", "isolated", 53_323,
                    f"{PI}: the WebView renderer started with Candy Crush (pid 15168), mean of its 88 prints")],
    "angrybirds": [("webview-sandboxed-process0", "isolated", 41_747,
                    f"ESTIMATE: Angry Birds 2's WebView renderer ({PI}, pid 28898, mean of its 85 prints)")],
    "tiktok": [("push", "service", 32_872, "ESTIMATE: declared in TikTok 9.8.3's manifest (MonkeyJerry/apkdump @ 32281f7a apk.json); Instagram's :mqtt size"),
               ("pushservice", "service", 32_872, "ESTIMATE: as :push")],
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
    ("twitch", "youtube", "ESTIMATE: YouTube's measured breakdown, with Twitch's own Java heap (35 MB live, 59 MB target in front, "
                          "Fleet's gc-working-set-twitch-without-BGC.log line 737)"),
    ("rave", "youtube", "ESTIMATE: YouTube's measured breakdown (a video player)"),
    ("bigolive", "youtube", "ESTIMATE: YouTube's measured breakdown (a live-video app)"),
    ("amazonshop", "instagram", "ESTIMATE: Instagram's measured breakdown (an image-heavy feed)"),
    ("googlemaps", "googlemaps", "measured"),
    ("chrome", "chrome", "measured (the browser process; its renderer, GPU process and zygote under processes)"),
    ("firefox", "chrome", "DERIVED: Chrome's measured heaps scaled to Firefox's measured 560 MB of anonymous memory "
                          "(Ariadne, HPCA 2025, Pixel 7, 10 s after launch); graphics and clean as Chrome's"),
    ("linkedin", "twitter", "ESTIMATE: Twitter's measured breakdown (a social feed)"),
    ("angrybirds", "candycrush", "ESTIMATE: Candy Crush's measured breakdown (a casual game)"),
    ("candycrush", "candycrush", "measured"),
]
PIXELS_PIXEL_3, PIXELS_PIXEL_4 = 1080 * 2160, 1080 * 2280
VIEW_BYTES = KB  # a view's Java objects: an assumption (as `pressurelab import meminfo`), out of the kept Java heap

# ART's heap in front and in the background (Android 10; LineageOS/android_art lineage-17.1,
# runtime/gc/heap.cc Heap::GrowForUtilization and HeapGrowthMultiplier, runtime/runtime.cc): after a
# collection with B bytes live, the heap may grow to B + clamp(B x (1/U - 1) x M, MIN_FREE x M,
# MAX_FREE x M) before the next. U, MIN_FREE and MAX_FREE are the phones' dalvik.vm.heaptargetutilization,
# heapminfree and heapmaxfree (frameworks/native build/phone-xhdpi-2048-dalvik-heap.mk, inherited by the
# Pixel 3's device/google/crosshatch device.mk:602 and the Pixel 4's device/google/coral device.mk:728).
# M is 3.0 in front (kDefaultHeapGrowthMultiplier 2.0 + kExtraDefaultHeapGrowthMultiplier 1.0 with read
# barriers) and 1.0 in the background (the collector's pauses are not noticed). Fleet's Twitch log agrees:
# 35 MB live, 59 MB target in front; 24 MB live, 32 MB target in the background.
ART_UTILIZATION, ART_MIN_FREE_KB, ART_MAX_FREE_KB = 0.75, 512, 8 * 1024
ART_FRONT_MULTIPLIER, ART_BACKGROUND_MULTIPLIER = 3.0, 1.0
# Twitch's Java heap in front, from Fleet's log (gc-working-set-twitch-without-BGC.log line 737: 35 MB
# live after the last collection in front, 59 MB target) and in the background (lines 767 and 787:
# 25 MB and 24 MB live, 33 MB and 32 MB targets): measured live sizes, placed by the same estimate.
TWITCH_LIVE_FRONT_KB, TWITCH_LIVE_BACKGROUND_KB = 35 * 1024, 24 * 1024
# How often Twitch's runtime collects in the background (it allocates there): the mean interval between the
# background collections after its collector transition in Fleet's log (gc-working-set-twitch-without-BGC.log,
# lines 745-1034: ForeToBack at 01:38:02.9, the transition's collection at 01:38:07.9, then 13 more, 19.8 to 23.4 s
# apart; the 12 intervals after the first, mean 21.64 s). Measured for Twitch only: the other apps collect only at
# the transition (how much they allocate in the background is not known).
TWITCH_BACKGROUND_GC_SECONDS = 21.6
TWITCH_BACKGROUND_GC_SOURCE = "measured: Fleet's gc-working-set-twitch-without-BGC.log, lines 745-1034"


def art_headroom(live_kb, multiplier):
    """How far ART lets the heap grow past `live_kb` before it collects again (GrowForUtilization)."""
    grow = live_kb * (1 / ART_UTILIZATION - 1) * multiplier
    return min(max(grow, ART_MIN_FREE_KB * multiplier), ART_MAX_FREE_KB * multiplier)


def art_resident(live_kb, multiplier):
    """The heap a print catches, on average: live plus half the headroom (ESTIMATE: a print falls
    anywhere between two collections, and allocation fills the headroom at an even pace)."""
    return live_kb + art_headroom(live_kb, multiplier) / 2


def art_live(java_kb):
    """The live bytes behind a Java heap printed in front (art_resident inverted, by bisection)."""
    low, high = 0.0, float(java_kb)
    for _ in range(60):
        middle = (low + high) / 2
        if art_resident(middle, ART_FRONT_MULTIPLIER) < java_kb:
            low = middle
        else:
            high = middle
    return low


def java_in_background(name, java_kb):
    """The Java heap an app keeps in the background: its live bytes and half the background headroom.
    ART's transition collection (5 s after the app goes to the background) frees the garbage, and the
    heap's headroom shrinks from the foreground's to the background's."""
    if name == "twitch":
        return round(art_resident(TWITCH_LIVE_BACKGROUND_KB, ART_BACKGROUND_MULTIPLIER))
    return round(art_resident(art_live(java_kb), ART_BACKGROUND_MULTIPLIER))


def growth_neighbour(neighbour):
    """The app whose growth rate an app takes: its own, its breakdown neighbour's, Instagram's for Twitter's."""
    return "instagram" if neighbour == "twitter" else neighbour


def growth(neighbour, seconds):
    """Bytes an app grows by in `seconds` of use (the measured rate of its growth neighbour)."""
    kb, session, _ = GROWTH[growth_neighbour(neighbour)]
    return round(kb * KB * seconds / session)


def breakdown(name, neighbour, pixels=PIXELS_PIXEL_3):
    """An app's memory by kind, kB (bytes where the scenario wants them), its graphics scaled to `pixels`: the
    drawn views (`backing`, discarded as the activity stops) and a game's own graphics context (`gpu`, kept)."""
    java, native, other, graphics, clean, views, source = MEASURED[neighbour]
    gpu = 0
    if neighbour in OWN_GRAPHICS_CONTEXT:
        gfx_dev, _, gl = GRAPHICS_ROWS[neighbour]
        gpu = (gfx_dev + gl) * pixels // PIXELS_PIXEL_4
        graphics -= gfx_dev + gl
    if name == "twitch":
        java = round(art_resident(TWITCH_LIVE_FRONT_KB, ART_FRONT_MULTIPLIER))
    if name == "firefox":
        # Ariadne's anonymous memory holds the heaps, not the graphics buffers (those are
        # device memory and scale with the screen): only the heaps are scaled to it.
        scale = 560_000_000 / ((java + native + other) * KB)
        java, native, other = (round(x * scale) for x in (java, native, other))
    graphics = graphics * pixels // PIXELS_PIXEL_4
    released = java - java_in_background(name, java)
    data = (java - released + native + other) * KB - views * VIEW_BYTES
    return data, released * KB, graphics * KB, clean * KB, views, source, gpu * KB


def app_lines(name, neighbour, note, pixels=PIXELS_PIXEL_3, comment=None):
    """The scenario lines of one app (its processes aside)."""
    data, model, backing, clean, views, source, gpu = breakdown(name, neighbour, pixels)
    lines = [f"  {name}:   # {note}: {source}"] + ([comment] if comment else []) + [
        f"    data: {data}B",
        f"    clean: {clean}B",
    ]
    if gpu:
        lines.append(f"    gpu: {gpu}B   # its own graphics context (Gfx dev + GL mtrack), kept in the background")
    return lines + [
        "    on_background: [models]",
        "    screens:",
        f"      main: {{ tree: {{ views: {views}, fanout: 8, bytes: 1KiB }}, backing: {backing}B, model: {model}B }}",
        "    root: main",
    ]


def main():
    lines = [
        "# Fleet's caching experiment (ASPLOS 2024) on Fleet's 18 apps: generated by scripts/generate_fleet.py; edit that.",
        "# Each launch as Fleet's script does it: HOME, 2 s, launch, 30 s of use (the app grows as it is used:",
        "# `grow`); the sequence twice, on the Pixel 3 profile. Published outcome: fleet-published.json",
        "# (jiachengh/Fleet @ 32f22f7a).",
        "# Each app: data = the Java heap it keeps in the background + Native Heap + Private Other; the",
        "# screen's model = the Java heap ART's background transition releases (on_background); backing =",
        "# Graphics (discarded by the system when the activity stops), a game's window buffers only, its own",
        "# graphics context being gpu (kept); clean = TOTAL Private Clean.",
        "scenario: 1",
        "name: fleet-18",
        "description: Fleet's 18 apps (6 measured breakdowns, 12 borrowed from a measured neighbour) launched in Fleet's order twice, 30 s each.",
        "seed: 18",
        "device:",
        "  # Memory as the kernel holds it (the profile's kernel: section, docs/memory-under-load.md);",
        "  # memory is the most the apps could hold: MemTotal.",
        "  memory_model: kernel",
        "  memory: 3761MiB",
        "  profile: pixel-3-2018",
        "apps:",
    ]
    NEIGHBOUR = {name: neighbour for name, neighbour, _ in APPS}
    for name, neighbour, note in APPS:
        kb, session, grown_from = GROWTH[growth_neighbour(neighbour)]
        grows = "measured" if growth_neighbour(neighbour) == name else f"ESTIMATE: {growth_neighbour(neighbour)}'s rate"
        lines += app_lines(name, neighbour, note, comment=f"    # Grows {kb} kB in {session:.1f} s of use ({grows}: {grown_from})")
        if name == "twitch":
            lines.insert(len(lines) - 4, f"    background_gc: {TWITCH_BACKGROUND_GC_SECONDS}s   # {TWITCH_BACKGROUND_GC_SOURCE}")
        if name in PROCESSES:
            lines.append("    processes:")
            for process, kind, kb_size, process_source in PROCESSES[name]:
                lines += [f"      # {process_source}", f"      {process}: {{ kind: {kind}, data: {kb_size * KB}B }}"]
    apps_section = lines[lines.index("apps:"):]
    lines += ["script:", "  - repeat:", "      times: 2", "      steps:"]
    for name, neighbour, _ in APPS:
        lines += ["        - home", "        - idle: 2s", f"        - launch: {name}", "        - idle: 30s",
                  f"        - grow: {growth(neighbour, 30)}B"]
    open(f"{OUT}/fleet-18.yaml", "w").write("\n".join(lines) + "\n")

    # Fleet's hot-launch experiment (evaluation/exp-hot-launch/run-launch.py @ 32f22f7a): every app
    # but the two games started and used 10 s (start_all_apps(duration=10); use_app_X(d) runs three
    # phases of d/3 s), then groups of three apps, each group in REPEAT_TIME = 4 rounds of: HOME,
    # 2 s, launch, then USE_DURATION = 10 s of use (the last group twice that), the use only from the
    # second round on (`if i != 0`: round 0 launches the group back to back). Fleet records a
    # round's launches from the second round on (commit 5241a180) and keeps those `am start -W`
    # reports as HOT; here every resume is kept.
    GROUPS = [("twitter", "facebook", "instagram"), ("telegram", "line", "youtube"), ("tiktok", "spotify", "twitch"),
              ("rave", "bigolive", "amazonshop"), ("googlemaps", "chrome", "firefox"), ("linkedin", "bigolive", "amazonshop"),
              ("spotify", "angrybirds", "candycrush")]
    hot = [
        "# Fleet's hot-launch experiment (ASPLOS 2024) on Fleet's 18 apps: generated by scripts/generate_fleet.py; edit that.",
        "# As run-launch.py runs it: 16 apps started and used 10 s each, then groups of three apps, each group in",
        "# four rounds of HOME, 2 s, launch, and from the second round on 10 s of use (the last group 20 s).",
        "# Published: fleet-published.json.",
        "scenario: 1",
        "name: fleet-hot-launch",
        "description: Fleet hot-launch workload, groups of three of its 18 apps relaunched in rounds.",
        "seed: 18",
        "device:",
        "  # Memory as the kernel holds it (the profile's kernel: section, docs/memory-under-load.md);",
        "  # memory is the most the apps could hold: MemTotal.",
        "  memory_model: kernel",
        "  memory: 3761MiB",
        "  profile: pixel-3-2018",
    ] + apps_section + ["script:"]
    for name, neighbour, _ in APPS:
        if name in ("angrybirds", "candycrush"):
            continue
        hot += ["  - home", "  - idle: 2s", f"  - launch: {name}", "  - idle: 10s", f"  - grow: {growth(neighbour, 10)}B"]
    for index, group in enumerate(GROUPS):
        use = 20 if index == len(GROUPS) - 1 else 10
        for name in group:
            hot += ["  - home", "  - idle: 2s", f"  - launch: {name}"]
        hot += ["  - repeat:", "      times: 3", "      steps:"]
        for name in group:
            hot += ["        - home", "        - idle: 2s", f"        - launch: {name}", f"        - idle: {use}s",
                    f"        - grow: {growth(NEIGHBOUR[name], use)}B"]
    open(f"{OUT}/fleet-hot-launch.yaml", "w").write("\n".join(hot) + "\n")


if __name__ == "__main__":
    main()
