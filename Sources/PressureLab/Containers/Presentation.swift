/// Modal presentation: any controller can present one; presented controllers can present
/// further (a chain). As in UIKit without `definesPresentationContext`, the presentation
/// is made by the top of the window's presentation chain, which covers the whole screen:
/// the presenting controllers' views leave the window.
extension ViewController {
    /// Presents `controller` modally over everything on screen.
    public final func present(_ controller: ViewController) throws {
        precondition(controller.presentingViewController == nil && controller.parent == nil,
                     "\(controller.id) is already presented or has a parent")
        let presenter = runtime.window?.presentationContext ?? topOfPresentationChain
        try presenter.changeHierarchy({
            presenter.presentedViewController = controller
            controller.presentingViewController = presenter
        }, undo: {
            presenter.presentedViewController = nil
            controller.presentingViewController = nil
        })
    }

    /// Dismisses the controller this one presents (and any it presents in turn); called on
    /// a presented controller that presents nothing, dismisses that controller.
    public final func dismiss() throws {
        let presenter: ViewController
        if presentedViewController != nil {
            presenter = self
        } else if let presenting = presentingViewController {
            presenter = presenting
        } else {
            return
        }
        guard let dismissed = presenter.presentedViewController else { return }
        let top = dismissed.topOfPresentationChain
        let change = {
            presenter.presentedViewController = nil
            dismissed.presentingViewController = nil
        }
        let undo = {
            presenter.presentedViewController = dismissed
            dismissed.presentingViewController = presenter
        }
        if let window = runtime.window, window.isOnScreen(top) {
            try window.performTransition(change, undo: undo)
        } else {
            change()
        }
    }

    /// This controller, or the last one presented over it.
    public final var topOfPresentationChain: ViewController {
        var top = self
        while let presented = top.presentedViewController { top = presented }
        return top
    }
}
