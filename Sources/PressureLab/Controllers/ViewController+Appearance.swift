/// The appearance callbacks (UIKit names). A ``Window`` drives them in order; the
/// runtime records each one before it runs the override.
extension ViewController {
    /// Runs `viewWillAppear` and prepares what showing needs (model, cache).
    final func performWillAppear() throws {
        try loadViewIfNeeded()
        try loadModelIfNeeded()
        appearance = .appearing
        record(.viewWillAppear)
        viewWillAppear(false)
        fillCacheIfNeeded()
    }

    /// Lays the view out (`viewWillLayoutSubviews`, `viewDidLayoutSubviews`) and draws
    /// the backing stores that need it.
    final func performLayoutAndDisplay() {
        let views = viewIfLoaded?.treeCount ?? 0
        runtime.count { $0.viewsLaidOut += views }
        record(.viewWillLayoutSubviews)
        viewWillLayoutSubviews()
        record(.viewDidLayoutSubviews)
        viewDidLayoutSubviews()
        drawBackingStores()
    }

    final func performDidAppear() {
        appearance = .appeared
        lastAppearance = runtime.nextAppearance()
        record(.viewDidAppear)
        viewDidAppear(false)
    }

    final func performWillDisappear() {
        appearance = .disappearing
        record(.viewWillDisappear)
        viewWillDisappear(false)
    }

    final func performDidDisappear() {
        appearance = .disappeared
        record(.viewDidDisappear)
        viewDidDisappear(false)
    }
}

