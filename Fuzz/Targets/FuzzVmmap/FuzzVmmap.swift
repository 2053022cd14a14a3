import CLibFuzzer
import Foundation
import PressureLabFuzzEntryPoints

/// libFuzzer's entry point: the bytes as a `vmmap --summary` print, imported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.vmmap(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Hands the command line to libFuzzer's driver, which runs `fuzz` (see CLibFuzzer).
@main
enum FuzzVmmap {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
