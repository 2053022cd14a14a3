/// Errors of the simulated runtime: what failed and where.
public enum RuntimeError: Error, Equatable, CustomStringConvertible {
    /// A screen's view could not be loaded (its description is missing, corrupt or too large).
    case viewLoadFailed(controller: String, cause: ViewDescriptionError)
    /// A screen declaration is invalid.
    case invalidScreen(screen: String, reason: String)
    /// No screen of that name was registered with the runtime.
    case unknownScreen(String)
    /// No app of that name is installed on the device.
    case unknownApp(String)
    /// A bundle file could not be written or read.
    case bundle(path: String, reason: String)
    /// `loadView` returned without setting a view.
    case loadViewSetNoView(controller: String)
    /// The app's memory gate refused an allocation (the app is being killed), or the host
    /// had no memory for it.
    case memoryRefused(app: String, MemoryGate.Refusal)

    public var description: String {
        switch self {
        case .viewLoadFailed(let controller, let cause):
            return "\(controller): cannot load the view: \(cause.description)"
        case .invalidScreen(let screen, let reason):
            return "screen '\(screen)': \(reason)"
        case .unknownScreen(let name):
            return "no screen named '\(name)' is registered"
        case .unknownApp(let name):
            return "no app named '\(name)' is installed"
        case .bundle(let path, let reason):
            return "\(path): \(reason)"
        case .memoryRefused(let app, let refusal):
            return "\(app): an allocation was refused: it would exceed \(refusal)"
        case .loadViewSetNoView(let controller):
            return "\(controller): loadView() returned without setting a view (call setView(_:) or super.loadView())"
        }
    }
}
