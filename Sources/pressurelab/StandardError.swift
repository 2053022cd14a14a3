#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard error.
enum FileHandleStandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = systemWrite(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
