import Foundation

/// The host's processor count, for the results file's host section.
enum ProcessInfoShim {
    static var processorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
