import CJemalloc

/// The one door to `mallctl`: typed reads and writes of jemalloc controls.
///
/// Every call into jemalloc's control interface in the package goes through here.
enum Mallctl {
    /// Reads a fixed-size value (`size_t`, `uint64_t`, `bool`, pointers, ...).
    static func read<Value>(_ name: String, as type: Value.Type = Value.self) throws(HeapError) -> Value {
        var length = MemoryLayout<Value>.size
        let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { value.deallocate() }
        let status = mallctl(name, value, &length, nil, 0)
        guard status == 0 else { throw .mallctlFailed(name: name, code: status) }
        guard length == MemoryLayout<Value>.size else {
            throw .mallctlFailed(name: name, code: -1)
        }
        return value.pointee
    }

    /// Reads a `const char *` value.
    static func readString(_ name: String) throws(HeapError) -> String {
        let pointer: UnsafePointer<CChar>? = try read(name)
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Writes a fixed-size value.
    static func write<Value>(_ name: String, _ newValue: Value) throws(HeapError) {
        var copy = newValue
        let status = withUnsafeMutablePointer(to: &copy) { pointer in
            mallctl(name, nil, nil, pointer, MemoryLayout<Value>.size)
        }
        guard status == 0 else { throw .mallctlFailed(name: name, code: status) }
    }

    /// Runs a control that takes no value (a "void" control such as a purge or flush).
    static func invoke(_ name: String) throws(HeapError) {
        let status = mallctl(name, nil, nil, nil, 0)
        guard status == 0 else { throw .mallctlFailed(name: name, code: status) }
    }

    /// The size class jemalloc rounds a request of `size` bytes up to (`nallocx`).
    static func sizeClass(for size: Int) -> Int {
        size <= 0 ? 0 : nallocx(size, 0)
    }
}
