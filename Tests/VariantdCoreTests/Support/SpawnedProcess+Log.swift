import Foundation
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

extension SpawnedProcess {
    /// A test server or its tool: nothing to read, everything it prints in the file at `log` (added to the
    /// end with `appending`, so a restarted server keeps its earlier lines), never in a pipe it would hold.
    static func logging(
        _ executable: String, arguments: [String], to log: String, appending: Bool = false
    ) throws -> SpawnedProcess {
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let output = open(log, O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC), 0o644)
        defer {
            if input >= 0 { close(input) }
            if output >= 0 { close(output) }
        }
        guard input >= 0, output >= 0 else {
            throw SystemCallError("open", about: input < 0 ? "/dev/null" : log)
        }
        return try SpawnedProcess(
            executable, arguments: arguments, standardInput: FileDescriptor(input),
            standardOutput: FileDescriptor(output), standardError: FileDescriptor(output))
    }
}
