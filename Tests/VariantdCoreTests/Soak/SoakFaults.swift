import Foundation
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The host faults a soak injects at random, one at a time, the way an operator meets them: the rendition
/// store's tmpfs filled or remounted read-only, decoder children and the worker killed from outside, the
/// worker stopped, the queue's PostgreSQL stopped at once and started again.
final class SoakFaults: @unchecked Sendable {
    enum Fault: String, CaseIterable {
        case storeFull, storeReadOnly, serveChildKilled, workChildKilled, workerKilled, workerStopped
        case databaseRestarted
    }

    /// Children of one process killed no closer than this: three deaths on different files within a minute
    /// rightly make a daemon suspect its host, which the soak does not mean to provoke.
    static let childKillSpacing: Duration = .seconds(35)

    private let disk: SizedTmpfs
    private let serve: DaemonProcess
    private let worker: WorkerSupervisor
    private let database: PostgresServer?
    private let started = ContinuousClock.now
    private var lastKill: [Fault: ContinuousClock.Instant] = [:]
    /// One line per fault: when, which, for how long, and anything that went wrong injecting it.
    private(set) var log: [String] = []
    private(set) var counts: [Fault: Int] = [:]

    init(disk: SizedTmpfs, serve: DaemonProcess, worker: WorkerSupervisor, database: PostgresServer?) {
        self.disk = disk
        self.serve = serve
        self.worker = worker
        self.database = database
    }

    /// The faults this site can meet: a database restart only with PostgreSQL as the queue.
    var applicable: [Fault] {
        Fault.allCases.filter { $0 != .databaseRestarted || database != nil }
    }

    /// Injects faults, a few seconds apart, until `deadline`; each fault is over when this returns.
    func run(seed: UInt64, until deadline: ContinuousClock.Instant) async throws {
        var random = SplitMix64(seed: seed)
        var bag: [Fault] = []
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(Int.random(in: 3000...7000, using: &random)))
            if bag.isEmpty { bag = applicable.shuffled(using: &random) }
            guard let index = bag.firstIndex(where: isDue) else { continue }
            let fault = bag.remove(at: index)
            let begun = ContinuousClock.now
            let note = try await inject(fault, &random)
            counts[fault, default: 0] += 1
            let at = (begun - started) / .seconds(1)
            let took = (ContinuousClock.now - begun) / .seconds(1)
            log.append(String(format: "%6.1f s %@ %.1f s %@", at, fault.rawValue, took, note))
        }
    }

    private func isDue(_ fault: Fault) -> Bool {
        guard fault == .serveChildKilled || fault == .workChildKilled, let last = lastKill[fault] else {
            return true
        }
        return ContinuousClock.now - last >= Self.childKillSpacing
    }

    private func inject(_ fault: Fault, _ random: inout SplitMix64) async throws -> String {
        let hold = Duration.milliseconds(Int.random(in: 1500...4000, using: &random))
        switch fault {
        case .storeFull:
            try await offPool { self.disk.fill() }
            try await Task.sleep(for: hold)
            try await offPool { self.disk.empty() }
            return ""
        case .storeReadOnly:
            // A tmpfs with a file open for writing is not remounted read-only: try again as an operator would.
            guard try await remount(readOnly: true) else { return "busy: not remounted" }
            try await Task.sleep(for: hold)
            _ = try await remount(readOnly: false)
            return ""
        case .serveChildKilled, .workChildKilled:
            lastKill[fault] = .now
            let parent = (fault == .serveChildKilled ? serve : worker.current).process.processIdentifier
            let children = try await offPool { ProcessCensus().children(of: parent).filter(\.isDecoderChild) }
            guard let child = children.randomElement(using: &random) else { return "no child to kill" }
            kill(child.id, SIGKILL)
            return "pid \(child.id)"
        case .workerKilled:
            try await offPool { try self.worker.restart(with: SIGKILL) }
            return ""
        case .workerStopped:
            try await offPool { try self.worker.restart(with: SIGTERM) }
            return worker.endings.last ?? ""
        case .databaseRestarted:
            try await database?.restart(after: hold)
            return ""
        }
    }

    /// Remounts the store, trying for up to 4 s while the file system is busy.
    private func remount(readOnly: Bool) async throws -> Bool {
        for _ in 0..<80 {
            if (try? await offPool { try self.disk.remount(readOnly: readOnly) }) != nil { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Runs a blocking step (a mount, a process started or waited for) on a Dispatch thread: the suites
    /// running beside the soak share the cooperative threads, which are only as many as the cores.
    private func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await Blocking.run(body).get()
    }

    /// Ends whatever a stop in the middle of a fault left: room on the store, and writable.
    func heal() async throws {
        try await offPool { self.disk.empty() }
        _ = try await remount(readOnly: false)
    }
}
