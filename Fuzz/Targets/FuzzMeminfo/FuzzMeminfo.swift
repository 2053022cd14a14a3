import CLibFuzzer
import Foundation
import PressureLabFuzzEntryPoints

/// libFuzzer's entry point: the bytes as a `dumpsys meminfo` dump, imported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.meminfo(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Hands the command line to libFuzzer's driver, which runs `fuzz` (see CLibFuzzer).
@main
enum FuzzMeminfo {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
