import Foundation
import VariantdCore

/// The `variantd serve` the load benchmark starts for itself: this binary, on an ephemeral loopback port,
/// over an object store and a bucket directory (holding W1's bucket) in a fresh temporary directory, or
/// over sources and renditions in object storage.
final class BenchDaemon: @unchecked Sendable {
    /// W1's bucket, as `--buckets` holds it.
    static let bucket = "bench-w1"

    let secret = UUID().uuidString + UUID().uuidString
    /// `http://127.0.0.1:PORT`.
    let base: URL
    let slots: Int
    private let directory: URL
    /// The folder store's root, which is also the rendition store; with object storage, a scratch folder.
    let root: URL
    /// With object storage: sources under `objects/` and renditions under `renditions/` of the location.
    let objects: S3ObjectStore?
    let renditions: S3RenditionStore?
    /// The daemon's stderr: its JSON log lines.
    private let logPath: String
    private let process = Process()
    private var copied = 0

    var id: Int32 { process.processIdentifier }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the daemon with `buckets` (name → declaration), on `core` alone when one is given, over
    /// `store` (its bucket created if needed; `AWS_*` variables) when one is given, and waits (at most 30 s)
    /// for its `listening` line.
    init(
        slots: Int, buckets declarations: [String: String] = [BenchDaemon.bucket: W1Workload.declaration],
        core: Int? = nil, store: S3Location? = nil
    ) throws {
        self.slots = slots
        let files = FileManager.default
        directory = files.temporaryDirectory.appendingPathComponent(
            "variantd-bench-serve-\(UUID().uuidString)")
        root = directory.appendingPathComponent("store")
        logPath = directory.appendingPathComponent("daemon.log").path
        let buckets = directory.appendingPathComponent("buckets")
        try files.createDirectory(at: root, withIntermediateDirectories: true)
        try files.createDirectory(at: buckets, withIntermediateDirectories: true)
        for (name, declaration) in declarations {
            try Data(declaration.utf8).write(to: buckets.appendingPathComponent(name + ".json"))
        }
        try Data().write(to: URL(fileURLWithPath: logPath))
        // Its own data folder: the daemon's queue is not shared with any other daemon on the machine.
        var locations = ["--root", root.path, "--data-dir", directory.appendingPathComponent("data").path]
        if let store {
            let client = try StoreLocation.client(ProcessInfo.processInfo.environment)
            try client.createBucket(store.bucket)
            let objects = S3ObjectStore(
                client: client, location: try S3Location(store.description + "/objects"))
            let renditions = S3RenditionStore(
                client: client, location: try S3Location(store.description + "/renditions"))
            let data = directory.appendingPathComponent("data").path
            try files.createDirectory(atPath: data, withIntermediateDirectories: true)
            locations = [
                "--root", objects.location.description, "--out", renditions.location.description,
                "--data-dir",
                data,
            ]
            (self.objects, self.renditions) = (objects, renditions)
        } else {
            (objects, renditions) = (nil, nil)
        }
        let (executable, arguments) = CorePinning.command(
            Executable.current,
            ["serve", "--listen", "127.0.0.1:0", "--buckets", buckets.path, "--slots", "\(slots)"]
                + locations,
            core: core)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VARIANTD_SECRET"] = secret
        environment["VIPS_WARNING"] = "0"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        do {
            try process.run()
            base = try Self.waitForAddress(in: logPath, of: process)
        } catch {
            try? files.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        if process.isRunning {
            process.kill()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Copies (or uploads) `files` into `folder` of the object store and returns their `source` paths,
    /// relative to it.
    func store(_ files: [String], in name: String = "corpus") throws -> [String] {
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try files.map { file in
            copied += 1
            let source = "\(name)/\(copied)-" + (file as NSString).lastPathComponent
            if let objects {
                try objects.client.put(
                    bucket: objects.location.bucket, key: objects.location.key(source), file: file,
                    contentType: "application/octet-stream")
            } else {
                try FileManager.default.copyItem(
                    at: URL(fileURLWithPath: file), to: root.appendingPathComponent(source))
            }
            return source
        }
    }

    /// Writes `count` distinct copies of `file` (`DistinctSource`) into the folder store's root and returns
    /// their `source` paths; nil when the format has no distinct copy.
    func storeCopies(of file: String, count: Int) throws -> [String]? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        guard DistinctSource.copy(bytes, number: 0) != nil else { return nil }
        let folder = root.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { number in
            copied += 1
            let source = "copies/\(copied)-" + (file as NSString).lastPathComponent
            try Data(DistinctSource.copy(bytes, number: copied) ?? bytes).write(
                to: root.appendingPathComponent(source))
            return source
        }
    }

    /// SIGTERM, then the exit status once the daemon has drained (at most its 30 s grace and 30 s more);
    /// nil when it had to be killed or ended by a signal.
    func stop() -> Int32? {
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard !process.isRunning else {
            process.kill()
            process.waitUntilExit()
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    private static func waitForAddress(in logPath: String, of process: Process) throws -> URL {
        struct Line: Decodable {
            var event: String?
            var listen: String?
        }
        let deadline = ContinuousClock.now + .seconds(30)
        var text = ""
        while ContinuousClock.now < deadline {
            text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let parsed = try? WireJSON.decode(Line.self, from: line.utf8),
                    parsed.event == "listening", let listen = parsed.listen
                else { continue }
                if let url = URL(string: "http://" + listen) { return url }
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning {
            process.kill()
            process.waitUntilExit()
        }
        throw Failure(description: "variantd serve did not start listening:\n" + String(text.suffix(2000)))
    }
}
