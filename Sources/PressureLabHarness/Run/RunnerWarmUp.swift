import PressureLab

/// A run of a small built-in scenario, once per process, before the first measured run.
///
/// The first time a process walks a code path, the Swift runtime allocates and keeps what
/// that path needs (type metadata for generic and closure types, lazily made caches). When
/// that first walk happens inside a measured scope, those bytes are charged to whichever
/// controller is being built: the first run of a process measured a few KB more than the
/// same run later in the same process. Walking the paths once beforehand makes a run's
/// figures the same whether it is a process's first or its hundredth: the bundled suite's 63
/// runs measure the same in one process as in 63 sweep workers (release build; a debug
/// build put 4 of them up to 64 B apart), and workers agree with each other whatever
/// `--jobs` is.
enum RunnerWarmUp {
    /// Runs the warm-up the first time it is asked for; later calls do nothing.
    static func ensure() {
        _ = done
    }

    private static let done: Bool = {
        guard let scenario = try? ScenarioLoader(hostLimitBytes: 1 << 30).parse(yaml, path: "warm-up") else { return false }
        // One pair a UIKit generation (the unload cycles of iPhone OS 2.2, iOS 3 to 5 and
        // iOS 6+ walk different paths), with the terminations that take other paths (a
        // freezer, lmk's ranking). A sweep's worker pays this for every cell: the seven pairs
        // this once had were half of a small cell's time; with these three, 280 cells (4
        // scenarios x every cleanup policy x every termination x no compression and LZ4)
        // measured the same bytes, counts and device times as with seven.
        let pairs: [(Cleanup, Termination)] = [(.ios6, .jetsam), (.ios3, .freeze), (.ios2, .lmk)]
        // Played without reading results: a run's figures are read after its last step,
        // outside every measured scope, and their percentiles walk each latency histogram
        // (about a quarter of the warm-up's instructions; callgrind, 2026-11-24).
        for (policy, termination) in pairs {
            guard let simulation = try? Simulation(unwarmed: scenario, cleanup: policy, termination: termination, seed: nil,
                                                   profile: nil, compressor: nil, swapFileBytes: nil, events: { _ in },
                                                   keepsEvents: false, memory: nil, progress: nil) else { continue }
            try? simulation.play(scenario.script)
            simulation.end()
        }
        return true
    }()

    /// Every kind of step on every kind of screen, under pressure (kills, freezes, warnings,
    /// relaunches with restoration) and with a per-app limit crossed.
    static let yaml = """
        scenario: 1
        name: warm-up
        seed: 1
        device:
          memory: 6MiB
          app_limit: 3MiB
        apps:
          one:
            data: 64KiB
            screens:
              list: { kind: table, rows: 50, visible_rows: 4, cell: { views: 2, bytes: 2KiB }, backing: 64KiB, cache: 64KiB }
              detail: { tree: { depth: 2, fanout: 2, bytes: 1KiB }, outlets: 2, releases_outlets: false, backing: 256KiB, cache: 64KiB, model: 32KiB }
              form: { tree: { views: 20, fanout: 4, bytes: 512B }, backing: 128KiB }
              a: {}
              b: {}
              c: {}
              d: {}
              e: {}
            root: { tabs: [ { nav: list }, { nav: detail }, form, a, b, c, d, e ] }
          two:
            screens:
              big: { tree: { depth: 1, fanout: 3, bytes: 1KiB }, backing: 1MiB, cache: 256KiB, model: 64KiB }
            root: { nav: big }
          three:
            screens:
              big: { backing: 1MiB }
            root: big
        script:
          - launch: one
          - scroll: 10
          - scroll: -5
          - push: detail
          - type: 1KiB
          - present: form
          - type: 2KiB
          - dismiss
          - select_tab: 1
          - select_tab: 6
          - select_tab: 0
          - warning
          - warning: critical
          - pop
          - pop_to_root
          - select_tab: 1   # reloads a view whose forgotten outlets outlived its unload (iOS 3's cycle)
          - switch: two
          - push: big
          - switch: three
          - idle: 30s
          - switch: one
          - switch: two
          - repeat: { times: 4, steps: [ { push: big } ] }
          - home
          - launch: three
          - switch: one
          - type: 4MiB
          - launch: one
          - random: { steps: 20, mix: { push: 2, pop: 2, switch: 1, type: 1, warning: 1, home: 1, present: 1, dismiss: 1, scroll: 1, select_tab: 1, idle: 1, pop_to_root: 1 } }
        """
}
