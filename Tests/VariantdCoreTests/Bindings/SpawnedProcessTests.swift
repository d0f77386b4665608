import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Children hold what they are handed and nothing else of ours, and how they ended is read back.
@Suite struct SpawnedProcessTests {
    /// The descriptors `pid` has open, by number, with what each one is (`pipe:[…]`, a path).
    private static func descriptors(of pid: pid_t) throws -> [Int: String] {
        let folder = "/proc/\(pid)/fd"
        var found: [Int: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            guard let number = Int(name) else { continue }
            found[number] = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")
        }
        return found
    }

    @Test func aChildHoldsOnlyTheThreeDescriptorsItIsHanded() throws {
        // Foundation's pipes are not close-on-exec: exactly what a child must not inherit.
        let foreign = Pipe()
        let null = try FileDescriptor.open("/dev/null", .updating)
        defer { null.close() }
        let child = try SpawnedProcess(
            "/bin/sleep", arguments: ["30"], standardInput: null, standardOutput: null, standardError: null)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        // The child's own start-up opens files for a moment (the loader reads its libraries): a descriptor
        // handed down would still be there once it sleeps.
        var held = try Self.descriptors(of: child.processID)
        let deadline = ContinuousClock.now + .seconds(20)
        while held.keys.sorted() != [0, 1, 2], ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            held = try Self.descriptors(of: child.processID)
        }
        #expect(held.keys.sorted() == [0, 1, 2], "\(held)")
        #expect(held.values.allSatisfy { $0 == "/dev/null" }, "\(held)")
        #expect(foreign.fileHandleForWriting.fileDescriptor > 2)
    }

    @Test func aDecoderChildHoldsNoPipeButItsOwn() throws {
        let first = try ChildProcess(executable: TestPaths.variantd, arguments: ["decoder-child"])
        defer { first.terminate() }
        let second = try ChildProcess(executable: TestPaths.variantd, arguments: ["decoder-child"])
        defer { second.terminate() }
        // Its input, its output, and as 3 the pipe it names a refused system call on.
        for child in [first, second] {
            let held = try Self.descriptors(of: child.processID)
            let pipes = held.filter { $0.key > 3 && $0.value.hasPrefix("pipe:") }
            #expect(pipes.isEmpty, "child \(child.processID) holds \(pipes)")
            #expect([0, 1, 3].allSatisfy { held[$0]?.hasPrefix("pipe:") == true }, "\(held)")
        }
        for descriptor in [0, 3] {
            #expect(
                try Self.descriptors(of: first.processID)[descriptor]
                    != Self.descriptors(of: second.processID)[descriptor])
        }
    }

    @Test func readsHowAChildEnded() throws {
        let exited = try SpawnedProcess(
            "sh", arguments: ["-c", "exit 3"], standardInput: nil, standardOutput: nil, standardError: nil)
        #expect(exited.waitForExit() == .exited(3))
        #expect(!exited.isRunning && exited.termination == .exited(3))

        let killed = try SpawnedProcess(
            "/bin/sleep", arguments: ["30"], standardInput: nil, standardOutput: nil, standardError: nil)
        #expect(killed.isRunning)
        killed.signal(SIGKILL)
        #expect(killed.waitForExit() == .signalled(SIGKILL))
    }

    @Test func aProgramThatCannotBeStartedIsAnError() {
        let failure = #expect(throws: SystemCallError.self) {
            try SpawnedProcess(
                "/nonexistent/program", arguments: [], standardInput: nil, standardOutput: nil,
                standardError: nil)
        }
        #expect(failure?.call == "posix_spawn" && failure?.code == ENOENT)
        #expect(
            failure?.description == "posix_spawn: /nonexistent/program: No such file or directory (errno 2)")
    }
}
