import Foundation
import PressureLabHeap
import SystemPackage

/// State restoration: the archive of the hierarchy the user left (stacks, selected tab,
/// modal chain, user data), saved atomically on entering the background and read back by a
/// cold launch.
extension Application {
    /// The archive of the current hierarchy.
    public func makeRestorationArchive() -> RestorationArchive {
        guard let root = rootViewController else {
            return RestorationArchive(app: name, root: .init(kind: "screen", screen: nil, children: [], selected: nil, userData: []),
                                      modals: [])
        }
        var modals: [RestorationArchive.Node] = []
        var presented = root.presentedViewController
        while let controller = presented {
            modals.append(node(for: controller))
            presented = controller.presentedViewController
        }
        return RestorationArchive(app: name, root: node(for: root), modals: modals)
    }

    /// Saves the archive atomically; all user data counts as saved.
    public func saveRestorationArchive() throws {
        try makeRestorationArchive().write(to: archivePath)
        let bytes = (try? HostFiles.size(of: FilePath(archivePath))) ?? 0
        runtime.count { work in
            work.storageWriteBytes += bytes
            work.storageWrites += 1
        }
        for controller in controllers { controller.savedUserDataCount = controller.userData.count }
        recordApp(.restorationSaved)
    }

    func node(for controller: ViewController) -> RestorationArchive.Node {
        if let navigation = controller as? NavigationController {
            return .init(kind: "navigation", screen: nil, children: navigation.viewControllers.map(node(for:)),
                         selected: nil, userData: [])
        }
        if let tabs = controller as? TabBarController {
            return .init(kind: "tabs", screen: nil, children: tabs.tabs.map(node(for:)),
                         selected: tabs.selectedIndex, userData: [])
        }
        // Reading user data that was compressed or swapped out faults it back first (counted
        // as decompression or a swap read): an archive must hold the bytes it marks saved.
        if !controller.userData.isEmpty { controller.pageInIfCompressed() }
        return .init(kind: "screen", screen: controller.screen.name, children: [], selected: nil,
                     userData: controller.userData.map { block in block.withUnsafeBytes { Data($0) } })
    }

    /// Builds a fresh hierarchy.
    func build(_ spec: HierarchySpec) throws -> ViewController {
        switch spec {
        case .screen(let name):
            return try runtime.makeController(screen: name)
        case .navigation(let stack):
            guard let first = stack.first else { throw RuntimeError.invalidScreen(screen: name, reason: "an empty navigation stack") }
            let navigation = try NavigationController(rootViewController: try runtime.makeController(screen: first))
            for screen in stack.dropFirst() { try navigation.push(try runtime.makeController(screen: screen)) }
            return navigation
        case .tabs(let tabs, let selected):
            let tabBar = try TabBarController(tabs: try tabs.map(build), runtime: runtime)
            try tabBar.select(min(max(selected, 0), tabs.count - 1))
            return tabBar
        }
    }

    func restore(_ archive: RestorationArchive) throws -> (ViewController, [ViewController]) {
        func mismatch(_ reason: String) -> RestorationError { .mismatch(path: archivePath, reason: reason) }
        func make(_ node: RestorationArchive.Node) throws -> ViewController {
            switch node.kind {
            case "navigation":
                guard !node.children.isEmpty else { throw mismatch("an empty navigation stack") }
                let navigation = try NavigationController(rootViewController: try make(node.children[0]))
                for child in node.children.dropFirst() { try navigation.push(try make(child)) }
                return navigation
            case "tabs":
                guard !node.children.isEmpty, let selected = node.selected, node.children.indices.contains(selected) else {
                    throw mismatch("a tab bar with \(node.children.count) tabs and selection \(node.selected.map(String.init) ?? "none")")
                }
                let tabBar = try TabBarController(tabs: try node.children.map(make), runtime: runtime)
                try tabBar.select(selected)
                return tabBar
            case "screen":
                guard let screen = node.screen, runtime.registeredScreens[screen] != nil else {
                    throw mismatch("unknown screen '\(node.screen ?? "")'")
                }
                let controller = try runtime.makeController(screen: screen)
                let gate = runtime.memoryGate
                controller.restoreUserData(node.userData.compactMap { data in data.withUnsafeBytes { HeapBlock(copying: $0, gate: gate) } })
                return controller
            default:
                throw mismatch("unknown controller kind '\(node.kind)'")
            }
        }
        guard archive.app == name else { throw mismatch("the archive is for app '\(archive.app)'") }
        return (try make(archive.root), try archive.modals.map(make))
    }
}
