import Foundation
import Synchronization
public import Variants

/// A pool of decoder child processes, each running the whole pipeline (sniff, decode, render, encode) for
/// one object at a time: an abort or a crash inside a C decoder costs one answer, never the caller's
/// process. Every caller goes through it: serve's jobs and renders, the queue's workers, batch, probe and
/// render.
///
/// Each child handles one job at a time, so a death is attributable to its file. A dead or overdue child is
/// replaced on the next job. A crash or a timeout is tried once more in a fresh child (decoder faults can
/// depend on load, so one death does not condemn a file); a file that fails every attempt is quarantined by
/// its SHA-256 and refused on sight afterwards.
public actor PipelinePool {
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
        #if DEBUG
            /// Debug builds only, for the tests: a call each sealed child makes before every job, which must
            /// kill it.
            var violation: ConfinementViolation?
        #endif

        public init(
            executable: String, size: Int = 2, deadline: Duration = .seconds(60), jobsPerChild: Int = 500,
            attemptsPerObject: Int = 2, limits: Limits = .default, confined: Bool = true,
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
                #if DEBUG
                    if let violation { arguments += ["--violate", violation.rawValue] }
                #endif
                return arguments
            }
        }
    }

    private let configuration: Configuration
    private let objects: any ObjectStore
    private let renditions: (any RenditionStore)?
    private var idle: [ChildSlot] = []
    private var created = 0
    private var waiting: [CheckedContinuation<ChildSlot, Never>] = []
    /// Nil only if even an in-memory SQLite database could not be opened.
    private let quarantine: Quarantine?
    /// Children that died or were killed, for metrics.
    public private(set) var crashes = 0
    /// Whether children die on too many different files for the files to be blamed.
    nonisolated let suspicion = HostSuspicion()

    /// A pool that reads sources from `objects` and keeps renditions in `renditions`; with nil it keeps
    /// none, and its answers still carry the renditions made.
    public init(_ configuration: Configuration, objects: any ObjectStore, renditions: (any RenditionStore)?) {
        self.configuration = configuration
        self.objects = objects
        self.renditions = renditions
        quarantine = (try? Quarantine(file: configuration.quarantineFile)) ?? (try? Quarantine(file: nil))
    }

    /// Fulfils an order: this process reads the source's bytes (hashing them only where the caller could
    /// not name them) and the renditions stored for them, a child decodes and renders, and this process
    /// stores the new renditions before answering with them.
    func fulfil(_ order: RenditionOrder, from source: RenditionSource) async -> PipelineAnswer {
        let slot = await checkOut()
        defer { checkIn(slot) }
        let (objects, renditions, maxBytes) = (objects, renditions, configuration.limits.maxInputBytes)
        let loaded = await slot.perform {
            LoadedObject.load(
                order, from: source, objects: objects, renditions: renditions, maxBytes: maxBytes)
        }
        let object: LoadedObject
        switch loaded {
        case .success(let loaded): object = loaded
        case .failure(let error): return PipelineAnswer(.failure(error), timings: StageTimings())
        }
        var counted = quarantine?.failures(of: object.checksum) ?? 0
        if counted >= Quarantine.refusedAfter {
            return PipelineAnswer(
                .failure(.unreadable(.quarantined, "this file killed the decoder before and is refused")),
                timings: object.timings)
        }
        // A second opinion in a fresh child, at once: a decoder's fault can depend on load.
        let attempts = RetrySchedule(tries: configuration.attemptsPerObject, first: .zero, cap: .zero)
        let answer = await attempts.run {
            let answer = await run(object, in: slot)
            guard case .failure(let error) = answer.outcome, error.isDecoderFailure else {
                return .done(answer)
            }
            crashes += 1
            // A child killed from outside looks like a crash; an overrun is the file's (or the deadline's).
            let verdict: HostSuspicion.Verdict =
                error.reason == .decoderCrash ? suspicion.recordDeath(of: object.checksum) : .file
            switch verdict {
            case .file:
                quarantine?.recordFailure(
                    object.checksum, reason: "\(error.reason?.rawValue ?? ""): \(error.message)")
                counted += 1
                return .retry(answer)
            case .host(let doubted):
                for checksum in doubted { _ = try? quarantine?.release(checksum) }
                if !doubted.isEmpty {
                    Console.error(
                        "variantd: decoder children died on \(doubted.count) different files within "
                            + "\(HostSuspicion.window): the host is suspect (memory limits, a signal from outside, "
                            + "a system call the filter refuses), so no file is quarantined for it")
                }
                var answer = answer
                answer.error = VariantsError(
                    .internalError,
                    "decoder children are dying on many different files; the host, not this file, is suspect "
                        + "(\(error.message))")
                return .done(answer)
            }
        }
        // A file that decodes is no killer: a death counted against it was the host's (a child killed from
        // outside, a memory cgroup's OOM killer), so only deaths with no success between them quarantine.
        if counted > 0, case .success = answer.outcome {
            _ = try? quarantine?.release(object.checksum)
        }
        return answer
    }

    /// Runs the object in the slot's child; cancelling the calling task (the queue worker's lease was lost)
    /// kills the child as the deadline would, and nothing it answered is stored. A child that could not
    /// confine itself never read the file: the host refused it something (an open on a failing disk, a
    /// kernel limit), so fresh children are tried at once, up to `startsPerObject`, and the file is not
    /// blamed.
    private func run(_ object: LoadedObject, in slot: ChildSlot) async -> PipelineAnswer {
        let configuration = configuration
        var answer: PipelineAnswer
        var starts = 0
        repeat {
            starts += 1
            slot.begin()
            answer = await withTaskCancellationHandler {
                await slot.perform { slot.run(object, configuration: configuration) }
            } onCancel: {
                slot.cancel()
            }
        } while answer.error == ChildSlot.unconfined && starts < Self.startsPerObject && !Task.isCancelled
        return answer
    }

    /// Children started for one object when each in turn fails to confine itself.
    static let startsPerObject = 3

    /// Ends every idle child; call when no job is in flight. A later job starts a fresh one.
    public func shutdown() {
        for slot in idle { slot.queue.sync { slot.stop() } }
        created -= idle.count
        idle.removeAll()
    }

    private func checkOut() async -> ChildSlot {
        if let slot = idle.popLast() { return slot }
        if created < configuration.size {
            created += 1
            return ChildSlot(renditions: renditions)
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func checkIn(_ slot: ChildSlot) {
        if waiting.isEmpty {
            idle.append(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}

/// An object read by the parent, ready to be sent to a child: the job line and the bytes that follow it.
struct LoadedObject: Sendable {
    var job: PipelineJob
    var source: [UInt8]
    var stored: [RenditionFile]
    /// The SHA-256 of `source`.
    var checksum: String
    /// The spec keys of the renditions the order makes: the only renditions the child may answer.
    var specKeys: Set<String>
    /// Reading and hashing, done here rather than in the child.
    var timings: StageTimings

    /// Whether `key` names a rendition of these bytes for one of the bucket's variants, and nothing else.
    func asks(for key: String) -> Bool {
        let directory = RenditionKey.directory(ofSource: checksum) + "/"
        guard key.hasPrefix(directory) else { return false }
        let name = key.dropFirst(directory.count)
        return !name.contains("/") && specKeys.contains(RenditionKey.specKey(ofFileName: name))
    }

    /// Reads the source and the renditions stored for its bytes that the order makes (only those the
    /// caller listed, when it did).
    static func load(
        _ order: RenditionOrder, from source: RenditionSource, objects: any ObjectStore,
        renditions: (any RenditionStore)?, maxBytes: Int
    ) -> Result<LoadedObject, VariantsError> {
        var timings = StageTimings()
        do throws(VariantsError) {
            let (bytes, checksum) = try source.load(from: objects, maxBytes: maxBytes, timings: &timings)
            let specKeys = order.wantedSpecKeys
            let wanted = source.listed.map { specKeys.intersection($0) } ?? specKeys
            let stored =
                wanted.isEmpty
                ? []
                : timings.measure(.read) {
                    renditions?.stored(sourceChecksum: checksum, specKeys: wanted) ?? []
                }
            let job = PipelineJob(
                order: order.knowing(checksum: checksum), sourceSize: bytes.count,
                stored: stored.map { PipelinePart(key: $0.key, size: $0.bytes.count) })
            return .success(
                LoadedObject(
                    job: job, source: bytes, stored: stored, checksum: checksum, specKeys: specKeys,
                    timings: timings))
        } catch {
            return .failure(error)
        }
    }
}

/// One place in the pool: a serial queue for the blocking pipe I/O and the child currently behind it.
///
/// `@unchecked Sendable` because the pool hands a slot to exactly one job at a time and every access to
/// `child` happens on `queue`.
final class ChildSlot: @unchecked Sendable {
    let queue = DispatchQueue(label: "variantd.decoder")
    private let renditions: (any RenditionStore)?
    private var child: ChildProcess?
    private var jobs = 0
    /// The running child of the job in hand and whether that job was cancelled: `cancel()` runs on
    /// whichever thread cancels the waiting task, while the job's pipe I/O blocks on `queue`.
    private let inHand = Mutex<(process: SpawnedProcess?, cancelled: Bool)>((nil, false))
    static let cancelled = VariantsError(.internalError, "the decode was cancelled")
    static let unconfined = VariantsError(
        .internalError, "the decoder process could not confine itself (see its log)")
    /// The most one rendition from a child may take: four times a 4096 × 4096 RGBA PNG stored uncompressed,
    /// the largest still a variant can ask for.
    static let maxRenditionBytes = 256 << 20

    init(renditions: (any RenditionStore)?) {
        self.renditions = renditions
    }

    /// Runs `body` on the slot's queue, off the cooperative threads: it blocks on pipes and files.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Readies the slot for a job that may be cancelled; before it is handed over, so that no cancel is lost.
    func begin() {
        inHand.withLock { $0 = (nil, false) }
    }

    /// Cancels the job in hand: its child, if running, is killed, and its answer is not stored.
    func cancel() {
        inHand.withLock { held in
            held.cancelled = true
            held.process?.kill()
        }
    }

    private var isCancelled: Bool { inHand.withLock { $0.cancelled } }

    /// Sends the object to the child, reads its answer and the renditions after it, and stores them.
    func run(_ object: LoadedObject, configuration: PipelinePool.Configuration) -> PipelineAnswer {
        let started = ContinuousClock.now
        let deadline = started + configuration.deadline
        var timings = object.timings
        defer { inHand.withLock { $0.process = nil } }
        do {
            let child = try current(configuration)
            let cancelled = inHand.withLock { held in
                held.process = child.process
                return held.cancelled
            }
            if cancelled { return PipelineAnswer(.failure(Self.cancelled), timings: timings) }
            jobs += 1
            let line = try WireJSON.encode(object.job) + [0x0A]
            try child.send([line, object.source] + object.stored.map(\.bytes), deadline: deadline)
            let reply = try WireJSON.decode(PipelineReply.self, from: try child.line(deadline: deadline))
            var files: [RenditionFile] = []
            for part in reply.written {
                // A child a hostile file took over could name any path, or a length that traps this process
                // or that it streams until the deadline while this process buffers it.
                guard (0...Self.maxRenditionBytes).contains(part.size), object.asks(for: part.key) else {
                    throw VariantsError(
                        .internalError, "the decoder process answered a rendition it was not asked for")
                }
                files.append(
                    RenditionFile(key: part.key, bytes: try child.bytes(part.size, deadline: deadline)))
            }
            if jobs >= configuration.jobsPerChild
                || ProcessMemory.residentBytes(of: "\(child.processID)") ?? 0
                    > configuration.residentLimitBytes
            {
                stop()
            }
            timings.merge(reply.answer.timings)
            var outcome = reply.answer.outcome
            if isCancelled { outcome = .failure(Self.cancelled) }
            if case .success = outcome, let renditions, !files.isEmpty {
                do throws(VariantsError) {
                    try timings.measure(.write) { () throws(VariantsError) in try renditions.write(files) }
                } catch {
                    outcome = .failure(error)
                }
            }
            var answer = PipelineAnswer(
                outcome, timings: timings, peakResidentKiB: reply.answer.peakResidentKiB)
            if case .success = outcome { answer.files = files }
            return answer
        } catch {
            child = nil
            timings.add(.child, started.duration(to: .now))
            let failure = isCancelled ? Self.cancelled : Self.failure(error, configuration)
            return PipelineAnswer(.failure(failure), timings: timings)
        }
    }

    /// What a child's failure means for the object it was working on.
    private static func failure(_ error: any Error, _ configuration: PipelinePool.Configuration)
        -> VariantsError
    {
        switch error {
        case ChildProcess.Failure.timedOut:
            return .unreadable(.decoderTimeout, "decoding took longer than \(configuration.deadline)")
        case ChildProcess.Failure.died(nil, ExitStatus.configuration.rawValue, _):
            return unconfined
        case ChildProcess.Failure.died(let signal, let status, let refused?):
            // A hostile file, or a library that needs a call the filter does not allow: the operator decides.
            EventLog.event(
                "decoder_refused_call",
                [
                    "syscall": .integer(Int(refused.number)), "name": .string(refused.name ?? "unknown"),
                    "architecture": .integer(Int(refused.architecture)),
                ])
            let how = signal.map { "signal \($0)" } ?? "exit status \(status ?? -1)"
            return .unreadable(
                .decoderCrash,
                "the decoder process died (\(how)) on this file: its system-call filter refused \(refused)")
        case ChildProcess.Failure.died(let signal, let status, nil):
            let how = signal.map { "signal \($0)" } ?? "exit status \(status ?? -1)"
            return .unreadable(.decoderCrash, "the decoder process died (\(how)) on this file")
        case let error as VariantsError:
            return error
        default:
            return VariantsError(.internalError, "the decoder process failed: \(error)")
        }
    }

    func stop() {
        child?.terminate()
        child = nil
        jobs = 0
    }

    private func current(_ configuration: PipelinePool.Configuration) throws -> ChildProcess {
        if let child, child.isRunning { return child }
        jobs = 0
        let started = try ChildProcess(
            executable: configuration.executable, arguments: try configuration.childArguments)
        child = started
        return started
    }
}
