import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// Heads over the limits get the wire error JSON over a real socket, not libmicrohttpd's HTML page.
@Suite struct HeadLimitsTests {
    /// The answer to one request sent whole on a new connection: status, `Content-Type` and JSON body.
    private func exchange(_ daemon: DaemonProcess, target: String, headers: [String] = []) throws
        -> (status: Int, contentType: String?, json: [String: Any])
    {
        let port = try #require(daemon.address.split(separator: ":").last.flatMap { Int($0) })
        let client = try TrickleClients(count: 1, port: port)
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        client.trickle([], prefix: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8), pace: .zero)
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

    @Test func anOverlongTargetIs414InOurShape() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for length in [9 << 10, 48_000] {
            let answer = try exchange(daemon, target: "/livez?pad=" + String(repeating: "a", count: length))
            #expect(answer.status == 414 && answer.json["error"] as? String == "uri_too_long", "\(length)")
            #expect(answer.contentType == "application/json")
            #expect(answer.json["statusCode"] as? Int == 414 && answer.json["message"] is String)
        }
        let within = try exchange(daemon, target: "/livez?pad=" + String(repeating: "a", count: 7 << 10))
        #expect(within.status == 200)
    }

    @Test func overlargeHeadersAre431InOurShape() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for length in [40 << 10, 48_000] {
            let answer = try exchange(
                daemon, target: "/livez", headers: ["X-Padding: " + String(repeating: "b", count: length)])
            #expect(
                answer.status == 431 && answer.json["error"] as? String == "header_fields_too_large",
                "\(length)")
            #expect(answer.contentType == "application/json")
        }
        let many = (0..<40).map { "X-Padding-\($0): " + String(repeating: "c", count: 1000) }
        #expect(try exchange(daemon, target: "/livez", headers: many).status == 431)
        let within = try exchange(
            daemon, target: "/livez", headers: ["X-Padding: " + String(repeating: "d", count: 20 << 10)])
        #expect(within.status == 200)
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
