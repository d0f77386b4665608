import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `serve` and `work` on one queue under a steady mixed load — renders, info, uploads' jobs answered at once
/// and jobs committed to the queue — while host faults come at random: the rendition store full or
/// read-only, decoder children and the worker killed, the worker stopped, the queue's PostgreSQL restarted.
/// Afterwards nothing is lost or done twice, nothing leaks, and memory stayed flat.
///
/// It runs for `VARIANTD_SOAK_SECONDS` (default 150) after a warm-up; `scripts/soak.sh` runs it longer.
@Suite(.serialized, .postgresServer)
struct SoakTests {
    static let seconds = Int(ProcessInfo.processInfo.environment["VARIANTD_SOAK_SECONDS"] ?? "") ?? 150
    static let warmUp: Duration = .seconds(15)
    static let loadThreads = 3
    /// Descriptors a quiet daemon may hold beyond its quiet count after the warm-up: a connection to the
    /// database more or less, not one per request or per fault.
    static let descriptorSlack = 4
    /// How far the median resident memory of the soak's last quarter may rise over its first quarter's:
    /// allocator pages and caches settling, not a leak that grows with the requests served.
    static let residentSlack = (factor: 1.25, bytes: 24 << 20)

    @Test(.enabled(if: SizedTmpfs.isAvailable, "the soak fills and remounts a tmpfs store, which needs root"))
    func mixedLoadUnderRandomFaultsLosesNothingLeaksNothingAndStaysFlat() async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        let site = try await SoakSite()
        defer { site.remove() }
        let serveID = site.serve.process.processIdentifier
        let ledger = SoakLedger()
        let load = SoakLoad(daemon: SharedDaemon(site.serve), ledger: ledger, versions: SoakCounter())
        let children = Mutex(Set<Int32>())
        let worker = site.worker
        let samples = ResourceSamples(of: serveID) {
            _ = try? worker.reviveIfEnded()
            let census = ProcessCensus()
            let seen = [serveID, worker.current.process.processIdentifier].flatMap {
                census.children(of: $0).map(\.id)
            }
            children.withLock { $0.formUnion(seen) }
        }
        defer { samples.stop() }
        let clock = ContinuousClock.now

        try await Self.run(load, seed: seed) { try await Task.sleep(for: Self.warmUp) }
        try await Task.sleep(for: .seconds(2))
        let quiet = SoakCensus(site)
        let soakStart = (ContinuousClock.now - clock) / .seconds(1)

        let faults = SoakFaults(
            disk: site.disk, serve: site.serve, worker: site.worker, database: site.database)
        try await Self.run(load, seed: seed &+ 1) {
            try await faults.run(seed: seed &+ 2, until: .now + .seconds(Self.seconds))
        }
        try await faults.heal()
        let soakEnd = (ContinuousClock.now - clock) / .seconds(1)

        #expect(try await site.waitUntilReady(), "serve and work ready again once the faults end")
        #expect(try await site.waitUntilDrained(), "every job of the queue final once the faults end")
        for picture in SoakLoad.goodPictures {
            try site.checkServed(picture)
        }
        try await Task.sleep(for: .seconds(3))
        samples.stop()
        let end = SoakCensus(site)

        let quarter = (soakEnd - soakStart) / 4
        let early = samples.medianResidentBytes(from: soakStart, to: soakStart + quarter) ?? 0
        let late = samples.medianResidentBytes(from: soakEnd - quarter, to: soakEnd) ?? 0
        let report = [
            "seed \(seed), \(Self.seconds) s of faults after \(Self.warmUp) of warm-up",
            "answers: "
                + ledger.answers.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
                .joined(separator: ", "),
            "faults:\n" + faults.log.joined(separator: "\n"),
            "worker runs ended: " + site.worker.endings.joined(separator: ", "),
            "serve resident memory (median): \(early >> 20) MB in the first quarter, \(late >> 20) MB in the last",
            "descriptors when quiet: serve \(quiet.serveDescriptors) → \(end.serveDescriptors), "
                + "work \(quiet.workDescriptors) → \(end.workDescriptors)",
            "serve's descriptors at the end: \(end.serveTargets), and \(end.serveHeldRenditions) renditions held "
                + "open for hits",
        ].joined(separator: "\n")
        print(report)

