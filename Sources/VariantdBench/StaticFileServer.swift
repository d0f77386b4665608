import Foundation

/// Debian's nginx serving a folder as static files on a loopback port, started and stopped by the render
/// benchmark: the yardstick for cache hits, which are files sent from the same disk.
final class StaticFileServer: @unchecked Sendable {
    static let executable = "/usr/sbin/nginx"

    /// `http://127.0.0.1:PORT`.
    let base: URL
    private let directory: URL
    private let process: Process

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts nginx with `workers` worker processes over `root`, on `core` alone when one is given; nil when
    /// nginx is not installed (`bash scripts/bench-setup.sh` installs it).
    init?(root: String, workers: Int, core: Int? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else { return nil }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-bench-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var attempt = 0
        while true {
            attempt += 1
            let port = Int.random(in: 20_000...60_000)
            let configuration = directory.appendingPathComponent("nginx.conf")
            try Data(
                Self.configuration(root: root, port: port, workers: workers, directory: directory.path).utf8
            )
            .write(to: configuration)
            let process = Process()
            let (executable, arguments) = CorePinning.command(
                Self.executable, ["-p", directory.path, "-c", configuration.path], core: core)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitUntilListening(process, pidFile: directory.appendingPathComponent("nginx.pid").path) {
                self.process = process
                base = URL(string: "http://127.0.0.1:\(port)")!
                return
            }
            guard attempt < 5 else {
                let log =
                    (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8))
                try? FileManager.default.removeItem(at: directory)
                throw Failure(description: "nginx did not start: \(log ?? "no error log")")
            }
        }
    }

    /// Whether nginx came to listen: it writes its pid file only once its sockets are bound and listening, and
    /// exits when the port is taken (the caller then tries another). Waiting for the file, not a fixed time,
    /// holds on a machine too busy to start nginx within any given time.
    private static func waitUntilListening(_ process: Process, pidFile: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            if let attributes = try? FileManager.default.attributesOfItem(atPath: pidFile),
                (attributes[.size] as? Int ?? 0) > 0
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: pidFile)
        return false
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Files sent with `sendfile`, keep-alive as long as the client wants, no access log: nginx at its
    /// fastest for small static files.
    private static func configuration(root: String, port: Int, workers: Int, directory: String) -> String {
        """
        daemon off;
        master_process on;
        worker_processes \(workers);
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log;
        events { worker_connections 1024; }
        http {
            access_log off;
            sendfile on;
            tcp_nopush on;
            keepalive_requests 1000000;
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
            types { image/jpeg jpg; image/png png; image/webp webp; image/avif avif; }
            server {
                listen 127.0.0.1:\(port);
                root \(root);
            }
        }
        """
    }
}
