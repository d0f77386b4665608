import Foundation
import Testing
import VariantdTestSupport

/// Clients that trickle their request a byte a second, against the built daemon over real sockets: closed
/// at the head deadline or under the body rate, counted, and never locking out the clients behind them.
@Suite struct ClientDeadlinesTests {
    /// A head that would take a minute at a byte a second.
    private static let head = Array("GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1234567\r\n\r\n".utf8)

    private func port(of daemon: DaemonProcess) throws -> Int {
        try #require(daemon.address.split(separator: ":").last.flatMap { Int($0) })
    }

    /// One client sending `prefix` at once, then `bytes` a byte a second, to a daemon started with `options`;
    /// the bytes it sent before it was closed, and the slow clients counted in each phase.
    private func trickle(_ bytes: [UInt8], prefix: [UInt8] = [], options: [String]) throws
        -> (sent: Int, head: Double, body: Double)
    {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(options)
        let client = try TrickleClients(count: 1, port: try port(of: daemon))
        client.trickle(bytes, prefix: prefix, pace: .seconds(1))
        let sent = try #require(client.sentBeforeClose[0], "the server never closed the connection")
        return (
            sent, try daemon.metric(line: #"variantd_slow_clients_total{phase="head"}"#),
            try daemon.metric(line: #"variantd_slow_clients_total{phase="body"}"#)
        )
    }

    @Test func aHeadSentAByteASecondIsClosedAtTheDeadline() throws {
        let closed = try trickle(Self.head, options: ["--header-timeout", "1"])
        #expect(closed.sent < Self.head.count / 4)
        #expect(closed.head == 1 && closed.body == 0)
    }

    @Test func aBodyUnderTheRateIsClosed() throws {
        let head = Array(
            ("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(DaemonProcess.secret)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n").utf8)
        let closed = try trickle(
            Array(repeating: 0x20, count: 60), prefix: head,
            options: ["--header-timeout", "1", "--min-body-rate", "1024"])
        #expect(closed.sent < 15)
        #expect(closed.body == 1 && closed.head == 0)
    }

    /// An idle kept-alive connection is left to `--io-timeout`; the deadline starts with its next head's
    /// first byte.
    @Test func anIdleKeptAliveConnectionIsNotASlowClient() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(["--header-timeout", "1", "--io-timeout", "60"])
        let client = try TrickleClients(count: 1, port: try port(of: daemon))
        client.trickle([], prefix: Self.head, pace: .zero)
        client.waitForCloses(upTo: .seconds(3), sent: 0)
        #expect(client.sentBeforeClose[0] == nil, "the idle connection was closed")
        #expect(String(decoding: client.received[0], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(try daemon.metric(line: #"variantd_slow_clients_total{phase="head"}"#) == 0)
        client.trickle(Self.head, pace: .seconds(1))
        #expect(client.sentBeforeClose[0].map { $0 < Self.head.count / 4 } == true)
        #expect(try daemon.metric(line: #"variantd_slow_clients_total{phase="head"}"#) == 1)
    }

    /// 300 slow clients against the default 256 connections: they are shed at the deadline, and a real
    /// client gets its answer.
    @Test func threeHundredSlowClientsDoNotLockOutARealOne() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(["--header-timeout", "1"])
        let clients = try TrickleClients(count: 300, port: try port(of: daemon))
        let head = Self.head
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            clients.trickle(head, pace: .seconds(1))
            done.signal()
        }
        var answered = false
        let giveUp = ContinuousClock.now + .seconds(30)
        while !answered, ContinuousClock.now < giveUp {
            answered = try daemon.send("GET", "/livez", curlOptions: ["--max-time", "5"]).status == 200
        }
        done.wait()
        #expect(answered, "no real request was answered while 300 slow clients were connected")
        #expect(clients.open == 0)
        #expect(clients.sentBeforeClose.allSatisfy { ($0 ?? .max) < head.count / 4 })
        #expect(try daemon.metric(line: #"variantd_slow_clients_total{phase="head"}"#) >= 200)
    }
}