        // Every request answered as allowed: done, or refused with a typed answer to be sent again.
        let unexpected = ledger.unexpected
        #expect(unexpected.count == 0, "\(unexpected.joined(separator: "\n"))\n\(report)")
        for kind in ["render", "info", "job", "async"] {
            #expect(ledger.answers["\(kind) \(kind == "async" ? 202 : 200) ok", default: 0] > 0, "\(report)")
        }
        for fault in faults.applicable where Self.seconds >= 100 {
            #expect(faults.counts[fault, default: 0] > 0, "\(fault) was never injected\n\(report)")
        }
        try await site.checkJobs(ledger.accepted)
        try site.checkNoPartialFiles()

        // Nothing leaks: descriptors, children, zombies, orphans.
        #expect(end.serveDescriptors <= quiet.serveDescriptors + Self.descriptorSlack, "\(report)")
        #expect(end.serveHeldRenditions <= OpenRenditions.defaultCapacity, "\(report)")
        #expect(end.workDescriptors <= quiet.workDescriptors + Self.descriptorSlack, "\(report)")
        #expect(end.serveChildren <= quiet.serveChildren, "\(report)")
        #expect(end.workChildren <= quiet.workChildren, "\(report)")
        #expect(end.zombies.isEmpty, "children not reaped: \(end.zombies)")
        let live = Set([serveID, site.worker.current.process.processIdentifier])
        let leaked = ProcessCensus().entries.filter {
            children.withLock { $0 }.contains($0.id) && $0.isDecoderChild && !live.contains($0.parent)
        }
        #expect(leaked.isEmpty, "decoder children outliving their parent: \(leaked)")

        // Flat memory: the last quarter's median within the slack of the first quarter's.
        #expect(
            Double(late) <= Double(early) * Self.residentSlack.factor + Double(Self.residentSlack.bytes),
            "\(report)")
    }

    /// Runs the load on its threads around `body`, and returns once every thread has sent its last request.
    private static func run(_ load: SoakLoad, seed: UInt64, around body: () async throws -> Void) async throws
    {
        let running = SoakSwitch()
        let group = DispatchGroup()
        for index in 0..<loadThreads {
            group.enter()
            Thread.detachNewThread {
                load.run(seed: seed &+ UInt64(index) &* 0x9E37_79B9, while: running)
                group.leave()
            }
        }
        do {
            try await body()
        } catch {
            running.turnOff()
            throw error
        }
        running.turnOff()
        await withCheckedContinuation { done in group.notify(queue: .global()) { done.resume() } }
    }
}

/// Descriptors and children of `serve` and the current `work` run, read when both are quiet. The renditions
/// `serve` holds open for hits (`OpenRenditions`, a bounded cache) are counted apart from the rest.
struct SoakCensus {
    var serveDescriptors: Int
    var serveHeldRenditions: Int
    var workDescriptors: Int
    var serveChildren: Int
    var workChildren: Int
    var zombies: [ProcessCensus.Entry]
    /// What the daemon's other descriptors are open on, counted by kind (`socket`, `pipe`, a file's folder).
    var serveTargets: String

    init(_ site: SoakSite) {
        let census = ProcessCensus()
        let serve = site.serve.process.processIdentifier
        let work = site.worker.current.process.processIdentifier
        let store = site.fixture.out.path + "/"
        let serveOpen = Self.targets(of: serve)
        let held = serveOpen.filter { $0.hasPrefix(store) }
        let others = serveOpen.filter { !$0.hasPrefix(store) }
        serveHeldRenditions = held.count
        serveDescriptors = others.count
        workDescriptors = Self.targets(of: work).count
        serveTargets = Dictionary(others.map { (Self.kind(of: $0), 1) }, uniquingKeysWith: +)
            .sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        serveChildren = census.children(of: serve).count
        workChildren = census.children(of: work).count
        zombies = (census.children(of: serve) + census.children(of: work)).filter { $0.state == "Z" }
    }

    /// Where each open descriptor of a process points (`/path`, `socket:[…]`, `pipe:[…]`).
    private static func targets(of process: Int32) -> [String] {
        let folder = "/proc/\(process)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
        }
    }

    private static func kind(of target: String) -> String {
        target.hasPrefix("/")
            ? (target as NSString).deletingLastPathComponent : String(target.prefix { $0 != ":" })
    }
}
