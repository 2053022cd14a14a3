import Foundation
import PressureLabHeap
@testable import PressureLab
import Testing

@Suite("View descriptions: shapes, validation, the file format")
struct ViewDescriptionTests {
    @Test("shapes have the declared number of views and bytes")
    func shapes() throws {
        let tree = try ViewDescription.tree(depth: 3, fanout: 4, bytes: 2048, rootBacking: 9 << 20)
        #expect(tree.viewCount == 85)
        #expect(tree.payloadBytes == 85 * 2048)
        #expect(tree.declaredBytes == 85 * 2048 + (9 << 20))
        #expect(try ViewDescription.single(bytes: 96).viewCount == 1)
        #expect(try ViewDescription.deep(count: 1000, bytes: 1).viewCount == 1000)
        #expect(try ViewDescription.wide(count: 1000, bytes: 1).nodes[0].childCount == 999)
        let balanced = try ViewDescription.balanced(count: 10_000, fanout: 8, bytes: 1024)
        #expect(balanced.viewCount == 10_000)
        #expect(balanced.nodes.reduce(0) { $0 + $1.childCount } == 9_999)
    }

    @Test("a built tree has the description's shape, in preorder")
    func builtTreeMatches() throws {
        for description in [try ViewDescription.tree(depth: 3, fanout: 3, bytes: 16),
                            try .balanced(count: 1000, fanout: 7, bytes: 8), try .deep(count: 50, bytes: 4)] {
            let root = View.build(from: description)
            let views = root.treeInPreorder
            #expect(views.count == description.viewCount)
            #expect(views.map(\.index) == Array(0..<description.viewCount))
            #expect(views.map(\.subviews.count) == description.nodes.map(\.childCount))
        }
    }

    @Test("a negative size names the view and the field")
    func negativeSize() {
        #expect(throws: ViewDescriptionError.negativeSize(view: 0, field: "bytes", value: -1)) {
            try ViewDescription.single(bytes: -1)
        }
        let nodes = [ViewDescription.Node(bytes: 1, childCount: 1), .init(bytes: 2, backingBytes: -5)]
        do {
            _ = try ViewDescription(nodes: nodes)
            Issue.record("expected an error")
        } catch {
            #expect(error == .negativeSize(view: 1, field: "backing", value: -5))
            #expect(error.description == "view #1 (preorder): 'backing' is -5; sizes and counts must be 0 or more")
        }
    }

    @Test("child counts that do not form one tree are refused")
    func malformed() {
        #expect(throws: ViewDescriptionError.self) {
            try ViewDescription(nodes: [.init(bytes: 1, childCount: 2), .init(bytes: 1)])
        }
        #expect(throws: ViewDescriptionError.self) {
            try ViewDescription(nodes: [.init(bytes: 1), .init(bytes: 1)])
        }
        #expect(throws: ViewDescriptionError.empty) { try ViewDescription(nodes: []) }
    }

    @Test("a tree larger than the host's safe share is refused before anything is built")
    func tooLarge() throws {
        let description = try ViewDescription.wide(count: 10, bytes: 1 << 20)
        #expect(throws: ViewDescriptionError.tooLargeForHost(declaredBytes: 10 << 20, limitBytes: 1 << 20)) {
            try description.checkFits(in: 1 << 20)
        }
        #expect(throws: ViewDescriptionError.tooManyViews(limit: ViewDescription.maximumViewCount)) {
            try ViewDescription.tree(depth: 40, fanout: 40, bytes: 1)
        }
    }

    @Test("the file format round-trips")
    func roundTrip() throws {
        let bundle = try ViewBundle(temporaryWithPrefix: "codec")
        let description = try ViewDescription.tree(depth: 2, fanout: 5, bytes: 300, rootBacking: 4096)
        try bundle.write(description, for: "screen")
        #expect(try bundle.readDescription(for: "screen") == description)
    }

    @Test("missing, truncated, altered and foreign files give errors with the path and offset")
    func corruptFiles() throws {
        let bundle = try ViewBundle(temporaryWithPrefix: "corrupt")
        let path = bundle.descriptionPath(for: "screen")
        #expect(throws: ViewDescriptionError.fileMissing(path: path)) { try bundle.readDescription(for: "screen") }

        let description = try ViewDescription.wide(count: 4, bytes: 64)
        let good = ViewDescriptionCodec.encode(description)
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        func readError() -> ViewDescriptionError? {
            do { _ = try bundle.readDescription(for: "screen"); return nil } catch { return error }
        }

        try write([])
        #expect(readError() == .fileCorrupt(path: path, offset: 0,
                                              reason: "file has 0 bytes, shorter than the 24-byte header"))
        try write(Array(good.dropLast(5)))
        guard case .fileCorrupt(_, 8, let truncated)? = readError() else { Issue.record("truncated"); return }
        #expect(truncated.contains("truncated or corrupt"))
        var altered = good
        altered[30] ^= 0xFF
        try write(altered)
        #expect(readError() == .fileCorrupt(
            path: path, offset: 16, reason: "checksum mismatch: the records were altered or damaged"))
        try write(Array("not a view description at all, just text".utf8))
        guard case .fileCorrupt(_, 0, let foreign)? = readError() else { Issue.record("foreign"); return }
        #expect(foreign.contains("bad magic"))
        try write([UInt8](repeating: 0xFF, count: 4096))
        #expect(readError() != nil)
    }

    @Test("a well-formed file with a negative size is refused with the view's index")
    func negativeSizeInFile() throws {
        let bundle = try ViewBundle(temporaryWithPrefix: "negative")
        // Encode a valid description, then rewrite one size and fix the checksum.
        var bytes = ViewDescriptionCodec.encode(try .wide(count: 3, bytes: 64))
        bytes.withUnsafeMutableBytes { buffer in
            buffer.storeBytes(of: Int64(-64).littleEndian, toByteOffset: 24 + 2 * 24, as: Int64.self)
            let checksum = RawMemory.checksum(UnsafeRawBufferPointer(rebasing: buffer[24...]))
            buffer.storeBytes(of: checksum.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        let path = bundle.descriptionPath(for: "screen")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ViewDescriptionError.invalidFile(
            path: path, underlying: .init(.negativeSize(view: 2, field: "bytes", value: -64)))) {
            try bundle.readDescription(for: "screen")
        }
    }
}
