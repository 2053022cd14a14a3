import PressureLabHeap
import SystemPackage

/// The view description file format, version 1 (little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `PLVD` |
/// | 4 | 4 | format version (1) |
/// | 8 | 8 | node count N |
/// | 16 | 8 | checksum of the node records |
/// | 24 | 24 x N | per node: own bytes, backing bytes, child count (signed 64-bit each) |
///
/// Decoding checks every field, so a truncated, corrupt or hostile file gives a
/// ``ViewDescriptionError`` that names the file and the byte offset, never a crash.
package enum ViewDescriptionCodec {
    static let magic: UInt32 = 0x4456_4C50  // "PLVD" read as little-endian
    static let version: UInt32 = 1
    package static let headerSize = 24
    package static let recordSize = 24

    /// The size of the file of a description of `viewCount` views.
    static func fileBytes(viewCount: Int) -> Int { headerSize + recordSize * viewCount }

    static func encode(_ description: ViewDescription) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerSize + recordSize * description.viewCount)
        bytes.withUnsafeMutableBytes { buffer in
            for (index, node) in description.nodes.enumerated() {
                let offset = headerSize + index * recordSize
                buffer.storeBytes(of: Int64(node.bytes).littleEndian, toByteOffset: offset, as: Int64.self)
                buffer.storeBytes(of: Int64(node.backingBytes).littleEndian, toByteOffset: offset + 8, as: Int64.self)
                buffer.storeBytes(of: Int64(node.childCount).littleEndian, toByteOffset: offset + 16, as: Int64.self)
            }
            let checksum = RawMemory.checksum(UnsafeRawBufferPointer(rebasing: buffer[headerSize...]))
            buffer.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: version.littleEndian, toByteOffset: 4, as: UInt32.self)
            buffer.storeBytes(of: UInt64(description.viewCount).littleEndian, toByteOffset: 8, as: UInt64.self)
            buffer.storeBytes(of: checksum.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        return bytes
    }

    /// Reads and decodes the file at `path`.
    static func read(path: String) throws(ViewDescriptionError) -> ViewDescription {
        try read(file: FilePath(path), path: path)
    }

    /// Reads and decodes `file`; `path` (its text as given, for errors) is made only for an error.
    static func read(file: FilePath, path: @autoclosure () -> String) throws(ViewDescriptionError) -> ViewDescription {
        let block: HeapBlock
        do {
            block = try HeapBlock(readingFile: file)
        } catch .file(let error) where error.isMissing {
            throw .fileMissing(path: path())
        } catch {
            throw .fileCorrupt(path: path(), offset: 0, reason: error.message)
        }
        guard block.count >= headerSize else {
            throw .fileCorrupt(path: path(), offset: block.count,
                               reason: "file has \(block.count) bytes, shorter than the \(headerSize)-byte header")
        }
        let decoded = block.withUnsafeBytes { bytes in
            Result { () throws(ViewDescriptionError) in try decode(bytes, path: path()) }
        }
        return try decoded.get()
    }

    package static func decode(_ buffer: UnsafeRawBufferPointer, path: @autoclosure () -> String) throws(ViewDescriptionError) -> ViewDescription {
        guard buffer.count >= headerSize else {
            throw .fileCorrupt(path: path(), offset: buffer.count, reason: "shorter than the \(headerSize)-byte header")
        }
        let fileMagic = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        guard fileMagic == magic else {
            throw .fileCorrupt(path: path(), offset: 0, reason: "not a view description (bad magic number)")
        }
        let fileVersion = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard fileVersion == version else {
            throw .fileCorrupt(path: path(), offset: 4, reason: "format version \(fileVersion); this build reads version \(version)")
        }
        let count = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let bodySize = buffer.count - headerSize
        guard count <= UInt64(ViewDescription.maximumViewCount), Int(count) * recordSize == bodySize else {
            throw .fileCorrupt(path: path(), offset: 8,
                               reason: "header says \(count) views but the file holds \(bodySize) bytes of records "
                                   + "(\(recordSize) bytes each): truncated or corrupt")
        }
        let expected = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let actual = RawMemory.checksum(UnsafeRawBufferPointer(rebasing: buffer[headerSize...]))
        guard expected == actual else {
            throw .fileCorrupt(path: path(), offset: 16, reason: "checksum mismatch: the records were altered or damaged")
        }
        var nodes: [ViewDescription.Node] = []
        nodes.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = headerSize + index * recordSize
            nodes.append(ViewDescription.Node(
                bytes: Int(Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))),
                backingBytes: Int(Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self))),
                childCount: Int(Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self)))))
        }
        do {
            try ViewDescription.validate(nodes)
        } catch {
            throw .invalidFile(path: path(), underlying: ViewDescriptionErrorDetail(error))
        }
        return ViewDescription(validatedNodes: nodes)
    }
}
