#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checked writes to an open file descriptor.
public enum Descriptor {
    /// Writes every byte with `write(2)`, retrying interrupted and partial writes (and
    /// waiting on a non-blocking descriptor that is full). Returns 0, or the `errno` of
    /// the failure.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let wrote = systemWrite(descriptor, base + done, bytes.count - done)
            if wrote > 0 {
                done += wrote
                continue
            }
            if wrote == 0 { return EIO }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            return code
        }
        return 0
    }

    /// Writes a string's UTF-8 bytes; 0 or the `errno` of the failure.
    public static func writeAll(_ descriptor: Int32, _ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The text of an `errno` value ("No space left on device").
    public static func errorText(_ code: Int32) -> String {
        HarnessError.systemMessage(code)
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
