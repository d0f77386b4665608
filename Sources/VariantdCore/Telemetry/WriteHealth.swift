import Foundation
import Synchronization
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the places this process writes to can take writes. A write that fails for want of room
/// (`ENOSPC`, `EDQUOT`), on a read-only file system (`EROFS`) or on a failing device (`EIO`) at a place whose
/// failure fails answers makes the process not ready, so a load balancer sends traffic elsewhere, until a
/// later write there succeeds or a probe of the place finds it writable with room again; every failed write
/// is counted by place and `errno` for `/metrics`. Process-wide, as the places are.
package final class WriteHealth: Sendable {
    package static let shared = WriteHealth()

    /// Where a daemon or a worker writes. A batch's manifest is not among them: a run has no readiness to
    /// turn, and a full disk ends it with exit status 75 and every line whole.
    package enum Place: String, CaseIterable, Sendable {
        case renditionStore = "rendition_store"
        case spool
        case quarantine
        case queue
        case accessLog = "access_log"
        case onDemandCache = "on_demand_cache"

        /// Whether answers fail while the place cannot take writes. A cache only misses, a lost log line
        /// loses no answer, and a death the quarantine cannot record is retried as any: those are counted,
        /// and readiness does not follow them.
        var failsAnswers: Bool {
            switch self {
            case .onDemandCache, .accessLog, .quarantine: false
            default: true
            }
        }
    }

    /// Why a place cannot take writes: what `/readyz` says.
    package enum Blockage: String, Sendable {
        case storeFull = "store_full"
        case storeReadOnly = "store_read_only"
        case storeFailing = "store_failing"

        init?(errorNumber: Int32) {
            if SystemCallError.isOutOfSpace(errorNumber) {
                self = .storeFull
            } else if errorNumber == EROFS {
                self = .storeReadOnly
            } else if errorNumber == EIO {
                self = .storeFailing
            } else {
                return nil
            }
        }
    }

    /// The room a probe wants before it calls a full place writable again: less would take one rendition
    /// and fail the next.
    static let probeRoomBytes = 1 << 20
    /// How often a blocked place is probed, at most: each readiness or metrics request may probe.
    static let probeInterval = Duration.seconds(2)

    private struct Blocked {
        var blockage: Blockage
        /// When the last write there failed: a probe begun later that succeeds unblocks the place.
        var failed: ContinuousClock.Instant
        var probed: ContinuousClock.Instant
    }

    private struct State {
        var failures: [Place: [String: Int]] = [:]
        var blocked: [Place: Blocked] = [:]
        var directories: [Place: String] = [:]
    }

    private let state = Mutex(State())
    /// Where probes run, one at a time.
    private let probes = DispatchQueue(label: "variantd.write-probe")

    init() {}

    /// Names the folder a place writes into, which a probe then tries.
    package func watch(_ place: Place, directory: String) {
        state.withLock { $0.directories[place] = directory }
    }

    /// A write to `place` ended: nil when it succeeded, else with the `errno` it failed with (0 when none is
    /// known).
    package func record(_ place: Place, failure: Int32?) {
        state.withLock { state in
            guard let failure else {
                state.blocked[place] = nil
                return
            }
            state.failures[place, default: [:]][SystemCallError.name(of: failure), default: 0] += 1
            if place.failsAnswers, let blockage = Blockage(errorNumber: failure) {
                let now = ContinuousClock.now
                state.blocked[place] = Blocked(blockage: blockage, failed: now, probed: now)
            }
        }
    }

    /// The places that cannot take writes, and why, in `Place` order. A place not probed for
    /// `probeInterval` is probed in the background, never on the caller's thread (a failing disk can hold a
    /// write for long), and is writable again once the probe finds it so, unless a write failed meanwhile.
    package func blocked(now: ContinuousClock.Instant = .now) -> [(place: Place, blockage: Blockage)] {
        let (due, current) = state.withLock { state in
            var due: [(place: Place, directory: String?)] = []
            for (place, blocked) in state.blocked where blocked.probed.duration(to: now) >= Self.probeInterval
            {
                state.blocked[place]?.probed = now
                due.append((place, state.directories[place]))
            }
            let current = Place.allCases.compactMap { place in
                state.blocked[place].map { (place, $0.blockage) }
            }
            return (due, current)
        }
        for (place, directory) in due {
            guard let directory else { continue }
            probes.async {
                guard Self.probe(directory) else { return }
                // Only a write failed since the probe began keeps the place blocked: a later probe that is
                // still running (a slow disk's flush can outlast the interval) does not.
                self.state.withLock { state in
                    if let blocked = state.blocked[place], blocked.failed < now { state.blocked[place] = nil }
                }
            }
        }
        return current
    }

    /// Returns once the probes begun so far have ended, so that their outcome is read without a clock.
    func waitForProbes() {
        probes.sync {}
    }

    /// Failed writes so far, by place and `errno` name.
    package var failures: [Place: [String: Int]] { state.withLock { $0.failures } }

    /// Whether `directory` takes a small durable write and has room for more.
    private static func probe(_ directory: String) -> Bool {
        guard let room = FileSystem.room(at: directory), !room.readOnly, room.availableBytes >= probeRoomBytes
        else { return false }
        let path = directory + "/.write-probe-\(ProcessInfo.processInfo.processIdentifier)"
        // The probe's file is made anew (O_EXCL): one a probe could not remove during the fault, or another
        // process of this number left, would fail every probe after it.
        unlink(path)
        defer { unlink(path) }
        do {
            try FileSystem.writeDurably([0x0A], to: path)
            return true
        } catch {
            return false
        }
    }
}

extension PrometheusText {
    /// Failed writes by place and `errno`, and which places cannot take writes now.
    mutating func writeHealth(_ health: WriteHealth) {
        let blocked = Set(health.blocked().map(\.place))
        let failures = health.failures
        family(
            "variantd_write_failures_total", "counter",
            "Writes that failed, by place (rendition_store, spool, quarantine, queue, access_log, "
                + "on_demand_cache) and errno.",
            WriteHealth.Place.allCases.flatMap { place in
                (failures[place] ?? [:]).sorted { $0.key < $1.key }.map {
                    "variantd_write_failures_total{place=\"\(place.rawValue)\",errno=\"\($0.key)\"} \($0.value)"
                }
            })
        family(
            "variantd_write_blocked", "gauge",
            "1 while a place cannot take writes (a full disk, a read-only or failing file system): /readyz "
                + "answers 503 until a write there succeeds or a probe finds room.",
            WriteHealth.Place.allCases.map { place in
                "variantd_write_blocked{place=\"\(place.rawValue)\"} \(blocked.contains(place) ? 1 : 0)"
            })
    }
}
