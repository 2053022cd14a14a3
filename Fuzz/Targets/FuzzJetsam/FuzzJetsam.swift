import CLibFuzzer
import Foundation
import PressureLabFuzzEntryPoints

/// libFuzzer's entry point: the bytes as a jetsam event report (JSON or LowMemory text), imported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.jetsam(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Hands the command line to libFuzzer's driver, which runs `fuzz` (see CLibFuzzer).
@main
enum FuzzJetsam {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
