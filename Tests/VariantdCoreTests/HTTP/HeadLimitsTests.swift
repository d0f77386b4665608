import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// Heads over the limits, or that cannot be served at all, get the wire error JSON over a real socket, not
/// libmicrohttpd's HTML page: up to about 200 KB from the daemon's own limits, past its memory per connection
/// from libmicrohttpd with our patch.
@Suite struct HeadLimitsTests {
    /// The answer to one request sent whole on a new connection: status, `Content-Type` and JSON body.
    private func exchange(_ daemon: DaemonProcess, request: String) throws
        -> (status: Int, contentType: String?, json: [String: Any])
    {
        let port = try #require(daemon.address.split(separator: ":").last.flatMap { Int($0) })
        let client = try TrickleClients(count: 1, port: port)
        client.trickle([], prefix: Array(request.utf8), pace: .zero)
        client.waitForCloses(upTo: .seconds(30), sent: 0)
        let text = String(decoding: client.received[0], as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let contentType = head.first { $0.lowercased().hasPrefix("content-type:") }.map {
            $0.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
        }
        let body = Data(parts.dropFirst().joined(separator: "\r\n\r\n").utf8)
        let json = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        return (status, contentType, json)
    }

    private func exchange(_ daemon: DaemonProcess, target: String, headers: [String] = []) throws
        -> (status: Int, contentType: String?, json: [String: Any])
    {
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        return try exchange(daemon, request: lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    @Test func anOverlongTargetIs414InOurShape() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for length in [9 << 10, 48_000, 200_000, 400_000] {
            let answer = try exchange(daemon, target: "/livez?pad=" + String(repeating: "a", count: length))
            #expect(answer.status == 414 && answer.json["error"] as? String == "uri_too_long", "\(length)")
            #expect(answer.contentType == "application/json", "\(length)")
            #expect(answer.json["statusCode"] as? Int == 414 && answer.json["message"] is String, "\(length)")
            // Up to 200 KB the daemon's own limit answers, and names it.
            let ours = (answer.json["message"] as? String)?.contains("\(8 << 10) bytes") == true
            #expect(ours == (length <= 200_000), "\(length)")
        }
        let within = try exchange(daemon, target: "/livez?pad=" + String(repeating: "a", count: 7 << 10))
        #expect(within.status == 200)
    }

    @Test func overlargeHeadersAre431InOurShape() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for length in [40 << 10, 48_000, 100_000, 400_000] {
            let answer = try exchange(
                daemon, target: "/livez", headers: ["X-Padding: " + String(repeating: "b", count: length)])
            #expect(
                answer.status == 431 && answer.json["error"] as? String == "header_fields_too_large",
                "\(length)")
            #expect(answer.contentType == "application/json", "\(length)")
            #expect(answer.json["statusCode"] as? Int == 431, "\(length)")
            let ours = (answer.json["message"] as? String)?.contains("\(32 << 10) bytes") == true
            #expect(ours == (length <= 200_000), "\(length)")
        }
        let many = (0..<40).map { "X-Padding-\($0): " + String(repeating: "c", count: 1000) }
        #expect(try exchange(daemon, target: "/livez", headers: many).status == 431)
        let within = try exchange(
            daemon, target: "/livez", headers: ["X-Padding: " + String(repeating: "d", count: 20 << 10)])
        #expect(within.status == 200)
    }

    /// Sends each request on a new connection of a new daemon and expects libmicrohttpd's own answer to it in
    /// our shape.
    private func expectAnswers(to requests: [String], status: Int, error: String) throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for request in requests {
            let answer = try exchange(daemon, request: request)
            #expect(answer.status == status && answer.json["error"] as? String == error, "\(request)")
            #expect(answer.json["statusCode"] as? Int == status && answer.contentType == "application/json")
        }
    }

    @Test func anHTTPVersionOtherThan1Is505InOurShape() throws {
        try expectAnswers(
            to: ["HTTP/2.0", "HTTP/0.9"].map { "GET /livez \($0)\r\nHost: 127.0.0.1\r\n\r\n" }, status: 505,
            error: "http_version_not_supported")
    }

    @Test func aHeadThatCannotBeParsedIs400InOurShape() throws {
        let requests = [
            "GARBAGE\r\n\r\n",  // no space: no method and target
            "GET /livez HTTP/one\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
            "POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ten\r\n\r\n",
            "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        ]
        try expectAnswers(to: requests, status: 400, error: "invalid_request")
    }

    @Test func aBodyLengthOver2To64Is413InOurShape() throws {
        let over = "18446744073709551616"
        let requests = [
            "POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(over)\r\n\r\n",
            "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n\(over)\r\n",
        ]
        try expectAnswers(to: requests, status: 413, error: "payload_too_large")
    }

    @Test func theLimitsAreMeasuredInBytes() {
        let limits = HeadLimits(target: 10, head: 100)
        var request = HTTPRequest(
            method: "GET", path: "/é", target: "/éééé", headers: [:], query: [:], body: .empty,
            bodyTooLarge: false)
        #expect(limits.refusal(of: request)?.status == nil)
        request.target = "/ééééé"
        #expect(limits.refusal(of: request)?.status == 414)
        request.target = "/"
        request.headSize = 101
        #expect(limits.refusal(of: request)?.status == 431)
    }
}
