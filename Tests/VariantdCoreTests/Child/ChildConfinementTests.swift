import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Sealed decoder children: the kernel holds the filter and Landlock on every thread, a sealed child still
/// decodes, a child that opens a file for writing or reaches for the network after sealing dies by SIGSYS
/// while its parent answers the job, and one that reads a file other than a font is refused.
@Suite struct ChildConfinementTests {
    private let picture = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

    @Test func aSealedChildDecodesUnderTheKernelsFilter() throws {
        let child = try ChildProcess(
            executable: TestPaths.variantd, arguments: ["decoder-child", "--confined"])
        defer { child.terminate() }
        let metadata = try decode("pictures/gradient.jpg", in: child)
        #expect(metadata.width == 320 && metadata.height == 200)
        // Still waiting for its next job: the kernel reports the filter and the lost privileges.
        let status = try String(contentsOfFile: "/proc/\(child.processID)/status", encoding: .utf8)
        #expect(status.contains("NoNewPrivs:\t1"))
        #expect(status.contains("Seccomp:\t2"), "seccomp mode 2 is a filter")
    }

    /// FFmpeg's demuxers and its four decoders, single-threaded, need nothing the filter refuses: a sealed
    /// child shows each clip's poster, turned portrait, and stays up for the next.
    @Test func aSealedChildShowsVideoPostersOfEveryCodec() throws {
        let child = try ChildProcess(
            executable: TestPaths.variantd, arguments: ["decoder-child", "--confined"])
        defer { child.terminate() }
        for clip in ["portrait-h264.mp4", "portrait-hevc.mov", "portrait-vp9.webm", "portrait-av1.webm"] {
            let metadata = try decode("videos/\(clip)", in: child)
            #expect(metadata.width == 64 && metadata.height == 96, "\(clip)")
            #expect(metadata.thumbhash != nil, "\(clip)")
        }
        #expect(try decode("pictures/gradient.jpg", in: child).width == 320)
    }

