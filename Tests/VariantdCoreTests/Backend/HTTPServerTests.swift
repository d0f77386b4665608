import Foundation
import Testing

@testable import VariantdCore

/// A server that cannot listen says where, which call failed and the system's reason.
@Suite struct HTTPServerTests {
    private struct Alive: HTTPResponder {
        func respond(to request: HTTPRequest) -> HTTPReply { .now(.json(["status": "ok"])) }
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
