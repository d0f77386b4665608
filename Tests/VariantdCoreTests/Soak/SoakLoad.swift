import Foundation
import Synchronization
import VariantdTestSupport

/// The steady mixed load of a soak, and which answers each request may get while faults come and go: on-demand
/// renders and info of a public bucket, uploads' jobs answered at once, and jobs committed to the queue.
struct SoakLoad: Sendable {
    static let goodPictures = [
        "gradient.jpg", "gradient-alpha.png", "gradient.webp", "gradient.gif", "orientation-6.jpg",
        "rgb-29x100.heif", "hopper.avif",
    ]
    static let brokenPicture = "truncated.jpg"
    static var pictures: [String] { goodPictures + [brokenPicture] }
    /// Where the pictures are, relative to the store root, in the public bucket `pics`.
    static let folder = "pics/soak"
    /// What any request may be answered while the store is full or read-only, or the queue's database is
    /// away: a typed refusal, to be sent again.
    static let faultAnswers: Set<String> = ["507 insufficient_storage", "503 transform_busy"]
    static let widths = [48, 64, 80, 96, 120, 160, 200, 240]
    static let formats = ["webp", "jpeg", "png"]
    /// Objects each picture is uploaded as, again and again, as new versions.
    static let objectsPerPicture = 6

    let daemon: SharedDaemon
    let ledger: SoakLedger
    /// Versions of asynchronous jobs, unique across the load's threads.
    let versions: SoakCounter

    /// Sends requests, a short random pause apart, until `running` turns off.
    func run(seed: UInt64, while running: SoakSwitch) {
        var random = SplitMix64(seed: seed)
        while running.isOn {
            let picture = Self.pictures.randomElement(using: &random)!
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case ..<40: render(picture, &random)
            case ..<50: info(picture)
            case ..<70: job(picture)
            default: asyncJob(picture, &random)
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.12, using: &random))
        }
    }

    private func kind(_ name: String, _ picture: String) -> String {
        picture == Self.brokenPicture ? name + "-broken" : name
    }

    /// A good picture's request is done (`success`), a broken one's refused `422 unreadable_picture`; any of
    /// them may meet a fault's typed refusal.
    private func isAllowed(_ picture: String, status: Int, code: String?, success: Int) -> Bool {
        if Self.faultAnswers.contains("\(status) \(code ?? "")") { return true }
        return picture == Self.brokenPicture
            ? status == 422 && code == "unreadable_picture" : status == success && code == nil
    }

    private func render(_ picture: String, _ random: inout SplitMix64) {
        let width = Self.widths.randomElement(using: &random)!
        let format = Self.formats.randomElement(using: &random)!
        get("render", "/v1/render/\(Self.folder)/\(picture)?width=\(width)&format=\(format)", of: picture)
    }

    private func info(_ picture: String) {
        get("info", "/v1/info/\(Self.folder)/\(picture)", of: picture)
    }

    /// A `GET` of the public bucket, done with `200`.
    private func get(_ name: String, _ target: String, of picture: String) {
        guard let answer = try? daemon.process.render(target) else {
            return ledger.record(
                kind(name, picture), status: 0, code: "unsent", allowed: false, detail: target)
        }
        let code = answer.status == 200 ? nil : answer.error
        ledger.record(
            kind(name, picture), status: answer.status, code: code,
            allowed: isAllowed(picture, status: answer.status, code: code, success: 200),
            detail: target + " " + String(decoding: answer.body.prefix(300), as: UTF8.self))
    }

    /// An upload's job, answered once its renditions are written.
    private func job(_ picture: String) {
        let fields = [
            "id": "sync-\(versions.next())", "bucket": "post-images", "path": "photos/\(picture)",
            "source": "\(Self.folder)/\(picture)",
        ]
        guard let reply = try? daemon.process.job(fields) else {
            return ledger.record(
                kind("job", picture), status: 0, code: "unsent", allowed: false, detail: picture)
        }
        let code = reply.status == 200 ? nil : reply.error
        ledger.record(
            kind("job", picture), status: reply.status, code: code,
            allowed: isAllowed(picture, status: reply.status, code: code, success: 200),
            detail: reply.text)
    }

    /// An upload's job committed to the queue (`202` and its id), for a worker to render.
    private func asyncJob(_ picture: String, _ random: inout SplitMix64) {
        let object = Int.random(in: 0..<Self.objectsPerPicture, using: &random)
        let version = versions.next()
        let fields = [
            "id": "async-\(version)", "bucket": "post-images", "path": "uploads/\(object)-\(picture)",
            "source": "\(Self.folder)/\(picture)",
        ]
        guard let body = try? JSONSerialization.data(withJSONObject: fields),
            let reply = try? daemon.process.send(
                "POST", "/v1/jobs?async=1&version=\(version)", body: Array(body))
        else {
            return ledger.record("async", status: 0, code: "unsent", allowed: false, detail: picture)
        }
        let code = reply.status == 202 ? nil : reply.error
        let refused = reply.status == 503 && code == "transform_busy" && !reply.retryAfter.isEmpty
        if reply.status == 202, let id = (reply.json["id"] as? NSNumber)?.int64Value {
            ledger.accept(SoakLedger.AcceptedJob(id: id, source: picture))
        }
        ledger.record(
            "async", status: reply.status, code: code, allowed: reply.status == 202 || refused,
            detail: reply.text)
    }
}

/// On while the load runs.
final class SoakSwitch: Sendable {
    private let on = Atomic(true)

    var isOn: Bool { on.load(ordering: .relaxed) }

    func turnOff() {
        on.store(false, ordering: .relaxed)
    }
}

/// A number shared by threads, each call the next.
final class SoakCounter: Sendable {
    private let value = Atomic(0)

    func next() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}

/// A daemon the load's threads share: its address and log are fixed once it listens, and every request is a
/// `curl` process of its own.
final class SharedDaemon: @unchecked Sendable {
    let process: DaemonProcess

    init(_ process: DaemonProcess) {
        self.process = process
    }
}
