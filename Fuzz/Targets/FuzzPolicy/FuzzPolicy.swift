import CLibFuzzer
import Foundation
import PressureLabFuzzEntryPoints

/// libFuzzer's entry point: the bytes as a scenario and two policies, run (see PolicyFuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = PolicyFuzzing.policy(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Hands the command line to libFuzzer's driver, which runs `fuzz` (see CLibFuzzer).
@main
enum FuzzPolicy {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
