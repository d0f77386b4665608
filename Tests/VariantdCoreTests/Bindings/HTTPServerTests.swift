import Foundation
import Synchronization
import Testing

@testable import VariantdCore

/// A server that cannot listen says where, which call failed and the system's reason; a request without a
/// body has its head judged in the same call as the request, and its connection is kept.
@Suite struct HTTPServerTests {
    private struct Alive: HTTPResponder {
        func respond(to request: HTTPRequest) -> HTTPReply { .now(.json(["status": "ok"])) }
    }

    /// Refuses `/refused` from its head, and counts the requests it was asked to answer.
    private final class Gate: HTTPResponder {
        let answered = Mutex(0)

        func admit(_ head: HTTPRequest) -> BodyAdmission {
            head.path == "/refused"
                ? .answer(.error(.service(ServiceError(.forbidden, "refused from its head")))) : .read
        }

        func respond(to request: HTTPRequest) -> HTTPReply {
            answered.withLock { $0 += 1 }
            return .now(.json(["path": request.path]))
        }
    }

    /// What one connection received for `requests`, sent in one write; the last asks to close.
    private func answers(to requests: [String], responder: some HTTPResponder) throws -> String {
        let options = HTTPServer.Options(
            threads: 1, connectionLimit: 4, connectionTimeout: 30, maxBodyBytes: 1 << 16)
        let server = try HTTPServer(
            listen: .tcp(host: "127.0.0.1", port: 0), options: options, responder: responder)
        defer { server.stop() }
        guard case .tcp(_, let port) = server.address else { throw StartupError("not on TCP") }
        let text = requests.enumerated().map { index, target in
            let close = index == requests.count - 1 ? "Connection: close\r\n" : ""
            return "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(close)\r\n"
        }
        let client = try TrickleClients(count: 1, port: Int(port))
        client.trickle([], prefix: Array(text.joined().utf8), pace: .zero)
        client.waitForCloses(upTo: .seconds(30), sent: 0)
        return String(decoding: client.received[0], as: UTF8.self)
    }

    @Test func requestsWithoutABodyShareOneConnection() throws {
        let gate = Gate()
        let text = try answers(to: ["/a", "/b", "/c"], responder: gate)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        #expect(text.components(separatedBy: "Connection: close").count == 2)
        #expect(text.contains(#"{"path":"/a"}"#) && text.contains(#"{"path":"/c"}"#))
        #expect(gate.answered.withLock { $0 } == 3)
    }

    @Test func aRequestWithoutABodyIsStillRefusedFromItsHead() throws {
        let gate = Gate()
        let text = try answers(to: ["/refused", "/a"], responder: gate)
        #expect(text.hasPrefix("HTTP/1.1 403"))
        #expect(text.contains(#""error":"forbidden""#) && text.contains("refused from its head"))
        #expect(text.contains(#"{"path":"/a"}"#))
        #expect(gate.answered.withLock { $0 } == 1)
    }

    @Test func aSocketInAMissingFolderIsAStartupErrorNamingTheReason() {
        let path =
            FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
            + "/variantd.sock"
        let options = HTTPServer.Options(
            threads: 1, connectionLimit: 4, connectionTimeout: 5, maxBodyBytes: 1 << 16)
        let failure = #expect(throws: StartupError.self) {
            try HTTPServer(listen: .unix(path: path), options: options, responder: Alive())
        }
        #expect(
            failure?.description
                == "cannot listen on unix:\(path): listen: No such file or directory (errno 2)")
    }
}