    /// Every thread, libvips' and libdispatch's included, read from outside the child: the kernel's seccomp
    /// lines in its status, and Landlock by what it may do — each thread is made to open `/` with its filter
    /// suspended, and the kernel refuses.
    @Test(
        .enabled(if: Landlock.version != nil, "the kernel offers no Landlock"),
        .enabled(
            if: ThreadProbe.isAvailable, "tracing a thread past its filter takes CAP_SYS_ADMIN on x86-64"))
    func everyThreadOfASealedChildIsUnderTheFilterAndLandlock() throws {
        let child = try ChildProcess(
            executable: TestPaths.variantd, arguments: ["decoder-child", "--confined"])
        defer { child.terminate() }
        _ = try decode("pictures/gradient.jpg", in: child)
        let tasks = "/proc/\(child.processID)/task"
        let threads = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap(Int32.init)
        #expect(threads.count > 1, "a decoder child runs libdispatch's and libvips' threads beside its own")
        let filters = try ProcessStatus.field("Seccomp_filters", of: "/proc/self/status")
        for thread in threads {
            let status = "\(tasks)/\(thread)/status"
            let name = try ProcessStatus.field("Name", of: status)
            #expect(try ProcessStatus.field("Seccomp", of: status) == "2", "thread \(thread) (\(name))")
            #expect(
                try ProcessStatus.field("Seccomp_filters", of: status) == String((Int(filters) ?? 0) + 1),
                "thread \(thread) (\(name)) holds the child's filter")
            #expect(try ProcessStatus.field("NoNewPrivs", of: status) == "1", "thread \(thread) (\(name))")
            #expect(
                try ThreadProbe.openRoot(in: thread) == -Int(EACCES),
                "thread \(thread) (\(name)) opened / : Landlock does not bind it")
        }
        // Each thread went back to the call it was making: the child decodes its next job.
        let next = try decode("pictures/orientation-6.jpg", in: child)
        #expect(next.width == 200 && next.height == 320)
    }

    #if DEBUG
        // The hook that makes a child reach out exists in debug builds only, which the tests run.
        @Test(arguments: [ConfinementViolation.open, .socket])
        func aSealedChildThatReachesOutIsKilledAndItsJobAnswered(_ violation: ConfinementViolation)
            async throws
        {
            var configuration = PipelinePool.Configuration(
                executable: TestPaths.variantd, size: 1, attemptsPerObject: 1)
            configuration.violation = violation
            let sealed = PipelinePool.overFiles(configuration)
            let answer = await sealed.fulfil(file: picture)
            #expect(answer.error?.reason == .decoderCrash, "\(String(describing: answer.error))")
            #expect(answer.error?.message.contains("signal \(SIGSYS)") == true)
            // The child said which call its filter refused, so the answer and the event log name it.
            let call = violation == .open ? "openat" : "socket"
            #expect(
                answer.error?.message.contains("its system-call filter refused \(call) (") == true,
                "\(String(describing: answer.error))")
            #expect(await sealed.crashes == 1)

            // The parent is unharmed: the next child of an ordinary pool in this process decodes.
            let plain = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
            let decoded = try await plain.fulfil(
                file: TestPaths.samples.appendingPathComponent("pictures/orientation-6.jpg").path
            ).outcome.get()
            #expect(decoded.width == 200 && decoded.height == 320)
            await plain.shutdown()
        }

        /// Reading the system's fonts lets a sealed child read no other file: Landlock refuses it, and the
        /// child carries on (it would abort had it read the file), so the job is answered.
        @Test(.enabled(if: Landlock.version != nil, "the kernel offers no Landlock"))
        func aSealedChildReadsNoFileButTheFonts() async throws {
            var configuration = PipelinePool.Configuration(
                executable: TestPaths.variantd, size: 1, attemptsPerObject: 1)
            configuration.violation = .read
            let sealed = PipelinePool.overFiles(configuration)
            let decoded = try await sealed.fulfil(file: picture).outcome.get()
            #expect(decoded.width == 320 && decoded.height == 200)
            #expect(await sealed.crashes == 0)
            await sealed.shutdown()
        }
    #endif

    @Test func aKernelThatRefusesConfinementIsAnInternalErrorNotACrash() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("child.sh").path
        try "#!/bin/sh\nexit 78\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1))
        let answer = await pool.fulfil(file: picture)
        #expect(answer.error?.code == .internalError)
        #expect(await pool.crashes == 0)
    }

    /// On a kernel without Landlock, `serve` says so once at start-up, and its children, sealed by seccomp
    /// alone, still decode.
    @Test func serveSaysAtStartUpWhenTheKernelOffersNoLandlock() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(launcher: KernelWithoutLandlock.launcher)
        let warning = try daemon.waitForLog(event: "landlock_unavailable")
        #expect((warning["message"] as? String)?.hasPrefix("the kernel offers no Landlock") == true)
        let reply = try daemon.job(ServeFixture.job("up/gradient.jpg"))
        #expect(reply.status == 200 && reply.json["width"] as? Int == 320, "\(reply.text)")
        #expect(daemon.log.filter { $0["event"] as? String == "landlock_unavailable" }.count == 1)
    }

    @Test(.enabled(if: Landlock.version != nil, "the kernel offers no Landlock"))
    func serveSaysNothingOfLandlockWhenTheKernelOffersIt() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        #expect(try daemon.job(ServeFixture.job("up/gradient.jpg")).status == 200)
        #expect(!daemon.log.contains { $0["event"] as? String == "landlock_unavailable" })
    }

    /// `work` says it too, in its own log, and its job still completes.
    @Test func workSaysAtStartUpWhenTheKernelOffersNoLandlock() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        _ = try await queue.enqueue(
            try NewJob(
                request: ObjectRequest(bucket: "post-images", path: "g.jpg"), source: "pictures/gradient.jpg")
        )
        let worker = try DaemonProcess(
            [
                "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
                TestPaths.samples.appendingPathComponent("buckets").path, "--out",
                directory.appendingPathComponent("r").path, "--workers", "1", "--listen", "127.0.0.1:0",
                "--quarantine", directory.appendingPathComponent("quarantine.sqlite3").path,
            ], directory: directory, secret: false, command: "work", launcher: KernelWithoutLandlock.launcher)
        let warning = try worker.waitForLog(event: "landlock_unavailable")
        #expect((warning["message"] as? String)?.hasPrefix("the kernel offers no Landlock") == true)
        let finished = try worker.waitForLog(event: "job_finished", timeout: .seconds(60))
        #expect(finished["state"] as? String == "completed", "\(finished)")
        worker.signal(SIGTERM)
        #expect(worker.waitForExit() == 0)
    }

    /// One job through `child`: a sample's bytes in, its metadata out.
    /// A service under a hard CPU limit of its own (systemd's `LimitCPU=`), without the privilege to raise
    /// it: each job still gets its budget, under that limit, and the child's other limits are set too.
    @Test(
        .enabled(if: getuid() == 0, "dropping CAP_SYS_RESOURCE for the child takes root"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"),
            "util-linux's prlimit and setpriv are absent"))
    func aChildUnderAHardCPULimitStillBudgetsEachJob() throws {
        let child = try ChildProcess(
            executable: "/usr/bin/prlimit",
            arguments: [
                "--cpu=3600:3600", "--", "/usr/bin/setpriv", "--bounding-set=-sys_resource",
                "--inh-caps=-sys_resource", "--", TestPaths.variantd, "decoder-child",
            ])
        defer { child.terminate() }
        let metadata = try decode("pictures/gradient.jpg", in: child)
        #expect(metadata.width == 320)
        let limits = try String(contentsOfFile: "/proc/\(child.processID)/limits", encoding: .utf8)
        func limit(_ name: String) -> [String] {
            let line = limits.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
            return line.dropFirst(name.count).split(separator: " ").prefix(2).map(String.init)
        }
        // Started within seconds, the child's budget ends one job's worth of seconds from now.
        let cpu = limit("Max cpu time")
        let soft = Int(cpu.first ?? "") ?? .max
        #expect(cpu.last == "3600" && soft <= 1 + ChildConfinement.cpuSecondsPerJob + 30, "\(cpu)")
        #expect(
            limit("Max open files") == ["\(ChildConfinement.openFiles)", "\(ChildConfinement.openFiles)"])
        #expect(limit("Max core file size") == ["0", "0"])
    }

    private func decode(_ sample: String, in child: ChildProcess) throws -> CompletionMetadata {
        let bytes = try [UInt8](Data(contentsOf: TestPaths.samples.appendingPathComponent(sample)))
        let order = RenditionOrder(ObjectRequest(bucket: "b", path: sample), bucket: nil)
            .knowing(checksum: SHA256.hex(bytes))
        let job = PipelineJob(order: order, sourceSize: bytes.count, stored: [])
        let deadline = ContinuousClock.now + .seconds(60)
        try child.send([try WireJSON.encode(job) + [0x0A], bytes], deadline: deadline)
        let reply = try WireJSON.decode(PipelineReply.self, from: try child.line(deadline: deadline))
        return try reply.answer.outcome.get()
    }
}
