import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Waits for the exit, polling with `Task.sleep` so that no thread of the cooperative pool other tests
    /// share is blocked; past `limit` kills the process and returns false.
    package func exited(within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if isRunning {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
            return false
        }
        waitUntilExit()
        return true
    }
}
