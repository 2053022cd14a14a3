/// The screens of UIKit's own containers: their views are small, but their bars draw
/// bitmaps. Names start with `ui-`, which scenarios should not use for their own screens.
public enum ContainerScreens {
    /// A navigation controller's view: a container, a navigation bar (750x88 bitmap) and a
    /// content area.
    public static let navigation = "ui-navigation"
    /// A tab bar controller's view: a container and a tab bar (750x98 bitmap).
    public static let tabBar = "ui-tab-bar"
    /// The "More" list of a tab bar controller with more than five tabs.
    public static let more = "ui-more"

    static func spec(named name: String) -> ScreenSpec? {
        switch name {
        case navigation:
            return ScreenSpec(name: name, view: try! .wide(count: 3, bytes: 256,
                                                           rootBacking: Layer.bitmapBytes(width: 750, height: 88)))
        case tabBar:
            return ScreenSpec(name: name, view: try! .wide(count: 3, bytes: 256,
                                                           rootBacking: Layer.bitmapBytes(width: 750, height: 98)))
        case more:
            return ScreenSpec(name: name, view: try! .wide(count: 9, bytes: 512,
                                                           rootBacking: Layer.bitmapBytes(width: 750, height: 1334)))
        default:
            return nil
        }
    }
}

extension RuntimeContext {
    /// Registers a container's built-in screen the first time it is needed.
    func containerScreen(named name: String) throws(RuntimeError) -> ScreenSpec {
        if let screen = registeredScreens[name] { return screen }
        guard let spec = ContainerScreens.spec(named: name) else { throw .unknownScreen(name) }
        try register(spec)
        return spec
    }
}
