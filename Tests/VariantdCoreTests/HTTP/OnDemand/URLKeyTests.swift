import Foundation
import Testing

@testable import VariantdCore

/// Signed render URLs against a vector made with `openssl dgst -sha256 -hmac … -binary | base64` (url-safe,
/// unpadded).
@Suite struct URLKeyTests {
    private static let signed =
        "/v1/render/b/p.jpg?width=1&expires=2000000000&signature=KHbfSwZBnpJelEb7ge9HQMAhOe7Nzo4G2-o1GybWHZc"

    private func key(_ text: String = "render-url-key-0123456789") throws -> URLKey {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data((" " + text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return try URLKey(file: path)
    }

    @Test func signsAsOpenSSLDoes() throws {
        #expect(try key().sign("/v1/render/b/p.jpg?width=1", expires: 2_000_000_000) == Self.signed)
        #expect(
            try key().sign("/v1/render/b/p.jpg", expires: 5).hasPrefix(
                "/v1/render/b/p.jpg?expires=5&signature="))
    }

    @Test func acceptsOnlyTheWholeUnexpiredSignature() throws {
        let key = try key()
        try key.check(Self.signed, expires: "2000000000", now: 1_999_999_999)
        let refusals = [
            (Self.signed, "2000000000", 2_000_000_001),
            (Self.signed.replacingOccurrences(of: "width=1", with: "width=2"), "2000000000", 0),
            (Self.signed + "&height=2", "2000000000", 0),
            (String(Self.signed.dropLast()), "2000000000", 0),
            ("/v1/render/b/p.jpg?width=1&expires=2000000000", "2000000000", 0),
        ]
        for (target, expires, now) in refusals {
            let refusal = #expect(throws: ServiceError.self, "\(target) at \(now)") {
                try key.check(target, expires: expires, now: now)
            }
            #expect(refusal?.code == .forbidden)
        }
        let refusal = #expect(throws: ServiceError.self) {
            try self.key("another-key-0123456789").check(Self.signed, expires: "2000000000", now: 0)
        }
        #expect(refusal?.code == .forbidden)
    }

    /// A signature longer than the right one by a multiple of 256 bytes is still a wrong signature: whatever
    /// follows the right one would otherwise be read as options, so a leaked URL could be extended past its
    /// expiry or given other transforms.
    @Test func refusesTheRightSignatureWithAnythingAfterIt() throws {
        let key = try key()
        let extended = "&expires=9999999999&width=2"
        for padding in [256, 512] {
            let target = Self.signed + extended + String(repeating: "+", count: padding - extended.utf8.count)
            let refusal = #expect(throws: ServiceError.self, "\(padding)") {
                try key.check(target, expires: "9999999999", now: 2_000_000_001)
            }
            #expect(refusal?.code == .forbidden)
        }
    }

    @Test func refusesShortKeys() {
        #expect(throws: UsageError.self) { try self.key("short") }
    }
}
