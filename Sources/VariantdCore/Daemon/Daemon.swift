import Foundation
import Variants

/// The running sidecar: the HTTP server, the decoder pool behind it, and what signals do to them.
struct Daemon: Sendable {
    let configuration: ServeConfiguration

    func run() async throws -> ExitStatus {
        let startup = StartupPhase()
        let signals = SignalEvent.stream(startup: startup)
        // From this line on the signals are caught; start-up ends with `listening`.
        EventLog.event("starting")
        if let warning = ChildConfinement.landlockWarning {
            EventLog.event("landlock_unavailable", ["message": .string(warning)])
        }
        let environment = ProcessInfo.processInfo.environment
        let root: StoreLocation
        let objects: any ObjectStore
        let sources: any RenderSources
        let registry: BucketRegistry
        let stored: any RenditionCatalog
        let out: StoreLocation
        do {
            root = try StoreLocation(configuration.objects)
            objects = try root.objects(environment: environment)
            sources = try root.renderSources(
                environment: environment, maxBytes: Limits.default.maxInputBytes,
                window: configuration.sourceTTL)
            registry = try BucketRegistry(directory: configuration.buckets)
            out = try StoreLocation(configuration.renditions)
            stored = try out.renditions(environment: environment)
        } catch {
            throw StartupError(error.message)
        }
        var cache: RenditionCache?
        if case .bucket = out, configuration.renditionCacheBytes > 0 {
            do {
                cache = try RenditionCache(
                    directory: configuration.renditionCache, budget: configuration.renditionCacheBytes)
            } catch {
                throw StartupError(error.message)
            }
        }
        let index = RenditionIndex()
        let renditions = IndexedRenditions(store: stored, index: index, cache: cache)
        let queue: any JobQueue
        do {
            queue = try await configuration.queue.open(connections: configuration.workers + 2)
        } catch {
            throw StartupError("The job queue cannot be opened: \(error.message)")
        }
        let admission = Admission(slots: configuration.slots, waitingCapacity: configuration.waitingCapacity)
        let metrics = ServerMetrics()
        do {
            _ = try Quarantine(file: configuration.quarantine)
        } catch {
            throw StartupError("The quarantine file cannot be opened: \(error.message)")
        }
        let pool = PipelinePool(
            .init(
                executable: Executable.current, size: configuration.slots, deadline: configuration.deadline,
                quarantineFile: configuration.quarantine),
            objects: objects, renditions: renditions)
        let secret = configuration.listen.isTCP ? configuration.secret.map(BearerSecret.init) : nil
        let errorHeaders = ErrorHeaders(admission: admission, metrics: metrics)
        let budget = onDemandBudget(renditions, registry: registry, in: stored)
        let render = RenderService(
            sources: sources, renditions: renditions, registry: registry, admission: admission,
            metrics: metrics, pool: pool, access: RenderAccess(secret: secret, urlKey: configuration.urlKey),
            maxAge: configuration.maxAge, index: index, cache: cache,
            meter: TransformMeter(allowance: queue, metrics: metrics), budget: budget,
            headers: errorHeaders.headers)
        let router = Router(
            secret: secret, objects: objects, registry: registry, admission: admission, metrics: metrics,
            runner: JobRunner(pool: pool, metrics: metrics), queue: queue, render: render,
            info: InfoService(render: render),
            changes: ObjectChanges(
                queue: queue, root: root, sources: sources, registry: registry, metrics: metrics),
            accounts: AccountsEndpoint(queue: queue),
            errorHeaders: errorHeaders)
        let server = try HTTPServer(
            listen: configuration.listen, options: options(metrics), responder: router)
        EventLog.event(
            "listening",
            [
                "listen": .string(server.address.description), "slots": .integer(configuration.slots),
                "queueDepth": .integer(configuration.waitingCapacity), "buckets": .integer(registry.count),
            ])
        startup.end()
        let flusher = Task { await AccessLog.shared.flushing() }
        defer { flusher.cancel() }
        let workers = work(queue, objects: objects, registry: registry, renditions: renditions)
        for await signal in signals {
            switch signal {
            case .reload:
                reload(registry)
            case .terminate:
                return await drain(server, admission: admission, pool: pool, workers: workers)
            }
        }
        return .software
    }

