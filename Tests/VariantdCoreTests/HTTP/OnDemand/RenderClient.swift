import Foundation
import VariantdTestSupport

/// Render requests against a `DaemonProcess` through Debian's `curl`, keeping every response header.
struct RenderAnswer {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
    }

    var error: String? { json["error"] as? String }
    var etag: String? { headers["etag"] }
}

/// One request in flight.
final class RenderCall {
    private let curl = Process()
    private let bodyPath: String
    private let headerPath: String
    private let head: Bool

    init(address: String, target: String, head: Bool, headers: [String], body: String?, directory: URL) throws
    {
        let name = UUID().uuidString
        bodyPath = directory.appendingPathComponent("body-\(name)").path
        headerPath = directory.appendingPathComponent("headers-\(name)").path
        self.head = head
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-sS", "-g", "--path-as-is", "--max-time", "60", "-o", bodyPath, "-D", headerPath]
        if head { arguments.append("-I") }
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        curl.arguments = arguments + ["http://\(address)\(target)"]
        curl.standardOutput = FileHandle.nullDevice
        curl.standardError = FileHandle.nullDevice
        try curl.run()
    }

    func finish() -> RenderAnswer {
        curl.waitUntilExit()
        let text = (try? String(contentsOfFile: headerPath, encoding: .utf8)) ?? ""
        let lines = text.components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        // With -I curl writes the headers where the body would go: what follows them is the body.
        let written = FileManager.default.contents(atPath: bodyPath) ?? Data()
        let body = head ? written.dropFirst(text.utf8.count) : written
        try? FileManager.default.removeItem(atPath: bodyPath)
        try? FileManager.default.removeItem(atPath: headerPath)
        return RenderAnswer(status: status, headers: headers, body: Array(body))
    }
}

extension DaemonProcess {
    func startRender(_ target: String, head: Bool = false, headers: [String] = [], body: String? = nil) throws
        -> RenderCall
    {
        try RenderCall(
            address: address, target: target, head: head, headers: headers, body: body, directory: directory)
    }

    /// A `GET` (a `HEAD` with `head`, a `POST` with a body) and its answer.
    func render(_ target: String, head: Bool = false, headers: [String] = [], body: String? = nil) throws
        -> RenderAnswer
    {
        try startRender(target, head: head, headers: headers, body: body).finish()
    }

    /// The value of one labelled metrics line, such as `variantd_render_requests_total{outcome="hit",code="ok"}`.
    func metric(line prefix: String) throws -> Double {
        let text = try send("GET", "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }
}

extension ServeFixture {
    /// `<root>/pics/…` in a public bucket with a declared `thumb`, and `<root>/vault/…` in a private one.
    func addRenderBuckets() throws {
        let files = FileManager.default
        for bucket in ["pics", "vault"] {
            let folder = root.appendingPathComponent(bucket + "/2026")
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["gradient.jpg", "gradient-alpha.png", "hopper.avif"] {
                try files.copyItem(
                    at: TestPaths.samples.appendingPathComponent("pictures/" + name),
                    to: folder.appendingPathComponent(name))
            }
        }
        try files.copyItem(
            at: TestPaths.samples.appendingPathComponent("other/sizes.csv"),
            to: root.appendingPathComponent("pics/2026/sizes.csv"))
        let pics = #"{"name": "pics", "public": true, "variants": {"thumb": {"width": 40, "height": 40}}}"#
        try Data(pics.utf8).write(to: buckets.appendingPathComponent("pics.json"))
        try Data(#"{"name": "vault"}"#.utf8).write(to: buckets.appendingPathComponent("vault.json"))
    }

    /// Writes a URL key file and returns its path.
    func writeURLKey(_ key: String = "render-url-key-0123456789") throws -> String {
        let path = directory.appendingPathComponent("url-\(UUID().uuidString).key").path
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
