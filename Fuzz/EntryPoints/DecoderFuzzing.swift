import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabImport
import PressureLabSweep

/// Byte entry points for fuzzing the decoders of PressureLab's own files: the restoration
/// archive and the view description. Each takes arbitrary bytes, runs them through the
/// decoder the runtime uses, and swallows the decoder's typed error: refusing bad input is
/// the correct answer, and only a crash, a hang or a runaway allocation is a bug.
///
/// Both formats carry a checksum over their contents, which random bytes almost never
/// match. So that fuzzing reaches the code behind the checksum, each entry point decodes
/// the bytes twice: as they are, and once more resealed (the checksum, and for a view
/// description the node count, rewritten to match the bytes).
public enum DecoderFuzzing {
    /// Decodes `bytes` as a restoration archive file (JSON, then a `#checksum` line), as
    /// they are and resealed.
    ///
    /// - Returns: Whether either form decoded into an archive.
    @discardableResult
    public static func restorationArchive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let data = Data(bytes)
        let asGiven = decodesRestorationArchive(data)
        let resealed = decodesRestorationArchive(resealedRestorationArchive(data))
        return asGiven || resealed
    }

    /// Decodes `bytes` as a view description file (`PLVD`, version 1), as they are and
    /// resealed, and checks each decoded tree against a host limit as `loadView` does.
    ///
    /// - Returns: Whether either form decoded into a description.
    @discardableResult
    public static func viewDescription(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let asGiven = decodesViewDescription(bytes)
        guard bytes.count >= ViewDescriptionCodec.headerSize else { return asGiven }
        let resealed = resealedViewDescription(bytes).withUnsafeBytes { decodesViewDescription($0) }
        return asGiven || resealed
    }

    // MARK: - Restoration archive

    private static func decodesRestorationArchive(_ data: Data) -> Bool {
        do {
            let archive = try RestorationArchive.decode(data, path: "fuzz.restoration")
            _ = archive.userDataBytes
            return true
        } catch {
            return false
        }
    }

    /// The bytes before the last checksum line (all of them if there is none), followed by a
    /// checksum line that matches them.
    private static func resealedRestorationArchive(_ data: Data) -> Data {
        let marker = Data("\n\(RestorationArchive.checksumPrefix)".utf8)
        var body = data
        if let trailer = data.range(of: marker, options: .backwards) { body = data[data.startIndex..<trailer.lowerBound] }
        let checksum = body.withUnsafeBytes { RawMemory.checksum($0) }
        var sealed = Data(body)
        sealed.append(contentsOf: Array("\n\(RestorationArchive.checksumPrefix)\(String(checksum, radix: 16))\n".utf8))
        return sealed
    }

    // MARK: - View description

    /// The most bytes a decoded tree may declare here: far above any real tree, far below
    /// what the fuzzer's process could allocate.
    private static let hostLimitBytes = 1 << 34

    private static func decodesViewDescription(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            let description = try ViewDescriptionCodec.decode(bytes, path: "fuzz.plview")
            try description.checkFits(in: hostLimitBytes)
            return true
        } catch {
            return false
        }
    }

    /// The bytes with the header's node count and checksum rewritten to fit the records that
    /// follow it (a trailing partial record is dropped).
    private static func resealedViewDescription(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let headerSize = ViewDescriptionCodec.headerSize, recordSize = ViewDescriptionCodec.recordSize
        let records = (bytes.count - headerSize) / recordSize
        var resealed = Array(bytes.prefix(headerSize + records * recordSize))
        resealed.withUnsafeMutableBytes { buffer in
            let checksum = RawMemory.checksum(UnsafeRawBufferPointer(rebasing: buffer[headerSize...]))
            buffer.storeBytes(of: UInt64(records).littleEndian, toByteOffset: 8, as: UInt64.self)
            buffer.storeBytes(of: checksum.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        return resealed
    }
}