    /// The daemon's own queue workers, when it runs any: they render what storage events, deletions and
    /// asynchronous jobs committed, as `variantd work` does, until the daemon drains.
    private func work(
        _ queue: any JobQueue, objects: any ObjectStore, registry: BucketRegistry,
        renditions: any RenditionCatalog
    ) -> DaemonWorkers? {
        guard configuration.workers > 0 else { return nil }
        var settings = Worker.Configuration(
            objects: objects, buckets: registry, renditions: renditions, slots: configuration.workers)
        settings.callback = configuration.callback
        settings.quarantine = configuration.quarantine
        settings.log = .daemon
        return DaemonWorkers { stop in Worker(queue: queue, configuration: settings, stop: stop) }
    }

    /// The bound on transforms' renditions, when one is set; the renditions the store held before the daemon
    /// started are found in the background, a folder walked or a bucket listed page by page.
    private func onDemandBudget(
        _ renditions: IndexedRenditions, registry: BucketRegistry, in stored: any RenditionCatalog
    )
        -> OnDemandBudget?
    {
        guard configuration.onDemandBudget > 0 else { return nil }
        let budget = OnDemandBudget(
            budget: configuration.onDemandBudget, index: renditions.index, catalog: renditions,
            registry: registry)
        DispatchQueue.global(qos: .utility).async {
            var fields: [String: JSONScalar] = [:]
            if let folder = stored as? RenditionFolder {
                fields["renditions"] = .integer(budget.recordStored(inFolder: folder.root))
            } else if let bucket = stored as? S3RenditionStore {
                do throws(S3Error) {
                    fields["renditions"] = .integer(
                        try budget.recordStored(inBucket: bucket.client, at: bucket.location))
                } catch {
                    fields["error"] = .string(error.variantsError.message)
                }
            }
            fields["bytes"] = .integer(budget.snapshot.bytes)
            EventLog.event("on_demand_found", fields)
        }
        return budget
    }

    /// Connections beyond the jobs that may be admitted are left for health checks, metrics and 503s. One
    /// I/O thread per core the daemon may run on: more only switch between themselves on a pinned core.
    private func options(_ metrics: ServerMetrics) -> HTTPServer.Options {
        HTTPServer.Options(
            threads: HTTPServer.usableCores, connectionLimit: configuration.maxConnections,
            connectionTimeout: configuration.ioTimeout, maxBodyBytes: configuration.maxBodyBytes,
            deadlines: configuration.deadlines, onSlowClient: metrics.countSlowClient)
    }

    private func reload(_ registry: BucketRegistry) {
        do {
            EventLog.event("reload", ["buckets": .integer(try registry.reload())])
        } catch {
            EventLog.event("reload", ["error": .string(error.message), "kept": .integer(registry.count)])
        }
    }

    /// Stops accepting and claiming, lets admitted jobs and the workers' jobs in hand finish within the grace
    /// period, and stops.
    ///
    /// Exits 0 when every job was answered. When the grace period ended first, it ends the process here with
    /// 1, leaving the threads that still serve those jobs (their children finish or die on their own, and
    /// their unfinished files are removed when they die; a worker's job goes back to the queue when its lease
    /// expires).
    private func drain(
        _ server: HTTPServer, admission: Admission, pool: PipelinePool, workers: DaemonWorkers?
    )
        async -> ExitStatus
    {
        let deadline = ContinuousClock.now + configuration.grace
        admission.drain()
        server.stopAccepting()
        workers?.stop()
        EventLog.event("draining", ["inFlight": .integer(server.unanswered)])
        while server.unanswered > 0 || workers?.isRunning == true, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let unanswered = server.unanswered + (workers?.isRunning == true ? 1 : 0)
        guard unanswered == 0 else {
            EventLog.event("stopped", ["unanswered": .integer(unanswered)])
            ExitStatus.failure.endProcessLeavingThreads()
        }
        // The last answers were handed over; give their connections a moment to be written and closed.
        let flushed = min(deadline, ContinuousClock.now + .seconds(2))
        while server.connections > 0, ContinuousClock.now < flushed {
            try? await Task.sleep(for: .milliseconds(20))
        }
        server.stop()
        await pool.shutdown()
        EventLog.event("stopped", ["unanswered": .integer(0)])
        return .success
    }
}
