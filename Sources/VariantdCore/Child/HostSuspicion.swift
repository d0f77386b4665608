import Synchronization

/// Decoder children dying on many different files in a short time: then the host, not the files, is
/// suspect — a memory cgroup's OOM killer, an operator's `kill`, a library that makes a call the system-call
/// filter does not allow — and no file should be quarantined for it, or a host fault would refuse good
/// pictures for good.
final class HostSuspicion: Sendable {
    /// Distinct files whose children died within `window` that make the host suspect. One hostile file dies
    /// on every try; three different ones within a minute are more likely the host.
    static let distinctFiles = 3
    static let window = Duration.seconds(60)
    /// The host stays suspect until no child has died for this long.
    static let quietPeriod = Duration.seconds(60)

    private struct State {
        var deaths: [(checksum: String, at: ContinuousClock.Instant)] = []
        var suspectedUntil: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// What a child's death means.
    enum Verdict: Equatable {
        /// Count it against the file.
        case file
        /// The host is suspect: count nothing against any file, and give the files counted in the window a
        /// clean slate (`doubted`, not empty only when the suspicion begins).
        case host(doubted: [String])
    }

    func recordDeath(of checksum: String, now: ContinuousClock.Instant = .now) -> Verdict {
        state.withLock { state in
            state.deaths.removeAll { $0.at.duration(to: now) > Self.window }
            state.deaths.append((checksum, now))
            let wasSuspect = state.suspectedUntil.map { now < $0 } ?? false
            if wasSuspect {
                state.suspectedUntil = now + Self.quietPeriod
                return .host(doubted: [])
            }
            let distinct = Set(state.deaths.map(\.checksum))
            guard distinct.count >= Self.distinctFiles else { return .file }
            state.suspectedUntil = now + Self.quietPeriod
            return .host(doubted: distinct.sorted())
        }
    }

    /// Whether the host is suspect now: a daemon then says it is not ready.
    func isSuspect(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { $0.suspectedUntil.map { now < $0 } ?? false }
    }
}
