import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon under libfiu (Debian's `fiu-utils`, through `FileFaults`): told by `fiu-ctrl` to fail one
/// `open` of a file in five with `EIO`, `EMFILE`, `ENOSPC` or `EDQUOT` — reading sources, writing
/// renditions, the spool, the queue, the quarantine — and later to stop. Every request sent meanwhile is
/// answered, done or refused with a typed answer; the daemon stays up; once the fault ends it is ready again
/// by itself, every refused request succeeds when sent again, and every job it committed is rendered.
@Suite(.enabled(if: FileFaults.isAvailable, "needs fiu-utils (libfiu, fiu-ctrl) and a C compiler"))
struct ServeUnderFailingOpensTests {
    /// What a request may be answered while opens fail: the host's fault, typed, to be sent again.
    private static let faultAnswers: Set<String> = ["503 transform_busy", "507 insufficient_storage"]
    private static let pictures = ["gradient.jpg", "gradient-alpha.png", "hopper.avif"]

    @Test(arguments: [EIO, EMFILE, ENOSPC, EDQUOT])
    func failedOpensAreAnsweredTypedAndTheDaemonRecoversByItself(errorNumber: Int32) async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let faults = FileFaults(in: fixture.directory)
        let daemon = try fixture.start(launcher: try faults.launcher())
        #expect(try daemon.render("/v1/render/pics/2026/gradient.jpg?width=50").status == 200)

        try await faults.control(
            daemon.process.processIdentifier,
            "enable_random name=posix/io/oc/open,probability=0.2,failinfo=\(errorNumber)")
        var refused: [String] = []
        var answers: [String: Int] = [:]
        var accepted: Set<Int64> = []
        func account(_ target: String, status: Int, code: String?, done: Int) {
            let key = "\(status) \(code ?? "ok")"
            answers[key, default: 0] += 1
            if status == done { return }
            #expect(Self.faultAnswers.contains(key), "\(target): \(key)")
            refused.append(target)
        }
        for width in 60..<90 {
            let target = "/v1/render/pics/2026/\(Self.pictures[width % 3])?width=\(width)&format=webp"
            let answer = try daemon.render(target)
            account(target, status: answer.status, code: answer.status == 200 ? nil : answer.error, done: 200)
        }
        for index in 0..<10 {
            let job = ServeFixture.job("up/gradient.jpg", id: "sync-\(index)")
            let reply = try daemon.job(job)
            account(
                "job \(index)", status: reply.status, code: reply.status == 200 ? nil : reply.error, done: 200
            )
            let body = Array(try JSONSerialization.data(withJSONObject: job))
            let queued = try daemon.send("POST", "/v1/jobs?async=1&version=\(index)", body: body)
            account(
                "async \(index)", status: queued.status, code: queued.status == 202 ? nil : queued.error,
                done: 202)
            if let id = (queued.json["id"] as? NSNumber)?.int64Value { accepted.insert(id) }
        }
        let alive = try daemon.send("GET", "/livez").status
        #expect(daemon.process.isRunning && alive == 200, "the daemon stays up: \(daemon.lastWords)")
        #expect(answers.count > 1, "the fault was met: \(answers)")

        try await faults.control(daemon.process.processIdentifier, "disable name=posix/io/oc/open")
        // A probe's flush waits behind every dirty page of the disk, which a loaded machine can hold for long:
        // 600 looks 200 ms apart, counted rather than timed, since a loaded suite can hold this test's thread
        // longer than the whole wait.
        var readiness = try daemon.send("GET", "/readyz")
        for _ in 0..<600 where readiness.status != 200 {
            try await Task.sleep(for: .milliseconds(200))
            readiness = try daemon.send("GET", "/readyz")
        }
        #expect(readiness.status == 200, "ready again by itself once opens succeed: \(readiness.text)")
        for target in refused where target.hasPrefix("/v1/render") {
            #expect(try daemon.render(target).status == 200, "\(target) sent again")
        }
        for index in 0..<10 where refused.contains("job \(index)") {
            #expect(try daemon.job(ServeFixture.job("up/gradient.jpg", id: "again-\(index)")).status == 200)
        }
        for index in 0..<10 where refused.contains("async \(index)") {
            let body = Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/gradient.jpg")))
            let queued = try daemon.send("POST", "/v1/jobs?async=1&version=\(index)", body: body)
            #expect(queued.status == 202, "\(queued.text)")
            if let id = (queued.json["id"] as? NSNumber)?.int64Value { accepted.insert(id) }
        }
        #expect(accepted.count == 10, "one job a version, committed once")

        // The daemon's own worker renders every committed job, each finished once.
        let queue = try await SQLiteQueue(
            path: fixture.directory.appendingPathComponent("data/queue.sqlite3").path)
        var jobs: [Job] = []
        for _ in 0..<600 {
            jobs = try await queue.jobs(in: nil, limit: 100)
            if jobs.count == accepted.count, jobs.allSatisfy({ $0.state.isFinal }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(Set(jobs.map(\.id)) == accepted)
        for job in jobs {
            #expect(job.state == .completed, "job \(job.id): \(job.state) \(String(describing: job.error))")
            let finishes = try await queue.finalAttempts(of: job.id)
            #expect(finishes.count == 1, "job \(job.id) finished \(finishes.count) times")
        }
    }
}
