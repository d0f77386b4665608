import Foundation
public import Variants

/// A pool of decoder child processes: every object is decoded in a child, so an abort or a crash inside
/// a C decoder costs one answer, never the caller's process.
///
/// Each child handles one job at a time, so a death is attributable to its file. A dead or overdue child is
/// replaced on the next job. A crash or a timeout is tried once more in a fresh child (decoder faults can
/// depend on load, so one death does not condemn a file); a file that fails every attempt is quarantined by
/// its SHA-256 and refused on sight afterwards.
public actor DecoderPool {
    public struct Configuration: Sendable {
        /// The `variantd` binary the children run (`variantd decoder-child`).
        public var executable: String
        public var size: Int
        /// Hard wall-clock limit per object, after which the child is killed.
        public var deadline: Duration
        /// A child is replaced after this many jobs, bounding what a slow leak in a C library can cost.
        public var jobsPerChild: Int
        /// A child whose resident set is still above this after a job (and its trim) is replaced.
        public var residentLimitBytes: Int
        /// Attempts per object when children crash or overrun; the durable queue counts its own attempts
        /// and sets 1.
        public var attemptsPerObject: Int
        public var limits: Limits
        /// Children seal themselves after start-up (`ChildConfinement.seal`): no filesystem, no network, a
        /// system-call allow-list.
        public var confined: Bool
        /// The SQLite file that remembers files which killed decoders, shared by every process given it;
        /// nil keeps the quarantine in memory for this pool's life.
        public var quarantineFile: String?
        /// Tests only: a call each sealed child makes before every job, which must kill it.
        var violation: ConfinementViolation?

        public init(
            executable: String, size: Int = 2, deadline: Duration = .seconds(60), jobsPerChild: Int = 500,
            attemptsPerObject: Int = 2, limits: Limits = .default, confined: Bool = false,
            quarantineFile: String? = nil, residentLimitBytes: Int = 1 << 30
        ) {
            self.executable = executable
            self.size = size
            self.deadline = deadline
            self.jobsPerChild = jobsPerChild
            self.attemptsPerObject = attemptsPerObject
            self.limits = limits
            self.confined = confined
            self.quarantineFile = quarantineFile
            self.residentLimitBytes = residentLimitBytes
        }

        /// The child's command line after the executable.
        var childArguments: [String] {
            get throws {
                var arguments = ["decoder-child", "--limits", try WireJSON.line(limits)]
                if confined { arguments.append("--confined") }
                if let violation { arguments += ["--violate", violation.rawValue] }
                return arguments
            }
        }
    }

    /// One result of the pool: the outcome, its stage timings and the child's peak memory.
    public struct Answer: Sendable {
        public var outcome: Result<CompletionMetadata, VariantsError>
        public var timings: StageTimings
        /// The child's peak resident set so far, in KiB (nil when it died before answering).
        public var peakResidentKiB: Int?
    }

    private let configuration: Configuration
    private var idle: [DecoderSlot] = []
    private var created = 0
    private var waiting: [CheckedContinuation<DecoderSlot, Never>] = []
    /// Nil only if even an in-memory SQLite database could not be opened.
    private let quarantine: Quarantine?
    /// Children that died or were killed, for metrics.
    public private(set) var crashes = 0

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        quarantine =
            (try? Quarantine(file: configuration.quarantineFile)) ?? (try? Quarantine(file: nil))
    }

    /// Decodes one object in a child.
    public func process(_ job: DecodeJob) async -> Answer {
        // Hashing in the parent costs a read, so it is paid only once some file has been quarantined.
        var checksum = quarantine?.isEmpty ?? true ? nil : Self.checksum(of: job)
        if let checksum, quarantine?.isRefused(checksum, after: configuration.attemptsPerObject) == true {
            return Answer(
                outcome: .failure(.unreadable(.quarantined, "this file killed the decoder before and is refused")),
                timings: StageTimings(), peakResidentKiB: nil)
        }
        var answer = await attempt(job)
        var attempts = 1
        while answer.isDecoderFailure {
            crashes += 1
            checksum = checksum ?? Self.checksum(of: job)
            if let checksum, case .failure(let error) = answer.outcome {
                quarantine?.recordFailure(checksum, reason: "\(error.reason?.rawValue ?? ""): \(error.message)")
            }
            guard attempts < configuration.attemptsPerObject else { break }
            attempts += 1
            answer = await attempt(job)
        }
        return answer
    }

    private func attempt(_ job: DecodeJob) async -> Answer {
        let slot = await checkOut()
        let configuration = configuration
        let answer = await withCheckedContinuation { continuation in
            slot.queue.async {
                continuation.resume(returning: slot.run(job, configuration: configuration))
            }
        }
        checkIn(slot)
        return answer
    }

    private static func checksum(of job: DecodeJob) -> String? {
        SourceChecksum.of(job.sourcePath)
    }

    /// Ends every idle child; call when no job is in flight.
    public func shutdown() {
        for slot in idle { slot.queue.sync { slot.stop() } }
        idle.removeAll()
    }

    private func checkOut() async -> DecoderSlot {
        if let slot = idle.popLast() { return slot }
        if created < configuration.size {
            created += 1
            return DecoderSlot()
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func checkIn(_ slot: DecoderSlot) {
        if waiting.isEmpty {
            idle.append(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}

/// One place in the pool: a serial queue for the blocking pipe I/O and the child currently behind it.
///
/// `@unchecked Sendable` because the pool hands a slot to exactly one job at a time and every access to
/// `child` happens on `queue`.
final class DecoderSlot: @unchecked Sendable {
    let queue = DispatchQueue(label: "variantd.decoder")
    private var child: ChildProcess?
    private var jobs = 0

    func run(_ job: DecodeJob, configuration: DecoderPool.Configuration) -> DecoderPool.Answer {
        let started = ContinuousClock.now
        var processID: Int32?
        do {
            let child = try current(configuration)
            processID = child.processID
            jobs += 1
            let reply = try child.exchange(try WireJSON.encode(job), deadline: started + configuration.deadline)
            let answer = try WireJSON.decode(DecodeAnswer.self, from: reply)
            if jobs >= configuration.jobsPerChild
                || ProcessMemory.residentBytes(of: "\(child.processID)") ?? 0 > configuration.residentLimitBytes
            {
                stop()
            }
            return DecoderPool.Answer(
                outcome: answer.outcome, timings: answer.timings, peakResidentKiB: answer.peakResidentKiB)
        } catch {
            child = nil
            if let processID, let root = job.storeRoot {
                (try? RenditionStore(root: root))?.removeLeftovers(of: processID)
            }
            var timings = StageTimings()
            timings.add("decode", started.duration(to: .now))
            return DecoderPool.Answer(
                outcome: .failure(Self.failure(error, configuration)), timings: timings, peakResidentKiB: nil)
        }
    }

    /// What a child's failure means for the object it was working on.
    private static func failure(_ error: any Error, _ configuration: DecoderPool.Configuration) -> VariantsError {
        switch error {
        case ChildProcess.Failure.timedOut:
            return .unreadable(.decoderTimeout, "decoding took longer than \(configuration.deadline)")
        case ChildProcess.Failure.died(nil, ExitStatus.configuration.rawValue):
            return VariantsError(.internalError, "the decoder process could not confine itself (see its log)")
        case ChildProcess.Failure.died(let signal, let status):
            let how = signal.map { "signal \($0)" } ?? "exit status \(status ?? -1)"
            return .unreadable(.decoderCrash, "the decoder process died (\(how)) on this file")
        default:
            return VariantsError(.internalError, "the decoder process failed: \(error)")
        }
    }

    func stop() {
        child?.terminate()
        child = nil
        jobs = 0
    }

    private func current(_ configuration: DecoderPool.Configuration) throws -> ChildProcess {
        if let child, child.isRunning { return child }
        jobs = 0
        let started = try ChildProcess(
            executable: configuration.executable, arguments: try configuration.childArguments)
        child = started
        return started
    }
}

extension DecoderPool.Answer {
    /// The child died or overran, as opposed to answering (even with an error).
    var isDecoderFailure: Bool {
        guard case .failure(let error) = outcome else { return false }
        return error.reason == .decoderCrash || error.reason == .decoderTimeout
    }
}
