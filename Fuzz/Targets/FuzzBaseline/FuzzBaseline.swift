import CLibFuzzer
import Foundation
import PressureLabFuzzEntryPoints

/// libFuzzer's entry point: the bytes as a baseline file (pressurelab.baseline/1 JSON).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.baseline(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Hands the command line to libFuzzer's driver, which runs `fuzz` (see CLibFuzzer).
@main
enum FuzzBaseline {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
